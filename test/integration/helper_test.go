package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyBinary copies the jido binary into dir and returns the copy's path.
func copyBinary(t testing.TB, dir string) string {
	t.Helper()
	data, err := os.ReadFile(jidoBin)
	require.NoError(t, err)
	p := filepath.Join(dir, "jido")
	require.NoError(t, os.WriteFile(p, data, 0o755))
	return p
}

// TestSandboxHelperChoice: jido starts the jido-sandbox beside it to confine commands, and
// re-executes itself when there is none.
func TestSandboxHelperChoice(t *testing.T) {
	root := t.TempDir()
	call := func(bin string) runResult {
		cmd := exec.Command(bin, "call", "--root", root, "--yes", "run_shell", `{"command":"echo confined"}`)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return runResult{stdout: string(out), code: code}
	}

	alone := copyBinary(t, t.TempDir())
	r := call(alone)
	require.Equal(t, 0, r.code, r.stdout)
	assert.Contains(t, r.stdout, `"stdout":"confined\n"`, "without jido-sandbox, jido re-executes itself")

	impostor := t.TempDir()
	bin := copyBinary(t, impostor)
	require.NoError(t, os.WriteFile(filepath.Join(impostor, sandbox.HelperName), []byte("#!/bin/sh\necho from-the-small-helper\n"), 0o755))
	r = call(bin)
	assert.Contains(t, r.stdout, "from-the-small-helper", "the jido-sandbox beside jido is the one started")
}

// BenchmarkRunShellTrue is what confining a command costs, for `true` through the Go API:
// started by the small jido-sandbox helper, by re-executing the whole jido binary, and
// exec.Command("true") alone, in the same run.
func BenchmarkRunShellTrue(b *testing.B) {
	small := filepath.Join(filepath.Dir(jidoBin), sandbox.HelperName)
	for _, c := range []struct{ name, helper string }{{"jido-sandbox", small}, {"jido", jidoBin}} {
		b.Run(c.name, func(b *testing.B) {
			m, err := manager.New(manager.Config{Root: b.TempDir(), SandboxHelper: c.helper})
			require.NoError(b, err)
			defer m.Close()
			s, err := m.Open(b.Context(), "")
			require.NoError(b, err)
			for b.Loop() {
				res := s.Call(b.Context(), manager.ToolCall{Name: "run_shell", Args: map[string]any{"cmd": []any{"true"}}})
				if !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
	}
	b.Run("exec.Command", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
