package offline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
)

// executor runs one call; the tests' stand-in for a session.
type executor func(agent.ToolCall) agent.ToolResult

// specs offers the named tools, or every tool when none is named.
func specs(names ...string) []agent.ToolSpec {
	var out []agent.ToolSpec
	for _, t := range definitions.All() {
		if len(names) == 0 || containsName(names, t.Name) {
			out = append(out, agent.ToolSpec{Name: t.Name, Description: t.Description})
		}
	}
	return out
}

func containsName(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// conversation drives the provider the way the agent loop does: each query is a user
// message; the calls the provider plans run through exec and their results go back, until
// the provider answers with text alone.
type conversation struct {
	t     *testing.T
	p     *Provider
	tools []agent.ToolSpec
	exec  executor
	msgs  []agent.Message
	calls [][]agent.ToolCall // the calls of each turn
}

// ask runs one turn and returns the final text (checked to be what was streamed).
func (c *conversation) ask(query string) string {
	c.t.Helper()
	c.msgs = append(c.msgs, agent.Message{Role: agent.User, Text: query})
	var turnCalls []agent.ToolCall
	for range 5 {
		var streamed strings.Builder
		reply, err := c.p.Complete(c.t.Context(), agent.Request{Messages: c.msgs, Tools: c.tools}, func(s string) { streamed.WriteString(s) })
		require.NoError(c.t, err)
		require.Equal(c.t, agent.Assistant, reply.Role)
		assert.Equal(c.t, reply.Text, streamed.String(), "the text is streamed")
		c.msgs = append(c.msgs, reply)
		if len(reply.Calls) == 0 {
			c.calls = append(c.calls, turnCalls)
			return reply.Text
		}
		turnCalls = append(turnCalls, reply.Calls...)
		results := agent.Message{Role: agent.User}
		for _, call := range reply.Calls {
			r := c.exec(call)
			r.CallID, r.Name = call.ID, call.Name
			results.Results = append(results.Results, r)
		}
		c.msgs = append(c.msgs, results)
	}
	c.t.Fatalf("%q: the provider kept calling tools", query)
	return ""
}

// lastCalls are the calls of the last turn.
func (c *conversation) lastCalls() []agent.ToolCall { return c.calls[len(c.calls)-1] }

// ok is a successful result with content v.
func ok(v any) agent.ToolResult {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return agent.ToolResult{OK: true, Content: data}
}

// canned answers every call with the result of its tool, shaped like the real tools'.
func canned(results map[string]agent.ToolResult) executor {
	return func(c agent.ToolCall) agent.ToolResult {
		r, found := results[c.Name]
		if !found {
			return agent.ToolResult{Content: json.RawMessage(`{"type":"internal-error","message":"no canned result"}`)}
		}
		return r
	}
}

func TestRenderEachToolKind(t *testing.T) {
	files := make([]map[string]any, 250)
	for i := range files {
		files[i] = map[string]any{"path": fmt.Sprintf("f%03d.go", i), "size": 1, "type": "file"}
	}
	cases := []struct {
		name   string
		query  string
		result agent.ToolResult
		call   agent.ToolCall // the call planned (name and args)
		want   []string       // in the final text, in order
		not    []string
	}{
		{
			name: "read_file", query: "read main.go",
			result: ok(map[string]any{"path": "main.go", "content": "     1\tpackage main\n     2\t\n     3\tfunc main() {}\n", "total_lines": 3, "start_line": 1, "end_line": 3}),
			call:   agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "main.go"}},
			want:   []string{"main.go (3 lines)\n     1\tpackage main\n     2\t\n     3\tfunc main() {}"},
		},
		{
			name: "read_file range", query: "show lines 2 to 3 of main.go",
			result: ok(map[string]any{"path": "main.go", "content": "     2\t\n     3\tfunc main() {}\n", "total_lines": 10, "start_line": 2, "end_line": 3, "truncated": true, "next_offset": 4}),
			call:   agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "main.go", "start_line": 2, "end_line": 3}},
			want:   []string{"main.go (lines 2-3 of 10)", "(7 lines more; ask \"show lines 4 to 10 of main.go\")"},
		},
		{
			name: "list_dir", query: "what's in src?",
			result: ok(map[string]any{"path": "src", "entries": []map[string]any{{"name": "lib", "type": "dir"}, {"name": "main.go", "type": "file"}}, "listing": "lib/\nmain.go\n(2 ignored by .gitignore or .jidoignore; no_ignore lists them)\n", "ignored": 2}),
			call:   agent.ToolCall{Name: "list_dir", Args: map[string]any{"path": "src"}},
			want:   []string{"src (2 entries):\nlib/\nmain.go\n(2 ignored by .gitignore or .jidoignore; no_ignore lists them)"},
			not:    []string{"more ignored"},
		},
		{
			name: "list_dir empty", query: "ls empty",
			result: ok(map[string]any{"path": "empty", "entries": []any{}, "listing": ""}),
			call:   agent.ToolCall{Name: "list_dir", Args: map[string]any{"path": "empty"}},
			want:   []string{"empty is empty."},
		},
		{
			name: "list_files", query: "show me the tree",
			result: ok(map[string]any{"files": []map[string]any{{"path": "src", "type": "dir"}, {"path": "src/main.go", "type": "file"}}, "count": 2}),
			call:   agent.ToolCall{Name: "list_files", Args: map[string]any{"directory": "."}},
			want:   []string{"2 entries under .:\nsrc/\nsrc/main.go"},
		},
		{
			name: "glob, first 200", query: "find all go files",
			result: ok(map[string]any{"files": files, "count": 250, "truncated": true}),
			call:   agent.ToolCall{Name: "glob", Args: map[string]any{"pattern": "**/*.go"}},
			want:   []string{"250 files match **/*.go:\nf000.go\nf001.go", "f199.go\n... and 50 more", "(cut at max_results"},
			not:    []string{"f200.go"},
		},
		{
			name: "glob, nothing", query: "where is nope.go",
			result: ok(map[string]any{"files": []any{}, "count": 0}),
			call:   agent.ToolCall{Name: "glob", Args: map[string]any{"pattern": "**/nope.go"}},
			want:   []string{"No files match **/nope.go."},
		},
		{
			name: "search", query: "search for func main",
			result: ok(map[string]any{"output_mode": "content", "matches": []map[string]any{
				{"path": "main.go", "line": 3, "column": 1, "match_text": "func main", "text": "func main() {}"},
				{"path": "cmd/x.go", "line": 9, "column": 1, "match_text": "func main", "text": "func main() {"},
			}, "count": 2, "files_searched": 5}),
			call: agent.ToolCall{Name: "search", Args: map[string]any{"query": "func main"}},
			want: []string{"main.go:3: func main() {}\ncmd/x.go:9: func main() {", `2 matches for "func main" (5 files searched)`},
		},
		{
			name: "search, files with matches", query: "which files contain Provider",
			result: ok(map[string]any{"output_mode": "files_with_matches", "files": []string{"a.go", "b.go"}, "count": 2, "files_searched": 9, "truncated": true}),
			call:   agent.ToolCall{Name: "search", Args: map[string]any{"query": "Provider", "output_mode": "files_with_matches"}},
			want:   []string{"a.go\nb.go", `2 files with matches for "Provider" (9 files searched); more were cut`},
		},
		{
			name: "search, nothing", query: "search for zebra",
			result: ok(map[string]any{"output_mode": "content", "count": 0, "files_searched": 1}),
			call:   agent.ToolCall{Name: "search", Args: map[string]any{"query": "zebra"}},
			want:   []string{`No matches for "zebra" (1 file searched).`},
		},
		{
			name: "file_exists, yes", query: "does go.mod exist?",
			result: ok(map[string]any{"path": "go.mod", "exists": true, "type": "file", "size": 10}),
			call:   agent.ToolCall{Name: "file_exists", Args: map[string]any{"path": "go.mod"}},
			want:   []string{"yes, go.mod exists (file)"},
		},
		{
			name: "file_exists, no", query: "is there a Makefile",
			result: ok(map[string]any{"path": "Makefile", "exists": false}),
			call:   agent.ToolCall{Name: "file_exists", Args: map[string]any{"path": "Makefile"}},
			want:   []string{"no, Makefile does not exist"},
		},
		{
			name: "run_tests", query: "run the tests",
			result: ok(map[string]any{"runner": "go", "command": []string{"go", "test", "-json", "./..."}, "total": 13, "passed": 10, "failed": 2, "skipped": 1,
				"duration_ms": 1234, "parsed": true, "exit_code": 1, "failures": []map[string]any{
					{"name": "pkg/TestA", "file": "a_test.go", "line": 12, "message": "want 1, got 2\nmore"},
					{"name": "pkg/TestB", "message": ""},
				}}),
			call: agent.ToolCall{Name: "run_tests", Args: map[string]any{}},
			want: []string{"go tests: 10 passed, 2 failed, 1 skipped (1.2s)\nFailed:\n- pkg/TestA (a_test.go:12)\n  want 1, got 2\n- pkg/TestB"},
			not:  []string{"more"},
		},
		{
			name: "error", query: "read src/nope.go",
			result: agent.ToolResult{Content: json.RawMessage(`{"type":"file-error","message":"open src/nope.go: file does not exist","details":{"path":"src/nope.go"},"recovery":["Check the path with list_dir or glob"]}`)},
			call:   agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "src/nope.go"}},
			want:   []string{"file-error: open src/nope.go: file does not exist\n  hint: Check the path with list_dir or glob"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &conversation{t: t, p: New(nil), tools: specs(), exec: canned(map[string]agent.ToolResult{tc.call.Name: tc.result})}
			text := c.ask(tc.query)
			require.Len(t, c.lastCalls(), 1)
			got := c.lastCalls()[0]
			assert.Equal(t, "call-1", got.ID)
			assert.Equal(t, tc.call.Name, got.Name)
			assert.Equal(t, tc.call.Args, got.Args)
			rest := text
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				require.GreaterOrEqual(t, i, 0, "%q not in (the rest of)\n%s", w, text)
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				assert.NotContains(t, text, n)
			}
		})
	}
}

