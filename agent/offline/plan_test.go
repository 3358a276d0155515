package offline

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
)

// flakyModel fails its first request with an *agent.APIError of status, then answers plan.
type flakyModel struct {
	status int
	plan   string

	mu    sync.Mutex
	calls int
}

func (m *flakyModel) Name() string { return "gemini (test)" }

func (m *flakyModel) AskJSON(context.Context, string, map[string]any) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.calls == 1 {
		return nil, &agent.APIError{Provider: "gemini", Status: m.status, Message: "busy", RetryAfter: 1}
	}
	return []byte(m.plan), nil
}

const lsPlan = `{"needs_tools":true,"tools":[{"name":"list_dir","args":{"path":"src"},"confidence":0.7}],"rationale":"List src.","notes":"assumed src"}`

func TestAPIErrorsAreRetried(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		source   string
		attempts int
	}{
		{"429", 429, interpret.SourceModel, 2},
		{"503", 503, interpret.SourceModel, 2},
		{"401: not retried", 401, interpret.SourceRules, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := &flakyModel{status: tc.status, plan: lsPlan}
			p := New(&interpret.Interpreter{Model: m})
			var plans []json.RawMessage
			stop := p.WatchPlans(func(plan json.RawMessage) { plans = append(plans, plan) })
			defer stop()
			c := &conversation{t: t, p: p, tools: specs(), exec: canned(map[string]agent.ToolResult{"list_dir": listing})}
			c.ask("ls src")
			require.Len(t, plans, 1, "one plan per question; the rendering of results is none")
			var got interpret.Plan
			require.NoError(t, json.Unmarshal(plans[0], &got))
			assert.Equal(t, tc.source, got.Source)
			assert.Equal(t, tc.attempts, got.ModelAttempts)
			assert.Equal(t, tc.attempts, m.calls)
		})
	}
}

func TestWatchPlans(t *testing.T) {
	p := New(&interpret.Interpreter{Model: &flakyModel{status: 500, plan: lsPlan}})
	assert.Equal(t, "query interpreter (plans with gemini (test), the rules as fallback)", p.Name())
	var plans []json.RawMessage
	stop := p.WatchPlans(func(plan json.RawMessage) { plans = append(plans, plan) })
	c := &conversation{t: t, p: p, tools: specs(), exec: canned(map[string]agent.ToolResult{"list_dir": listing})}
	c.ask("ls src")
	require.Len(t, plans, 1)
	assert.JSONEq(t, `{"needs_tools":true,"tools":[{"name":"list_dir","args":{"path":"src"},"confidence":0.7}],
		"rationale":"List src.","notes":"assumed src","source":"model","model_attempts":2}`, string(plans[0]))

	stop()
	c.ask("ls src")
	assert.Len(t, plans, 1, "a stopped watcher is told nothing")
}

func TestWatchPlansOfAnAnswerWithoutTools(t *testing.T) {
	p := New(nil)
	var plan json.RawMessage
	defer p.WatchPlans(func(pl json.RawMessage) { plan = pl })()
	c := &conversation{t: t, p: p, tools: specs(), exec: canned(nil)}
	c.ask("tell me a joke about compilers")
	var got map[string]any
	require.NoError(t, json.Unmarshal(plan, &got))
	assert.Equal(t, false, got["needs_tools"])
	assert.Equal(t, []any{}, got["tools"], "an empty list, not null")
	assert.Equal(t, "rules", got["source"])
	assert.NotContains(t, got, "fallback", "no model: nothing fell back")
}
