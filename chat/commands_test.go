package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callHost is a host that also runs the user's calls (Caller): each tool answers with a
// fixed JSON result, or fails with a file-error when it has none.
type callHost struct {
	host
	results map[string]string // tool -> result JSON
	plan    int               // files the plan changes (plan_diff)
	user    []string          // the calls run: "tool arg typed"
}

func (h *callHost) UserCall(_ context.Context, c agent.ToolCall, typed bool) agent.ToolResult {
	arg := ""
	for _, k := range []string{"path", "command"} {
		if v, ok := c.Args[k].(string); ok {
			arg = v
		}
	}
	h.user = append(h.user, strings.TrimSpace(c.Name+" "+arg+" "+map[bool]string{true: "typed"}[typed]))
	content, ok := h.results[c.Name+" "+arg]
	switch {
	case c.Name == "plan_diff":
		content, ok = `{"changes":[],"files":`+jsonInt(h.plan)+`}`, true
	case c.Name == "plan_apply":
		content, ok = `{"changes":[],"files":`+jsonInt(h.plan)+`,"applied":true}`, true
		h.plan = 0
	}
	if !ok {
		return agent.ToolResult{Name: c.Name, Content: json.RawMessage(`{"type":"file-error","message":"no such file"}`)}
	}
	return agent.ToolResult{Name: c.Name, OK: true, Content: json.RawMessage(content)}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// runLines runs a REPL over the lines and returns its output.
func runLines(t *testing.T, r *REPL, lines ...string) string {
	t.Helper()
	var out bytes.Buffer
	r.In, r.Out = &script{lines: lines}, &out
	require.NoError(t, r.Run(t.Context()))
	return out.String()
}

// texts are the user texts of the last message of each request.
func texts(p *scripted) []string {
	var out []string
	for _, req := range p.requests {
		out = append(out, req.Messages[len(req.Messages)-1].Text)
	}
	return out
}

func TestREPLInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    string
		lines   []string
		sent    []string
		prompts []string
	}{
		{name: "a backslash goes on on the next line", lines: []string{`first \`, `second\`, "third"},
			sent: []string{"first \nsecond\nthird"}, prompts: []string{"jido › ", "… ", "… ", "jido › "}},
		{name: "the mode is in the prompt", mode: "plan", lines: []string{"hi"},
			sent: []string{"hi"}, prompts: []string{"jido [plan] › ", "jido [plan] › "}},
		{name: "a multi-line message is one turn", lines: []string{"one\ntwo\nthree"},
			sent: []string{"one\ntwo\nthree"}, prompts: []string{"jido › ", "jido › "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}}}
			in := &script{lines: tc.lines}
			r := &REPL{Agent: newAgent(p, executor{}), Host: &host{mode: tc.mode}, In: in, Out: &bytes.Buffer{}}
			require.NoError(t, r.Run(t.Context()))
			assert.Equal(t, tc.sent, texts(p))
			assert.Equal(t, tc.prompts, in.prompts)
		})
	}
}

func TestREPLPlanApply(t *testing.T) {
	t.Run("apply, then leave", func(t *testing.T) {
		h := &callHost{host: host{mode: "plan"}, plan: 2}
		p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}}}
		r := &REPL{Agent: newAgent(p, executor{}), Host: h}
		out := runLines(t, r, "/exit", "/apply", "go on", "/exit", "never read")
		assert.Contains(t, out, "the plan changes 2 files; /apply it, or type /exit again to drop it")
		assert.Contains(t, out, "● plan_apply → ")
		assert.Contains(t, out, "plan applied")
		assert.Equal(t, []string{"plan_diff", "plan_diff", "plan_apply", "plan_diff"}, h.user, "plan_apply not typed: it is asked about")
		assert.Equal(t, []string{"I applied the plan: 2 files written to the project.\n\ngo on"}, texts(p))
	})
	t.Run("the second /exit drops it", func(t *testing.T) {
		h := &callHost{host: host{mode: "plan"}, plan: 1}
		in := &script{lines: []string{"/exit", "/exit", "never read"}}
		var out bytes.Buffer
		r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h, In: in, Out: &out}
		require.NoError(t, r.Run(t.Context()))
		assert.Contains(t, out.String(), "the plan changes 1 file;")
		assert.Equal(t, []string{"never read"}, in.lines)
	})
	t.Run("leaving plan mode warns once", func(t *testing.T) {
		h := &callHost{host: host{mode: "plan"}, plan: 3}
		r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h}
		out := runLines(t, r, "/mode default", "/tasks", "/mode default", "/mode default")
		assert.Equal(t, 2, strings.Count(out, "type /mode again to drop it"), "another command in between: warned again")
		assert.Equal(t, "default", h.mode)
		assert.Contains(t, out, "mode: default")
	})
	t.Run("no plan, no warning", func(t *testing.T) {
		h := &callHost{host: host{mode: "plan"}}
		r := &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h}
		out := runLines(t, r, "/apply", "/mode default", "/apply")
		assert.Contains(t, out, "the plan changes no files yet")
		assert.Contains(t, out, "no plan to apply")
		assert.Equal(t, "default", h.mode)
	})
}

func TestREPLMentions(t *testing.T) {
	h := &callHost{host: host{mode: "default"}, results: map[string]string{
		"read_file README.md": `{"path":"README.md","content":"     1\thello ` + "```" + `\n","total_lines":1,"start_line":1,"end_line":1}`,
	}}
	p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}}}
	r := &REPL{Agent: newAgent(p, executor{}), Host: h}
	out := runLines(t, r, "what does @README.md say, @someone? mail a@b.c")
	assert.Contains(t, out, "● read_file README.md → ")
	assert.NotContains(t, out, "someone →", "a mention of nothing is not shown")
	assert.Equal(t, []string{"read_file README.md typed", "read_file someone typed"}, h.user)
	require.Len(t, p.requests, 1)
	assert.Equal(t, "what does @README.md say, @someone? mail a@b.c\n\n@README.md:\n````\n     1\thello ```\n````", texts(p)[0])
}

