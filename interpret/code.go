package interpret

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file holds the rules about code and the project's history: where a symbol is
// declared and called, how long a file is, which files are the largest or newest, which
// tests there are, and what git says.

// declLang is a language's declaration shapes, for "where is X defined".
type declLang struct {
	name     string
	globs    []string // the file names of its sources
	keywords []string // the words a declaration starts with ("func", "def", ...)
	prefix   string   // what may come before the keyword (export, pub, async), RE2
}

// declLangs are the languages whose declarations "where is X defined" looks for.
var declLangs = []declLang{
	{name: "go", globs: []string{"*.go"}, keywords: []string{`func(?:\s*\([^)]*\))?`, "type", "var", "const"}},
	{name: "python", globs: []string{"*.py"}, keywords: []string{"def", "class"}, prefix: `(?:async\s+)?`},
	{
		name:     "javascript",
		globs:    []string{"*.js", "*.jsx", "*.mjs", "*.cjs", "*.ts", "*.tsx"},
		keywords: []string{`function\*?`, "class", "const", "let", "var", "interface", "type", "enum"},
		prefix:   `(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?`,
	},
	{
		name:     "rust",
		globs:    []string{"*.rs"},
		keywords: []string{"fn", "struct", "enum", "trait", "type", "mod", "const", "static", "union", "macro_rules!"},
		prefix:   `(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|extern(?:\s+"\w+")?)\s+)*`,
	},
	{name: "elixir", globs: []string{"*.ex", "*.exs"}, keywords: []string{"def", "defp", "defmacro", "defmacrop", "defguard", "defmodule", "defstruct", "defprotocol"}},
	{name: "elisp", globs: []string{"*.el"}},
}

// langAliases name the declLangs in queries.
var langAliases = map[string]string{
	"go": "go", "golang": "go", "python": "python", "py": "python", "javascript": "javascript", "js": "javascript",
	"typescript": "javascript", "ts": "javascript", "tsx": "javascript", "jsx": "javascript", "node": "javascript",
	"rust": "rust", "rs": "rust", "elixir": "elixir", "ex": "elixir", "elisp": "elisp", "emacs lisp": "elisp",
	"el": "elisp", "lisp": "elisp",
}

// langsOf picks the declLangs a place phrase names ("go files", "python", "the rust code");
// all of them, and ok, for ""; ok is false when the phrase names no language.
func langsOf(phrase string) ([]declLang, bool) {
	if phrase == "" {
		return declLangs, true
	}
	w := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(phrase, "all "), "the "))
	for _, suffix := range []string{" files", " file", " code", " sources", " source files", " source"} {
		w = strings.TrimSuffix(w, suffix)
	}
	name, ok := langAliases[w]
	if !ok {
		return nil, false
	}
	for _, l := range declLangs {
		if l.name == name {
			return []declLang{l}, true
		}
	}
	return nil, false
}

// symbolOf is the name a query asks about: "pkg.Func" and "Type::method" ask about their
// last part; "f()" about f. ok is false when it is no identifier.
var symbolRE = regexp.MustCompile(`^[A-Za-z_$][\w$-]*[?!]?$`)

func symbolOf(q string) (string, bool) {
	q, _ = unquote(strings.TrimSpace(q))
	q = strings.TrimSuffix(q, "()")
	if i := strings.LastIndexAny(q, ".:#"); i >= 0 && i < len(q)-1 {
		q = q[i+1:]
	}
	if !symbolRE.MatchString(q) || notPaths[strings.ToLower(q)] {
		return "", false
	}
	return q, true
}

// declRegex is the regular expression of the declarations of name in langs: one line that
// starts (after blanks and the language's prefixes) with a declaring keyword and the name.
func declRegex(name string, langs []declLang) string {
	q := regexp.QuoteMeta(name)
	var alts []string
	for _, l := range langs {
		if l.name == "elisp" {
			alts = append(alts, `\((?:cl-)?def(?:un|macro|var|custom|const|subst|alias|generic|method|face|group)\*? `+q+`(?:[\s)]|$)`)
			continue
		}
		alts = append(alts, l.prefix+`(?:`+strings.Join(l.keywords, "|")+`)\s+`+q+`\b`)
	}
	return `^\s*(?:` + strings.Join(alts, "|") + `)`
}

