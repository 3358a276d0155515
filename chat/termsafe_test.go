package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The redraw attack of issue 16: the command ends in a comment, then moves the cursor up,
// erases the line and writes a harmless-looking question over it.
const redraw = "rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell wants to run: ls (read-only)"

// ownColour is an escape sequence the chat writes itself.
var ownColour = regexp.MustCompile(`\x1b\[[0-9]+m`)

// assertTerminalSafe fails when out holds a control character, an escape sequence that
// is not one of the chat's own colours, a C1 control or a bidi control.
func assertTerminalSafe(t *testing.T, out string) {
	t.Helper()
	rest := ownColour.ReplaceAllString(out, "")
	for i, r := range rest {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("raw %U at %d reaches the terminal in:\n%q", r, i, out)
		}
	}
}

func TestApproverShowsHostileCommandVisibly(t *testing.T) {
	for _, color := range []bool{false, true} {
		var out bytes.Buffer
		a := NewApprover(&script{lines: []string{"n"}}, &out, color)
		got, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "run_shell", Commands: []string{redraw}, Class: "destructive",
			Preview: redraw, Reason: "mode default asks before destructive commands\x1b[2K"})
		require.NoError(t, err)
		assert.Equal(t, manager.Deny, got)
		assertTerminalSafe(t, out.String())
		assert.Contains(t, out.String(), `run_shell wants to run: rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell wants to run: ls (read-only) (destructive)`)
		assert.Contains(t, out.String(), `  rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell`, "the preview too")
		assert.Contains(t, out.String(), `destructive commands\x1b[2K`, "the reason too")
		if !color {
			assert.NotContains(t, out.String(), "\x1b", "no ESC byte at all without colours")
		}
	}

	t.Run("a newline in a command cannot forge a new question", func(t *testing.T) {
		var out bytes.Buffer
		a := NewApprover(&script{}, &out, false)
		_, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "run_shell", Commands: []string{"rm -rf x\n? run_shell wants to run: ls"}, Class: "destructive"})
		require.NoError(t, err)
		assert.Contains(t, out.String(), `wants to run: rm -rf x\n? run_shell wants to run: ls (destructive)`)
	})

	t.Run("a path", func(t *testing.T) {
		var out bytes.Buffer
		a := NewApprover(&script{}, &out, true)
		_, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "write_file", Paths: []string{"a\u202e.txt"}})
		require.NoError(t, err)
		assertTerminalSafe(t, out.String())
		assert.Contains(t, out.String(), `write_file a\u202e.txt`)
	})
}

func TestDiffEscapedBeforeColoured(t *testing.T) {
	d := "--- a.txt\x1b[2K\n+++ a.txt\n@@ -1 +1 @@\n-old\r\n+new\x1b[1A\u009b\u202e\n"
	var out bytes.Buffer
	a := NewApprover(&script{}, &out, true)
	_, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "write_file", Paths: []string{"a.txt"}, Preview: d})
	require.NoError(t, err)
	assertTerminalSafe(t, out.String())
	assert.Contains(t, out.String(), "  \x1b[1m--- a.txt\\x1b[2K\x1b[0m\n", "header bold, content escaped")
	assert.Contains(t, out.String(), "  \x1b[31m-old\\r\x1b[0m\n")
	assert.Contains(t, out.String(), "  \x1b[32m+new\\x1b[1A\\u009b\\u202e\x1b[0m\n", "the addition still green")

	plain := style{}.diff(d)
	assert.NotContains(t, plain, "\x1b")
	assert.Equal(t, 5, strings.Count(plain, "\n"), "lines kept")
}

func TestToolLineEscaped(t *testing.T) {
	call := agent.ToolCall{Name: "edit_file\x1b[2K", Args: map[string]any{"path": "main.go\x1b[1A\r\u202e"}}
	for _, tc := range []struct {
		name    string
		ok      bool
		content string
		want    string
	}{
		{"success", true, `{"lines_added":3,"lines_removed":1}`, `● edit_file\x1b[2K main.go\x1b[1A\r\u202e → done`}, // no outcome given
		{"failure", false, `{"type":"edit-error\u001b[2K","message":"no match in \u009b2J main.go"}`, `✗ edit_file\x1b[2K main.go\x1b[1A\r\u202e → edit-error\x1b[2K: no match in \u009b2J main.go`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := agent.ToolResult{Name: call.Name, OK: tc.ok, Content: json.RawMessage(tc.content)}
			assert.Equal(t, tc.want, style{}.toolLine(call, res))
			coloured := style{true}.toolLine(call, res)
			assertTerminalSafe(t, coloured)
			assert.Equal(t, tc.want, ownColour.ReplaceAllString(coloured, ""))
		})
	}
	t.Run("shell cmd list", func(t *testing.T) {
		got := style{}.toolLine(agent.ToolCall{Name: "run_shell", Args: map[string]any{"cmd": []any{"ls", "\x1b[2J"}}},
			agent.ToolResult{OK: true, Content: json.RawMessage(`{"exit_code":0}`), Outcome: "exit 0"})
		assert.Equal(t, `● run_shell ls \x1b[2J → exit 0`, got)
	})
	t.Run("outcome naming a file", func(t *testing.T) {
		got := style{}.toolLine(agent.ToolCall{Name: "move_file"}, agent.ToolResult{OK: true, Outcome: "moved to x\x1b]0;owned\a"})
		assert.Equal(t, `● move_file → moved to x\x1b]0;owned\a`, got)
	})
}