func TestRenderUnknownAndShortenedResults(t *testing.T) {
	r := agent.ToolResult{Name: "undo", OK: true, Content: json.RawMessage(`{"undone":"c1"}`)}
	assert.Equal(t, `undo: {"undone":"c1"}`, render(r, agent.ToolCall{}))

	r = agent.ToolResult{Name: "read_file", OK: true, Content: json.RawMessage(`{"truncated":true,"note":"cut","head":"{\"path\":"}`), Note: "the result was cut"}
	assert.Equal(t, "read_file: {\"truncated\":true,\"note\":\"cut\",\"head\":\"{\\\"path\\\":\"}\n(the result was cut)", render(r, agent.ToolCall{}), "a result that lost its shape is shown as it is")

	files := make([]definitions.FileInfo, 600)
	for i := range files {
		files[i] = definitions.FileInfo{Path: fmt.Sprintf("pkg/file%03d.go", i), Type: "file"}
	}
	data, err := json.Marshal(definitions.FileList{Count: 600, Files: files})
	require.NoError(t, err)
	cut, note := jsoncap.Cap(data, 4000)
	r = agent.ToolResult{Name: "glob", OK: true, Content: cut, Note: note}
	text := render(r, agent.ToolCall{Name: "glob", Args: map[string]any{"pattern": "**/*.go"}})
	assert.True(t, strings.HasPrefix(text, "600 files match **/*.go:\npkg/file000.go\n"), "a listing cut to fit the conversation is rendered: %s", text)
	assert.Regexp(t, `\.\.\. and \d+ more$`, text)

	r = agent.ToolResult{Name: "search", OK: true, Content: json.RawMessage(`[1,2]`)}
	assert.Equal(t, "search: [1,2]", render(r, agent.ToolCall{}), "content of another shape is shown as JSON")

	r = agent.ToolResult{Name: "glob", Content: json.RawMessage(`"boom"`)}
	assert.Equal(t, `glob failed: "boom"`, render(r, agent.ToolCall{}))

	long := agent.ToolResult{Name: "undo", OK: true, Content: json.RawMessage(`"` + strings.Repeat("é", maxRaw) + `"`)}
	assert.LessOrEqual(t, len(render(long, agent.ToolCall{})), len("undo: ")+maxRaw+len("..."))
}

