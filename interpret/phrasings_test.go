package interpret

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/tools/definitions"
)

// decl is the search of the declarations of name in every language.
func decl(name string) args {
	return args{"query": declRegex(name, declLangs), "is_regex": true, "include_paths": globsOf(declLangs)}
}

// declIn is the search of the declarations of name in one language.
func declIn(name, lang string) args {
	langs, _ := langsOf(lang)
	return args{"query": declRegex(name, langs), "is_regex": true, "include_paths": globsOf(langs)}
}

// calledBy is the search of the calls of name.
func calledBy(name string) args { return args{"query": callRegex(name), "is_regex": true} }

// testsSearch is the search of the test declarations.
func testsSearch(extra args) args {
	a := args{"query": testDecls, "is_regex": true, "include_paths": append(append([]any{}, testGlobs...), "*.rs")}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// phrasings are the phrasings of issue 21, each with the one call it plans in an empty
// context, every built-in tool on offer (the git tools included).
var phrasings = []struct {
	query string
	tool  string
	args  args
}{
	// Definitions: declaration shapes of the project's languages, one regex search.
	{"where is NewServer defined?", "search", decl("NewServer")},
	{"where's parse_args defined", "search", decl("parse_args")},
	{"where is the class UserProfile defined", "search", decl("UserProfile")},
	{"where is struct Config declared", "search", decl("Config")},
	{"where is handleRequest implemented", "search", decl("handleRequest")},
	{"where is pkg.Lookup() defined", "search", decl("Lookup")},
	{"where is forj-tools-dispatch defined", "search", decl("forj-tools-dispatch")},
	{"find the definition of Interpret", "search", decl("Interpret")},
	{"go to definition of Rules", "search", decl("Rules")},
	{"definition of normalize", "search", decl("normalize")},
	{"show me the declaration of Plan", "search", decl("Plan")},
	{"jump to the implementation of Check", "search", decl("Check")},
	{"show me where Provider is defined", "search", decl("Provider")},
	{"which file defines resolve", "search", decl("resolve")},
	{"which files declare the type Context", "search", decl("Context")},
	{"where is the function ParseArgs", "search", decl("ParseArgs")},
	{"find class Session", "search", decl("Session")},
	{"locate the struct Interpreter", "search", decl("Interpreter")},
	{"where is the python class Foo defined", "search", declIn("Foo", "python")},
	{"where is Foo defined in python files", "search", declIn("Foo", "python")},
	{"where is Run defined in go files", "search", declIn("Run", "go")},
	{"where is dispatch defined in the elisp code", "search", declIn("dispatch", "elisp")},
	{"where is Render defined in rust", "search", declIn("Render", "rust")},
	{"where is handler defined in src", "search", func() args { a := decl("handler"); a["path"] = "src"; return a }()},
	{"whre is NewServer defined", "search", decl("NewServer")},
	// Callers: the call sites.
	{"who calls NewServer", "search", calledBy("NewServer")},
	{"what calls resolve()", "search", calledBy("resolve")},
	{"callers of Interpret", "search", calledBy("Interpret")},
	{"find the call sites of checkCall", "search", calledBy("checkCall")},
	{"where is normalize called", "search", calledBy("normalize")},
	{"which functions call fromRef", "search", calledBy("fromRef")},
	{"who calls Render in src", "search", func() args { a := calledBy("Render"); a["path"] = "src"; return a }()},
	// Line counts, largest and newest files.
	{"how many lines in client.go", "read_file", args{"path": "client.go", "limit": 1}},
	{"how many lines does client.go have?", "read_file", args{"path": "client.go", "limit": 1}},
	{"how many lines are in src/client.go", "read_file", args{"path": "src/client.go", "limit": 1}},
	{"how long is main.go", "read_file", args{"path": "main.go", "limit": 1}},
	{"line count of README.md", "read_file", args{"path": "README.md", "limit": 1}},
	{"what's the number of lines in go.mod", "read_file", args{"path": "go.mod", "limit": 1}},
	{"count the lines of main.go", "read_file", args{"path": "main.go", "limit": 1}},
	{"wc -l client.go", "read_file", args{"path": "client.go", "limit": 1}},
	{"largest files", "list_files", args{"directory": ".", "max_depth": 20, "max_results": 1000}},
	{"what are the biggest files", "list_files", args{"directory": ".", "max_depth": 20, "max_results": 1000}},
	{"show me the 5 largest files in src", "list_files", args{"directory": "src", "max_depth": 20, "max_results": 1000}},
	{"which files are the largest", "list_files", args{"directory": ".", "max_depth": 20, "max_results": 1000}},
	{"files sorted by size", "list_files", args{"directory": ".", "max_depth": 20, "max_results": 1000}},
	{"newest files", "glob", args{"pattern": "**/*", "max_results": 20}},
	{"recently changed files", "glob", args{"pattern": "**/*", "max_results": 20}},
	{"show the 5 most recently modified files", "glob", args{"pattern": "**/*", "max_results": 5}},
	{"which files changed recently in docs", "glob", args{"pattern": "**/*", "max_results": 20, "path": "docs"}},
	{"latest files", "glob", args{"pattern": "**/*", "max_results": 20}},
	// Tests: what there is, and running some.
	{"what tests are there", "search", testsSearch(nil)},
	{"which tests do we have in interpret", "search", testsSearch(args{"path": "interpret"})},
	{"list the tests", "search", testsSearch(nil)},
	{"show me all test functions in agent", "search", testsSearch(args{"path": "agent"})},
	{"are there any tests", "search", testsSearch(nil)},
	{"list the test files", "glob", args{"patterns": func() []any {
		out := []any{}
		for _, g := range testGlobs {
			out = append(out, "**/"+g.(string))
		}
		return out
	}()}},
	{"run the cookie tests", "run_tests", args{"selector": "cookie"}},
	{"run cookie tests", "run_tests", args{"selector": "cookie"}},
	{"run only the parser tests in interpret", "run_tests", args{"selector": "parser", "path": "interpret"}},
	{"rerun the auth tests", "run_tests", args{"selector": "auth"}},
	{"run the python tests", "run_tests", args{"runner": "pytest"}},
	{"run the integration tests", "run_tests", args{}},
	{"rnu the tests", "run_tests", args{}},
	// Git, through the read-only git tools.
	{"git status", "git_status", args{}},
	{"git status -s", "git_status", args{}},
	{"git status docs", "git_status", args{"path": "docs"}},
	{"what's the git status", "git_status", args{}},
	{"which files have changed", "git_status", args{}},
	{"is the working tree clean", "git_status", args{}},
	{"are there uncommitted changes", "git_status", args{}},
	{"git diff", "git_diff", args{}},
	{"git diff --staged", "git_diff", args{"staged": true}},
	{"git diff main.go", "git_diff", args{"path": "main.go"}},
	{"git diff HEAD~3 -- src", "git_diff", args{"ref": "HEAD~3", "path": "src"}},
	{"show me the diff", "git_diff", args{}},
	{"show the staged changes", "git_diff", args{"staged": true}},
	{"what did I change in main.go", "git_diff", args{"path": "main.go"}},
	{"what did i change", "git_diff", args{}},
	{"diff against main", "git_diff", args{"ref": "main"}},
	{"git log", "git_log", args{"max_count": 10}},
	{"git log -5", "git_log", args{"max_count": 5}},
	{"git log -n 3 --oneline", "git_log", args{"max_count": 3}},
	{"git log main.go", "git_log", args{"path": "main.go", "max_count": 10}},
	{"show the last 5 commits", "git_log", args{"max_count": 5}},
	{"recent commits", "git_log", args{"max_count": 10}},
	{"commit history of main.go", "git_log", args{"path": "main.go", "max_count": 10}},
	{"what changed recently", "git_log", args{"max_count": 10}},
	{"what changed since yesterday", "git_log", args{"max_count": 10}},
	{"when was go.mod last changed", "git_log", args{"path": "go.mod", "max_count": 1}},
	{"git show", "git_show", args{}},
	{"git show HEAD~1", "git_show", args{"ref": "HEAD~1"}},
	{"git show HEAD:go.mod", "git_show", args{"ref": "HEAD", "path": "go.mod"}},
	{"show the last commit", "git_show", args{}},
	{"show commit a1b2c3d", "git_show", args{"ref": "a1b2c3d"}},
	// Typos in verbs, lower case, no punctuation, @mentions, shell habits.
	{"serach for TODO", "search", args{"query": "TODO"}},
	{"seach for foo in src", "search", args{"query": "foo", "path": "src"}},
	{"fnd all go files", "glob", args{"pattern": "**/*.go"}},
	{"shwo me main.go", "read_file", args{"path": "main.go"}},
	{"raed README.md", "read_file", args{"path": "README.md"}},
	{"lsit the files in docs", "list_dir", args{"path": "docs"}},
	{"opne go.mod", "read_file", args{"path": "go.mod"}},
	{"grpe -i error", "search", args{"query": "error", "case_sensitive": false}},
	{"whats in src", "list_dir", args{"path": "src"}},
	{"read @src/main.go", "read_file", args{"path": "src/main.go"}},
	{"what's in @docs", "list_dir", args{"path": "docs"}},
	{"@main.go", "read_file", args{"path": "main.go"}},
	{"search for foo in @src", "search", args{"query": "foo", "path": "src"}},
	{"search for @Override", "search", args{"query": "@Override"}},
	{"cat main.go", "read_file", args{"path": "main.go"}},
	{"head -n 5 main.go", "read_file", args{"path": "main.go", "limit": 5}},
	{"tail main.go", "read_file", args{"path": "main.go", "limit": 1}},
	{"tail -n 5 main.go", "read_file", args{"path": "main.go", "limit": 1}},
	{"pwd", "current_directory", args{}},
	{"ls -la", "list_dir", args{"path": "."}},
	{"sed -n 10,20p main.go", "read_file", args{"path": "main.go", "start_line": 10, "end_line": 20}},
	{"find . -name '*.go'", "glob", args{"pattern": "**/*.go"}},
	{"find src -name main.go", "glob", args{"pattern": "**/main.go", "path": "src"}},
	{"tree -L 2", "list_files", args{"directory": ".", "max_depth": 2}},
	// Line ranges in words.
	{"first 3 lines of main.go", "read_file", args{"path": "main.go", "limit": 3}},
	{"show the first three lines of main.go", "read_file", args{"path": "main.go", "limit": 3}},
	{"the first line of go.mod", "read_file", args{"path": "go.mod", "limit": 1}},
	{"lines 10-15 of main.go", "read_file", args{"path": "main.go", "start_line": 10, "end_line": 15}},
	{"from line 10 to line 15 of main.go", "read_file", args{"path": "main.go", "start_line": 10, "end_line": 15}},
	{"show main.go starting at line 20", "read_file", args{"path": "main.go", "offset": 20}},
	{"read main.go from line 20 onwards", "read_file", args{"path": "main.go", "offset": 20}},
	{"starting at line 20 of main.go", "read_file", args{"path": "main.go", "offset": 20}},
	{"the last 5 lines of main.go", "read_file", args{"path": "main.go", "limit": 1}},
	{"show the end of server.log", "read_file", args{"path": "server.log", "limit": 1}},
	// Searches asked in words: case, regex, file filters.
	{"search for foo ignoring case", "search", args{"query": "foo", "case_sensitive": false}},
	{"search for Foo ignoring case in src", "search", args{"query": "Foo", "case_sensitive": false, "path": "src"}},
	{"case-insensitive search for error", "search", args{"query": "error", "case_sensitive": false}},
	{"search for foo.*bar as a regex", "search", args{"query": "foo.*bar", "is_regex": true}},
	{"search for err(or)? using a regex", "search", args{"query": "err(or)?", "is_regex": true}},
	{"regex search for ^func main", "search", args{"query": "^func main", "is_regex": true}},
	{"search for Foo case sensitive in docs", "search", args{"query": "Foo", "case_sensitive": true, "path": "docs"}},
	{"search for assert in the test files", "search", args{"query": "assert", "include_paths": testGlobs}},
	{"search for import in python files", "search", args{"query": "import", "include_paths": []any{"*.py"}}},
	{"search for panic in go files", "search", args{"query": "panic", "include_paths": []any{"*.go"}}},
	{"search for unwrap in rust code", "search", args{"query": "unwrap", "include_paths": []any{"*.rs"}}},
	{"search for TODO in python", "search", args{"query": "TODO", "include_paths": []any{"*.py"}}},
	// Bare names without an extension: found first (the call is made on the one file found).
	{"read client", "glob", args{"patterns": []any{"**/client", "**/client.*"}}},
	{"cat the server file", "glob", args{"patterns": []any{"**/server", "**/server.*"}}},
	{"how many lines in client", "glob", args{"patterns": []any{"**/client", "**/client.*"}}},
	{"first 3 lines of client", "glob", args{"patterns": []any{"**/client", "**/client.*"}}},
}

// offlineOnly are queries that plan no tool: chit-chat, and changes, which offline mode
// does not make. want is in the rationale.
var offlineOnly = []struct{ query, want string }{
	{"thanks", "Nothing to look up"},
	{"thank you so much", "Nothing to look up"},
	{"how are you", "Nothing to look up"},
	{"great job, thanks", "Nothing to look up"},
	{"never mind", "Nothing to look up"},
	{"rename foo to bar", "Offline mode only reads"},
	{"delete the build dir", "Offline mode only reads"},
	{"fix the bug", "Offline mode only reads"},
	{"refactor main.go", "Offline mode only reads"},
	{"add a test for the parser", "Offline mode only reads"},
	{"update the readme", "Offline mode only reads"},
	{"please format the code", "Offline mode only reads"},
	{"commit my changes", "Offline mode only reads"},
	{"git push", "Offline mode only reads"},
	{"checkout the main branch", "Offline mode only reads"},
	{"dleete main.go", "Offline mode only reads"},
}

func TestPhrasings(t *testing.T) {
	require.GreaterOrEqual(t, len(phrasings), 100)
	in := &Interpreter{}
	for _, tc := range phrasings {
		t.Run(tc.query, func(t *testing.T) {
			p := Rules(tc.query, Context{})
			require.True(t, p.NeedsTools, "rationale: %s", p.Rationale)
			require.Len(t, p.Tools, 1)
			assert.Equal(t, tc.tool, p.Tools[0].Name)
			assert.Equal(t, tc.args, p.Tools[0].Args)
			assert.NotEmpty(t, p.Rationale)
			got := in.Interpret(t.Context(), tc.query, Context{})
			assert.Equal(t, p.Tools, got.Tools, "the plan passes the checks of a model's plan")
			assert.Empty(t, got.Notes, "a rule plan failed validation")
		})
	}
}

func TestOfflineOnlyReads(t *testing.T) {
	require.GreaterOrEqual(t, len(offlineOnly), 10)
	for _, tc := range offlineOnly {
		t.Run(tc.query, func(t *testing.T) {
			p := Rules(tc.query, Context{})
			assert.False(t, p.NeedsTools)
			assert.Empty(t, p.Tools)
			assert.Contains(t, p.Rationale, tc.want)
			assert.NotEmpty(t, p.Suggestions, "a hint of what works")
		})
	}
}

// TestPlanHints checks what the offline provider needs beyond the call: how to show the
// result (Show), the lines to read next (Last), the call on the one file found (Then).
func TestPlanHints(t *testing.T) {
	cases := []struct {
		query string
		want  ToolPlan // Name, Show, Last, Then (Args checked by TestPhrasings)
	}{
		{"how many lines in client.go", ToolPlan{Name: "read_file", Show: ShowLineCount}},
		{"wc -l main.go", ToolPlan{Name: "read_file", Show: ShowLineCount}},
		{"tail -n 5 main.go", ToolPlan{Name: "read_file", Last: 5}},
		{"tail main.go", ToolPlan{Name: "read_file", Last: 10}},
		{"the last line of main.go", ToolPlan{Name: "read_file", Last: 1}},
		{"show me the last five lines of main.go", ToolPlan{Name: "read_file", Last: 5}},
		{"largest files", ToolPlan{Name: "list_files", Show: ShowLargest, Last: 20}},
		{"show me the 5 largest files in src", ToolPlan{Name: "list_files", Show: ShowLargest, Last: 5}},
		{"newest files", ToolPlan{Name: "glob", Show: ShowNewest}},
		{"read client", ToolPlan{Name: "glob", Then: &ToolPlan{Name: "read_file", Args: args{}, Confidence: sure}}},
		{"how many lines in client", ToolPlan{Name: "glob", Then: &ToolPlan{Name: "read_file", Args: args{"limit": 1}, Confidence: sure, Show: ShowLineCount}}},
		{"first 3 lines of client", ToolPlan{Name: "glob", Then: &ToolPlan{Name: "read_file", Args: args{"limit": 3}, Confidence: sure}}},
		{"last 4 lines of client", ToolPlan{Name: "glob", Then: &ToolPlan{Name: "read_file", Args: args{"limit": 1}, Confidence: sure, Last: 4}}},
	}
	in := &Interpreter{}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			p := in.Interpret(t.Context(), tc.query, Context{})
			require.Len(t, p.Tools, 1, p.Rationale)
			got := p.Tools[0]
			assert.Equal(t, tc.want.Name, got.Name)
			assert.Equal(t, tc.want.Show, got.Show)
			assert.Equal(t, tc.want.Last, got.Last)
			assert.Equal(t, tc.want.Then, got.Then)
		})
	}
}

