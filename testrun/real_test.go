package testrun

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update makes TestRealRunners rewrite testdata/outputs from its real runs:
//
//	go test ./testrun -run TestRealRunners -update
var update = flag.Bool("update", false, "rewrite testdata/outputs from the real runs")

// goldenRoot replaces the temporary project root in saved outputs, so that
// the golden files do not change with every capture.
const goldenRoot = "/work/project"

// reportDir is where the cases let runners write report files.
const reportDir = ".jido/tmp/tests-1"

// realCase is one run of a real runner on a fixture project, and what its
// summary must be. Its output is saved as testdata/outputs/<name>.* and
// parsed again by the TestParse* tests.
type realCase struct {
	name    string
	fixture string // directory under testdata/
	opts    Options
	want    want
}

// want is the expected summary. Failure files may start with "<root>/",
// the project's absolute root (runners that report absolute paths).
type want struct {
	runner                          Runner
	passed, failed, skipped, errors int
	parsed                          bool
	exit                            int // -1: any non-zero
	failures                        []Failure
}

var realCases = []realCase{
	{name: "go_all", fixture: "go", want: want{runner: Go, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "TestSub", File: "calc/calc_test.go", Line: 13},
			{Name: "TestShout/b", File: "strutil/strutil_test.go", Line: 9},
		}}},
	{name: "go_selector", fixture: "go", opts: Options{Selector: "TestAdd|TestSub"}, want: want{runner: Go, passed: 1, failed: 1, parsed: true, exit: 1,
		failures: []Failure{{Name: "TestSub", File: "calc/calc_test.go", Line: 13}}}},
	{name: "go_path", fixture: "go", opts: Options{Path: "strutil"}, want: want{runner: Go, passed: 1, failed: 1, parsed: true, exit: 1,
		failures: []Failure{{Name: "TestShout/b", File: "strutil/strutil_test.go", Line: 9}}}},
	{name: "go_buildfail", fixture: "gobuild", want: want{runner: Go, passed: 1, failed: 1, errors: 3, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "example.com/buildfail/broken [build failed]", File: "broken/broken.go", Line: 5},
			{Name: "TestPanics", File: "panics/panics_test.go", Line: 7},
			{Name: "example.com/buildfail/setupfail [setup failed]", File: "setupfail/setup_test.go", Line: 6},
			{Name: "example.com/buildfail/vetfail [build failed]", File: "vetfail/vet_test.go", Line: 8},
		}}},
	{name: "node_all", fixture: "node", want: want{runner: Node, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "subtracts numbers", File: "<root>/test/calc.test.js", Line: 11},
			{Name: "strings > lower-cases", File: "<root>/test/calc.test.js", Line: 23},
		}}},
	{name: "node_selector", fixture: "node", opts: Options{Selector: "adds"}, want: want{runner: Node, passed: 1, parsed: true}},
	{name: "node_path", fixture: "node", opts: Options{Path: "test", Selector: "cases"}, want: want{runner: Node, passed: 1, failed: 1, parsed: true, exit: 1,
		failures: []Failure{{Name: "strings > lower-cases", File: "<root>/test/calc.test.js", Line: 23}}}},
	{name: "npm_all", fixture: "npm", want: want{runner: NPM, passed: 1, failed: 1, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{{Name: "subtracts numbers", File: "<root>/test/harness.js", Line: 8}}}},
	{name: "pytest_all", fixture: "pytest", want: want{runner: Pytest, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "tests/test_calc.py::test_sub", File: "tests/test_calc.py", Line: 13},
			{Name: "tests/test_calc.py::TestStrings::test_lower", File: "tests/test_calc.py", Line: 26},
		}}},
	{name: "pytest_selector", fixture: "pytest", opts: Options{Selector: "add or upper"}, want: want{runner: Pytest, passed: 2, parsed: true}},
	{name: "pytest_collect", fixture: "pycollect", want: want{runner: Pytest, errors: 1, parsed: true, exit: 2,
		failures: []Failure{{Name: "test_broken.py", File: "test_broken.py", Line: 1}}}},
	{name: "cargo_all", fixture: "cargo", want: want{runner: Cargo, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 101,
		failures: []Failure{
			{Name: "tests::explodes", File: "src/lib.rs", Line: 34},
			{Name: "tests::subtracts", File: "src/lib.rs", Line: 23},
		}}},
	{name: "cargo_selector", fixture: "cargo", opts: Options{Selector: "adds"}, want: want{runner: Cargo, passed: 2, parsed: true}},
	{name: "cargo_buildfail", fixture: "cargobuild", want: want{runner: Cargo, errors: 1, parsed: true, exit: 101,
		failures: []Failure{{Name: "jido_buildfail [build failed]", File: "src/lib.rs", Line: 4}}}},
	{name: "ert_all", fixture: "ert", want: want{runner: ERT, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
		failures: []Failure{
			{Name: "calc-lower-test", File: "test/calc-test.el", Line: 21},
			{Name: "calc-sub-test", File: "test/calc-test.el", Line: 11},
		}}},
	{name: "ert_selector", fixture: "ert", opts: Options{Selector: `calc-\(add\|sub\)-test`}, want: want{runner: ERT, passed: 1, failed: 1, parsed: true, exit: 1,
		failures: []Failure{{Name: "calc-sub-test", File: "test/calc-test.el", Line: 11}}}},
	{name: "make_all", fixture: "make", want: want{runner: Make, errors: 1, exit: 2,
		failures: []Failure{{Name: "exit status 2"}}}},
	{name: "make_selector", fixture: "make", opts: Options{Selector: "adds"}, want: want{runner: Make}},
	{name: "command_go", fixture: "go", opts: Options{Command: []string{"go", "test", "-json", "./calc/..."}},
		want: want{passed: 1, failed: 1, skipped: 1, parsed: true, exit: 1,
			failures: []Failure{{Name: "TestSub", File: "calc/calc_test.go", Line: 13}}}},
	{name: "command_node_spec", fixture: "node", opts: Options{Command: []string{"node", "--test", "--test-reporter=spec", "test/calc.test.js"}},
		want: want{passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
			failures: []Failure{
				{Name: "subtracts numbers", File: "test/calc.test.js", Line: 10},
				{Name: "lower-cases", File: "test/calc.test.js", Line: 22},
			}}},
	{name: "command_pytest_text", fixture: "pytest", opts: Options{Command: []string{"pytest", "-q"}, Runner: Pytest},
		want: want{runner: Pytest, passed: 2, failed: 2, skipped: 1, parsed: true, exit: 1,
			failures: []Failure{
				{Name: "tests/test_calc.py::test_sub", File: "tests/test_calc.py", Line: 13},
				{Name: "tests/test_calc.py::TestStrings::test_lower", File: "tests/test_calc.py", Line: 26},
			}}},
}

