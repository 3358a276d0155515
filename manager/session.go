package manager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/scripts"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tools/definitions"
)

// ToolCall is one call of a tool, as a model, the CLI, MCP or Go code sends it.
// Unknown fields of the envelope are ignored.
type ToolCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
	Meta CallMeta       `json:"meta,omitzero"`
}

// CallMeta carries per-call settings.
type CallMeta struct {
	Timeout float64 `json:"timeout,omitempty"` // seconds; 0: the session's default
}

// ToolResult is the outcome of a ToolCall: a result, or a structured error.
//
// Result is JSON data: the tool's own result value (a struct) when the snippet returned it
// unchanged, else maps, lists and scalars. Encode it, or use Decode to give it a Go type.
type ToolResult struct {
	ID     string                 `json:"id,omitempty"`
	Name   string                 `json:"name"`
	OK     bool                   `json:"ok"`
	Result any                    `json:"result,omitempty"`
	Error  *definitions.ToolError `json:"error,omitempty"`
}

// Decode stores the result in the value v points to, as encoding/json would decode it.
func (r ToolResult) Decode(v any) error {
	data, err := json.Marshal(r.Result)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// Session is one agent's conversation with the project: a VM and the files it has read.
// Its methods are safe for concurrent use; calls are serialized.
type Session struct {
	id     string
	m      *Manager
	vm     *runtime.VM
	shell  *shell.Lazy   // its commands and background jobs, ended by Close
	plan   *plan.Overlay // plan mode: the planned changes (nil otherwise)
	mu     sync.Mutex
	calls  int
	closed bool
}

// Tools returns the tools this session offers, sorted by name: the catalogue, or the
// session role's allow-list of it, without the tools its mode cannot run (the plan tools
// outside plan mode; programs, jobs and undo in it). A tool left out by the role is also
// refused if called; one left out by the mode fails with a clear error.
func (s *Session) Tools() []*definitions.Tool {
	g, _ := s.m.gate.(*policyGate)
	var out []*definitions.Tool
	for _, t := range definitions.All() {
		if (g == nil || g.tools == nil || slices.Contains(g.tools, t.Name)) && s.modeRuns(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// modeRuns reports whether the session's mode can run the named tool.
func (s *Session) modeRuns(tool string) bool {
	if s.plan != nil {
		return !notInPlan[tool]
	}
	return !planOnly[tool]
}

// The tools only a plan-mode session offers, and those it does not.
var (
	planOnly  = map[string]bool{"plan_diff": true, "plan_apply": true, "plan_discard": true}
	notInPlan = map[string]bool{"run_tests": true, "job_output": true, "job_kill": true, "undo": true}
)

// ID returns the session's identifier, as used in events.
func (s *Session) ID() string { return s.id }

// Call runs one tool call: its snippet in the session VM, with the arguments as a Lua table.
func (s *Session) Call(ctx context.Context, call ToolCall) ToolResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if call.ID == "" {
		call.ID = "call-" + strconv.Itoa(s.calls)
	}
	start := time.Now()
	s.m.events.emit(Event{Event: "tool.call", Session: s.id, CallID: call.ID, Tool: call.Name})
	res := ToolResult{ID: call.ID, Name: call.Name}
	res.Result, res.Error = s.run(ctx, call)
	res.OK = res.Error == nil
	ev := Event{Event: "tool.result", Session: s.id, CallID: call.ID, Tool: call.Name, OK: &res.OK, DurationMS: durationMS(time.Since(start))}
	if res.Error != nil {
		ev.ErrorType = res.Error.Type
	}
	s.m.events.emit(ev)
	return res
}

// run executes the call's snippet and interprets what it returns: a result, or nil and an error.
func (s *Session) run(ctx context.Context, call ToolCall) (any, *definitions.ToolError) {
	if s.closed {
		return nil, errClosed()
	}
	if _, ok := definitions.Lookup(call.Name); !ok {
		return nil, definitions.UnknownTool(call.Name, definitions.Names())
	}
	src, ok := scripts.Source(call.Name)
	if !ok {
		return nil, definitions.NewError(definitions.InternalError, "tool %s has no script", call.Name)
	}
	if call.Meta.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(call.Meta.Timeout*float64(time.Second)))
		defer cancel()
	}
	args := call.Args
	if args == nil {
		args = map[string]any{}
	}
	vals, err := s.vm.Call(ctx, "@"+call.Name, src, args)
	if err != nil {
		return nil, luaError(err)
	}
	if len(vals) >= 2 && vals[0] == nil {
		if te, ok := definitions.ErrorFromValue(vals[1]); ok {
			return nil, te
		}
	}
	if len(vals) == 0 || vals[0] == nil {
		return nil, definitions.NewError(definitions.InternalError, "tool %s returned nothing", call.Name)
	}
	return vals[0], nil
}

// Eval runs a Lua snippet in the session VM with a fresh environment and returns its values.
func (s *Session) Eval(ctx context.Context, src string) ([]any, *definitions.ToolError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed()
	}
	s.calls++
	vals, err := s.vm.Call(ctx, "=eval", src)
	if err != nil {
		return nil, luaError(err)
	}
	return vals, nil
}

// Close ends the session and releases its VM.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.m.events.emit(Event{Event: "session.close", Session: s.id})
	return s.vm.Close()
}

func errClosed() *definitions.ToolError {
	return definitions.NewError(definitions.InternalError, "the session is closed").Hint("Open a new session")
}

// luaError maps a failed VM call to a ToolError. A structured error raised by the snippet
// (a bridge error passed to error()) keeps its type.
func luaError(err error) *definitions.ToolError {
	var re *runtime.Error
	if !errors.As(err, &re) {
		return definitions.NewError(definitions.InternalError, "%v", err)
	}
	switch re.Kind {
	case runtime.KindSyntax:
		return definitions.NewError(definitions.ValidationError, "%s", re.Message).Hint("Fix the Lua syntax of the snippet")
	case runtime.KindTimeout:
		return definitions.NewError(definitions.TimeoutError, "%s", re.Message).Hint("Do less work per call, or raise the timeout")
	case runtime.KindBudget:
		return definitions.NewError(definitions.TimeoutError, "%s", re.Message).With("limit", "instructions").Hint("The snippet ran too many instructions; do less work per call")
	case runtime.KindInternal:
		return definitions.NewError(definitions.InternalError, "%s", re.Message)
	case runtime.KindRuntime:
		if te, ok := definitions.ErrorFromValue(re.Value); ok && definitions.IsKnownType(te.Type) {
			return te
		}
	}
	e := definitions.NewError(definitions.LuaError, "%s", re.Message)
	if re.Kind != runtime.KindRuntime {
		e.With("limit", string(re.Kind)).Hint(fmt.Sprintf("The snippet hit the sandbox's %s limit; do less per call", re.Kind))
	}
	return e
}