func TestREPLShell(t *testing.T) {
	h := &callHost{host: host{mode: "default"}, results: map[string]string{
		"run_shell ls": `{"class":"read-only","exit_code":0,"stdout":"a.txt\nb.txt\n","stderr":""}`,
	}}
	p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}, {Role: agent.Assistant, Text: "ok"}}}
	r := &REPL{Agent: newAgent(p, executor{}), Host: h}
	out := runLines(t, r, "!ls", "!nope", "which is newer?", "and now?")
	assert.Contains(t, out, "● run_shell ls → ")
	assert.Contains(t, out, "a.txt\nb.txt\n")
	assert.Contains(t, out, "✗ run_shell nope → file-error")
	assert.Equal(t, []string{"run_shell ls typed", "run_shell nope typed"}, h.user, "typed: not asked about again")
	assert.Equal(t, []string{
		"I ran `ls` (exit 0):\n```\na.txt\nb.txt\n```\n\nI tried to run `nope`; it failed: file-error: no such file\n\nwhich is newer?",
		"and now?",
	}, texts(p), "the notes go with the next message only")
}

// switchable is a provider whose name is its model.
type switchable struct {
	scripted
	model string
}

func (s *switchable) Name() string { return "fake (" + s.model + ")" }

func TestREPLModelCostCompact(t *testing.T) {
	usage := &agent.Usage{PromptTokens: 100, CompletionTokens: 20}
	first := &switchable{model: "small", scripted: scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "hi", Usage: usage}}}}
	second := &switchable{model: "big", scripted: scripted{replies: []agent.Message{
		{Role: agent.Assistant, Text: "again"},
		{Role: agent.Assistant, Text: "You said hello twice.", Usage: usage},
	}}}
	a := newAgent(first, executor{})
	var tr bytes.Buffer
	r := &REPL{Agent: a, Host: &host{mode: "default"}, Transcript: NewTranscript(&tr, 0),
		SwitchModel: func(_ context.Context, name string) (agent.Provider, error) {
			if name != "big" {
				return nil, errors.New("no model " + name)
			}
			return second, nil
		}}
	out := runLines(t, r, "/cost", "/compact", "hello", "/model", "/model nope", "/model big", "hello", "/cost", "/compact", "/cost")
	assert.Contains(t, out, "no requests yet")
	assert.Contains(t, out, "nothing to compact")
	assert.Contains(t, out, "model: fake (small)")
	assert.Contains(t, out, "no model nope")
	assert.Contains(t, out, "model: fake (big)")
	assert.Len(t, second.requests, 2, "the next turns went to the new model")
	assert.Contains(t, out, "tokens: 100 prompt + 20 completion = 120, in 2 requests\n(1 of them not reported by the provider)")
	assert.Contains(t, out, "You said hello twice.\nconversation compacted: 4 messages became the summary above")
	assert.Contains(t, out, "tokens: 200 prompt + 40 completion = 240, in 3 requests")
	h := a.History()
	require.Len(t, h, 2)
	assert.Contains(t, h[0].Text, "Summarise our conversation")
	assert.Equal(t, "You said hello twice.", h[1].Text)
	saved, err := LoadTranscript(strings.NewReader(tr.String()))
	require.NoError(t, err)
	assert.Len(t, saved, 2, "the transcript holds the summary")

	none := &REPL{Agent: newAgent(&scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "x"}}}, executor{}), Host: &host{}}
	out = runLines(t, none, "q", "/cost", "/model x")
	assert.Contains(t, out, "tokens: not reported by this provider (1 requests)")
	assert.Contains(t, out, "this chat cannot switch models")
}