// listing is a list_dir result of src with two files and a directory.
var listing = ok(map[string]any{"path": "src", "entries": []map[string]any{
	{"name": "lib", "type": "dir"}, {"name": "a.go", "type": "file"}, {"name": "b.go", "type": "file"},
}, "listing": "lib/\na.go\nb.go\n"})

func TestContextFromHistory(t *testing.T) {
	read := func(c agent.ToolCall) agent.ToolResult {
		p := c.Args["path"].(string)
		return ok(map[string]any{"path": p, "content": "     1\t// " + p + "\n", "total_lines": 1, "start_line": 1, "end_line": 1})
	}
	exec := func(c agent.ToolCall) agent.ToolResult {
		switch c.Name {
		case "read_file":
			return read(c)
		case "list_dir":
			return listing
		case "search":
			return ok(map[string]any{"output_mode": "content", "matches": []map[string]any{
				{"path": "x/one.go", "line": 1, "text": "TODO"}, {"path": "x/one.go", "line": 5, "text": "TODO"}, {"path": "two.go", "line": 2, "text": "TODO"},
			}, "count": 3})
		case "glob":
			return ok(map[string]any{"files": []map[string]any{{"path": "g/a.md", "type": "file"}}, "count": 1})
		}
		return ok(map[string]any{"path": c.Args["path"], "exists": true, "type": "file"})
	}
	c := &conversation{t: t, p: New(nil), tools: specs(), exec: exec}

	c.ask("ls src")
	text := c.ask("read these files")
	assert.Equal(t, []agent.ToolCall{
		{ID: "call-2", Name: "read_file", Args: map[string]any{"path": "src/a.go"}},
		{ID: "call-3", Name: "read_file", Args: map[string]any{"path": "src/b.go"}},
	}, c.lastCalls(), "the listing's files, not its directory")
	assert.Contains(t, text, "src/a.go (1 line)\n     1\t// src/a.go\n\nsrc/b.go (1 line)\n     1\t// src/b.go")

	c.ask("what's here")
	assert.Equal(t, map[string]any{"path": "src"}, c.lastCalls()[0].Args, "the listed directory is in focus")

	c.ask("show lines 1 to 1 of the current file")
	assert.Equal(t, map[string]any{"path": "src/b.go", "start_line": 1, "end_line": 1}, c.lastCalls()[0].Args, "the file read last")

	c.ask("does it exist?")
	assert.Equal(t, agent.ToolCall{ID: "call-6", Name: "file_exists", Args: map[string]any{"path": "src/b.go"}}, c.lastCalls()[0])

	c.ask("list todos")
	c.ask("open these files")
	assert.Equal(t, []any{"x/one.go", "two.go"}, []any{c.lastCalls()[0].Args["path"], c.lastCalls()[1].Args["path"]},
		"the files a search found, each once")

	c.ask("find all markdown files")
	c.ask("read them")
	assert.Equal(t, map[string]any{"path": "g/a.md"}, c.lastCalls()[0].Args)

	// A conversation that is resumed reads the same: the provider keeps no state.
	resumed := &conversation{t: t, p: New(nil), tools: specs(), exec: exec, msgs: c.msgs}
	resumed.ask("read it")
	assert.Equal(t, agent.ToolCall{ID: "call-12", Name: "read_file", Args: map[string]any{"path": "g/a.md"}}, resumed.lastCalls()[0])
}

