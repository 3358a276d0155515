package testrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// golden is a saved run from testdata/outputs (see TestRealRunners -update).
type golden struct {
	stdout, stderr, report []byte
	exit                   int
}

func loadGolden(t *testing.T, name string) golden {
	t.Helper()
	base := filepath.Join("testdata", "outputs", name)
	var g golden
	var err error
	g.stdout, err = os.ReadFile(base + ".stdout")
	require.NoError(t, err, "golden %s missing: go test ./testrun -run TestRealRunners -update", name)
	g.stderr, err = os.ReadFile(base + ".stderr")
	require.NoError(t, err)
	exit, err := os.ReadFile(base + ".exit")
	require.NoError(t, err)
	g.exit, err = strconv.Atoi(strings.TrimSpace(string(exit)))
	require.NoError(t, err)
	if b, err := os.ReadFile(base + ".report"); err == nil {
		g.report = b
	}
	return g
}

// goldenPlan is the plan Detect makes for a real case's fixture, as in
// TestRealRunners.
func goldenPlan(t *testing.T, tc realCase) Invocation {
	t.Helper()
	opts := tc.opts
	opts.ReportDir = reportDir
	p, err := Detect(os.DirFS(filepath.Join("testdata", tc.fixture)), opts)
	require.NoError(t, err)
	return p
}

// replayGoldens parses the saved outputs of the real cases whose names
// start with one of prefixes, and checks them as TestRealRunners does.
func replayGoldens(t *testing.T, prefixes ...string) {
	n := 0
	for _, tc := range realCases {
		match := false
		for _, p := range prefixes {
			match = match || strings.HasPrefix(tc.name, p)
		}
		if !match {
			continue
		}
		n++
		t.Run(tc.name, func(t *testing.T) {
			g := loadGolden(t, tc.name)
			got := Parse(goldenPlan(t, tc), g.stdout, g.stderr, g.exit, g.report)
			checkSummary(t, got, tc.want, g.exit, goldenRoot)
		})
	}
	require.NotZero(t, n, "no golden cases for %v", prefixes)
}

// parseGolden parses a saved run with the plan of the real case of that name.
func parseGolden(t *testing.T, name string, edit func(*Invocation, *golden)) Summary {
	t.Helper()
	for _, tc := range realCases {
		if tc.name == name {
			g := loadGolden(t, name)
			p := goldenPlan(t, tc)
			if edit != nil {
				edit(&p, &g)
			}
			return Parse(p, g.stdout, g.stderr, g.exit, g.report)
		}
	}
	t.Fatalf("no real case %q", name)
	return Summary{}
}