// callRegex is the regular expression of the calls of name: "name(" in most languages,
// "(name " in Lisp.
func callRegex(name string) string {
	q := regexp.QuoteMeta(name)
	return `\b` + q + `\(|\(` + q + `(?:[\s)]|$)`
}

// globsOf are the file globs of langs.
func globsOf(langs []declLang) []any {
	var out []any
	for _, l := range langs {
		for _, g := range l.globs {
			out = append(out, g)
		}
	}
	return out
}

// definitionPlan searches for the declarations of group q, in the languages group t names,
// or under the directory it names. With group and, the call sites are searched next.
func definitionPlan(m match, c Context) (Plan, bool) {
	name, ok := symbolOf(m.get("q"))
	if !ok {
		return Plan{}, false
	}
	if m.get("loose") != "" && strings.ToLower(name) == name && strings.HasSuffix(name, "s") {
		return Plan{}, false // "find type errors": no symbol
	}
	langs, ok := langsOf(m.get("lang"))
	if !ok {
		return Plan{}, false
	}
	where := scopeOf(m)
	if l, isLang := langsOf(where); isLang && where != "" {
		langs, where = l, ""
	}
	args := map[string]any{"query": declRegex(name, langs), "is_regex": true, "include_paths": globsOf(langs)}
	if m.cs != nil {
		args["case_sensitive"] = *m.cs
	}
	rationale := "Search for the declarations of " + name
	tools := []ToolPlan{call("search", sure, args)}
	tools[0].About = "the declarations of " + name
	if m.get("and") != "" {
		calling := call("search", likely, map[string]any{"query": callRegex(name), "is_regex": true})
		calling.About = "the calls of " + name
		tools = append(tools, calling)
		rationale = "Search for the declarations of " + name + ", then for its calls"
	}
	if where == "" {
		return calls(rationale+" ("+langNames(langs)+").", tools...), true
	}
	return with(where, c, func(t target) (Plan, bool) {
		if t.paths != nil {
			return Plan{}, false
		}
		for _, tp := range tools {
			tp.Args["path"] = t.path
		}
		return calls(rationale+" in "+shown(t.path)+".", tools...), true
	})
}

// langNames names the languages of a search.
func langNames(langs []declLang) string {
	if len(langs) == len(declLangs) {
		return "Go, Python, JavaScript/TypeScript, Rust, Elixir and Emacs Lisp files"
	}
	names := make([]string, len(langs))
	for i, l := range langs {
		names[i] = l.name
	}
	return strings.Join(names, ", ") + " files"
}

// callersPlan searches for the call sites of group q.
func callersPlan(m match, c Context) (Plan, bool) {
	name, ok := symbolOf(m.get("q"))
	if !ok {
		return Plan{}, false
	}
	s := searchSpec{query: callRegex(name), regex: true, cs: m.cs}
	return about(searchPlan(s, scopeOf(m), c, "Search for the calls of "+name))("the calls of " + name)
}

// about sets the About of a plan's calls.
func about(p Plan, ok bool) func(string) (Plan, bool) {
	return func(what string) (Plan, bool) {
		for i := range p.Tools {
			p.Tools[i].About = what
		}
		return p, ok
	}
}

// numbers are the number words of line counts ("the first three lines").
var numbers = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100,
	"a": 1, "a few": 3, "few": 3, "couple": 2, "a couple of": 2,
}