// chunked is a Provider that streams each reply in the given chunks, or fails.
type chunked struct {
	mu    sync.Mutex
	steps []chunkStep
}

type chunkStep struct {
	chunks []string
	calls  []agent.ToolCall
	err    error
}

func (p *chunked) Name() string { return "chunked" }

func (p *chunked) Complete(_ context.Context, _ agent.Request, onText func(string)) (agent.Message, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.steps) == 0 {
		return agent.Message{}, errors.New("script ran out")
	}
	s := p.steps[0]
	p.steps = p.steps[1:]
	if s.err != nil {
		return agent.Message{}, s.err
	}
	for _, c := range s.chunks {
		if onText != nil {
			onText(c)
		}
	}
	return agent.Message{Role: agent.Assistant, Text: strings.Join(s.chunks, ""), Calls: s.calls}, nil
}

// hostileChunks split an escape sequence, a C1 control and a character across chunks.
var hostileChunks = []string{"Done.\x1b", "[1A\x1b[2", "K\rall good \xc2", "\x9b2J h\xc3", "\xa9llo\n"}

const hostileShown = `Done.\x1b[1A\x1b[2K\rall good \u009b2J héllo` + "\n"

func TestStreamedTextEscaped(t *testing.T) {
	t.Run("chat", func(t *testing.T) {
		p := &chunked{steps: []chunkStep{{chunks: hostileChunks}}}
		var out bytes.Buffer
		r := &REPL{Agent: newAgent(p, executor{}), Host: &host{}, In: &script{lines: []string{"hi"}}, Out: &out, Color: true}
		require.NoError(t, r.Run(t.Context()))
		assertTerminalSafe(t, out.String())
		assert.Contains(t, out.String(), hostileShown)
	})
	t.Run("ask", func(t *testing.T) {
		p := &chunked{steps: []chunkStep{{chunks: hostileChunks}}}
		var out bytes.Buffer
		require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "q", &out, false, true))
		assertTerminalSafe(t, out.String())
		assert.Equal(t, hostileShown, out.String())
	})
	t.Run("ask, a character cut at the end", func(t *testing.T) {
		p := &chunked{steps: []chunkStep{{chunks: []string{"caf\xc3"}}}}
		var out bytes.Buffer
		require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "q", &out, false, false))
		assert.Equal(t, `caf\xc3`+"\n", out.String())
	})
	t.Run("ask --json stays the same JSON", func(t *testing.T) {
		p := &chunked{steps: []chunkStep{{chunks: []string{"a\u009b2J\u202eb\x1b[2K"}}}}
		var out bytes.Buffer
		require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "q", &out, true, false))
		assertTerminalSafe(t, out.String())
		assert.Contains(t, out.String(), `"answer":"a\u009b2J\u202eb\u001b[2K"`)
		var res AskResult
		require.NoError(t, json.Unmarshal(out.Bytes(), &res))
		assert.Equal(t, "a\u009b2J\u202eb\x1b[2K", res.Answer)
	})
}

func TestVerboseAndErrorsEscaped(t *testing.T) {
	p := &chunked{steps: []chunkStep{
		{calls: []agent.ToolCall{{ID: "c1", Name: "read_file", Args: map[string]any{"path": "x\u009b.go", "note": "\x1b[2J"}}}},
		{err: errors.New("provider said \x1b[2J\x1b]0;owned\x07")},
	}}
	e := executor{"read_file": "{\"content\":\"raw \u009b and \u202e\",\"total_lines\":1,\"start_line\":1,\"end_line\":1}"}
	var out bytes.Buffer
	r := &REPL{Agent: newAgent(p, e), Host: &host{}, In: &script{lines: []string{"/verbose", "read it"}}, Out: &out, Color: true,
		Banner: "model \x1b[5m"}
	require.NoError(t, r.Run(t.Context()))
	assertTerminalSafe(t, out.String())
	got := ownColour.ReplaceAllString(out.String(), "")
	for _, want := range []string{
		`model \x1b[5m`,
		`→ read_file {"note":"\u001b[2J","path":"x\u009b.go"}`,
		`● read_file x\u009b.go → 1 line`,
		`{"content":"raw \u009b and \u202e"`,
		`error: provider said \x1b[2J\x1b]0;owned\a`,
	} {
		assert.Contains(t, got, want)
	}
}

func TestOneLineJSONCutsWholeCharacters(t *testing.T) {
	got := oneLineJSON(json.RawMessage(`"ééé"`), 4) // 4 bytes end inside the second é
	assert.Equal(t, `"é… (8 bytes)`, got)
}
