package validate

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkCase is a named content for one path and what Check should say of it:
// nothing when msg is "", else a Problem at line, column whose message holds
// msg.
type checkCase struct {
	name         string
	path         string
	src          string
	line, column int
	msg          string
}

// runCases runs Check on every case as a subtest.
func runCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Check(tc.path, []byte(tc.src))
			if tc.msg == "" {
				assert.Nil(t, p)
				return
			}
			require.NotNil(t, p)
			assert.Equal(t, Kind(tc.path), p.Kind)
			assert.Equal(t, [2]int{tc.line, tc.column}, [2]int{p.Line, p.Column}, "line, column of %q", p.Message)
			assert.Contains(t, p.Message, tc.msg)
			assert.False(t, p.Unchecked)
		})
	}
}

func TestKind(t *testing.T) {
	for path, want := range map[string]string{
		"main.go":            "go",
		"X.JSON":             "json",
		"dir.d/init.Lua":     "lua",
		"a.el":               "emacs-lisp",
		"a.lisp":             "common-lisp",
		"a.LSP":              "common-lisp",
		"a.scm":              "scheme",
		"a.ss":               "scheme",
		"a.rkt":              "racket",
		"a.clj":              "clojure",
		"a.cljs":             "clojure",
		"a.cljc":             "clojure",
		"a.edn":              "clojure",
		"a.yaml":             "yaml",
		"a.YML":              "yaml",
		"Cargo.toml":         "toml",
		"README.md":          "",
		"Makefile":           "",
		"json":               "",
		"archive.json.gz":    "",
		"noext.":             "",
		"dir.json/file.text": "",
	} {
		assert.Equal(t, want, Kind(path), path)
	}
}

func TestCheckCaseAndUnknown(t *testing.T) {
	runCases(t, []checkCase{
		{name: "upper case extension", path: "X.JSON", src: "{", line: 1, column: 2, msg: "unexpected end"},
		{name: "mixed case extension", path: "a.Yml", src: "a: [", line: 2, msg: "did not find expected node content"},
		{name: "unknown extension", path: "notes.txt", src: "{(["},
		{name: "no extension", path: "Makefile", src: "all: ("},
	})
}

func TestProblemError(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Problem
		want string
	}{
		{"line and column", Problem{Kind: "json", Line: 3, Column: 5, Message: "invalid character"}, "json: line 3, column 5: invalid character"},
		{"line only", Problem{Kind: "yaml", Line: 2, Message: "did not find expected key"}, "yaml: line 2: did not find expected key"},
		{"no position", Problem{Kind: "lua", Message: "too big"}, "lua: too big"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.p.Error())
		})
	}
}

// TestConcurrent runs every case of every kind at once: Check keeps no state
// (which -race checks too).
func TestConcurrent(t *testing.T) {
	all := slices.Concat(goCases, jsonCases, luaCases, lispCases, yamlCases, tomlCases)
	want := make([]*Problem, len(all))
	for i, tc := range all {
		want[i] = Check(tc.path, []byte(tc.src))
	}
	var wg sync.WaitGroup
	for i, tc := range all {
		wg.Go(func() { assert.Equal(t, want[i], Check(tc.path, []byte(tc.src)), tc.name) })
	}
	wg.Wait()
}

// raceEnabled is true when the race detector is on (race_test.go), and timing
// means little: it slows the checkers down 5 to 30 times.
var raceEnabled bool

// TestDeepNesting feeds every kind a million openers: each must answer with a
// Problem without exhausting the stack, and the checkers of this package
// quickly (the others stop at their parser's own depth limit, go/parser's
// after a 100,000-deep recursion).
func TestDeepNesting(t *testing.T) {
	const n = 1_000_000
	for _, tc := range []struct {
		path, prefix, opener string
		quick                bool
	}{
		{"a.lua", "x = ", "(", true},
		{"b.lua", "", "do ", true},
		{"c.lua", "x = ", "{", true},
		{"a.el", "", "(", true},
		{"a.lisp", "", "(", true},
		{"a.scm", "", "[", true},
		{"a.rkt", "", "{", true},
		{"a.clj", "", "#{", true},
		{"a.go", "package p\nvar x = ", "(", false},
		{"a.json", "", "[", false},
		{"a.yaml", "", "[", false},
		{"a.toml", "a = ", "[", false},
	} {
		t.Run(tc.path+" "+tc.opener, func(t *testing.T) {
			src := tc.prefix + strings.Repeat(tc.opener, n)
			start := time.Now()
			p := Check(tc.path, []byte(src))
			elapsed := time.Since(start)
			require.NotNil(t, p)
			assertWithin(t, []byte(src), p)
			if tc.quick && !raceEnabled {
				assert.Less(t, elapsed, 2*time.Second)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	nested := func(n int) string { return "x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }
	require.Nil(t, Check("a.lua", []byte(nested(maxLuaDepth))))

	p := Check("a.lua", []byte(nested(maxLuaDepth+1)))
	require.NotNil(t, p)
	assert.True(t, p.Unchecked)
	assert.Equal(t, [2]int{1, 5 + maxLuaDepth}, [2]int{p.Line, p.Column})

	big := bytes.Repeat([]byte("x = 1\n"), maxLuaSize/6+1)
	p = Check("a.lua", big)
	require.NotNil(t, p)
	assert.True(t, p.Unchecked)
	assert.Contains(t, p.Message, "not checked")
}

// assertWithin checks that p's position lies within src: at most one line
// past the last (lines ending at "\n", "\r\n" or "\r", as parsers differ), and
// no further than the content is long.
func assertWithin(t *testing.T, src []byte, p *Problem) {
	t.Helper()
	lines := bytes.Count(src, []byte{'\n'}) + bytes.Count(src, []byte{'\r'}) - bytes.Count(src, []byte("\r\n")) + 1
	assert.GreaterOrEqual(t, p.Line, 0)
	assert.LessOrEqual(t, p.Line, lines+1)
	assert.GreaterOrEqual(t, p.Column, 0)
	assert.LessOrEqual(t, p.Column, len(src)+1)
}
