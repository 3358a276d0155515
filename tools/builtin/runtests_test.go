package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/testrun"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testExec is an Exec with a real shell on a new root holding files.
func testExec(t *testing.T, files map[string]string, opts shell.Options) *Exec {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	opts.Root = root
	lazy := shell.NewLazy(opts)
	t.Cleanup(func() { lazy.Close() })
	return &Exec{Deps{Root: root, Shell: lazy}}
}

func TestRunTestsOutcome(t *testing.T) {
	exit1 := 1
	cases := []struct {
		name string
		res  RunTestsResult
		want string
	}{
		{"passes", RunTestsResult{Summary: &testrun.Summary{Passed: 5, Total: 5, Parsed: true}}, "5 passed, 0 failed"},
		{"builds failed", RunTestsResult{Summary: &testrun.Summary{Runner: testrun.Go, Passed: 36, Total: 36, Errors: 8, BuildErrors: 8, Parsed: true}, ExitCode: &exit1},
			"36 passed, 0 failed, 8 packages failed to build"},
		{"a crate and an error", RunTestsResult{Summary: &testrun.Summary{Runner: testrun.Cargo, Errors: 2, BuildErrors: 1, Parsed: true}}, "0 passed, 0 failed, 1 crate failed to build, 1 error"},
		{"no tests found", RunTestsResult{Summary: &testrun.Summary{Parsed: true}}, "no tests found"},
		{"not understood", RunTestsResult{Summary: &testrun.Summary{}}, "exit 0, no test counts (output not understood)"},
		{"failed, not understood", RunTestsResult{Summary: &testrun.Summary{Errors: 1}}, "0 passed, 0 failed, 1 error"},
		{"fallback", RunTestsResult{Summary: &testrun.Summary{Passed: 2, Failed: 1, Total: 3, Parsed: true}, Runner: testrun.Unittest,
			Fallback: "pytest is not installed (no pytest module for python3): ran python3 -m unittest discover instead"},
			"2 passed, 1 failed (unittest: pytest not installed)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.res.Outcome())
		})
	}
}

// TestRunTestsMissingRunner: a test program the sandbox cannot find is a process-error
// that says what to install, not a result of 0 tests.
func TestRunTestsMissingRunner(t *testing.T) {
	e := testExec(t, map[string]string{"pytest.ini": "[pytest]\n", "test_a.py": "def test_a():\n    pass\n"}, shell.Options{})
	_, err := e.RunTests(t.Context(), definitions.RunTestsParams{Runner: "pytest", Command: []string{"jido-no-such-pytest", "-q"}})
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, definitions.ProcessError, te.Type)
	assert.Contains(t, te.Message, "jido-no-such-pytest is not installed")
	assert.NotEmpty(t, te.Details["output"])
	require.NotEmpty(t, te.Recovery)
	assert.Contains(t, te.Recovery[0], "install jido-no-such-pytest")
}

// TestRunTestsPytestFallback: with no pytest command on the sandbox's PATH, run_tests runs
// python3 -m pytest, or python3 -m unittest discover, and says so.
func TestRunTestsPytestFallback(t *testing.T) {
	python := testenv.Program(t, "python3")
	python, err := filepath.EvalSymlinks(python)
	require.NoError(t, err)
	if filepath.Dir(python) != "/usr/bin" {
		// A python3 outside the system directories (pyenv) may not be visible in the sandbox.
		if sys, err := os.Stat("/usr/bin/python3"); err != nil || sys.IsDir() {
			t.Skip("no /usr/bin/python3")
		}
		python = "/usr/bin/python3"
	}
	bin := t.TempDir()
	require.NoError(t, os.Symlink(python, filepath.Join(bin, "python3")))
	t.Setenv("PATH", bin)
	e := testExec(t, map[string]string{
		"pytest.ini":         "[pytest]\n",
		"tests/__init__.py":  "",
		"tests/test_calc.py": "import unittest\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n\n    def test_sub(self):\n        self.assertEqual(1 - 1, 1)\n",
	}, shell.Options{ReadOnly: []string{bin}})
	res, err := e.RunTests(t.Context(), definitions.RunTestsParams{})
	require.NoError(t, err)
	assert.Contains(t, res.Fallback, "pytest is not installed")
	assert.Contains(t, res.Report, res.Fallback)
	assert.Contains(t, []testrun.Runner{testrun.Pytest, testrun.Unittest}, res.Runner)
	assert.Equal(t, 1, res.Passed, res.Report)
	assert.Equal(t, 1, res.Failed, res.Report)
	assert.Contains(t, res.Outcome(), "pytest not installed")
	t.Logf("%s: %s", res.Outcome(), res.Report)
}

// TestRunTestsForcedRunnerIsNotReplaced: run_tests with runner "pytest" where pytest is
// missing (neither the command nor python3's module) is an error naming the install, not
// a run of unittest that finds nothing and reports success.
func TestRunTestsForcedRunnerIsNotReplaced(t *testing.T) {
	bin := t.TempDir()
	// A python3 without pytest: it says so as Python does.
	fake := "#!/bin/sh\nif [ \"$1\" = -m ] && [ \"$2\" = pytest ]; then echo \"$0: No module named pytest\" >&2; exit 1; fi\necho 'Ran 0 tests'; exit 0\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "python3"), []byte(fake), 0o755))
	t.Setenv("PATH", bin)
	e := testExec(t, map[string]string{"pytest.ini": "[pytest]\n", "test_a.py": "def test_a():\n    pass\n"}, shell.Options{ReadOnly: []string{bin}})
	_, err := e.RunTests(t.Context(), definitions.RunTestsParams{Runner: "pytest"})
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, definitions.ProcessError, te.Type)
	assert.Contains(t, te.Message, "pytest is not installed")
	assert.Contains(t, te.Recovery[0], "pip install pytest")
	tried, _ := te.Details["tried"].([]string)
	require.Len(t, tried, 1, "the pytest module was tried, unittest was not")
	assert.Contains(t, tried[0], "ran python3 -m pytest")
}