// TestRealRunners runs every runner for real on its fixture: Detect, run
// the Plan, Parse, and check the counts and the failures' names and places.
// A missing runner binary skips its case, naming the package to install (a failure
// under JIDO_TEST_STRICT=1).
func TestRealRunners(t *testing.T) {
	cargoTarget := t.TempDir() // shared, so that cargo builds the fixture crates once
	for _, tc := range realCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("testdata", tc.fixture))))
			require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.FromSlash(reportDir)), 0o755))
			opts := tc.opts
			opts.ReportDir = reportDir
			plan, err := Detect(os.DirFS(root), opts)
			require.NoError(t, err)

			out := runPlan(t, root, plan, cargoTarget)
			got := Parse(plan, out.stdout, out.stderr, out.exit, out.report)
			checkSummary(t, got, tc.want, out.exit, root)
			if *update {
				saveGolden(t, tc.name, out, root, goldenRoot, cargoTarget, "/work/cargo-target")
			}
		})
	}
}

// runResult is a finished run's captured output.
type runResult struct {
	stdout, stderr, report []byte
	exit                   int
	hasReport              bool
}

// runPlan runs a plan the way run_tests's caller does: argv in Dir with the
// plan's environment added, then the report file read back.
func runPlan(t *testing.T, root string, p Invocation, cargoTarget string) runResult {
	t.Helper()
	require.NotEmpty(t, p.Argv)
	testenv.Program(t, p.Argv[0])
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Argv[0], p.Argv[1:]...)
	cmd.Dir = filepath.Join(root, filepath.FromSlash(p.Dir))
	cmd.Env = append(os.Environ(), "CARGO_NET_OFFLINE=true", "CARGO_TARGET_DIR="+cargoTarget,
		"GOTOOLCHAIN=local", "GOFLAGS=", "RUST_BACKTRACE=1")
	for k, v := range p.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("running %q: %v\nstderr: %s", p.Argv, err, stderr.String())
	}
	res := runResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: cmd.ProcessState.ExitCode()}
	if p.Report != "" {
		if b, err := os.ReadFile(filepath.Join(cmd.Dir, filepath.FromSlash(p.Report))); err == nil {
			res.report, res.hasReport = b, true
		}
	}
	return res
}

