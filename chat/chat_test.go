package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/testrun"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script is a LineReader that types the given lines, then ends the input.
type script struct {
	lines   []string
	prompts []string
	history []string
}

func (s *script) Prompt(p string) (string, error) {
	s.prompts = append(s.prompts, p)
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	if l == "^C" {
		return "", ErrInterrupted
	}
	return l, nil
}

func (s *script) AppendHistory(l string) { s.history = append(s.history, l) }

// scripted is a Provider replaying replies; it records the requests.
type scripted struct {
	mu       sync.Mutex
	replies  []agent.Message
	requests []agent.Request
	block    chan struct{} // if set, Complete waits for it or ctx
}

func (p *scripted) Name() string { return "scripted" }

func (p *scripted) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	p.mu.Lock()
	p.requests = append(p.requests, req)
	if len(p.replies) == 0 {
		p.mu.Unlock()
		return agent.Message{}, errors.New("script ran out")
	}
	m := p.replies[0]
	p.replies = p.replies[1:]
	p.mu.Unlock()
	if p.block != nil {
		select {
		case <-p.block:
		case <-ctx.Done():
			return agent.Message{}, ctx.Err()
		}
	}
	for _, w := range strings.SplitAfter(m.Text, " ") {
		if onText != nil && w != "" {
			onText(w)
		}
	}
	return m, nil
}

// executor answers every call with a fixed result per tool, given as the JSON of the
// tool's result type; its outcome is what the type says once the JSON is decoded into it.
type executor map[string]string

func (e executor) Execute(_ context.Context, c agent.ToolCall) agent.ToolResult {
	content, ok := e[c.Name]
	if !ok {
		return agent.ToolResult{CallID: c.ID, Name: c.Name, OK: false, Content: json.RawMessage(`{"type":"permission-error","message":"the user denied ` + c.Name + `"}`)}
	}
	res := agent.ToolResult{CallID: c.ID, Name: c.Name, OK: true, Content: json.RawMessage(content)}
	if typ, ok := builtin.ResultType(c.Name); ok {
		v := reflect.New(typ)
		if err := json.Unmarshal(res.Content, v.Interface()); err != nil {
			panic(fmt.Sprintf("%s: the fixed result does not decode as %s: %v", c.Name, typ, err))
		}
		res.Outcome = outcomeOf(v.Interface())
	}
	return res
}

// host records the slash commands.
type host struct {
	mode  string
	calls []string
	board *tasks.Board
}

func (h *host) Tools() []string { return []string{"read_file", "glob"} }
func (h *host) Board() *tasks.Board {
	if h.board == nil {
		h.board = tasks.New()
	}
	return h.board
}
func (h *host) Mode() string { return h.mode }
func (h *host) SetMode(m string) error {
	if m == "bogus" {
		return errors.New(`unknown mode "bogus"`)
	}
	h.mode = m
	return nil
}
func (h *host) Diff(context.Context) (string, error) {
	h.calls = append(h.calls, "diff")
	return "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-a\n+b\n", nil
}
func (h *host) Undo(context.Context) (string, error) {
	h.calls = append(h.calls, "undo")
	return "undone: 1 files restored, 0 removed", nil
}

func newAgent(p agent.Provider, e agent.Executor) *agent.Agent {
	return &agent.Agent{Provider: p, Exec: e, Tools: []agent.ToolSpec{
		{Name: "read_file", Parameters: map[string]any{"type": "object"}},
		{Name: "write_file", Parameters: map[string]any{"type": "object"}},
	}}
}