func TestDefinitionThenCallers(t *testing.T) {
	for _, q := range []string{"where is Render defined and used", "find the definition and callers of Render"} {
		p := Rules(q, Context{})
		require.Len(t, p.Tools, 2, q)
		assert.Equal(t, args(decl("Render")), p.Tools[0].Args, q)
		assert.Equal(t, calledBy("Render"), p.Tools[1].Args, q)
	}
}

// TestDeclRegexMatches runs the declaration regex over declarations of each language and
// over lines that are no declaration.
func TestDeclRegexMatches(t *testing.T) {
	re := regexpMust(t, declRegex("Foo", declLangs))
	for _, line := range []string{
		"func Foo(x int) error {", "func (s *Server) Foo() {", "type Foo struct {", "var Foo = 3", "const Foo = \"x\"",
		"def Foo(self):", "    async def Foo():", "class Foo(Base):",
		"function Foo() {", "export default class Foo {", "export const Foo = () => 1", "  interface Foo {", "type Foo = string",
		"pub fn Foo(&self)", "pub(crate) struct Foo {", "enum Foo {", "trait Foo {", "pub async fn Foo()",
		"  def Foo(conn) do", "defmodule Foo do", "(defun Foo (x)", "(cl-defun Foo ()",
	} {
		assert.True(t, re.MatchString(line), line)
	}
	for _, line := range []string{"x := Foo()", "// Foo does things", "FooBar()", "func FooBar() {", "return Foo"} {
		assert.False(t, re.MatchString(line), line)
	}
	calls := regexpMust(t, callRegex("Foo"))
	for _, line := range []string{"x := Foo()", "s.Foo(1)", "(Foo 1 2)", "(Foo)"} {
		assert.True(t, calls.MatchString(line), line)
	}
	assert.False(t, calls.MatchString("FooBar()"))
}

