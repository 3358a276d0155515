package testrun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runArgv runs argv in dir with env added and returns its output and exit
// code; a program that cannot start is an exit code, as a shell gives it.
func runArgv(t *testing.T, dir string, env map[string]string, argv ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("running %q: %v", argv, err)
	}
	return runResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: cmd.ProcessState.ExitCode()}
}

// TestMissingRunnerReal runs test programs that are not there, the way a
// shell or python -m reports them, and checks that Missing names them.
func TestMissingRunnerReal(t *testing.T) {
	sh := testenv.Program(t, "sh")
	cases := []struct {
		name    string
		p       Invocation
		argv    []string // what runs
		program string
		module  string
		install string
	}{
		{name: "command not found (sh)", p: Invocation{Runner: Pytest, Argv: []string{"jido-no-such-pytest", "-q"}},
			argv: []string{sh, "-c", `exec jido-no-such-pytest -q`}, program: "jido-no-such-pytest", install: "install jido-no-such-pytest"},
		{name: "npm script's runner not installed", p: Invocation{Runner: NPM, Argv: []string{"npm", "test"}},
			argv: []string{sh, "-c", `jido-no-such-jest --ci`}, program: "jido-no-such-jest", install: "npm install"},
		{name: "python module not installed", p: Invocation{Runner: Pytest, Argv: []string{"python3", "-m", "jido_no_such_module"}},
			argv: []string{"python3", "-m", "jido_no_such_module"}, program: "python3 -m jido_no_such_module", module: "jido_no_such_module"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			testenv.Program(t, tc.argv[0])
			out := runArgv(t, t.TempDir(), nil, tc.argv...)
			s := Parse(tc.p, out.stdout, out.stderr, out.exit, nil)
			assert.Zero(t, s.Total)
			assert.NotZero(t, s.Errors, "a runner that did not run is never a pass")
			m, ok := Missing(tc.p, out.stdout, out.stderr, out.exit)
			require.True(t, ok, "missing: exit %d, output %s%s", out.exit, out.stdout, out.stderr)
			assert.Equal(t, tc.program, m.Program)
			assert.Equal(t, tc.module, m.Module)
			assert.Contains(t, m.Install, tc.install)
			assert.NotEmpty(t, m.Output)
		})
	}
}

func TestMissing(t *testing.T) {
	pytest := Invocation{Runner: Pytest, Argv: []string{"pytest", "-q"}}
	cases := []struct {
		name     string
		p        Invocation
		stderr   string
		exit     int
		program  string // "" for not missing
		contains string // of Install
	}{
		{"the sandbox cannot find it", pytest, `jido sandbox: exec: "pytest": executable file not found in $PATH` + "\n", 126, "pytest", "pip install pytest"},
		{"a script whose interpreter is missing", pytest, "jido sandbox: exec pytest: no such file or directory\n", 126, "pytest", "pip install pytest"},
		{"bash", Invocation{Runner: Go, Argv: []string{"go", "test"}}, "bash: line 1: go: command not found\n", 127, "go", "go.dev"},
		{"env", pytest, "/usr/bin/env: 'python3': No such file or directory\n", 127, "python3", "python3"},
		{"make", Invocation{Runner: Make, Argv: []string{"make", "test"}}, "cargo test\nmake: cargo: No such file or directory\nmake: *** [Makefile:2: test] Error 127\n", 2, "cargo", "rustup"},
		{"exit 127 without a message", Invocation{Runner: Cargo, Argv: []string{"cargo", "test"}}, "", 127, "cargo", "rustup"},
		{"python -m pytest", Invocation{Runner: Pytest, Argv: []string{"python3", "-m", "pytest"}}, "/usr/bin/python3: No module named pytest\n", 1, "python3 -m pytest", "pip install pytest"},
		// Not a missing runner:
		{"a test's own import error", pytest, "E   ModuleNotFoundError: No module named 'requests'\n", 2, "", ""},
		{"exit 0", pytest, "sh: 1: x: not found\n", 0, "", ""},
		{"sandbox failure", pytest, "jido sandbox: applying Landlock: operation not permitted\n", 126, "", ""},
		{"make error 2", Invocation{Runner: Make, Argv: []string{"make", "test"}}, "make: *** [Makefile:2: test] Error 2\n", 2, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := Missing(tc.p, nil, []byte(tc.stderr), tc.exit)
			if tc.program == "" {
				assert.False(t, ok, "%+v", m)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.program, m.Program)
			assert.Contains(t, m.Install, tc.contains)
		})
	}
}

