package integration

import (
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callError runs `jido call` and returns its error object (nil when the call succeeded)
// and its result.
func callError(t *testing.T, dir string, args ...string) (errObj, result map[string]any) {
	t.Helper()
	r := runJidoIn(t, dir, nil, "", append([]string{"call"}, args...)...)
	out := decodeJSON(t, r.stdout)
	errObj, _ = out["error"].(map[string]any)
	result, _ = out["result"].(map[string]any)
	return errObj, result
}

// TestLongCommandsRunTheirTime: a command runs for its own timeout, not a per-call clock
// of the Lua VM: 35 s of sleep with a 60 s timeout finishes with its output, through
// jido call and jido eval; a command killed by its own timeout is a timeout-error with what
// it printed; --timeout cuts a call short, and is refused past its maximum.
func TestLongCommandsRunTheirTime(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"README.md": "hi\n"})

	t.Run("35 s with timeout 60", func(t *testing.T) {
		t.Parallel()
		e, res := callError(t, "", "--root", root, "--yes", "run_shell", `{"command":"sleep 35; echo done","timeout":60}`)
		require.Nil(t, e)
		assert.Equal(t, "done\n", res["stdout"])
		assert.Equal(t, false, res["timed_out"])
	})
	t.Run("an eval waits 35 s for its command", func(t *testing.T) {
		t.Parallel()
		r := runJido(t, "", "eval", "--root", root, "--yes", "-e", `return jido.run_shell{command = "sleep 35; echo waited", timeout = 60}.stdout`)
		require.Equal(t, 0, r.code, "%s %s", r.stdout, r.stderr)
		assert.Equal(t, "waited\n", decodeJSON(t, r.stdout)["value"])
	})
	t.Run("killed at its own timeout", func(t *testing.T) {
		t.Parallel()
		e, _ := callError(t, "", "--root", root, "--yes", "run_shell", `{"command":"echo started; sleep 30","timeout":1}`)
		require.NotNil(t, e)
		assert.Equal(t, "timeout-error", e["type"])
		details := e["details"].(map[string]any)
		assert.Equal(t, true, details["timed_out"])
		assert.Equal(t, "timeout", details["limit"])
		assert.Equal(t, "started\n", details["stdout"])
		assert.Contains(t, e["recovery"].([]any)[0], "raise `timeout`")
	})
	t.Run("forj says so too", func(t *testing.T) {
		t.Parallel()
		e, _ := callError(t, "", "--root", root, "--yes", "--profile", "forj", "run_shell", `{"cmd":["sleep","30"],"timeout":1}`)
		require.NotNil(t, e)
		assert.Equal(t, "process-error", e["type"], "seed 000's run_shell fails with process-error")
		assert.Equal(t, true, e["details"].(map[string]any)["timed_out"])
	})
	t.Run("--timeout cuts the call", func(t *testing.T) {
		t.Parallel()
		e, _ := callError(t, "", "--root", root, "--yes", "--timeout", "1s", "run_shell", `{"command":"sleep 30","timeout":60}`)
		require.NotNil(t, e)
		assert.Equal(t, "timeout-error", e["type"])
		assert.Equal(t, "the call ran past its deadline of 1s", e["message"])
	})
	t.Run("--timeout past its maximum", func(t *testing.T) {
		t.Parallel()
		r := runJido(t, "", "call", "--root", root, "--timeout", "2h", "list_dir", "{}")
		assert.Equal(t, 2, r.code)
		assert.Contains(t, r.stderr, "at most 1h")
	})
	t.Run("a program that is not there", func(t *testing.T) {
		t.Parallel()
		e, _ := callError(t, "", "--root", root, "--yes", "run_shell", `{"command":"no-such-program-jido --version"}`)
		require.NotNil(t, e)
		assert.Equal(t, "process-error", e["type"])
		assert.Contains(t, e["message"], "no-such-program-jido: command not found")
		assert.Equal(t, float64(127), e["details"].(map[string]any)["exit_code"])
	})
}

// TestTwoMinuteTestRun: run_tests runs a test suite of more than two minutes to its end
// (its own timeout is 600 s), its first compile in the sandbox included.
func TestTwoMinuteTestRun(t *testing.T) {
	t.Parallel()
	testenv.Program(t, "go")
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":       "module slow\n\ngo 1.22\n",
		"slow_test.go": "package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(125 * time.Second) }\n\nfunc TestQuick(t *testing.T) {}\n",
	})
	e, res := callError(t, "", "--root", root, "--yes", "run_tests", `{}`)
	require.Nil(t, e)
	assert.Equal(t, float64(2), res["passed"], "%v", res)
	assert.Equal(t, float64(0), res["failed"])
}