// number is a count in digits or words; def when s is empty.
func number(s string, def int) int {
	if s == "" {
		return def
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if n, ok := numbers[strings.ToLower(s)]; ok {
		return n
	}
	return def
}

// numberWords is the pattern of a count: digits or a number word.
const numberWords = `\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred|a few|a couple of`

// fileCall plans call on the file t names. A bare name without an extension ("client",
// "the server file") is first looked for, when glob is on offer: the call is then made on
// the one file found (the offline provider does it), or the files found are listed.
func fileCall(m match, t target, tp ToolPlan, rationale string) Plan {
	if t.named && !strings.ContainsAny(t.path, "/.") && !looksLikeFile(t.path) && !hasGlobMeta(t.path) && m.has("glob") {
		then := tp
		then.Args = make(map[string]any, len(tp.Args))
		for k, v := range tp.Args {
			if k != "path" {
				then.Args[k] = v
			}
		}
		find := call("glob", likely, map[string]any{"patterns": []any{"**/" + t.path, "**/" + t.path + ".*"}})
		find.Then = &then
		return calls("Find the file named "+t.path+", then: "+rationale, find)
	}
	tp.Args["path"] = t.path
	return calls(rationale, tp)
}

// countPlan counts the lines of a file: read_file reads one line and says how many there are.
func countPlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == dirKind {
			return Plan{}, false
		}
		tp := call("read_file", sure, map[string]any{"limit": 1})
		tp.Show = ShowLineCount
		return fileCall(m, t, tp, "Count the lines of "+t.path+"."), true
	})
}

// lastPlan reads the last lines of a file: read_file first counts them (one line read),
// then the offline provider reads the last ones.
func lastPlan(m match, c Context) (Plan, bool) {
	return lastPlanN(m, c, number(m.first("n", "n2"), 10))
}

// lastPlanN reads the last n lines of the file of group t.
func lastPlanN(m match, c Context, n int) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == dirKind {
			return Plan{}, false
		}
		n := min(max(n, 1), int(caps["limit"]))
		tp := call("read_file", sure, map[string]any{"limit": 1})
		tp.Last = n
		return fileCall(m, t, tp, fmt.Sprintf("Read the last %d lines of %s.", n, t.path)), true
	})
}

// fromLinePlan reads a file from line o on.
func fromLinePlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == dirKind {
			return Plan{}, false
		}
		o := max(number(m.get("o"), 1), 1)
		tp := call("read_file", sure, map[string]any{"offset": o})
		return fileCall(m, t, tp, fmt.Sprintf("Read %s from line %d.", t.path, o)), true
	})
}

// sizedPlan lists the largest files (list_files, sorted by size by whoever shows it) or the
// newest (glob, which sorts newest first).
func sizedPlan(show string) func(match, Context) (Plan, bool) {
	return func(m match, c Context) (Plan, bool) {
		n := min(max(number(m.get("n"), 20), 1), 200)
		build := func(t target) (Plan, bool) {
			if t.paths != nil || t.kind == fileKind {
				return Plan{}, false
			}
			var tp ToolPlan
			what := "largest"
			if show == ShowNewest {
				what = "most recently changed"
				tp = call("glob", sure, map[string]any{"pattern": "**/*", "max_results": n})
				if t.path != "." {
					tp.Args["path"] = t.path
				}
			} else {
				tp = call("list_files", sure, map[string]any{"directory": t.path, "max_depth": int(caps["max_depth"]), "max_results": int(caps["max_results"])})
				tp.Last = n
			}
			tp.Show = show
			return calls(fmt.Sprintf("List the %d %s files under %s.", n, what, shown(t.path)), tp), true
		}
		phrase := scopeOf(m)
		if phrase == "" {
			return build(target{path: dirOf(c), kind: dirKind})
		}
		return with(phrase, c, build)
	}
}

// testGlobs are the file names of tests in the project's languages.
var testGlobs = []any{
	"*_test.go", "test_*.py", "*_test.py", "*.test.js", "*.test.ts", "*.test.jsx", "*.test.tsx", "*.spec.js",
	"*.spec.ts", "*_test.rs", "*_test.exs", "*-test.el", "*-tests.el", "test-*.el",
}

// testDecls is the regular expression of test declarations: Go's Test/Benchmark/Fuzz/
// Example functions, pytest's test functions, JS's it/test/describe, Rust's #[test],
// ExUnit's test and describe, ERT's ert-deftest.
const testDecls = `^\s*(?:func (?:Test|Benchmark|Fuzz|Example)\w*\(|(?:async\s+)?def test\w*\(|class Test\w*|(?:it|test|describe)(?:\.\w+)?\(|#\[(?:\w+::)?test\]|(?:test|describe) "|\(ert-deftest )`

