package interpret

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/tools/definitions"
)

// args is the arguments of an expected call.
type args = map[string]any

// mapped are queries in varied phrasings, each with the one call the rules must plan for it
// in an empty context ("here" is the project root).
var mapped = []struct {
	query string
	tool  string
	args  args
}{
	{"what's in src", "list_dir", args{"path": "src"}},
	{"What's in src?", "list_dir", args{"path": "src"}},
	{"whats in docs", "list_dir", args{"path": "docs"}},
	{"what is in the cmd folder", "list_dir", args{"path": "cmd"}},
	{"show me this directory", "list_dir", args{"path": "."}},
	{"show me the src/ directory", "list_dir", args{"path": "src"}},
	{"ls", "list_dir", args{"path": "."}},
	{"ls src", "list_dir", args{"path": "src"}},
	{"LS -la src", "list_dir", args{"path": "src"}},
	{"ll", "list_dir", args{"path": "."}},
	{"dir", "list_dir", args{"path": "."}},
	{"list", "list_dir", args{"path": "."}},
	{"list files", "list_dir", args{"path": "."}},
	{"list the files in cmd/jido", "list_dir", args{"path": "cmd/jido"}},
	{"list directory tools", "list_dir", args{"path": "tools"}},
	{"contents of docs", "list_dir", args{"path": "docs"}},
	{"the contents of tools/definitions", "list_dir", args{"path": "tools/definitions"}},
	{"Hey, what's in the src folder?", "list_dir", args{"path": "src"}},
	{"please list the docs directory", "list_dir", args{"path": "docs"}},
	{"can you show me what's in here", "list_dir", args{"path": "."}},
	{"what files are in cmd", "list_dir", args{"path": "cmd"}},
	{"which files are here", "list_dir", args{"path": "."}},
	{"what is in this folder", "list_dir", args{"path": "."}},
	{"tell me what's in docs", "list_dir", args{"path": "docs"}},
	{"show me everything in the project", "list_dir", args{"path": "."}},
	{"what does src contain", "list_dir", args{"path": "src"}},
	{"files in src", "list_dir", args{"path": "src"}},
	{"where am i", "current_directory", args{}},
	{"what is the current directory?", "current_directory", args{}},
	{"cd src", "list_dir", args{"path": "src"}},
	{"go to tools", "list_dir", args{"path": "tools"}},
	{"enter the docs folder", "list_dir", args{"path": "docs"}},
	{"show me the tree", "list_files", args{"directory": "."}},
	{"tree", "list_files", args{"directory": "."}},
	{"Tree src", "list_files", args{"directory": "src"}},
	{"show the project structure, depth 2", "list_files", args{"directory": ".", "max_depth": 2}},
	{"list all files", "list_files", args{"directory": "."}},
	{"list files recursively", "list_files", args{"directory": "."}},
	{"list all files in docs recursively", "list_files", args{"directory": "docs"}},
	{"recursively list src", "list_files", args{"directory": "src"}},
	{"ls -R cmd", "list_files", args{"directory": "cmd"}},
	{"show me the directory tree of tools", "list_files", args{"directory": "tools"}},
	{"tree src 2 levels deep", "list_files", args{"directory": "src", "max_depth": 2}},
	{"give me an overview of the repo", "list_files", args{"directory": "."}},
	{"how is the project organized", "list_files", args{"directory": "."}},
	{"what does the project look like", "list_files", args{"directory": "."}},
	{"find all files", "list_files", args{"directory": "."}},
	{"find all go files", "glob", args{"pattern": "**/*.go"}},
	{"Find all Go files in src", "glob", args{"path": "src", "pattern": "**/*.go"}},
	{"find all python files", "glob", args{"pattern": "**/*.py"}},
	{"list every .ts file under web", "glob", args{"path": "web", "pattern": "**/*.ts"}},
	{"how many go files are there", "glob", args{"pattern": "**/*.go"}},
	{"are there any yaml files in config", "glob", args{"path": "config", "pattern": "**/*.{yaml,yml}"}},
	{"show me all markdown files", "glob", args{"pattern": "**/*.md"}},
	{"find *.proto files", "glob", args{"pattern": "**/*.proto"}},
	{"go files", "glob", args{"pattern": "**/*.go"}},
	{"files ending in .rs", "glob", args{"pattern": "**/*.rs"}},
	{"find files with extension .lua", "glob", args{"pattern": "**/*.lua"}},
	{"find config files", "glob", args{"pattern": "**/*config*"}},
	{"where is main.go", "glob", args{"pattern": "**/main.go"}},
	{"Where's the Dockerfile?", "glob", args{"pattern": "**/Dockerfile"}},
	{"where can I find config.toml", "glob", args{"pattern": "**/config.toml"}},
	{"find main.go", "glob", args{"pattern": "**/main.go"}},
	{"find the file called server.go", "glob", args{"pattern": "**/server.go"}},
	{"locate README.md", "glob", args{"pattern": "**/README.md"}},
	{"locate package.json in web", "glob", args{"path": "web", "pattern": "**/package.json"}},
	{"find files named *_test.go", "glob", args{"pattern": "**/*_test.go"}},
	{"find files matching test_*.py", "glob", args{"pattern": "**/test_*.py"}},
	{"find files called config", "glob", args{"pattern": "**/config*"}},
	{"glob **/*.md", "glob", args{"pattern": "**/*.md"}},
	{"read README.md", "read_file", args{"path": "README.md"}},
	{"Read the README.md file", "read_file", args{"path": "README.md"}},
	{"show me main.go", "read_file", args{"path": "main.go"}},
	{"cat go.mod", "read_file", args{"path": "go.mod"}},
	{"cat -n main.go", "read_file", args{"path": "main.go"}},
	{"open Makefile", "read_file", args{"path": "Makefile"}},
	{"could you open Makefile for me", "read_file", args{"path": "Makefile"}},
	{"I'd like to see the README", "read_file", args{"path": "README"}},
	{"view the file named config.yaml", "read_file", args{"path": "config.yaml"}},
	{"display the package.json file", "read_file", args{"path": "package.json"}},
	{"give me the contents of go.mod", "read_file", args{"path": "go.mod"}},
	{"Could you please show me the contents of main.go?", "read_file", args{"path": "main.go"}},
	{"what's inside main.go", "read_file", args{"path": "main.go"}},
	{"look at main.go", "read_file", args{"path": "main.go"}},
	{"print .gitignore", "read_file", args{"path": ".gitignore"}},
	{"README.md", "read_file", args{"path": "README.md"}},
	{"cmd/jido/main.go", "read_file", args{"path": "cmd/jido/main.go"}},
	{"show lines 10 to 20 of x.go", "read_file", args{"end_line": 20, "path": "x.go", "start_line": 10}},
	{"show line 42 of x.go", "read_file", args{"end_line": 42, "path": "x.go", "start_line": 42}},
	{"print lines 1-5 of main.go", "read_file", args{"end_line": 5, "path": "main.go", "start_line": 1}},
	{"read lines 100 through 120 in server.go", "read_file", args{"end_line": 120, "path": "server.go", "start_line": 100}},
	{"read main.go lines 5-9", "read_file", args{"end_line": 9, "path": "main.go", "start_line": 5}},
	{"show me the first 20 lines of README.md", "read_file", args{"limit": 20, "path": "README.md"}},
	{"head main.go", "read_file", args{"limit": 10, "path": "main.go"}},
	{"head -n 5 go.mod", "read_file", args{"limit": 5, "path": "go.mod"}},
	{"main.go:42", "read_file", args{"end_line": 42, "path": "main.go", "start_line": 42}},
	{"show main.go:10-12", "read_file", args{"end_line": 12, "path": "main.go", "start_line": 10}},
	{"summarize main.go", "read_file", args{"path": "main.go"}},
	{"what does main.go do", "read_file", args{"path": "main.go"}},
	{"explain the go.mod file", "read_file", args{"path": "go.mod"}},
	{"search for TODO", "search", args{"query": "TODO"}},
	{"Search for TODO.", "search", args{"query": "TODO"}},
	{"search for \"func main\"", "search", args{"query": "func main"}},
	{"search for \"foo bar\" in src", "search", args{"path": "src", "query": "foo bar"}},
	{"search for the word deprecated in docs", "search", args{"path": "docs", "query": "deprecated"}},
	{"search for TODO|FIXME", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{`search for regex ^func \w+`, "search", args{"is_regex": true, "query": "^func \\w+"}},
	{"search /err(or)?/", "search", args{"is_regex": true, "query": "err(or)?"}},
	{"search for login in user profile", "search", args{"query": "login in user profile"}},
	{"search for foo, case insensitive", "search", args{"case_sensitive": false, "query": "foo"}},
	{"search for Foo (case sensitive)", "search", args{"case_sensitive": true, "query": "Foo"}},
	{"look for panic( in internal", "search", args{"path": "internal", "query": "panic("}},
	{"find handleRequest", "search", args{"query": "handleRequest"}},
	{"find fmt.Println", "search", args{"query": "fmt.Println"}},
	{"grep foo in src", "search", args{"path": "src", "query": "foo"}},
	{"grep -i error", "search", args{"case_sensitive": false, "query": "error"}},
	{"grep -rn TODO src", "search", args{"path": "src", "query": "TODO"}},
	{"grep \"hello world\"", "search", args{"query": "hello world"}},
	{"grep -l Provider", "search", args{"output_mode": "files_with_matches", "query": "Provider"}},
	{"rg -c TODO", "search", args{"output_mode": "count", "query": "TODO"}},
	{"find usages of Provider", "search", args{"query": "Provider"}},
	{"find references to NewServer", "search", args{"query": "NewServer"}},
	{"show all callers of Interpret", "search", args{"query": callRegex("Interpret"), "is_regex": true}},
	{"who calls Interpret", "search", args{"query": callRegex("Interpret"), "is_regex": true}},
	{"where is handleRequest defined", "search", decl("handleRequest")},
	{"where is Provider used", "search", args{"query": "Provider"}},
	{"which file is Lookup defined in", "search", decl("Lookup")},
	{"where is the function ParseArgs declared", "search", decl("ParseArgs")},
	{"where is handleRequest", "search", args{"query": "handleRequest"}},
	{"which files contain handleRequest", "search", args{"output_mode": "files_with_matches", "query": "handleRequest"}},
	{"list files containing TODO", "search", args{"output_mode": "files_with_matches", "query": "TODO"}},
	{"how many times does TODO appear", "search", args{"output_mode": "count", "query": "TODO"}},
	{"how many occurrences of panic are there in src", "search", args{"output_mode": "count", "path": "src", "query": "panic"}},
	{"find occurrences of http.Get in *.go", "search", args{"include_paths": []any{"*.go"}, "query": "http.Get"}},
	{"search for foo in go files", "search", args{"include_paths": []any{"*.go"}, "query": "foo"}},
	{"search for foo in *.md", "search", args{"include_paths": []any{"*.md"}, "query": "foo"}},
	{"does go.mod exist?", "file_exists", args{"path": "go.mod"}},
	{"Does src/main.go exist", "file_exists", args{"path": "src/main.go"}},
	{"is there a Makefile", "file_exists", args{"path": "Makefile"}},
	{"is there a .gitignore", "file_exists", args{"path": ".gitignore"}},
	{"check if foo.txt exists", "file_exists", args{"path": "foo.txt"}},
	{"check whether docs/ exists", "file_exists", args{"path": "docs"}},
	{"is go.sum there", "file_exists", args{"path": "go.sum"}},
	{"do we have a Dockerfile", "file_exists", args{"path": "Dockerfile"}},
	{"does config.yaml exist in deploy", "file_exists", args{"path": "deploy/config.yaml"}},
	{"is there a docs folder", "file_exists", args{"path": "docs"}},
	{"stat go.mod", "file_exists", args{"path": "go.mod"}},
	{"run the tests", "run_tests", args{}},
	{"Run all the tests, please", "run_tests", args{}},
	{"run the unit tests in interpret", "run_tests", args{"path": "interpret"}},
	{"run tests matching Parse", "run_tests", args{"selector": "Parse"}},
	{"rerun the tests", "run_tests", args{}},
	{"execute the test suite", "run_tests", args{}},
	{"test ./pkg/...", "run_tests", args{"path": "pkg"}},
	{"go test ./...", "run_tests", args{"path": "."}},
	{"test interpret", "run_tests", args{"path": "interpret"}},
	{"run TestParse", "run_tests", args{"selector": "TestParse"}},
	{"run the TestParse test in interpret", "run_tests", args{"path": "interpret", "selector": "TestParse"}},
	{"are the tests passing?", "run_tests", args{}},
	{"do the tests pass", "run_tests", args{}},
	{"list todos", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{"list all the todos", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{"show me the TODOs in src", "search", args{"is_regex": true, "path": "src", "query": "TODO|FIXME"}},
	{"any fixmes?", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{"what todos are there", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{"show todo and fixme comments in src", "search", args{"is_regex": true, "path": "src", "query": "TODO|FIXME"}},
	{"are there any todos left", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
	{"find fixmes", "search", args{"is_regex": true, "query": "TODO|FIXME"}},
}

// unmapped are queries no tool fits: chit-chat, nonsense, changes the rules do not guess at,
// git, paths outside the project. want is in the rationale.
var unmapped = []struct {
	query string
	want  string
}{
	{"", "Nothing to look up"},
	{"hello", "Nothing to look up"},
	{"Thanks!", "Nothing to look up"},
	{"good morning", "Nothing to look up"},
	{"how are you?", "Nothing to look up"},
	{"help", "Without a language model I understand"},
	{"What can you do?", "Without a language model I understand"},
	{"what's the weather like", "could not match"},
	{"asdf qwer", "could not match"},
	{"lorem ipsum dolor", "could not match"},
	{"why is the sky blue", "could not match"},
	{"what is the meaning of life", "could not match"},
	{"show me how this works", "could not match"},
	{"is there a bug in main.go", "could not match"},
	{"delete foo.go", "do not guess at changes"},
	{"Please remove the build directory", "do not guess at changes"},
	{"write a new file called notes.txt", "do not guess at changes"},
	{"rename a.go to b.go", "do not guess at changes"},
	{"edit main.go and fix the typo", "do not guess at changes"},
	{"could you please run rm -rf /", "do not guess at changes"},
	{"execute ls -la", "do not guess at changes"},
	{"run go build", "do not guess at changes"},
	{"install the dependencies", "do not guess at changes"},
	{"How do I delete a file?", "do not guess at changes"},
	{"commit my changes", "no git tool"},
	{"read ../etc/passwd", "outside the project root"},
	{"read /etc/passwd", "outside the project root"},
	{"ls ../", "outside the project root"},
	{"find 0 in ~*0", "outside the project root"},
}

func TestRulesMapQueries(t *testing.T) {
	require.GreaterOrEqual(t, len(mapped), 120)
	for _, tc := range mapped {
		t.Run(tc.query, func(t *testing.T) {
			p := Rules(tc.query, Context{})
			require.True(t, p.NeedsTools, "rationale: %s", p.Rationale)
			require.Len(t, p.Tools, 1)
			assert.Equal(t, tc.tool, p.Tools[0].Name)
			assert.Equal(t, tc.args, p.Tools[0].Args)
			assert.Equal(t, SourceRules, p.Source)
			assert.NotEmpty(t, p.Rationale)
			assert.InDelta(t, 0.75, p.Tools[0].Confidence, 0.16)
		})
	}
}

func TestRulesAnswerWithoutTools(t *testing.T) {
	require.GreaterOrEqual(t, len(unmapped), 15)
	for _, tc := range unmapped {
		t.Run(tc.query, func(t *testing.T) {
			p := Rules(tc.query, Context{})
			assert.False(t, p.NeedsTools)
			assert.Empty(t, p.Tools)
			assert.Contains(t, p.Rationale, tc.want)
			assert.GreaterOrEqual(t, len(p.Suggestions), 2)
			assert.LessOrEqual(t, len(p.Suggestions), 4)
			assert.Equal(t, SourceRules, p.Source)
		})
	}
}

// Every plan of the rule table must pass the same checks as a model's: the tool exists, the
// paths are clean, the arguments validate against the tool's schema.
func TestRulePlansValidate(t *testing.T) {
	in := &Interpreter{}
	check := func(t *testing.T, query string, c Context) {
		want := Rules(query, c)
		got := in.Interpret(t.Context(), query, c)
		assert.Equal(t, want.Tools, got.Tools)
		assert.Equal(t, want.Notes, got.Notes, "a rule plan failed validation")
	}
	for _, tc := range mapped {
		t.Run(tc.query, func(t *testing.T) { check(t, tc.query, Context{}) })
	}
	for _, tc := range contextCases {
		t.Run("context/"+tc.query, func(t *testing.T) { check(t, tc.query, tc.ctx) })
	}
}

// session is a context with a current file, a listing and a directory in focus.
var session = Context{
	LastFile:    "cmd/jido/main.go",
	LastListing: []string{"a.go", "docs/", "b.md", "c.go", "d.go", "e.go", "f.go"},
	Dir:         "src",
}

// contextCases resolve "it", "here" and "these files" against a context.
var contextCases = []struct {
	query string
	ctx   Context
	want  []ToolPlan // names and args; nil: no tools
	why   string     // in the rationale
}{
	{query: "read it", ctx: session, want: []ToolPlan{{Name: "read_file", Args: args{"path": "cmd/jido/main.go"}}}},
	{query: "open the current file", ctx: session, want: []ToolPlan{{Name: "read_file", Args: args{"path": "cmd/jido/main.go"}}}},
	{query: "show me this file again", ctx: session, want: []ToolPlan{{Name: "read_file", Args: args{"path": "cmd/jido/main.go"}}}},
	{query: "show lines 1 to 3 of this file", ctx: session, want: []ToolPlan{{Name: "read_file", Args: args{"path": "cmd/jido/main.go", "start_line": 1, "end_line": 3}}}},
	{query: "does it exist?", ctx: session, want: []ToolPlan{{Name: "file_exists", Args: args{"path": "cmd/jido/main.go"}}}},
	{query: "search for foo in this file", ctx: session, want: []ToolPlan{{Name: "search", Args: args{"query": "foo", "path": "cmd/jido/main.go"}}}},
	{query: "what's here", ctx: session, want: []ToolPlan{{Name: "list_dir", Args: args{"path": "src"}}}},
	{query: "ls", ctx: session, want: []ToolPlan{{Name: "list_dir", Args: args{"path": "src"}}}},
	{query: "show me this directory", ctx: session, want: []ToolPlan{{Name: "list_dir", Args: args{"path": "src"}}}},
	{query: "list the project root", ctx: session, want: []ToolPlan{{Name: "list_dir", Args: args{"path": "."}}}},
	{query: "show me the tree", ctx: session, want: []ToolPlan{{Name: "list_files", Args: args{"directory": "src"}}}},
	{query: "search for foo here", ctx: session, want: []ToolPlan{{Name: "search", Args: args{"query": "foo", "path": "src"}}}},
	{query: "find all go files here", ctx: session, want: []ToolPlan{{Name: "glob", Args: args{"pattern": "**/*.go", "path": "src"}}}},
	{query: "list todos in this directory", ctx: session, want: []ToolPlan{{Name: "search", Args: args{"query": "TODO|FIXME", "is_regex": true, "path": "src"}}}},
	{query: "is there a Makefile here", ctx: session, want: []ToolPlan{{Name: "file_exists", Args: args{"path": "src/Makefile"}}}},
	{query: "read these files", ctx: session, want: []ToolPlan{
		{Name: "read_file", Args: args{"path": "a.go"}}, {Name: "read_file", Args: args{"path": "b.md"}},
		{Name: "read_file", Args: args{"path": "c.go"}}, {Name: "read_file", Args: args{"path": "d.go"}},
		{Name: "read_file", Args: args{"path": "e.go"}},
	}, why: "first 5 of the 6 files"},
	{query: "show me those files", ctx: Context{LastListing: []string{"x.go", "y.go"}}, want: []ToolPlan{
		{Name: "read_file", Args: args{"path": "x.go"}}, {Name: "read_file", Args: args{"path": "y.go"}},
	}},
	{query: "search for foo in these files", ctx: Context{LastListing: []string{"x.go", "docs/"}}, want: []ToolPlan{
		{Name: "search", Args: args{"query": "foo", "include_paths": []any{"x.go", "docs/**"}}},
	}},
	{query: "do these files exist", ctx: Context{LastListing: []string{"x.go", "docs/"}}, want: []ToolPlan{
		{Name: "file_exists", Args: args{"path": "x.go"}}, {Name: "file_exists", Args: args{"path": "docs"}},
	}},
	{query: "head -n 9999 big.log", ctx: session, want: []ToolPlan{{Name: "read_file", Args: args{"path": "big.log", "limit": 2000}}}},
	{query: "tree 99 levels deep", ctx: session, want: []ToolPlan{{Name: "list_files", Args: args{"directory": "src", "max_depth": 20}}}},
	{query: "cd docs", ctx: session, want: []ToolPlan{{Name: "list_dir", Args: args{"path": "docs"}}}, why: "\"here\" now means it"},
	{query: "read it", ctx: Context{}, why: "no current file"},
	{query: "read these files", ctx: Context{}, why: "No files were listed"},
	{query: "read these files", ctx: Context{LastListing: []string{"a/", "b/"}}, why: "only directories"},
}

func TestRulesResolveContext(t *testing.T) {
	for _, tc := range contextCases {
		t.Run(tc.query, func(t *testing.T) {
			p := Rules(tc.query, tc.ctx)
			assert.Contains(t, p.Rationale, tc.why)
			assert.Equal(t, tc.want != nil, p.NeedsTools)
			require.Len(t, p.Tools, len(tc.want))
			for i, w := range tc.want {
				assert.Equal(t, w.Name, p.Tools[i].Name)
				assert.Equal(t, w.Args, p.Tools[i].Args)
			}
			if tc.want == nil {
				assert.NotEmpty(t, p.Suggestions)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"  Could you please   show me main.go?? ", "show me main.go"},
		{"Hey jido, what’s in src?", "what's in src"},
		{"I'd like you to read go.mod, thanks!", "read go.mod"},
		{"can I see the README please", "see the README"},
		{"ls .", "ls"},
		{"...", ""},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, normalize(tc.in), tc.in)
	}
}

func TestLexicalClean(t *testing.T) {
	cases := []struct {
		in, want string
		err      error
	}{
		{in: "./src/../main.go", want: "main.go"},
		{in: "", want: "."},
		{in: "a//b/", want: "a/b"},
		{in: "../x", err: ErrOutsideRoot},
		{in: "a/../../x", err: ErrOutsideRoot},
		{in: "/etc/passwd", err: ErrOutsideRoot},
		{in: "~/.ssh/id_rsa", err: ErrOutsideRoot},
		{in: "a\\b", err: ErrBadPath},
		{in: "a\x00b", err: ErrBadPath},
	}
	for _, tc := range cases {
		got, err := lexicalClean(tc.in)
		if tc.err != nil {
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe, tc.in)
			assert.ErrorIs(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// fakeModel answers AskJSON with a canned answer, or blocks.
type fakeModel struct {
	answer string
	err    error
	block  <-chan struct{} // when set: wait for it (or ctx when honour is set)
	honour bool

	mu     sync.Mutex
	prompt string
	schema map[string]any
}

func (f *fakeModel) AskJSON(ctx context.Context, prompt string, schema map[string]any) ([]byte, error) {
	f.mu.Lock()
	f.prompt, f.schema = prompt, schema
	f.mu.Unlock()
	if f.block != nil {
		if f.honour {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-f.block:
			}
		} else {
			<-f.block
		}
	}
	return []byte(f.answer), f.err
}

func (f *fakeModel) asked() (string, map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prompt, f.schema
}

func TestInterpretWithModel(t *testing.T) {
	cases := []struct {
		name   string
		in     Interpreter
		answer string
		query  string
		source string
		tools  []ToolPlan
		notes  []string // each in the notes
	}{
		{
			name:   "valid plan, paths cleaned and limits capped",
			answer: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"./src/../main.go","limit":5000},"confidence":0.9}],"rationale":"read main.go"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "main.go", "limit": 2000.0}, Confidence: 0.9}},
			notes:  []string{"limit of read_file capped at 2000"},
		},
		{
			name:   "schema maximum caps too, confidence is clamped",
			answer: `{"needs_tools":true,"tools":[{"name":"search","args":{"query":"x","context":99,"max_results":5000},"confidence":7}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "search", Args: args{"query": "x", "context": 50.0, "max_results": 1000.0}, Confidence: 1}},
			notes:  []string{"context of search capped at 50", "max_results of search capped at 1000"},
		},
		{
			name:   "no tools needed",
			answer: `{"needs_tools":false,"tools":[],"rationale":"a greeting"}`,
			query:  "hello",
			source: SourceModel,
		},
		{
			name:   "tools listed although none are needed are ignored",
			answer: `{"needs_tools":false,"tools":[{"name":"list_dir","args":{},"confidence":1}],"rationale":"r"}`,
			source: SourceModel,
			notes:  []string{"said none are needed"},
		},
		{
			name: "unknown tool dropped with a note",
			answer: `{"needs_tools":true,"tools":[{"name":"read_fil","args":{"path":"a.go"},"confidence":0.5},` +
				`{"name":"list_dir","args":{"path":"src"},"confidence":0.8}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "list_dir", Args: args{"path": "src"}, Confidence: 0.8}},
			notes:  []string{"dropped read_fil: validation-error: unknown tool `read_fil`; did you mean `read_file`?"},
		},
		{
			name: "arguments failing the schema dropped",
			answer: `{"needs_tools":true,"tools":[{"name":"search","args":{"qeury":"x"},"confidence":0.5},` +
				`{"name":"glob","args":{"pattern":"**/*.go","max_results":"ten"},"confidence":0.5},` +
				`{"name":"file_exists","args":{"path":"go.mod"},"confidence":0.8}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "file_exists", Args: args{"path": "go.mod"}, Confidence: 0.8}},
			notes:  []string{"dropped search: validation-error: search: unknown argument `qeury`", "dropped glob: validation-error: glob: argument `max_results` must be an integer"},
		},
		{
			name: "paths escaping the root dropped, at any depth",
			answer: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"../secret"},"confidence":0.5},` +
				`{"name":"glob","args":{"pattern":"../**/*.pem"},"confidence":0.5},` +
				`{"name":"search","args":{"query":"k","include_paths":["/etc/*"]},"confidence":0.5},` +
				`{"name":"multi_edit","args":{"edits":[{"path":"/etc/passwd","old_string":"a","new_string":"b"}]},"confidence":0.5},` +
				`{"name":"list_dir","args":{"path":"/"},"confidence":0.5},` +
				`{"name":"list_dir","args":{"path":"docs"},"confidence":0.8}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "list_dir", Args: args{"path": "docs"}, Confidence: 0.8}},
			notes: []string{"dropped read_file: clean ../secret: path outside the project root", "dropped glob: glob ../**/*.pem",
				"dropped search: glob /etc/*", "dropped multi_edit: clean /etc/passwd", "dropped list_dir: clean /"},
		},
		{
			name:   "the sandbox's check decides when given",
			in:     Interpreter{Clean: func(p string) (string, error) { return strings.TrimPrefix(p, "/project/"), nil }},
			answer: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"/project/a.go"},"confidence":0.9}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "a.go"}, Confidence: 0.9}},
		},
		{
			name: "tools the session does not offer dropped",
			in:   Interpreter{Tools: []*definitions.Tool{definitions.ReadFile}},
			answer: `{"needs_tools":true,"tools":[{"name":"delete_file","args":{"path":"a.go"},"confidence":0.9},` +
				`{"name":"read_file","args":{"path":"a.go"},"confidence":0.9}],"rationale":"r"}`,
			source: SourceModel,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "a.go"}, Confidence: 0.9}},
			notes:  []string{"dropped delete_file: this session does not offer delete_file"},
		},
		{
			name:   "nothing valid left: the rules answer",
			answer: `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"../x"},"confidence":0.9}],"rationale":"r"}`,
			source: SourceRules,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "README.md"}, Confidence: sure}},
			notes:  []string{"the language model's plan was not used", "no valid tool call left", "outside the project root"},
		},
		{
			name:   "invalid JSON: the rules answer",
			answer: `{"needs_tools": tru`,
			source: SourceRules,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "README.md"}, Confidence: sure}},
			notes:  []string{"the language model's plan was not used (invalid plan"},
		},
		{
			name:   "unknown fields: the rules answer",
			answer: `{"needs_tools":true,"tools":[],"rationale":"r","plan":"x"}`,
			source: SourceRules,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "README.md"}, Confidence: sure}},
			notes:  []string{`unknown field "plan"`},
		},
		{
			name:   "data after the plan: the rules answer",
			answer: `{"needs_tools":false,"tools":[],"rationale":"r"} {}`,
			source: SourceRules,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "README.md"}, Confidence: sure}},
			notes:  []string{"data after the JSON object"},
		},
		{
			name:   "needs_tools missing: the rules answer",
			answer: `{"tools":[],"rationale":"r"}`,
			source: SourceRules,
			tools:  []ToolPlan{{Name: "read_file", Args: args{"path": "README.md"}, Confidence: sure}},
			notes:  []string{"needs_tools is missing"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := &fakeModel{answer: tc.answer}
			in := tc.in
			in.Model = m
			query := tc.query
			if query == "" {
				query = "read README.md"
			}
			p := in.Interpret(t.Context(), query, Context{})
			assert.Equal(t, tc.source, p.Source)
			assert.Equal(t, tc.tools, p.Tools)
			assert.Equal(t, len(tc.tools) > 0, p.NeedsTools)
			for _, n := range tc.notes {
				assert.Contains(t, p.Notes, n)
			}
			if tc.notes == nil {
				assert.Empty(t, p.Notes)
			}
		})
	}
}

func TestInterpretFallsBackWhenTheModelFails(t *testing.T) {
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	cases := []struct {
		name  string
		model *fakeModel
		ctx   func(t *testing.T) context.Context
		note  string
	}{
		{name: "model error", model: &fakeModel{err: errors.New("HTTP 503: overloaded")}, note: "model: HTTP 503: overloaded"},
		{
			name: "timeout, honoured by the model", model: &fakeModel{block: never, honour: true},
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
				t.Cleanup(cancel)
				return ctx
			},
			note: "context deadline exceeded",
		},
		{
			name: "timeout, ignored by the model", model: &fakeModel{block: never},
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
				t.Cleanup(cancel)
				return ctx
			},
			note: "context deadline exceeded",
		},
		{
			name: "context already done", model: &fakeModel{answer: `{"needs_tools":false,"tools":[],"rationale":"r"}`},
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				return ctx
			},
			note: "context canceled",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.ctx != nil {
				ctx = tc.ctx(t)
			}
			start := time.Now()
			p := (&Interpreter{Model: tc.model}).Interpret(ctx, "find all go files", Context{})
			assert.Less(t, time.Since(start), 5*time.Second)
			assert.Equal(t, SourceRules, p.Source)
			require.Len(t, p.Tools, 1)
			assert.Equal(t, ToolPlan{Name: "glob", Args: args{"pattern": "**/*.go"}, Confidence: sure}, p.Tools[0])
			assert.Contains(t, p.Notes, "the language model's plan was not used")
			assert.Contains(t, p.Notes, tc.note)
		})
	}
}

func TestPromptAndSchema(t *testing.T) {
	m := &fakeModel{answer: `{"needs_tools":false,"tools":[],"rationale":"r"}`}
	in := &Interpreter{Model: m, Tools: []*definitions.Tool{definitions.ReadFile, definitions.Search, definitions.DeleteFile}}
	in.Interpret(t.Context(), "where is \"Run\" defined?", session)
	prompt, schema := m.asked()
	assert.Equal(t, PlanSchema(), schema)
	for _, want := range []string{
		"- read_file: Read a text file of the project. (", "path*", "query*",
		"- delete_file: ", "[changes the project: the user approves it]",
		"relative to the project root", "secrets",
		"directory in focus (\"here\"): src", "current file (\"this file\", \"it\"): cmd/jido/main.go",
		"last listing (\"these files\"), 7 paths: a.go, docs/, b.md",
		`Query: "where is \"Run\" defined?"`,
	} {
		assert.Contains(t, prompt, want)
	}
	assert.NotContains(t, prompt, "list_dir", "only the offered tools are described")

	data, err := json.Marshal(PlanSchema())
	require.NoError(t, err)
	assert.JSONEq(t, `["needs_tools","tools","rationale"]`, string(mustField(t, data, "required")))
}

// mustField returns one top-level field of a JSON object.
func mustField(t *testing.T, data []byte, name string) json.RawMessage {
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &m))
	return m[name]
}

func TestRulesOnlyPlanOfferedTools(t *testing.T) {
	in := &Interpreter{Tools: []*definitions.Tool{definitions.ListDir, definitions.Search}}
	p := in.Interpret(t.Context(), "read main.go", Context{})
	assert.False(t, p.NeedsTools)
	assert.Empty(t, p.Tools)
	assert.Contains(t, p.Rationale, "needs read_file, which this session does not offer")
	assert.Equal(t, []string{"what's in this directory?", "search for TODO"}, p.Suggestions)

	p = in.Interpret(t.Context(), "what's in src", Context{})
	assert.Equal(t, []ToolPlan{{Name: "list_dir", Args: args{"path": "src"}, Confidence: sure}}, p.Tools)

	p = in.Interpret(t.Context(), "blah blah", Context{})
	assert.Equal(t, []string{"what's in this directory?", "search for TODO"}, p.Suggestions, "examples of hidden tools are left out")
}

func BenchmarkRules(b *testing.B) {
	queries := make([]string, 0, len(mapped)+len(unmapped)+len(contextCases))
	for _, tc := range mapped {
		queries = append(queries, tc.query)
	}
	for _, tc := range unmapped {
		queries = append(queries, tc.query)
	}
	for _, tc := range contextCases {
		queries = append(queries, tc.query)
	}
	Rules("warm up", Context{}) // compile the table
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Rules(queries[i%len(queries)], session)
	}
}