// TestGitToolsOnlyWhenOffered: a session without a git tool gets no call to it, but the
// answer that there is none.
func TestGitToolsOnlyWhenOffered(t *testing.T) {
	var noGitTools []*definitions.Tool
	for _, tool := range definitions.All() {
		if !strings.HasPrefix(tool.Name, "git_") {
			noGitTools = append(noGitTools, tool)
		}
	}
	in := &Interpreter{Tools: noGitTools}
	for _, q := range []string{"git status", "what changed since yesterday", "git diff --staged", "git log -5", "show the last commit", "what did I change"} {
		t.Run(q, func(t *testing.T) {
			p := in.Interpret(t.Context(), q, Context{})
			assert.False(t, p.NeedsTools)
			assert.Empty(t, p.Tools)
			assert.Contains(t, p.Rationale, "no git tool")
			assert.NotEmpty(t, p.Suggestions)
		})
	}
	only := &Interpreter{Tools: []*definitions.Tool{definitions.GitLog}}
	p := only.Interpret(t.Context(), "git log -5 main.go", Context{})
	assert.Equal(t, []ToolPlan{{Name: "git_log", Args: args{"max_count": 5, "path": "main.go"}, Confidence: sure}}, p.Tools)
}

// TestBareNameWithoutGlob: without glob, a bare name is read as it is written.
func TestBareNameWithoutGlob(t *testing.T) {
	in := &Interpreter{Tools: []*definitions.Tool{definitions.ReadFile}}
	p := in.Interpret(t.Context(), "read client", Context{})
	assert.Equal(t, []ToolPlan{{Name: "read_file", Args: args{"path": "client"}, Confidence: sure}}, p.Tools)
}

