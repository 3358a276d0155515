package main

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/manager"
)

// maxResultChars caps what one tool result shows the model (SPEC: 30,000 chars).
const maxResultChars = 30000

// sessionExecutor runs the agent's tool calls in a manager session, through the same
// gate as every other call.
type sessionExecutor struct {
	mu sync.Mutex
	s  *manager.Session
}

func (e *sessionExecutor) session() *manager.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.s
}

// swap replaces the session and returns the old one.
func (e *sessionExecutor) swap(s *manager.Session) *manager.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	old := e.s
	e.s = s
	return old
}

// Execute implements agent.Executor.
func (e *sessionExecutor) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	res := e.session().Call(ctx, manager.ToolCall{ID: call.ID, Name: call.Name, Args: call.Args})
	out := agent.ToolResult{CallID: call.ID, Name: call.Name, OK: res.OK}
	var v any = res.Result
	if !res.OK {
		v = res.Error
	}
	content, err := json.Marshal(v)
	if err != nil {
		content, _ = json.Marshal(map[string]string{"type": "internal-error", "message": "the result could not be encoded: " + err.Error()})
		out.OK = false
	}
	out.Content, out.Note = capped(content)
	return out
}

// capped keeps a result within maxResultChars, as valid JSON of the same shape (see
// jsoncap), with a note of what was cut.
func capped(content json.RawMessage) (json.RawMessage, string) {
	return jsoncap.Cap(content, maxResultChars)
}
