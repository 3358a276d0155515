package textproto

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
)

// scripted is an inner provider that streams canned replies and records what it is sent.
type scripted struct {
	replies  []string
	requests []agent.Request
}

func (s *scripted) Name() string { return "plain (tiny-model)" }

func (s *scripted) Complete(_ context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	s.requests = append(s.requests, req)
	reply := s.replies[0]
	s.replies = s.replies[1:]
	for i := 0; i < len(reply); i += 7 {
		if onText != nil {
			onText(reply[i:min(i+7, len(reply))])
		}
	}
	return agent.Message{Role: agent.Assistant, Text: reply}, nil
}

var tools = []agent.ToolSpec{{
	Name:        "read_file",
	Description: "Reads a file.",
	Parameters:  map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
}}

const callReply = "Let me read it.\n```tool-call\n{\"id\": \"r1\", \"name\": \"read_file\", \"args\": {\"path\": \"go.mod\"}}\n```\n"

func TestWrapRoundTrip(t *testing.T) {
	inner := &scripted{replies: []string{callReply, "It is module x."}}
	p := Wrap(inner)
	assert.Equal(t, "plain (tiny-model), text tool protocol", p.Name())

	var streamed strings.Builder
	req := agent.Request{System: "Be brief.", Tools: tools, Messages: []agent.Message{{Role: agent.User, Text: "What module?"}}}
	reply, err := p.Complete(t.Context(), req, func(s string) { streamed.WriteString(s) })
	require.NoError(t, err)
	assert.Equal(t, agent.Message{
		Role:  agent.Assistant,
		Text:  callReply,
		Calls: []agent.ToolCall{{ID: "r1", Name: "read_file", Args: map[string]any{"path": "go.mod"}}},
	}, reply)
	assert.Equal(t, "Let me read it.\n", streamed.String(), "the block is not streamed")

	first := inner.requests[0]
	assert.Nil(t, first.Tools, "the inner provider is offered no tools")
	assert.True(t, strings.HasPrefix(first.System, "Be brief.\n\n# Tools\n"))
	assert.Contains(t, first.System, "### read_file\n\nReads a file.\n\nParameters: "+
		`{"properties":{"path":{"type":"string"}},"type":"object"}`)
	assert.Equal(t, req.Messages, first.Messages)

	req.Messages = append(req.Messages, reply, agent.Message{Role: agent.User, Results: []agent.ToolResult{
		{CallID: "r1", Name: "read_file", OK: true, Content: json.RawMessage(`{"content":"module x"}`)},
	}})
	reply, err = p.Complete(t.Context(), req, nil)
	require.NoError(t, err)
	assert.Equal(t, agent.Message{Role: agent.Assistant, Text: "It is module x."}, reply)
	assert.Equal(t, []agent.Message{
		{Role: agent.User, Text: "What module?"},
		{Role: agent.Assistant, Text: strings.TrimSpace(callReply)},
		{Role: agent.User, Text: "```tool-result\n" + `{"id":"r1","name":"read_file","ok":true,"result":{"content":"module x"}}` + "\n```"},
	}, inner.requests[1].Messages)
}

func TestRender(t *testing.T) {
	failed := agent.ToolResult{CallID: "c1", Name: "read_file", Content: json.RawMessage(`{"type":"file-error","message":"no such file"}`)}
	cases := []struct {
		name string
		in   []agent.Message
		out  []agent.Message
	}{
		{
			name: "an error result and the user's next words are one message",
			in: []agent.Message{
				{Role: agent.User, Results: []agent.ToolResult{failed}},
				{Role: agent.User, Text: "Never mind."},
			},
			out: []agent.Message{{Role: agent.User, Text: "```tool-result\n" +
				`{"id":"c1","name":"read_file","ok":false,"error":{"type":"file-error","message":"no such file"}}` + "\n```\n\nNever mind."}},
		},
		{
			name: "calls made through another provider are written out",
			in: []agent.Message{{Role: agent.Assistant, Text: "Looking.", Calls: []agent.ToolCall{
				{ID: "g1", Name: "list_dir"},
				{Name: "read_file", Args: map[string]any{"path": "a"}},
			}}},
			out: []agent.Message{{Role: agent.Assistant, Text: "Looking.\n\n```tool-call\n" + `{"id":"g1","name":"list_dir","args":{}}` +
				"\n```\n\n```tool-call\n" + `{"name":"read_file","args":{"path":"a"}}` + "\n```"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.out, render(tc.in))
		})
	}
	assert.Equal(t, "system", systemPrompt("system", nil), "no tools, no protocol")
}

// TestWrapInTheLoop runs a whole turn: the model's blocks become calls that the loop runs,
// an invalid block is answered with a validation error, and the final answer comes back.
func TestWrapInTheLoop(t *testing.T) {
	inner := &scripted{replies: []string{
		callReply + "```tool-call\n{\"name\": \"read_file\", \"args\": [\"x\"]}\n```",
		"Done: module x.",
	}}
	exec := execFunc(func(_ context.Context, c agent.ToolCall) agent.ToolResult {
		return agent.ToolResult{OK: true, Content: json.RawMessage(`{"content":"module x"}`)}
	})
	a := &agent.Agent{Provider: Wrap(inner), Exec: exec, Tools: tools}
	answer, err := a.Send(t.Context(), "What module?")
	require.NoError(t, err)
	assert.Equal(t, "Done: module x.", answer)

	sent := inner.requests[1].Messages[2].Text
	blocks := strings.Split(sent, "\n\n")
	require.Len(t, blocks, 2)
	assert.Equal(t, "```tool-result\n"+`{"id":"r1","name":"read_file","ok":true,"result":{"content":"module x"}}`+"\n```", blocks[0])
	assert.Contains(t, blocks[1], `{"id":"call-2","name":"read_file","ok":false,"error":{"type":"validation-error","message":"tool-call block 2: \"args\" must be a JSON object, got an array`)
}

type execFunc func(ctx context.Context, call agent.ToolCall) agent.ToolResult

func (f execFunc) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	return f(ctx, call)
}
