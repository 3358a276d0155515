package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
)

// planning is a scripted provider that plans, as the offline provider does: its first
// Complete tells the watchers plan.
type planning struct {
	*scripted
	plan    string
	watcher func(json.RawMessage)
}

func (p *planning) WatchPlans(f func(json.RawMessage)) func() {
	p.watcher = f
	return func() { p.watcher = nil }
}

func (p *planning) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	if len(req.Messages) == 1 && p.watcher != nil {
		p.watcher(json.RawMessage(p.plan))
	}
	return p.scripted.Complete(ctx, req, onText)
}

func TestAskJSONShowsThePlan(t *testing.T) {
	const plan = `{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"go.mod"},"confidence":0.9}],"rationale":"Read it.","source":"model","model_attempts":1}`
	p := &planning{plan: plan, scripted: &scripted{replies: []agent.Message{
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c1", Name: "read_file", Args: map[string]any{"path": "go.mod"}}}},
		{Role: agent.Assistant, Text: "The module is x."},
	}}}
	var out bytes.Buffer
	a := newAgent(p, executor{"read_file": `{"total_lines":1,"start_line":1,"end_line":1}`})
	require.NoError(t, Ask(t.Context(), a, "what module?", &out, true, false))
	var res map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(out.Bytes(), &res))
	assert.JSONEq(t, plan, string(res["plan"]))
	assert.Nil(t, p.watcher, "the watcher is removed when Ask ends")

	out.Reset()
	p.scripted.replies = []agent.Message{{Role: agent.Assistant, Text: "Plain."}}
	require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "q", &out, false, false))
	assert.Equal(t, "Plain.\n", out.String(), "a person is not shown the plan")
}

func TestAskJSONWithoutPlanner(t *testing.T) {
	p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Text: "Hi."}}}
	var out bytes.Buffer
	require.NoError(t, Ask(t.Context(), newAgent(p, executor{}), "hello", &out, true, false))
	var res map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &res))
	assert.NotContains(t, res, "plan", "a provider that plans as it goes has no plan to show")
}
