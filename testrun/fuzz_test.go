package testrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// addGoldenSeeds adds the saved outputs with the given suffix as fuzz seeds.
func addGoldenSeeds(f *testing.F, suffix string) {
	names, _ := filepath.Glob(filepath.Join("testdata", "outputs", "*"+suffix))
	for _, n := range names {
		if b, err := os.ReadFile(n); err == nil && len(b) > 0 {
			f.Add(b)
		}
	}
}

// checkInvariants holds for every Summary, whatever the output was.
func checkInvariants(t *testing.T, s Summary) {
	t.Helper()
	if s.Total != s.Passed+s.Failed+s.Skipped {
		t.Fatalf("total %d != %d+%d+%d", s.Total, s.Passed, s.Failed, s.Skipped)
	}
	if s.Passed < 0 || s.Failed < 0 || s.Skipped < 0 || s.Errors < 0 || s.DurationMS < 0 {
		t.Fatalf("negative count in %+v", s)
	}
	if len(s.Report) > maxReport || !utf8.ValidString(s.Report) {
		t.Fatalf("report of %d bytes (valid UTF-8: %v)", len(s.Report), utf8.ValidString(s.Report))
	}
	if s.Failures == nil {
		t.Fatal("nil failures")
	}
	for _, f := range s.Failures {
		if len(f.Message) > maxMessage || !utf8.ValidString(f.Message) || !utf8.ValidString(f.Name) {
			t.Fatalf("failure %q: message of %d bytes", f.Name, len(f.Message))
		}
	}
}

// FuzzParseGo feeds garbage to the test2json parser: it must not panic
// (parseGoJSON is called directly, without Parse's recover) and Parse's
// summary must keep its invariants.
func FuzzParseGo(f *testing.F) {
	addGoldenSeeds(f, "go_all.stdout")
	addGoldenSeeds(f, "go_buildfail.stdout")
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"A/B/C"}` + "\n" + `{"Action":"run","Package":"p","Test":"A"}`))
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"\tx_test.go:99999999999999999999 +0x1\n"}`))
	f.Add([]byte(`{"Action":"build-fail","ImportPath":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Invocation{Runner: Go, Dir: "d", goModule: "example.com/m"}
		parseGoJSON(&input{invocation: p, stdout: data, exitCode: 1})
		checkInvariants(t, Parse(p, data, data, 1, nil))
	})
}

// FuzzParseJUnit feeds garbage to the JUnit parser in each flavor.
func FuzzParseJUnit(f *testing.F) {
	addGoldenSeeds(f, ".report")
	f.Add([]byte(`<testsuites><testsuite name="s"><testcase name="t"><failure message="m">at x (/a/b.js:1:2)</failure></testcase></testsuite></testsuites>`))
	f.Add([]byte(`<testcase classname="" name="x"><error>x.py:1: in &lt;module&gt;</error></testcase>`))
	f.Add([]byte(strings.Repeat("<testsuite>", 200)))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, flavor := range []junitFlavor{junitGeneric, junitPytest, junitNodeFlavor} {
			parseJUnit(data, flavor)
		}
		for _, r := range []Runner{Pytest, Node, ""} {
			checkInvariants(t, Parse(Invocation{Runner: r, Report: "r.xml"}, nil, nil, 1, data))
		}
	})
}

// FuzzParseText feeds garbage to the text parsers (TAP, cargo, ERT,
// pytest, node spec, jest-like).
func FuzzParseText(f *testing.F) {
	addGoldenSeeds(f, ".stdout")
	addGoldenSeeds(f, "_all.stderr")
	f.Add([]byte("TAP version 13\n    not ok 1 - a\n  ---\n  error: |-\n  ...\nnot ok 2 - b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &input{invocation: Invocation{}, stdout: data, stderr: data, exitCode: 1}
		for _, parse := range sniffParsers {
			parse(in)
		}
		for _, r := range []Runner{Cargo, ERT, NPM, Make} {
			checkInvariants(t, Parse(Invocation{Runner: r}, data, nil, 2, nil))
		}
	})
}
