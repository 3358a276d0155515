package integration

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/testrun"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunnersWorkInsideTheSandbox runs each runner's fixture (testrun/testdata) through
// the binary's run_tests, confined, and the same plan unconfined, and expects the same
// counts: the private root, the read-only protected paths, the private build cache and
// the dropped capabilities must not break ordinary builds and tests. It logs both times.
func TestRunnersWorkInsideTheSandbox(t *testing.T) {
	for _, fixture := range []string{"go", "cargo", "node", "npm", "pytest", "ert", "make"} {
		t.Run(fixture, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "testrun", "testdata", fixture))))
			plan, err := testrun.Detect(os.DirFS(root), testrun.Options{})
			require.NoError(t, err)
			testenv.Program(t, plan.Argv[0])

			start := time.Now()
			r := runJidoIn(t, "", []string{"CARGO_NET_OFFLINE=true"}, "", "call", "--root", root, "--yes", "run_tests", `{"timeout":300}`)
			confined := time.Since(start)
			res, _ := decodeJSON(t, r.stdout)["result"].(map[string]any)
			require.NotNil(t, res, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			if sb, _ := res["sandbox"].(map[string]any); sb["filesystem"] != "private-root" {
				t.Skipf("this kernel refuses mount namespaces here (sandbox: %v)", sb)
			}

			plain := t.TempDir()
			require.NoError(t, os.CopyFS(plain, os.DirFS(filepath.Join("..", "..", "testrun", "testdata", fixture))))
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, plan.Argv[0], plan.Argv[1:]...)
			cmd.Dir = filepath.Join(plain, filepath.FromSlash(plan.Dir))
			cmd.Env = append(os.Environ(), "CARGO_NET_OFFLINE=true", "CARGO_TARGET_DIR="+filepath.Join(plain, "target"))
			for k, v := range plan.Env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start = time.Now()
			_ = cmd.Run()
			unconfined := time.Since(start)
			want := testrun.Parse(plan, stdout.Bytes(), stderr.Bytes(), cmd.ProcessState.ExitCode(), nil)

			for key, n := range map[string]int{"passed": want.Passed, "failed": want.Failed, "skipped": want.Skipped} {
				assert.Equal(t, float64(n), res[key], "%s: %s\nconfined result: %v\nunconfined stderr: %s", key, fixture, res, stderr.String())
			}
			assert.Positive(t, want.Passed+want.Failed+want.Errors, "the plain run ran something: %s", stderr.String())
			t.Logf("%s: confined %v (jido process included), unconfined %v", fixture, confined.Round(time.Millisecond), unconfined.Round(time.Millisecond))
		})
	}
}