func TestAnswersWithoutTools(t *testing.T) {
	cases := []struct {
		name  string
		tools []agent.ToolSpec
		query string
		want  []string
	}{
		{name: "unmappable", tools: specs(), query: "what's the weather like?",
			want: []string{"I could not match this to a tool", "\n- what's in this directory?\n- find all go files\n- read README.md\n- search for TODO"}},
		{name: "a change", tools: specs(), query: "delete main.go", want: []string{"do not guess at changes", "\n- read README.md"}},
		{name: "a tool not offered", tools: specs("list_dir", "glob"), query: "read main.go",
			want: []string{"This needs read_file, which this session does not offer", "\n- what's in this directory?\n- find all go files"}},
		{name: "no tools at all", tools: nil, query: "what's in src",
			want: []string{"This needs list_dir, which this session does not offer"}},
		{name: "no current file", tools: specs(), query: "read it", want: []string{"There is no current file yet", "- read README.md"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &conversation{t: t, p: New(nil), tools: tc.tools, exec: canned(nil)}
			text := c.ask(tc.query)
			assert.Empty(t, c.lastCalls())
			for _, w := range tc.want {
				assert.Contains(t, text, w)
			}
			assert.NotContains(t, text, "read_file\n- read README.md", "hidden tools are not suggested")
		})
	}
}

func TestOnlyOfferedToolsAreCalled(t *testing.T) {
	// The interpreter may know more tools than the request offers; the request wins.
	p := New(&interpret.Interpreter{Tools: []*definitions.Tool{definitions.ListDir, definitions.ReadFile}})
	c := &conversation{t: t, p: p, tools: specs("read_file", "glob"), exec: canned(map[string]agent.ToolResult{"read_file": ok(map[string]any{"path": "a.go"})})}
	c.ask("read a.go")
	require.Len(t, c.lastCalls(), 1)
	text := c.ask("ls")
	assert.Empty(t, c.lastCalls())
	assert.Contains(t, text, "does not offer")
	text = c.ask("find all go files")
	assert.Empty(t, c.lastCalls(), "glob is offered by the request but not known to the interpreter")
	assert.Contains(t, text, "does not offer")
}