// TestPytestFallback follows pytest's fallbacks on the unittest fixture: no
// pytest command -> python3 -m pytest -> python3 -m unittest discover, which
// runs for real and is parsed.
func TestPytestFallback(t *testing.T) {
	dir := filepath.Join("testdata", "unittest")
	plan, err := Detect(os.DirFS(dir), Options{ReportDir: reportDir})
	require.NoError(t, err)
	require.Equal(t, Pytest, plan.Runner)

	next, ok := Fallback(plan, MissingProgram{Program: "pytest"})
	require.True(t, ok)
	assert.Equal(t, []string{"python3", "-m", "pytest", "-q", "--junitxml=" + reportDir + "/pytest.xml"}, next.Argv)
	assert.Equal(t, Pytest, next.Runner)
	assert.Equal(t, plan.Report, next.Report)

	last, ok := Fallback(next, MissingProgram{Program: "python3 -m pytest", Module: "pytest"})
	require.True(t, ok)
	assert.Equal(t, Unittest, last.Runner)
	assert.Equal(t, []string{"python3", "-m", "unittest", "discover"}, last.Argv)
	assert.Empty(t, last.Report)
	_, ok = Fallback(last, MissingProgram{Program: "python3"})
	assert.False(t, ok, "unittest is the last resort")

	t.Run("path and selector", func(t *testing.T) {
		p, err := Detect(os.DirFS(dir), Options{Path: "tests", Selector: "test_add"})
		require.NoError(t, err)
		p, _ = Fallback(p, MissingProgram{Program: "pytest"})
		p, ok := Fallback(p, MissingProgram{Program: "python3 -m pytest", Module: "pytest"})
		require.True(t, ok)
		assert.Equal(t, []string{"python3", "-m", "unittest", "discover", "-s", "tests", "-k", "test_add"}, p.Argv)
		p, err = Detect(os.DirFS(dir), Options{Path: "tests/test_calc.py", Selector: "add or sub"})
		require.NoError(t, err)
		p, _ = Fallback(p, MissingProgram{Program: "pytest"})
		p, _ = Fallback(p, MissingProgram{Program: "python3 -m pytest", Module: "pytest"})
		assert.Equal(t, []string{"python3", "-m", "unittest", "tests/test_calc.py"}, p.Argv, "a pytest expression is no unittest pattern")
	})

	t.Run("not pytest", func(t *testing.T) {
		_, ok := Fallback(Invocation{Runner: Go, Argv: []string{"go", "test"}}, MissingProgram{Program: "go"})
		assert.False(t, ok)
	})

	t.Run("unittest runs", func(t *testing.T) {
		testenv.Program(t, "python3")
		root := t.TempDir()
		require.NoError(t, os.CopyFS(root, os.DirFS(dir)))
		out := runArgv(t, root, last.Env, last.Argv...)
		got := Parse(last, out.stdout, out.stderr, out.exit, nil)
		checkUnittest(t, got, out.exit, root)
		if *update {
			saveGolden(t, "unittest_fallback", out, root, goldenRoot)
		}
	})
}

func TestParseUnittest(t *testing.T) {
	g := loadGolden(t, "unittest_fallback")
	p := Invocation{Runner: Unittest, Argv: []string{"python3", "-m", "unittest", "discover"}, Dir: "."}
	checkUnittest(t, Parse(p, g.stdout, g.stderr, g.exit, nil), g.exit, goldenRoot)

	t.Run("OK with skips, and sniffed from any runner", func(t *testing.T) {
		out := "..s\n----------------------------------------------------------------------\nRan 3 tests in 0.010s\n\nOK (skipped=1)\n"
		s := Parse(Invocation{Runner: Make}, nil, []byte(out), 0, nil)
		assert.True(t, s.Parsed)
		assert.Equal(t, 2, s.Passed)
		assert.Equal(t, 1, s.Skipped)
		assert.Equal(t, int64(10), s.DurationMS)
	})
	t.Run("no tests ran (exit 5) is no tests found", func(t *testing.T) {
		out := "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n"
		s := Parse(p, nil, []byte(out), 5, nil)
		assert.True(t, s.Parsed)
		assert.Zero(t, s.Total)
		assert.Zero(t, s.Errors)
		assert.Contains(t, s.Report, "no tests found")
	})
	t.Run("a module that does not import is an error", func(t *testing.T) {
		out := `E
======================================================================
ERROR: test_broken (unittest.loader._FailedTest.test_broken)
----------------------------------------------------------------------
ImportError: Failed to import test module: test_broken
Traceback (most recent call last):
  File "/work/project/test_broken.py", line 1, in <module>
    import nope
ModuleNotFoundError: No module named 'nope'


----------------------------------------------------------------------
Ran 1 test in 0.000s

FAILED (errors=1)
`
		s := Parse(p, nil, []byte(out), 1, nil)
		assert.Equal(t, 1, s.Errors)
		assert.Zero(t, s.Passed)
		assert.Equal(t, Failure{Name: "test_broken", File: "/work/project/test_broken.py", Line: 1}, withoutMessage(s.Failures[0]))
		_, missing := Missing(p, nil, []byte(out), 1)
		assert.False(t, missing, "a test's import error is not a missing runner")
	})
}

func checkUnittest(t *testing.T, got Summary, exit int, root string) {
	t.Helper()
	checkSummary(t, got, want{runner: Unittest, passed: 2, failed: 1, errors: 1, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "tests.test_calc.TestCalc.test_sub", File: "<root>/tests/test_calc.py", Line: 13},
			{Name: "tests.test_calc.TestCalc.test_div", File: "<root>/tests/test_calc.py", Line: 20},
		}}, exit, root)
	assert.Contains(t, failureNamed(t, got, "tests.test_calc.TestCalc.test_sub").Message, "AssertionError: 2 != 8 : Sub(5, 3)")
}