func TestREPLResume(t *testing.T) {
	dir := t.TempDir()
	old, _, closeOld, err := OpenTranscript(dir, filepath.Join(dir, "20260101T000000Z.ndjson"), "")
	require.NoError(t, err)
	require.NoError(t, old.Sync([]agent.Message{{Role: agent.User, Text: "the old question"}, {Role: agent.Assistant, Text: "the old answer"}}))
	require.NoError(t, closeOld())
	cur, _, closeCur, err := OpenTranscript(dir, "", "")
	require.NoError(t, err)
	defer closeCur()

	p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}}}
	a := newAgent(p, executor{})
	r := &REPL{Agent: a, Host: &host{}, Transcript: cur, TranscriptDir: dir}
	out := runLines(t, r, "/resume nope.ndjson", "/resume", "and then?")
	assert.Contains(t, out, "nope.ndjson")
	assert.Contains(t, out, "resumed "+filepath.Join(dir, "20260101T000000Z.ndjson")+": 2 messages")
	assert.Contains(t, out, "last request: the old question")
	require.Len(t, p.requests, 1)
	assert.Equal(t, "the old question", p.requests[0].Messages[0].Text)
	saved, err := ReadTranscript(cur.Path())
	require.NoError(t, err)
	assert.Len(t, saved.History, 4, "this chat's transcript holds the resumed conversation")
}

// TestTypedCallsAreNotAskedAgain: a command the user typed runs with their authority;
// the model's calls are asked about.
func TestTypedCallsAreNotAskedAgain(t *testing.T) {
	root := t.TempDir()
	perms := policy.New(policy.ModeDefault)
	asked := &askCount{}
	m, err := manager.New(manager.Config{Root: root, Permissions: perms, JournalDir: t.TempDir(), Approver: asked})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	h := &SessionHost{Manager: m, Policy: perms, Exec: NewExecutor(s)}
	t.Cleanup(func() { h.Exec.Session().Close() })

	res := h.UserCall(t.Context(), agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "typed.txt", "content": "x"}}, true)
	require.True(t, res.OK, "%s", res.Content)
	assert.Equal(t, 0, asked.n)
	assert.FileExists(t, filepath.Join(root, "typed.txt"))

	res = h.UserCall(t.Context(), agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "asked.txt", "content": "x"}}, false)
	assert.False(t, res.OK)
	assert.Equal(t, 1, asked.n)
	assert.NoFileExists(t, filepath.Join(root, "asked.txt"))

	require.NoError(t, os.WriteFile(filepath.Join(root, "r.txt"), []byte("one\n"), 0o644))
	res = h.UserCall(t.Context(), agent.ToolCall{Name: "read_file", Args: map[string]any{"path": "r.txt"}}, true)
	require.True(t, res.OK, "%s", res.Content)
	assert.Contains(t, string(res.Content), "one")
}

// askCount denies every ask and counts them.
type askCount struct{ n int }

func (a *askCount) Approve(context.Context, manager.ApprovalRequest) (manager.Answer, error) {
	a.n++
	return manager.Deny, nil
}

// TestREPLContextAndInit: /context lists the instruction files the model has; /init writes
// a drafted AGENTS.md as the user's own call, unless the project has one.
func TestREPLContextAndInit(t *testing.T) {
	h := &callHost{host: host{mode: "default"}, results: map[string]string{
		"file_exists AGENTS.md": `{"path":"AGENTS.md","exists":false}`,
		"write_file AGENTS.md":  `{"path":"AGENTS.md","bytes_written":9,"created":true}`,
	}}
	p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "ok"}}}
	r := &REPL{Agent: newAgent(p, executor{}), Host: h,
		Context: func() string { return "AGENTS.md (120 bytes)\n" }, Draft: func() string { return "# Draft\n" }}
	out := runLines(t, r, "/context", "/init", "thanks")
	assert.Contains(t, out, "AGENTS.md (120 bytes)")
	assert.Contains(t, out, "# Draft")
	assert.Contains(t, out, "wrote AGENTS.md")
	assert.Equal(t, []string{"file_exists AGENTS.md typed", "write_file AGENTS.md typed"}, h.user)
	assert.Equal(t, []string{"I wrote AGENTS.md, the project's instructions for agents (drafted by /init).\n\nthanks"}, texts(p))

	h.results["file_exists AGENTS.md"] = `{"path":"AGENTS.md","exists":true}`
	h.user = nil
	out = runLines(t, &REPL{Agent: newAgent(&scripted{}, executor{}), Host: h, Draft: func() string { return "# Draft\n" }}, "/init", "/context")
	assert.Contains(t, out, "AGENTS.md exists")
	assert.Contains(t, out, "no project instructions")
	assert.Equal(t, []string{"file_exists AGENTS.md typed"}, h.user, "an existing AGENTS.md is left alone")
}