// checkSummary compares a summary with what a case wants. Failures are
// compared by name, file and line, in any order (cargo runs tests in
// parallel), and each must carry a message.
func checkSummary(t *testing.T, got Summary, w want, exit int, root string) {
	t.Helper()
	if w.exit == -1 {
		assert.NotZero(t, exit, "exit code")
	} else {
		assert.Equal(t, w.exit, exit, "exit code")
	}
	assert.Equal(t, w.runner, got.Runner, "runner")
	assert.Equal(t, w.parsed, got.Parsed, "parsed")
	assert.Equal(t, w.passed, got.Passed, "passed")
	assert.Equal(t, w.failed, got.Failed, "failed")
	assert.Equal(t, w.skipped, got.Skipped, "skipped")
	assert.Equal(t, w.errors, got.Errors, "errors")
	assert.Equal(t, got.Passed+got.Failed+got.Skipped, got.Total, "total")
	wantFailures := make([]Failure, len(w.failures))
	for i, f := range w.failures {
		f.File = strings.Replace(f.File, "<root>", filepath.ToSlash(root), 1)
		wantFailures[i] = f
	}
	gotFailures := make([]Failure, len(got.Failures))
	for i, f := range got.Failures {
		assert.NotEmpty(t, f.Message, "failure %q has no message", f.Name)
		assert.LessOrEqual(t, len(f.Message), maxMessage, "failure %q message cap", f.Name)
		f.Message = ""
		gotFailures[i] = f
	}
	assert.ElementsMatch(t, wantFailures, gotFailures, "failures")
	assert.LessOrEqual(t, len(got.Report), maxReport, "report size")
	assert.NotEmpty(t, got.Report)
	if t.Failed() {
		t.Logf("summary report:\n%s", got.Report)
	}
}

// saveGolden writes a run's output to testdata/outputs, with the temporary
// directories replaced by fixed names (old, new pairs), so that the golden
// files only change when the runners' output does.
func saveGolden(t *testing.T, name string, out runResult, replace ...string) {
	t.Helper()
	dir := filepath.Join("testdata", "outputs")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	fix := func(b []byte) []byte {
		for i := 0; i+1 < len(replace); i += 2 {
			b = bytes.ReplaceAll(b, []byte(filepath.ToSlash(replace[i])), []byte(replace[i+1]))
		}
		return b
	}
	base := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(base+".stdout", fix(out.stdout), 0o644))
	require.NoError(t, os.WriteFile(base+".stderr", fix(out.stderr), 0o644))
	require.NoError(t, os.WriteFile(base+".exit", []byte(strconv.Itoa(out.exit)+"\n"), 0o644))
	_ = os.Remove(base + ".report")
	if out.hasReport {
		require.NoError(t, os.WriteFile(base+".report", fix(out.report), 0o644))
	}
}

// TestMain puts rustup's usual bin directory on PATH when it exists, so that
// a cargo installed by rustup (not by apt) is found too.
func TestMain(m *testing.M) {
	if home, err := os.UserHomeDir(); err == nil {
		bin := filepath.Join(home, ".cargo", "bin")
		if st, err := os.Stat(bin); err == nil && st.IsDir() &&
			!strings.Contains(string(os.PathListSeparator)+os.Getenv("PATH")+string(os.PathListSeparator), string(os.PathListSeparator)+bin+string(os.PathListSeparator)) {
			os.Setenv("PATH", os.Getenv("PATH")+string(os.PathListSeparator)+bin)
		}
	}
	os.Exit(m.Run())
}