func TestREPLSession(t *testing.T) {
	p := &scripted{replies: []agent.Message{
		{Role: agent.Assistant, Text: "Let me look.", Calls: []agent.ToolCall{{ID: "c1", Name: "read_file", Args: map[string]any{"path": "README.md"}}}},
		{Role: agent.Assistant, Text: "It says hello."},
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c2", Name: "write_file", Args: map[string]any{"path": "x.txt", "content": "x"}}}},
		{Role: agent.Assistant, Text: "I was not allowed."},
	}}
	e := executor{"read_file": `{"path":"README.md","content":"     1\thello\n","total_lines":1,"start_line":1,"end_line":1}`}
	a := newAgent(p, e)
	in := &script{lines: []string{"what does the readme say?", "/tools", "/mode", "/mode plan", "/mode bogus", "/verbose", "write x", "/diff", "/undo", "/nope", "", "/clear", "/exit", "never read"}}
	var out, tr bytes.Buffer
	h := &host{mode: "default"}
	r := &REPL{Agent: a, Host: h, In: in, Out: &out, Transcript: NewTranscript(&tr, 0), Banner: "jido chat · scripted"}
	require.NoError(t, r.Run(t.Context()))

	got := out.String()
	for _, want := range []string{
		"jido chat · scripted\n",
		"Let me look.\n● read_file README.md → 1 line\nIt says hello.\n",
		"glob read_file\n",
		"mode: default\n", "mode: plan\n", `unknown mode "bogus"`,
		"verbose: on\n",
		`→ write_file {"content":"x","path":"x.txt"}`,
		"✗ write_file x.txt → permission-error: the user denied write_file\n",
		"I was not allowed.\n",
		"--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-a\n+b\n",
		"undone: 1 files restored, 0 removed\n",
		"unknown command /nope; /help lists them\n",
		"new conversation\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "\x1b[", "no colour unless asked")
	assert.Equal(t, []string{"diff", "undo"}, h.calls)
	assert.Equal(t, []string{"never read"}, in.lines, "/exit leaves at once")
	assert.Contains(t, in.history, "what does the readme say?")
	assert.Empty(t, a.History(), "/clear started a new conversation")

	saved := tr.String()
	assert.Equal(t, 2, strings.Count(saved, `"role":"user","text"`), "both requests were saved before the clear")
	history, err := LoadTranscript(strings.NewReader(saved))
	require.NoError(t, err)
	assert.Empty(t, history, "the transcript ends with the clear")
}

func TestREPLCtrlC(t *testing.T) {
	t.Run("twice at the prompt leaves", func(t *testing.T) {
		in := &script{lines: []string{"^C", "^C", "never read"}}
		var out bytes.Buffer
		r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: &host{}, In: in, Out: &out}
		require.NoError(t, r.Run(t.Context()))
		assert.Contains(t, out.String(), "press Ctrl-C again")
		assert.Equal(t, []string{"never read"}, in.lines)
	})
	t.Run("once, then a line, resets", func(t *testing.T) {
		in := &script{lines: []string{"^C", "/help", "^C", "/exit"}}
		var out bytes.Buffer
		r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: &host{}, In: in, Out: &out}
		require.NoError(t, r.Run(t.Context()))
		assert.Equal(t, 2, strings.Count(out.String(), "press Ctrl-C again"))
		assert.Empty(t, in.lines, "/exit was reached")
	})
	t.Run("during a turn stops it", func(t *testing.T) {
		p := &scripted{block: make(chan struct{}), replies: []agent.Message{{Role: agent.Assistant, Text: "never shown"}}}
		in := &script{lines: []string{"slow question"}}
		var out bytes.Buffer
		r := &REPL{Agent: newAgent(p, executor{}), Host: &host{}, In: in, Out: &out}
		done := make(chan error)
		go func() { done <- r.Run(t.Context()) }()
		require.Eventually(t, func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.cancel != nil }, timeoutForTests, tick)
		assert.False(t, r.Interrupt(), "stopping a turn does not leave")
		require.NoError(t, <-done)
		assert.Contains(t, out.String(), "(stopped)")
		assert.NotContains(t, out.String(), "never shown")
	})
}

func TestApprover(t *testing.T) {
	req := manager.ApprovalRequest{Tool: "write_file", Paths: []string{"a.txt"}, Reason: "mode default needs approval for write_file a.txt",
		Preview: "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new"}
	for _, tc := range []struct {
		lines []string
		want  manager.Answer
	}{
		{[]string{"y"}, manager.AllowOnce},
		{[]string{"yes"}, manager.AllowOnce},
		{[]string{"s"}, manager.AllowSession},
		{[]string{"A"}, manager.AllowAlways},
		{[]string{"n"}, manager.Deny},
		{[]string{""}, manager.Deny},
		{[]string{"maybe", "y"}, manager.AllowOnce},
		{nil, manager.Deny}, // end of input
	} {
		var out bytes.Buffer
		a := NewApprover(&script{lines: tc.lines}, &out, false)
		got, err := a.Approve(t.Context(), req)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%q", tc.lines)
		assert.Contains(t, out.String(), "write_file a.txt\n  mode default needs approval")
		assert.Contains(t, out.String(), "  -old\n  +new\n")
	}

	var out bytes.Buffer
	interrupted := false
	a := NewApprover(&script{lines: []string{"^C"}}, &out, true)
	a.OnInterrupt = func() { interrupted = true }
	got, _ := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "run_shell", Commands: []string{"rm -rf build"}, Class: "destructive", Preview: "rm -rf build"})
	assert.Equal(t, manager.Deny, got)
	assert.True(t, interrupted)
	assert.Contains(t, out.String(), "run_shell wants to run: rm -rf build (destructive)")
	assert.Contains(t, out.String(), "\x1b[", "coloured when asked")
}