func TestFixVerb(t *testing.T) {
	cases := []struct{ in, want string }{
		{"serach for x", "search for x"}, {"fnd x", "find x"}, {"shwo me x", "show me x"}, {"raed x", "read x"},
		{"lsit", "list"}, {"wehre is x", "where is x"}, {"hwo many lines in x", "how many lines in x"},
		{"last 5 lines", "last 5 lines"}, {"that file", "that file"}, {"text", "text"}, {"lisp files", "lisp files"},
		{"tests in src", "tests in src"}, {"main.go", "main.go"}, {"here", "here"}, {"there", "there"}, {"finds", "finds"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, fixVerb(tc.in), tc.in)
	}
}

func regexpMust(t *testing.T, expr string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile("(?m)" + expr)
	require.NoError(t, err, expr)
	return re
}

// BenchmarkRulesPhrasings is BenchmarkRules over the phrasings of issue 21.
func BenchmarkRulesPhrasings(b *testing.B) {
	queries := make([]string, 0, len(phrasings)+len(offlineOnly))
	for _, tc := range phrasings {
		queries = append(queries, tc.query)
	}
	for _, tc := range offlineOnly {
		queries = append(queries, tc.query)
	}
	Rules("warm up", Context{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Rules(queries[i%len(queries)], session)
	}
}
