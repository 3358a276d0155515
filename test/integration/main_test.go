// Package integration holds black-box tests of the jido binary and of the public Go API:
// the CLI contract, the path and Lua attack corpora (data files in testdata/), crash
// consistency and parallel sessions.
package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/sandbox"
	"github.com/stretchr/testify/require"
)

// jidoBin is the jido binary built once for the whole package by TestMain.
var jidoBin string

func TestMain(m *testing.M) {
	sandbox.MaybeHelper() // the Go API tests run commands with this binary as the sandbox helper
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	dir, err := os.MkdirTemp("", "jido-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// jido and its small sandbox helper, side by side as `go install ./cmd/...` puts them.
	jidoBin = filepath.Join(dir, "jido")
	build := exec.Command("go", "build", "-o", dir+"/", "github.com/jido-run/jido/cmd/jido", "github.com/jido-run/jido/cmd/jido-sandbox")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building jido:", err)
		os.Exit(1)
	}
	// The binary's journal and config go to the test's own directories, not the user's.
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runResult is what one run of the jido binary produced.
type runResult struct {
	stdout, stderr string
	code           int
}

// runJido runs the jido binary with args and optional standard input.
func runJido(t *testing.T, stdin string, args ...string) runResult {
	t.Helper()
	return runJidoIn(t, "", nil, stdin, args...)
}

// runJidoIn runs the jido binary in dir ("" for the test's) with extra environment
// variables and standard input.
func runJidoIn(t *testing.T, dir string, env []string, stdin string, args ...string) runResult {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), jidoBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewBufferString(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return runResult{out.String(), errb.String(), code}
}

// decodeJSON decodes one JSON value from s into a generic value.
func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &v), "output: %q", s)
	return v
}

// writeTree creates files (path -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// openSession opens a manager on root and a session, both closed at the end of the test.
func openSession(t testing.TB, root string) (*manager.Manager, *manager.Session) {
	t.Helper()
	m, err := manager.New(manager.Config{Root: root})
	require.NoError(t, err)
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() {
		s.Close()
		m.Close()
	})
	return m, s
}

// helperEnv makes the test binary act as a helper process (see runHelper) instead of running tests.
const helperEnv = "JIDO_TEST_HELPER"

// helpers are the helper-process modes, keyed by the value of helperEnv.
var helpers = map[string]func() int{}

// runHelper runs the helper mode named by helperEnv.
func runHelper() int {
	mode := os.Getenv(helperEnv)
	h, ok := helpers[mode]
	if !ok {
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	return h()
}