func TestApproverShowsTheRuleItRecords(t *testing.T) {
	var out bytes.Buffer
	a := NewApprover(&script{lines: []string{"n"}}, &out, false)
	_, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "run_shell", Commands: []string{"echo tick"}, Class: "read-only", Preview: "echo tick",
		Rule: "[[allow]]\ntool = \"run_shell\"\ncommand = \"echo tick\"\nclass = \"read-only\""})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "[s] and [a] allow from now on:\n    [[allow]]\n    tool = \"run_shell\"\n    command = \"echo tick\"\n    class = \"read-only\"\n")
}

// TestOutcome checks the line shown for a finished call, as the executor makes it from
// the call's typed result (or its error).
func TestOutcome(t *testing.T) {
	exit := func(code int) *builtin.ShellResult {
		return &builtin.ShellResult{Result: &shell.Result{ExitCode: code}}
	}
	for _, tc := range []struct {
		call   agent.ToolCall
		result any // a built-in result type, or a *definitions.ToolError
		want   string
	}{
		{agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "a.go"}}, &definitions.ReadFileResult{TotalLines: 212, StartLine: 1, EndLine: 212}, "● read_file a.go → 212 lines"},
		{agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "a.go"}}, &definitions.ReadFileResult{TotalLines: 212, StartLine: 10, EndLine: 20}, "● read_file a.go → lines 10-20 of 212"},
		{agent.ToolCall{Name: "edit_file", Args: map[string]any{"path": "a.go"}}, &definitions.EditFileResult{FileDiff: definitions.FileDiff{LinesAdded: 3, LinesRemoved: 1}}, "● edit_file a.go → +3 -1"},
		{agent.ToolCall{Name: "multi_edit", Args: map[string]any{"path": "a.go"}}, &definitions.MultiEditResult{Files: []definitions.FileDiff{{LinesAdded: 2}, {LinesAdded: 1, LinesRemoved: 4}}}, "● multi_edit a.go → +3 -4 in 2 files"},
		{agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "n.go"}}, &definitions.WriteFileResult{BytesWritten: 10, Created: true}, "● write_file n.go → created, 10 bytes"},
		{agent.ToolCall{Name: "list_dir", Args: map[string]any{"path": "."}}, &definitions.ListDirResult{Entries: make([]definitions.DirEntry, 2)}, "● list_dir . → 2 entries"},
		{agent.ToolCall{Name: "glob", Args: map[string]any{"pattern": "**/*.go"}}, &definitions.FileList{Count: 1}, "● glob **/*.go → 1 file"},
		{agent.ToolCall{Name: "search", Args: map[string]any{"query": "TODO"}}, &definitions.SearchResult{Count: 4}, "● search TODO → 4 matches"},
		{agent.ToolCall{Name: "run_shell", Args: map[string]any{"command": "go test ./...\nmore"}}, exit(1), "● run_shell go test ./...… → exit 1"},
		{agent.ToolCall{Name: "run_shell", Args: map[string]any{"cmd": []any{"ls", "-l"}}}, exit(0), "● run_shell ls -l → exit 0"},
		{agent.ToolCall{Name: "run_tests"}, &builtin.RunTestsResult{Summary: &testrun.Summary{Passed: 5, Failed: 1}}, "● run_tests → 5 passed, 1 failed"},
		{agent.ToolCall{Name: "run_tests"}, &builtin.RunTestsResult{Summary: &testrun.Summary{Passed: 36, Errors: 8}}, "● run_tests → 36 passed, 0 failed, 8 errors"},
		{agent.ToolCall{Name: "move_file", Args: map[string]any{"source": "a"}}, &definitions.MoveFileResult{Destination: "b"}, "● move_file a → moved to b"},
		{agent.ToolCall{Name: "file_exists", Args: map[string]any{"path": "x"}}, &definitions.FileExistsResult{}, "● file_exists x → does not exist"},
		{agent.ToolCall{Name: "my_lua_tool"}, map[string]any{"x": 1.0}, "● my_lua_tool → done"},
		{agent.ToolCall{Name: "write_file", Args: map[string]any{"path": ".env"}}, definitions.NewError(definitions.PermissionError, "write .env: secret file"), "✗ write_file .env → permission-error: write .env: secret file"},
	} {
		res := manager.ToolResult{Name: tc.call.Name, OK: true, Result: tc.result}
		if e, ok := tc.result.(*definitions.ToolError); ok {
			res = manager.ToolResult{Name: tc.call.Name, Error: e}
		}
		assert.Equal(t, tc.want, style{}.toolLine(tc.call, agentResult(tc.call, res)))
	}
}

func TestTranscriptRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	tr := NewTranscript(&buf, 0)
	h := []agent.Message{
		{Role: agent.User, Text: "hi"},
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c1", Name: "glob", Args: map[string]any{"pattern": "*"}}}},
		{Role: agent.User, Results: []agent.ToolResult{{CallID: "c1", Name: "glob", OK: true, Content: json.RawMessage(`{"count":0}`)}}},
	}
	require.NoError(t, tr.Sync(h[:1]))
	require.NoError(t, tr.Sync(h))
	require.NoError(t, tr.Sync(h), "nothing new: nothing written")
	assert.Equal(t, 3, strings.Count(buf.String(), "\n"))
	got, err := LoadTranscript(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, h, got)

	torn := buf.String() + `{"time":"2026-01-01T00:00:00Z","message":{"role":"us`
	got, err = LoadTranscript(strings.NewReader(torn))
	require.NoError(t, err, "a last line cut by a crash is ignored")
	assert.Len(t, got, 3)
	_, err = LoadTranscript(strings.NewReader("garbage\n" + buf.String()))
	assert.ErrorContains(t, err, "transcript line 1")
}

func TestAskJSON(t *testing.T) {
	p := &scripted{replies: []agent.Message{
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c1", Name: "read_file", Args: map[string]any{"path": "go.mod"}}}},
		{Role: agent.Assistant, Text: "The module is x."},
	}}
	var out bytes.Buffer
	a := newAgent(p, executor{"read_file": `{"total_lines":1,"start_line":1,"end_line":1}`})
	require.NoError(t, Ask(t.Context(), a, "what module?", &out, true, false))
	var res AskResult
	require.NoError(t, json.Unmarshal(out.Bytes(), &res))
	assert.Equal(t, "The module is x.", res.Answer)
	assert.Equal(t, "scripted", res.Provider)
	require.Len(t, res.Calls, 1)
	assert.Equal(t, "1 line", res.Calls[0].Outcome)
	assert.Equal(t, 1, strings.Count(out.String(), "\n"), "one JSON object")

	out.Reset()
	p.replies = []agent.Message{{Role: agent.Assistant, Text: "Plain."}}
	require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "q", &out, false, false))
	assert.Equal(t, "Plain.\n", out.String())
}

const (
	timeoutForTests = 5 * time.Second
	tick            = 5 * time.Millisecond
)

// TestTasksCommand checks that /tasks shows the session's todos and tasks, or says there
// are none.
func TestTasksCommand(t *testing.T) {
	h := &host{mode: "default"}
	var out bytes.Buffer
	r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h, In: &script{lines: []string{"/tasks"}}, Out: &out}
	require.NoError(t, r.Run(t.Context()))
	assert.Contains(t, out.String(), "no todos or tasks yet")

	_, terr := h.Board().Todo(definitions.TodoWriteParams{Action: "create", Title: "fix the parser", Labels: []string{"bug"}})
	require.Nil(t, terr)
	_, terr2 := h.Board().Task(definitions.TaskParams{Action: "create", Title: "ship 1.0", Priority: "high"})
	require.Nil(t, terr2)
	out.Reset()
	r = &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h, In: &script{lines: []string{"/tasks"}}, Out: &out}
	require.NoError(t, r.Run(t.Context()))
	assert.Contains(t, out.String(), "- [ ] fix the parser [bug]")
	assert.Contains(t, out.String(), "## task-1: ship 1.0")
}