func failureNamed(t *testing.T, s Summary, name string) Failure {
	t.Helper()
	for _, f := range s.Failures {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no failure %q in %+v", name, s.Failures)
	return Failure{}
}

func TestParseGo(t *testing.T) {
	replayGoldens(t, "go_", "command_go")

	t.Run("messages", func(t *testing.T) {
		s := parseGolden(t, "go_buildfail", nil)
		assert.Contains(t, failureNamed(t, s, "TestPanics").Message, "panic: assignment to entry in nil map")
		assert.Contains(t, failureNamed(t, s, "example.com/buildfail/broken [build failed]").Message, `cannot use "forty-two"`)
		assert.Contains(t, failureNamed(t, s, "example.com/buildfail/setupfail [setup failed]").Message, "no required module provides package example.com/missing")
		assert.Contains(t, s.Report, "ERROR example.com/buildfail/broken [build failed] (broken/broken.go:5)")
		sub := failureNamed(t, parseGolden(t, "go_all", nil), "TestSub")
		assert.Equal(t, "calc_test.go:13: Sub(5, 3) = 8, want 2", sub.Message)
	})

	t.Run("without module path, files are base names", func(t *testing.T) {
		s := parseGolden(t, "go_all", func(p *Invocation, _ *golden) { p.goModule = "" })
		assert.Equal(t, "calc_test.go", failureNamed(t, s, "TestSub").File)
	})

	t.Run("plan dir prefixes files", func(t *testing.T) {
		s := parseGolden(t, "go_all", func(p *Invocation, _ *golden) { p.Dir = "svc" })
		assert.Equal(t, "svc/calc/calc_test.go", failureNamed(t, s, "TestSub").File)
	})

	t.Run("truncated stream: a running test fails", func(t *testing.T) {
		out := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"pass","Package":"p","Test":"TestB"}
`
		s := Parse(Invocation{Runner: Go}, []byte(out), nil, 2, nil)
		assert.True(t, s.Parsed)
		assert.Equal(t, 1, s.Failed)
		assert.Equal(t, 1, s.Passed)
		assert.Contains(t, s.Failures[0].Message, "did not finish")
	})

	t.Run("a parent failing on its own counts", func(t *testing.T) {
		out := `{"Action":"run","Package":"p","Test":"TestP"}
{"Action":"output","Package":"p","Test":"TestP","Output":"    p_test.go:3: setup broke\n"}
{"Action":"run","Package":"p","Test":"TestP/a"}
{"Action":"pass","Package":"p","Test":"TestP/a"}
{"Action":"fail","Package":"p","Test":"TestP"}
{"Action":"fail","Package":"p","Elapsed":0.5}
`
		s := Parse(Invocation{Runner: Go}, []byte(out), nil, 1, nil)
		assert.Equal(t, 1, s.Passed)
		assert.Equal(t, 1, s.Failed)
		assert.Equal(t, 0, s.Errors)
		assert.Equal(t, int64(500), s.DurationMS)
		assert.Equal(t, Failure{Name: "TestP", File: "p_test.go", Line: 3, Message: "p_test.go:3: setup broke"}, s.Failures[0])
	})

	t.Run("package failing outside tests is an error", func(t *testing.T) {
		out := `noise before
{"Action":"output","Package":"p","Output":"TestMain exploded\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p"}
`
		s := Parse(Invocation{Runner: Go}, []byte(out), nil, 1, nil)
		assert.Equal(t, 1, s.Errors)
		assert.Equal(t, "p [package failed]", s.Failures[0].Name)
		assert.Equal(t, "TestMain exploded", s.Failures[0].Message)
	})

	t.Run("no JSON at all falls back", func(t *testing.T) {
		s := Parse(Invocation{Runner: Go}, nil, []byte("go: cannot find main module\n"), 1, nil)
		assert.False(t, s.Parsed)
		assert.Equal(t, 1, s.Errors)
		assert.Contains(t, s.Report, "go: cannot find main module")
	})
}

func TestParseNode(t *testing.T) {
	replayGoldens(t, "node_", "command_node")

	t.Run("TAP on stdout when the report is missing", func(t *testing.T) {
		s := parseGolden(t, "node_all", func(_ *Invocation, g *golden) { g.report = nil })
		assert.Equal(t, []int{2, 2, 1}, []int{s.Passed, s.Failed, s.Skipped})
		f := failureNamed(t, s, "strings > lower-cases")
		assert.Equal(t, goldenRoot+"/test/calc.test.js", f.File)
		assert.Equal(t, 23, f.Line)
		assert.Equal(t, "lower exploded", f.Message)
		f = failureNamed(t, s, "subtracts numbers")
		assert.Contains(t, f.Message, "8 !== 2")
		assert.Contains(t, f.Message, "expected: 2")
	})

	t.Run("junit message keeps the assertion, drops node internals", func(t *testing.T) {
		s := parseGolden(t, "node_all", nil)
		f := failureNamed(t, s, "subtracts numbers")
		assert.Contains(t, f.Message, "8 !== 2")
		assert.NotContains(t, f.Message, "node:internal")
		assert.Greater(t, s.DurationMS, int64(0))
	})
}

func TestParseNPM(t *testing.T) {
	replayGoldens(t, "npm_")

	// The samples below are written after jest's, vitest's and mocha's
	// documented output; those runners are not installed here.
	t.Run("jest", func(t *testing.T) {
		out := `FAIL src/calc.test.js
  calc
    ✓ adds (2 ms)
    ✕ subtracts (3 ms)
    ○ skipped later

  ● calc › subtracts

    expect(received).toBe(expected) // Object.is equality

Tests:       1 failed, 1 skipped, 1 passed, 3 total
Snapshots:   0 total
Time:        0.512 s
Ran all test suites.
`
		s := Parse(Invocation{Runner: NPM}, nil, []byte(out), 1, nil)
		assert.Equal(t, []int{1, 1, 1, 0}, []int{s.Passed, s.Failed, s.Skipped, s.Errors})
		assert.Equal(t, int64(512), s.DurationMS)
		assert.Equal(t, "calc › subtracts", s.Failures[0].Name)
	})

	t.Run("vitest", func(t *testing.T) {
		out := ` FAIL  test/calc.test.js > calc > subtracts
AssertionError: expected 8 to be 2

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Duration  301ms
`
		s := Parse(Invocation{Runner: NPM}, []byte(out), nil, 1, nil)
		assert.Equal(t, []int{2, 1, 0}, []int{s.Passed, s.Failed, s.Skipped})
		assert.Equal(t, "test/calc.test.js > calc > subtracts", s.Failures[0].Name)
	})

	t.Run("mocha", func(t *testing.T) {
		out := `  calc
    ✔ adds
    1) subtracts
    - later


  1 passing (6ms)
  1 pending
  1 failing

  1) calc
       subtracts:

      AssertionError [ERR_ASSERTION]: 8 == 2
      at Context.<anonymous> (test/calc.test.js:9:12)
`
		s := Parse(Invocation{Runner: NPM}, []byte(out), nil, 1, nil)
		assert.Equal(t, []int{1, 1, 1}, []int{s.Passed, s.Failed, s.Skipped})
		assert.Equal(t, int64(6), s.DurationMS)
		f := s.Failures[0]
		assert.Equal(t, "calc subtracts", f.Name)
		assert.Equal(t, "test/calc.test.js", f.File)
		assert.Equal(t, 9, f.Line)
		assert.Contains(t, f.Message, "8 == 2")
	})

	t.Run("unknown output falls back to the exit code", func(t *testing.T) {
		s := Parse(Invocation{Runner: NPM, Argv: []string{"npm", "test"}}, []byte("all good\n"), nil, 0, nil)
		assert.False(t, s.Parsed)
		assert.Zero(t, s.Errors)
		assert.Empty(t, s.Failures)
		assert.Contains(t, s.Report, "all good")
	})
}

func TestParsePytest(t *testing.T) {
	replayGoldens(t, "pytest_", "command_pytest")

	t.Run("messages", func(t *testing.T) {
		s := parseGolden(t, "pytest_all", nil)
		assert.Contains(t, failureNamed(t, s, "tests/test_calc.py::test_sub").Message, "AssertionError: subtraction is broken")
		assert.Contains(t, s.Report, "FAIL tests/test_calc.py::test_sub (tests/test_calc.py:13)")
		c := parseGolden(t, "pytest_collect", nil)
		assert.Contains(t, c.Failures[0].Message, "No module named 'module_that_does_not_exist'")
	})

	t.Run("terminal output when the report is missing", func(t *testing.T) {
		s := parseGolden(t, "pytest_collect", func(_ *Invocation, g *golden) { g.report = nil })
		assert.True(t, s.Parsed)
		assert.Equal(t, 1, s.Errors)
		assert.Equal(t, Failure{Name: "test_broken.py", File: "test_broken.py", Line: 1}, withoutMessage(s.Failures[0]))
	})

	t.Run("no tests collected (exit 5) is not an error", func(t *testing.T) {
		out := "\n5 deselected in 0.01s\n"
		s := Parse(Invocation{Runner: Pytest}, []byte(out), nil, 5, nil)
		assert.True(t, s.Parsed)
		assert.Zero(t, s.Errors)
		assert.Contains(t, s.Report, "no tests ran")
	})

	t.Run("xfail and xpass", func(t *testing.T) {
		out := "==== 1 passed, 1 xfailed, 1 xpassed, 2 warnings in 0.20s ====\n"
		s := Parse(Invocation{Runner: Pytest}, []byte(out), nil, 0, nil)
		assert.Equal(t, []int{2, 0, 1}, []int{s.Passed, s.Failed, s.Skipped})
		assert.Equal(t, int64(200), s.DurationMS)
	})
}

func TestParseCargo(t *testing.T) {
	replayGoldens(t, "cargo_")

	t.Run("messages without backtraces", func(t *testing.T) {
		s := parseGolden(t, "cargo_all", nil)
		f := failureNamed(t, s, "tests::subtracts")
		assert.Contains(t, f.Message, "subtraction is broken")
		assert.NotContains(t, f.Message, "rust_begin_unwind")
		b := parseGolden(t, "cargo_buildfail", nil)
		assert.Contains(t, b.Failures[0].Message, "mismatched types")
	})

	t.Run("old panic format and terse output", func(t *testing.T) {
		out := `
running 2 tests
test a::one ... ok
test a::two ... FAILED

failures:

---- a::two stdout ----
thread 'a::two' panicked at 'assertion failed: false', src/a.rs:7:5
note: run with ` + "`RUST_BACKTRACE=1`" + ` environment variable to display a backtrace

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s
`
		s := Parse(Invocation{Runner: Cargo, Dir: "crate"}, []byte(out), nil, 101, nil)
		assert.Equal(t, []int{1, 1}, []int{s.Passed, s.Failed})
		assert.Equal(t, Failure{Name: "a::two", File: "crate/src/a.rs", Line: 7}, withoutMessage(s.Failures[0]))
		assert.Equal(t, int64(250), s.DurationMS)

		multiline := "test a::three ... FAILED\n\n---- a::three stdout ----\nthread 'a::three' panicked at 'assertion failed: `(left == right)`\n  left: `8`,\n right: `2`: broken', src/a.rs:9:5\n\n"
		s = Parse(Invocation{Runner: Cargo}, []byte(multiline), nil, 101, nil)
		assert.Equal(t, Failure{Name: "a::three", File: "src/a.rs", Line: 9}, withoutMessage(s.Failures[0]))

		terse := "running 3 tests\n.i.\ntest result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
		s = Parse(Invocation{Runner: Cargo}, []byte(terse), nil, 0, nil)
		assert.Equal(t, []int{2, 0, 1}, []int{s.Passed, s.Failed, s.Skipped})
	})
}

func TestParseERT(t *testing.T) {
	replayGoldens(t, "ert_")

	t.Run("messages are the conditions", func(t *testing.T) {
		s := parseGolden(t, "ert_all", nil)
		assert.Equal(t, `(error "Lower exploded")`, failureNamed(t, s, "calc-lower-test").Message)
		assert.Contains(t, failureNamed(t, s, "calc-sub-test").Message, "ert-test-failed")
		assert.Greater(t, s.DurationMS, int64(0))
	})

	t.Run("without the location advice", func(t *testing.T) {
		s := parseGolden(t, "ert_all", func(_ *Invocation, g *golden) {
			var keep []string
			for _, l := range strings.Split(string(g.stderr), "\n") {
				if !strings.HasPrefix(l, "jido-ert-location") {
					keep = append(keep, l)
				}
			}
			g.stderr = []byte(strings.Join(keep, "\n"))
		})
		assert.Equal(t, 2, s.Failed)
		assert.Empty(t, failureNamed(t, s, "calc-sub-test").File)
	})

	t.Run("load error", func(t *testing.T) {
		out := "Cannot open load file: No such file or directory, calc\n"
		s := Parse(Invocation{Runner: ERT}, nil, []byte(out), 255, nil)
		assert.False(t, s.Parsed)
		assert.Equal(t, 1, s.Errors)
		assert.Contains(t, s.Failures[0].Message, "Cannot open load file")
	})
}

func TestParseMake(t *testing.T) {
	replayGoldens(t, "make_")

	t.Run("fallback report shows the end of the output", func(t *testing.T) {
		s := parseGolden(t, "make_all", nil)
		assert.Contains(t, s.Report, "bad: subtracts")
		assert.Contains(t, s.Report, "exit status 2")
		assert.Contains(t, s.Failures[0].Message, "bad: subtracts")
	})

	t.Run("a Makefile running a known runner is parsed", func(t *testing.T) {
		g := loadGolden(t, "cargo_all")
		s := Parse(Invocation{Runner: Make, Argv: []string{"make", "test"}}, g.stdout, g.stderr, 2, nil)
		assert.True(t, s.Parsed)
		assert.Equal(t, Make, s.Runner)
		assert.Equal(t, []int{2, 2, 1}, []int{s.Passed, s.Failed, s.Skipped})
	})

	t.Run("only the last lines", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 500; i++ {
			fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", 100))
		}
		s := Parse(Invocation{Runner: Make}, []byte(b.String()), nil, 2, nil)
		assert.LessOrEqual(t, len(s.Report), maxReport)
		assert.Contains(t, s.Report, "line 499")
		assert.NotContains(t, s.Report, "line 400 ")
	})
}

func TestParseCaps(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, `{"Action":"run","Package":"p","Test":"Test%d"}`+"\n", i)
		for j := 0; j < 50; j++ {
			fmt.Fprintf(&b, `{"Action":"output","Package":"p","Test":"Test%d","Output":"    p_test.go:%d: %s\n"}`+"\n", i, j+1, strings.Repeat("é", 60))
		}
		fmt.Fprintf(&b, `{"Action":"fail","Package":"p","Test":"Test%d"}`+"\n", i)
	}
	s := Parse(Invocation{Runner: Go}, []byte(b.String()), nil, 1, nil)
	assert.Equal(t, 200, s.Failed)
	assert.Len(t, s.Failures, 200)
	for _, f := range s.Failures {
		assert.LessOrEqual(t, len(f.Message), maxMessage)
		assert.True(t, strings.HasSuffix(f.Message, "[...]"))
		assert.True(t, utf8Valid(f.Message))
	}
	assert.LessOrEqual(t, len(s.Report), maxReport)
	assert.Contains(t, s.Report, "more (see failures)")
	assert.True(t, strings.HasPrefix(s.Report, "go: 200 tests: 0 passed, 200 failed"))
}

func TestParseExitCodeCrossCheck(t *testing.T) {
	out := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p"}
`
	s := Parse(Invocation{Runner: Go}, []byte(out), []byte("coverage below threshold\n"), 1, nil)
	assert.Equal(t, 1, s.Passed)
	assert.Equal(t, 1, s.Errors)
	assert.Equal(t, "exit status 1", s.Failures[0].Name)
	assert.Contains(t, s.Failures[0].Message, "coverage below threshold")
}