// failingModel is a model that always fails.
type failingModel struct{}

func (failingModel) AskJSON(context.Context, string, map[string]any) ([]byte, error) {
	return nil, &agent.APIError{Provider: "gemini", Status: 503, Message: "overloaded"}
}

func TestModelFailureIsNoted(t *testing.T) {
	c := &conversation{t: t, p: New(&interpret.Interpreter{Model: failingModel{}}), tools: specs(), exec: canned(map[string]agent.ToolResult{"list_dir": listing})}
	c.ask("ls src")
	first := c.msgs[1]
	assert.Contains(t, first.Text, "List src.\n(the language model's plan was not used (model: gemini: HTTP 503: overloaded), so the rules answered)")
}

func TestCompleteRefusesNothingToAnswer(t *testing.T) {
	p := New(nil)
	assert.Equal(t, "offline (rule-based interpreter)", p.Name())
	_, err := p.Complete(t.Context(), agent.Request{}, nil)
	require.ErrorIs(t, err, ErrNothingToAnswer)
	var apiErr *agent.APIError
	assert.False(t, errors.As(err, &apiErr), "not a service error: the loop must not retry it")
	_, err = p.Complete(t.Context(), agent.Request{Messages: []agent.Message{{Role: agent.Assistant, Text: "hi"}}}, nil)
	require.ErrorIs(t, err, ErrNothingToAnswer)

	reply, err := p.Complete(t.Context(), agent.Request{Messages: []agent.Message{{Role: agent.User, Text: "hello"}}}, nil)
	require.NoError(t, err, "onText may be nil")
	assert.Contains(t, reply.Text, "Nothing to look up")
}

// sessionExecutor runs calls in a real session, as cmd/jido does.
func sessionExecutor(t *testing.T, s *manager.Session) executor {
	return func(c agent.ToolCall) agent.ToolResult {
		res := s.Call(t.Context(), manager.ToolCall{ID: c.ID, Name: c.Name, Args: c.Args})
		var v any = res.Result
		if !res.OK {
			v = res.Error
		}
		content, err := json.Marshal(v)
		require.NoError(t, err)
		return agent.ToolResult{OK: res.OK, Content: content}
	}
}

// The renderers read the real tools' results: a conversation against a real session.
func TestWithRealSession(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.26\n",
		"main.go":         "package main\n\n// TODO: say more\nfunc main() {}\n",
		"lib/lib.go":      "package lib\n\nfunc Lib() {}\n",
		"docs/README.md":  "# Docs\n",
		"docs/notes.txt":  "nothing\n",
		"lib/lib_test.go": "package lib\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	m, err := manager.New(manager.Config{Root: root, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	var offered []agent.ToolSpec
	for _, tool := range s.Tools() {
		offered = append(offered, agent.ToolSpec{Name: tool.Name})
	}
	c := &conversation{t: t, p: New(&interpret.Interpreter{Tools: s.Tools()}), tools: offered, exec: sessionExecutor(t, s)}

	steps := []struct{ query, want string }{
		{"what's in this directory?", ". (4 entries):\ndocs/\nlib/\ngo.mod\nmain.go"},
		{"read main.go", "main.go (4 lines)\n     1\tpackage main\n     2\t\n     3\t// TODO: say more\n     4\tfunc main() {}"},
		{"show lines 3 to 4 of it", "main.go (lines 3-4 of 4)\n     3\t// TODO: say more"},
		{"find all go files", "3 files match **/*.go:"},
		{"search for func", `2 matches for "func" (`},
		{"list todos", "main.go:3: // TODO: say more"},
		{"does go.mod exist?", "yes, go.mod exists (file)"},
		{"is there a Makefile?", "no, Makefile does not exist"},
		{"show me the tree of docs", "2 entries under docs:\ndocs/README.md\ndocs/notes.txt"},
		{"cd docs", "docs (2 entries):\nREADME.md\nnotes.txt"},
		{"read these files", "docs/README.md (1 line)\n     1\t# Docs\n\ndocs/notes.txt (1 line)"},
		{"read nope.go", "No file is named like nope.go."},
		{"read the readme", "docs/README.md (1 line)\n     1\t# Docs"},
		{"read LIB.GO", "lib/lib.go (3 lines)"},
		{"read lib/none.go", "file-error: "},
	}
	for _, st := range steps {
		text := c.ask(st.query)
		assert.Contains(t, text, st.want, st.query)
	}
}
