package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
)

// MaxResultChars caps what one tool result shows the model (SPEC: 30,000 chars).
const MaxResultChars = 30000

// Executor is the agent.Executor of a chat or an ask: it runs the agent's tool calls in a
// manager session, through the same gate as every other call, and hands the model each
// result as JSON capped to MaxResultChars. The session can be replaced under it (entering
// or leaving plan mode) while the agent keeps the executor.
type Executor struct {
	// Canonical runs the calls in jido's own tool names whatever the session's profile
	// (manager.Session.CallCanonical): the offline interpreter plans in them.
	Canonical bool

	mu sync.Mutex
	s  *manager.Session
}

// NewExecutor runs calls in s.
func NewExecutor(s *manager.Session) *Executor { return &Executor{s: s} }

// Session is the session calls run in now.
func (e *Executor) Session() *manager.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.s
}

// Swap makes s the session calls run in and returns the one it replaces.
func (e *Executor) Swap(s *manager.Session) *manager.Session {
	e.mu.Lock()
	defer e.mu.Unlock()
	old := e.s
	e.s = s
	return old
}

// Execute implements agent.Executor.
func (e *Executor) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	mc := manager.ToolCall{ID: call.ID, Name: call.Name, Args: call.Args, Meta: manager.CallMeta{Timeout: call.Meta.Timeout, Cwd: call.Meta.Cwd}}
	if e.Canonical {
		return agentResult(call, e.Session().CallCanonical(ctx, mc))
	}
	return agentResult(call, e.Session().Call(ctx, mc))
}

// agentResult is what the agent gets of a call's result: its JSON, capped, and its
// outcome in a few words when its type says it (definitions.Outcomer).
func agentResult(call agent.ToolCall, res manager.ToolResult) agent.ToolResult {
	out := agent.ToolResult{CallID: call.ID, Name: call.Name, OK: res.OK}
	v := res.Payload()
	if res.OK {
		out.Outcome = outcomeOf(res.Canonical())
	}
	content, err := json.Marshal(v)
	if err != nil {
		content, _ = json.Marshal(map[string]string{"type": "internal-error", "message": "the result could not be encoded: " + err.Error()})
		out.OK = false
	}
	// Valid JSON of the same shape, with a note of what was cut (see jsoncap).
	out.Content, out.Note = jsoncap.Cap(content, MaxResultChars)
	return out
}

// outcomeOf is what a result's type says of it in a few words, or "".
func outcomeOf(result any) string {
	if o, ok := result.(definitions.Outcomer); ok {
		return o.Outcome()
	}
	return ""
}

// SessionHost is the Host of a chat on a manager: its policy engine decides the mode, and
// the executor's session is replaced when plan mode is entered or left (a plan lives in
// its session).
type SessionHost struct {
	Manager *manager.Manager
	Policy  *policy.Engine
	Exec    *Executor
	Started time.Time // what the chat changed is diffed from here
}

// Tools implements Host.
func (h *SessionHost) Tools() []string {
	var names []string
	for _, t := range h.Exec.Session().Tools() {
		names = append(names, t.Name)
	}
	return names
}

// Mode implements Host.
func (h *SessionHost) Mode() string { return string(h.Policy.Mode()) }

// SetMode switches the approval mode; entering or leaving plan mode opens a new session
// (leaving plan mode drops a plan not applied).
func (h *SessionHost) SetMode(mode string) error {
	m, err := policy.ParseMode(mode)
	if err != nil {
		return err
	}
	wasPlan := h.Policy.Mode() == policy.ModePlan
	h.Policy.SetMode(m)
	if wasPlan == (m == policy.ModePlan) {
		return nil
	}
	// The new session goes on with the chat's conversation: /undo still reaches what the
	// previous one changed (a plan applied).
	next, err := h.Manager.Open(context.Background(), "", manager.WithConversation(h.Exec.Session().Conversation()))
	if err != nil {
		return err
	}
	old := h.Exec.Swap(next)
	next.Board().Restore(old.Board().State()) // the todos and tasks go on
	old.Close()
	return nil
}

// Board implements Host.
func (h *SessionHost) Board() *tasks.Board { return h.Exec.Session().Board() }

// Diff implements Host: the plan's diff in plan mode, else what changed since Started.
func (h *SessionHost) Diff(ctx context.Context) (string, error) {
	if h.Policy.Mode() != policy.ModePlan {
		d, _, err := h.Manager.DiffSince(h.Started)
		return d, err
	}
	res := h.Exec.Session().Call(ctx, manager.ToolCall{Name: "plan_diff"})
	d, err := manager.ResultAs[definitions.PlanResult](res)
	if err != nil {
		return "", err
	}
	return d.Diff, nil
}

// Undo implements Host: it undoes the last change set of this chat's conversation
// (manager.Session.Conversation, which the chat's sessions share), never one made outside
// the chat (by `jido call`, another chat, an MCP client). It names the change set and its
// files, then undoes exactly that one. The user typed /undo, so the calls run with their
// authority (manager.UserInitiated): no second approval.
func (h *SessionHost) Undo(ctx context.Context) (string, error) {
	ctx = manager.UserInitiated(ctx)
	s := h.Exec.Session()
	list, err := manager.ResultAs[builtin.UndoResult](s.CallCanonical(ctx, manager.ToolCall{Name: "undo", Args: map[string]any{"list": true}}))
	if err != nil {
		return "", err
	}
	conversation := s.Conversation()
	e, ok := journal.Last(list.Changes, func(e journal.Entry) bool { return e.Conversation == conversation })
	if !ok {
		return "nothing of this chat to undo (jido undo --list shows every change set, and jido undo ID undoes one)", nil
	}
	what := e.DescribeUndo()
	u, err := manager.ResultAs[builtin.UndoResult](s.CallCanonical(ctx, manager.ToolCall{Name: "undo", Args: map[string]any{"change_id": e.ID}}))
	if err != nil {
		return what, err
	}
	if u.UndoResult == nil {
		return what + "\nnothing undone", nil
	}
	return fmt.Sprintf("%s\nundone: %d files restored, %d removed", what, len(u.Restored), len(u.Deleted)), nil
}

// UserCall implements Caller: it runs a call of one of jido's own tools in the session,
// whatever its profile, through the same gate as the model's calls. typed marks the
// call as one the user typed (!cmd), which needs no second approval (deny rules, the mode
// and the role still apply: manager.UserInitiated).
func (h *SessionHost) UserCall(ctx context.Context, call agent.ToolCall, typed bool) agent.ToolResult {
	if typed {
		ctx = manager.UserInitiated(ctx)
	}
	mc := manager.ToolCall{ID: call.ID, Name: call.Name, Args: call.Args}
	return agentResult(call, h.Exec.Session().CallCanonical(ctx, mc))
}