func TestParseTAPVariants(t *testing.T) {
	out := "TAP version 13\n1..4\nok 1 - one\nnot ok 2 - two # TODO later\nok 3 # skip no db\nnot ok 4 - four\n  ---\n  message: 'it broke'\n  at: Test.<anonymous> (/p/t.js:5:3)\n  ...\nBail out! db down\n"
	s := Parse(Invocation{}, []byte(out), nil, 1, nil)
	assert.True(t, s.Parsed)
	assert.Equal(t, []int{1, 1, 2, 1}, []int{s.Passed, s.Failed, s.Skipped, s.Errors})
	assert.Equal(t, Failure{Name: "four", File: "/p/t.js", Line: 5, Message: "it broke"}, s.Failures[0])

	// Plain text that merely says "ok" is not TAP.
	s = Parse(Invocation{}, []byte("ok fine\nnot ok either\n"), nil, 0, nil)
	assert.False(t, s.Parsed)
}

func TestParseJUnitGeneric(t *testing.T) {
	report := `<?xml version="1.0"?>
<testsuite name="suite" tests="3" time="1.5">
  <testcase classname="com.acme.CalcTest" name="adds" time="0.1"/>
  <testcase classname="com.acme.CalcTest" name="subtracts" file="src/Calc.java" line="12">
    <failure message="expected 2">expected 2 but was 8</failure>
  </testcase>
  <testcase classname="com.acme.CalcTest" name="throws"><error message="boom">java.lang.RuntimeException: boom</error></testcase>
  <testcase classname="com.acme.CalcTest" name="later"><skipped/></testcase>
</testsuite>`
	p := Invocation{Argv: []string{"./gradlew", "test"}, Dir: ".", Report: "build/report.xml"}
	s := Parse(p, []byte("BUILD FAILED\n"), nil, 1, []byte(report))
	assert.True(t, s.Parsed)
	assert.Equal(t, []int{1, 2, 1, 0}, []int{s.Passed, s.Failed, s.Skipped, s.Errors})
	assert.Equal(t, int64(1500), s.DurationMS)
	assert.Equal(t, Failure{Name: "com.acme.CalcTest.subtracts", File: "src/Calc.java", Line: 12, Message: "expected 2 but was 8"}, s.Failures[0])
}

func withoutMessage(f Failure) Failure {
	f.Message = ""
	return f
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\x00") == s }