// testsListPlan searches for the test declarations, in the test files (and Rust sources).
func testsListPlan(m match, c Context) (Plan, bool) {
	s := searchSpec{query: testDecls, regex: true}
	where := scopeOf(m)
	p, ok := about(searchPlan(s, where, c, "List the tests (their declarations)"))("the test declarations")
	if ok && p.NeedsTools {
		if _, scoped := p.Tools[0].Args["include_paths"]; !scoped {
			p.Tools[0].Args["include_paths"] = append(append([]any{}, testGlobs...), "*.rs")
		}
	}
	return p, ok
}

// testFilesPlan finds the test files.
func testFilesPlan(m match, c Context) (Plan, bool) {
	patterns := make([]any, len(testGlobs))
	for i, g := range testGlobs {
		patterns[i] = "**/" + g.(string)
	}
	args := map[string]any{"patterns": patterns}
	build := func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == fileKind {
			return Plan{}, false
		}
		if t.path != "." {
			args["path"] = t.path
		}
		return calls("Find the test files under "+shown(t.path)+".", call("glob", sure, args)), true
	}
	phrase := scopeOf(m)
	if phrase == "" {
		return calls("Find the test files.", call("glob", sure, args)), true
	}
	return with(phrase, c, build)
}

// runners map the language said before "tests" to run_tests' runner.
var runners = map[string]string{
	"python": "pytest", "py": "pytest", "pytest": "pytest", "rust": "cargo", "cargo": "cargo",
	"js": "node", "javascript": "node", "node": "node", "typescript": "node", "ts": "node", "npm": "npm",
	"elisp": "ert", "emacs": "ert", "ert": "ert", "make": "make", "golang": "go",
}

// testQualifiers are words before "tests" that say which run, not which tests.
var testQualifiers = map[string]bool{
	"all": true, "the": true, "unit": true, "go": true, "whole": true, "entire": true, "full": true,
	"integration": true, "project": true, "every": true, "failing": true, "failed": true, "broken": true,
	"slow": true, "fast": true, "quick": true, "existing": true, "new": true, "remaining": true, "same": true,
	"these": true, "those": true, "them": true, "local": true,
}

// namedTestsPlan runs the tests a word names: "run the cookie tests" (a selector), "run the
// python tests" (a runner).
func namedTestsPlan(m match, c Context) (Plan, bool) {
	word := m.get("sel")
	w := strings.ToLower(word)
	args := map[string]any{}
	rationale := "Run the tests"
	switch r, isRunner := runners[w]; {
	case isRunner:
		args["runner"] = r
		rationale = "Run the " + r + " tests"
	case testQualifiers[w]:
	case notPaths[w] || mutationWord(w):
		return Plan{}, false
	default:
		args["selector"] = word
		rationale += " matching " + word
	}
	if phrase := m.get("t"); phrase != "" {
		t, ok := resolve(strings.TrimSuffix(strings.TrimSuffix(phrase, "..."), "/"), c)
		if !ok || t.paths != nil {
			return Plan{}, false
		}
		if t.stop != nil {
			return *t.stop, true
		}
		args["path"] = t.path
		rationale += " in " + shown(t.path)
	}
	return calls(rationale+".", call("run_tests", sure, args)), true
}

// mutationWord reports whether w is a verb of change ("run the delete tests" is fine, but
// "build" before tests is no test name).
func mutationWord(w string) bool {
	switch w {
	case "build", "deploy", "install", "compile", "release", "publish":
		return true
	}
	return false
}

// lastLinesPlan is "the last 5 lines of x.go" ("the last line": one).
func lastLinesPlan(m match, c Context) (Plan, bool) {
	if m.get("one") != "" && m.get("n") == "" {
		return lastPlanN(m, c, 1)
	}
	return lastPlan(m, c)
}
