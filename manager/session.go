package manager

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/builtin"

	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/scripts"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
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
	// Timeout is how long the whole call may take, in seconds, the commands it waits for
	// and its Lua work included: longer or shorter than the tools' own timeouts, at most
	// MaxCallTimeout. 0: each tool's own timeout bounds it (and MaxCallTimeout the call).
	Timeout float64 `json:"timeout,omitempty"`
	// Cwd is the call's working directory, a directory inside the root ("" or ".": the
	// root): the relative paths the call names are resolved against it (results still
	// name root-relative paths), and commands run in it unless they name their own.
	Cwd string `json:"cwd,omitempty"`
}

// ToolResult is the outcome of a ToolCall: a result, or a structured error.
//
// Result is JSON data: the tool's own result value (a struct) when the snippet returned it
// unchanged, else maps, lists and scalars. Encode it, or use Decode to give it a Go type.
type ToolResult struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// Result is, for a built-in tool, a pointer to its result type (builtin.ResultType:
	// *definitions.ReadFileResult for read_file); for a user's Lua tool, the value as JSON
	// decodes it (map[string]any, []any, string, float64, bool); in a session with a
	// profile, the profile's shape of it (and, for a failed call, the profile's envelope of
	// the error, if it has one).
	Result any                    `json:"result,omitempty"`
	Error  *definitions.ToolError `json:"error,omitempty"`
	Note   string                 `json:"note,omitempty"` // what was cut to keep Result within Config.MaxResultBytes

	canonical any // the canonical tool's result, when a profile reshaped it into Result
}

// Canonical is the result of the jido tool that ran: Result, or in a session with a
// profile, the result before the profile reshaped it, for what people are shown of the
// call (its outcome, its diff).
func (r ToolResult) Canonical() any {
	if r.canonical != nil {
		return r.canonical
	}
	return r.Result
}

// Payload is what the caller's client is shown of the call: Result, or for a failed call
// its Error, unless the session's profile wraps errors in an envelope of its own (seed
// 001's {status: "error", ...}), which Result then holds.
func (r ToolResult) Payload() any {
	if r.OK || r.Result != nil {
		return r.Result
	}
	return r.Error
}

// ResultAs returns a built-in tool's result as its type R (definitions.ReadFileResult for
// read_file); it fails for a failed call or a result of another type.
func ResultAs[R any](r ToolResult) (*R, error) {
	if !r.OK {
		return nil, r.Error
	}
	v, ok := r.Result.(*R)
	if !ok {
		return nil, fmt.Errorf("%s returned %T, not %s", r.Name, r.Result, reflect.TypeFor[*R]())
	}
	return v, nil
}

// Decode stores the result in the value v points to, as encoding/json would decode it.
func (r ToolResult) Decode(v any) error {
	data, err := json.Marshal(r.Result)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// Session is one agent's conversation with a project: a VM, the files it has read, its
// policy rules and its commands. Its methods are safe for concurrent use; calls are
// serialized.
type Session struct {
	id           string
	conversation string // WithConversation's, else id
	cwd          string // WithCwd's, canonical and root-relative ("" for the root)
	m            *Manager
	p            *project
	vm           sessionVM        // a runtime.VM, or a worker's client (Config.Isolation)
	shell        *shell.Lazy      // its commands and background jobs, ended by Close
	plan         *plan.Overlay    // plan mode: the planned changes (nil otherwise)
	board        *tasks.Board     // the session's todos and tasks
	reads        *builtin.ReadLog // the versions of the files it has read or written
	bufs         *buffers.Memory  // its named buffers
	gate         *policyGate      // nil without a policy: every call runs
	events       *eventLog        // the session's own event sink (WithEvents), besides the manager's
	dialect

	busy     atomic.Int32 // calls in progress or waiting for the session
	lastUsed atomic.Int64 // unix nanoseconds of the last call's end (or Open)

	mu      sync.Mutex
	calls   int
	callID  string   // of the running call, for its approval events
	ownCall string   // the tool of the running call, until its snippet has called it
	nested  int      // calls made inside the running call or eval so far
	inside  []string // the ids of the nested calls running now, innermost last
	closed  bool
	expired time.Duration // the idle time after which the sweeper closed it; 0 if it did not
}

// newSession builds a session on p with the options of Open.
func newSession(m *Manager, p *project, id string, o sessionOptions) (*Session, error) {
	gate, err := m.sessionGate(p, o)
	if err != nil {
		return nil, err
	}
	limits := m.cfg.Limits
	if o.limits != nil {
		limits = *o.limits
	}
	reads := builtin.NewReadLog()
	sh := shell.NewLazy(p.shell)
	var pl *plan.Overlay
	if o.plan || gate != nil && gate.engine.Mode() == policy.ModePlan {
		pl = plan.New(p.root)
	}
	board, bufs := tasks.New(), buffers.New()
	if o.state != nil {
		if err := restoreState(*o.state, p, gate, reads, board, bufs); err != nil {
			return nil, err
		}
	}
	conversation := cmp.Or(o.conversation, id)
	jr := p.journal.WithOrigin(journal.Origin{Session: id, Conversation: conversation}) // its change sets say whose they are
	var s *Session                                                                      // made after its VM, whose calls it observes
	observe := func(tool string, args map[string]any) func(any, *definitions.ToolError) { return s.observe(tool, args) }
	deps := bridge.Deps{Limits: limits, UserTools: p.tools, GoTools: m.cfg.Tools, Observe: observe, Tools: builtin.Deps{Root: p.root, Reads: reads, Walker: p.walker, Shell: sh, Journal: jr, Plan: pl, Redactor: p.redactor, Board: board, Buffers: bufs, Git: p.git}}
	if o.buffers != nil {
		deps.Tools.Buffers = o.buffers
	}
	if w := m.cfg.Web; w != nil {
		deps.Tools.Fetcher = sync.OnceValue(func() *web.Fetcher { return web.NewFetcher(w.Fetch) }) // the session's own cache
		deps.Tools.Searcher = w.Search
	}
	if gate != nil {
		deps.Tools.Gate = gate
		gate.journal = jr
	}
	if !o.profile.Canonical() {
		deps.Profile, deps.PlanCall = o.profile, func(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
			return s.planCall(ctx, tool, args)
		}
	}
	vm, err := m.newSessionVM(id, limits, deps)
	if err != nil {
		return nil, err
	}
	s = &Session{id: id, conversation: conversation, m: m, p: p, vm: vm, shell: sh, plan: pl, gate: gate, board: board, reads: reads, bufs: bufs, events: newEventLog(o.events)}
	s.dialect.init(o)
	cwd, terr := s.callDir(o.cwd)
	if terr != nil {
		vm.Close()
		return nil, terr
	}
	s.cwd = cwd
	s.lastUsed.Store(time.Now().UnixNano())
	if gate != nil {
		gate.record = func(e Event) { // runs inside a call, under s.mu
			e.Session, e.CallID = s.id, s.callID
			s.emit(e)
		}
	}
	return s, nil
}

// Board is the session's todos and tasks (todo_write, task): a chat saves its state with
// the conversation and restores it on resume.
func (s *Session) Board() *tasks.Board { return s.board }

// Tools returns the tools this session offers, sorted by name: the built-in catalogue and
// the project's user tools, or the session role's allow-list of them, without the built-in
// tools its mode cannot run (the plan tools outside plan mode; programs, jobs and undo in
// it). A tool left out by the role is also refused if called; one left out by the mode
// fails with a clear error.
//
// In a session with a profile, the built-in tools are the profile's (CanonicalTools lists
// jido's own).
func (s *Session) Tools() []*definitions.Tool {
	if !s.speaks() {
		return s.CanonicalTools()
	}
	return s.withOwnTools(s.dialectTools())
}

// CanonicalTools returns the tools Tools lists in a session without a profile: those
// CallCanonical runs.
func (s *Session) CanonicalTools() []*definitions.Tool {
	var out []*definitions.Tool
	for _, t := range definitions.All() {
		if s.roleHas(t.Name) && s.modeRuns(t.Name) {
			out = append(out, t)
		}
	}
	return s.withOwnTools(out)
}

// withOwnTools adds the embedder's and the project's own tools to out, and sorts it.
func (s *Session) withOwnTools(out []*definitions.Tool) []*definitions.Tool {
	for _, t := range s.m.cfg.Tools {
		if s.roleHas(t.Def.Name) && s.modeRuns(t.Def.Name) {
			out = append(out, t.Def)
		}
	}
	for _, t := range s.p.tools.Current().Tools() {
		if s.roleHas(t.Def.Name) {
			out = append(out, t.Def)
		}
	}
	slices.SortFunc(out, func(a, b *definitions.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// roleHas reports whether the session's role (if any) lists the tool.
func (s *Session) roleHas(tool string) bool {
	return s.gate == nil || s.gate.tools == nil || slices.Contains(s.gate.tools, tool)
}

// ToolLoadErrors returns the user tool files that failed to load (a bad declaration, a
// name clash), each error naming the file and line, so that a client can show them.
func (s *Session) ToolLoadErrors() []error {
	return s.p.tools.Current().Errors
}

// modeRuns reports whether the session's mode can run the named tool, as its declaration
// says (a user's tool runs in every mode), and for a web tool whether the manager gives
// sessions web access (Config.Web).
func (s *Session) modeRuns(tool string) bool {
	if (tool == definitions.WebFetch.Name || tool == definitions.WebSearch.Name) && s.m.cfg.Web == nil {
		return false
	}
	if t, ok := definitions.Lookup(tool); ok {
		return t.InSession(s.plan != nil)
	}
	if t, ok := s.m.goTool(tool); ok {
		return t.Def.InSession(s.plan != nil)
	}
	return true
}

// ID returns the session's identifier, as used in events.
func (s *Session) ID() string { return s.id }

// Conversation returns the conversation the session belongs to (WithConversation), or its
// own id when it was opened without one: the change sets its undo considers.
func (s *Session) Conversation() string { return s.conversation }

// Call runs one tool call: its snippet in the session VM, with the arguments as a Lua table.
// In a session with a profile (WithProfile), the call names the profile's tool with its
// arguments, and the result and error take the profile's shapes.
func (s *Session) Call(ctx context.Context, call ToolCall) ToolResult {
	if s.speaks() && !s.ownTool(call.Name) {
		return s.callDialect(ctx, call)
	}
	return s.CallCanonical(ctx, call)
}

// CallCanonical runs a call of one of jido's own tools (or a user's or embedder's tool),
// whatever profile the session speaks: for a client of the session that plans in jido's
// names, like the offline interpreter.
func (s *Session) CallCanonical(ctx context.Context, call ToolCall) ToolResult {
	ctx, done, terr := s.enter(ctx)
	if terr != nil {
		return ToolResult{ID: call.ID, Name: call.Name, Error: terr}
	}
	defer done()
	s.calls++
	if call.ID == "" {
		call.ID = "call-" + strconv.Itoa(s.calls)
	}
	s.callID, s.ownCall, s.nested, s.inside = call.ID, call.Name, 0, s.inside[:0]
	var emitResult func(any, *definitions.ToolError)
	if s.logging() {
		emitResult = s.callEvents(call.ID, "", call.Name, call.Args)
	}
	res := ToolResult{ID: call.ID, Name: call.Name}
	res.Result, res.Error = s.run(ctx, call)
	res.Result = typedResult(call.Name, res.Result)
	res.Result, res.Note = s.capValue(res.Result)
	res.Error = s.capError(res.Error)
	res.OK = res.Error == nil
	if emitResult != nil {
		emitResult(res.Result, res.Error)
	}
	if s.calls == 1 && s.m.cfg.WarmShell && s.runsCommands() {
		s.shell.Warm()
	}
	return res
}

// runsCommands reports whether the session may run sandboxed commands: its role has
// run_shell and it is not planning (in plan mode run_shell runs planshell's builtin
// commands on the plan, not processes).
func (s *Session) runsCommands() bool {
	return s.plan == nil && s.roleHas("run_shell") && s.modeRuns("run_shell")
}

// enter starts a call or an eval: it registers it with the manager (so that Shutdown waits
// for it, and can end it through the VM's Abort) and takes the session; done undoes both.
// It fails on a closed session or a manager shutting down.
func (s *Session) enter(ctx context.Context) (context.Context, func(), *definitions.ToolError) {
	if err := s.m.begin(); err != nil {
		return nil, nil, definitions.NewError(definitions.InternalError, "the session's manager is shutting down").Hint("Retry on another server, or later")
	}
	s.busy.Add(1)
	s.mu.Lock()
	leave := func() {
		s.lastUsed.Store(time.Now().UnixNano())
		s.mu.Unlock()
		s.busy.Add(-1)
		s.m.running.Done()
	}
	if s.closed {
		leave()
		return nil, nil, s.errClosed()
	}
	return ctx, leave, nil
}

// errSessionClosed ends a call whose session is closed under it.
var errSessionClosed = errors.New("the session was closed")

// idleSince is how long the session has been idle at now; 0 while a call runs or waits.
func (s *Session) idleSince(now time.Time) time.Duration {
	if s.busy.Load() > 0 {
		return 0
	}
	return now.Sub(time.Unix(0, s.lastUsed.Load()))
}

// expire closes a session the sweeper found idle for longer than ttl, unless a call
// took it meanwhile (a call waiting for the session counts as busy).
func (s *Session) expire(ttl time.Duration) {
	s.mu.Lock()
	if s.closed || s.busy.Load() > 0 {
		s.mu.Unlock()
		return
	}
	s.expired = ttl
	s.closeLocked() // a VM's Close cannot fail
	s.mu.Unlock()
	s.m.forget(s)
}

// emit writes e to the manager's event log and the session's own.
func (s *Session) emit(e Event) {
	s.m.events.emit(e)
	s.events.emit(e)
}

// run executes the call's snippet and interprets what it returns: a result, or nil and an error.
func (s *Session) run(ctx context.Context, call ToolCall) (any, *definitions.ToolError) {
	src, own, terr := s.script(call.Name)
	if terr != nil {
		return nil, terr
	}
	ctx, cancel, terr := bounded(ctx, call.Meta.Timeout, !own)
	if terr != nil {
		return nil, terr
	}
	defer cancel()
	if call.Meta.Cwd != "" {
		dir, terr := s.callDir(call.Meta.Cwd)
		if terr != nil {
			return nil, terr
		}
		ctx = builtin.WithCallDir(ctx, dir)
	} else if s.cwd != "" {
		ctx = builtin.WithCallDir(ctx, s.cwd)
	}
	args := call.Args
	if args == nil {
		args = map[string]any{}
	}
	run := s.vm.Call
	if own {
		run = s.vm.CallScript
	}
	vals, err := run(ctx, "@"+call.Name, src, args)
	if err != nil {
		return nil, failure(ctx, err)
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

// script returns the snippet that runs the named tool: a built-in tool's script, or the
// jido.call of a user tool (which validates and gates it like jido.call from any snippet).
// own says the snippet is jido's own (CallScript), not a user's tool.
func (s *Session) script(name string) (src string, own bool, terr *definitions.ToolError) {
	if _, ok := definitions.Lookup(name); ok {
		src, ok := scripts.Source(name)
		if !ok {
			return "", false, definitions.NewError(definitions.InternalError, "tool %s has no script", name)
		}
		return src, true, nil
	}
	if _, ok := s.m.goTool(name); ok {
		return "return jido." + name + "(...)", true, nil // checkTools made name a Lua identifier
	}
	if _, ok := s.p.tools.Current().Lookup(name); ok {
		return "return jido.call(" + strconv.Quote(name) + ", ...)", false, nil
	}
	names := definitions.Names()
	for _, t := range s.m.cfg.Tools {
		names = append(names, t.Def.Name)
	}
	for _, t := range s.p.tools.Current().Tools() {
		names = append(names, t.Def.Name)
	}
	if e := s.Profile().Unknown(name); e.Details["profiles"] != nil {
		return "", false, e // a tool of another profile: say which, and jido's name for it
	}
	return "", false, definitions.UnknownTool(name, names)
}

// Eval runs a Lua snippet in the session VM with a fresh environment and returns its values.
func (s *Session) Eval(ctx context.Context, src string) ([]any, *definitions.ToolError) {
	ctx, done, terr := s.enter(ctx)
	if terr != nil {
		return nil, terr
	}
	defer done()
	s.calls++
	s.callID, s.ownCall, s.nested, s.inside = "eval-"+strconv.Itoa(s.calls), "", 0, s.inside[:0]
	ctx, cancel, _ := bounded(ctx, 0, true)
	defer cancel()
	if s.cwd != "" {
		ctx = builtin.WithCallDir(ctx, s.cwd)
	}
	vals, err := s.vm.Call(ctx, "=eval", src)
	if err != nil {
		return nil, s.capError(failure(ctx, err))
	}
	for i := range vals {
		vals[i], _ = s.capValue(vals[i]) // the cut shows in the value itself
	}
	return vals, nil
}

// capError keeps an error leaving the session within Config.MaxResultBytes of JSON, as
// capValue does a result: a snippet or a user's tool may raise or return an error table
// of any size. The cut error keeps its type; what was cut is said in details.truncated.
func (s *Session) capError(e *definitions.ToolError) *definitions.ToolError {
	if e == nil {
		return nil
	}
	data, err := json.Marshal(e)
	if err != nil || len(data) <= s.m.cfg.MaxResultBytes {
		return e
	}
	capped, note := jsoncap.Cap(data, s.m.cfg.MaxResultBytes)
	var out definitions.ToolError
	if json.Unmarshal(capped, &out) != nil || out.Type != e.Type {
		// Too many keys to keep the error's shape (jsoncap's last resort): its type and
		// message, without details or hints.
		out = definitions.ToolError{Type: e.Type, Message: strings.ToValidUTF8(e.Message[:min(len(e.Message), 4096)], "")}
	}
	return out.With("truncated", note)
}

// capValue keeps a value leaving the session within Config.MaxResultBytes of JSON: a
// larger one is shrunk to valid JSON of the same shape (jsoncap) and a note says what
// was cut. A value that does not encode is left to the caller's encoder. Typed results
// of the built-in tools pass untouched, unencoded: each tool caps its own.
func (s *Session) capValue(v any) (any, string) {
	switch v.(type) {
	case map[string]any, []any, string:
		// Built by Lua (an eval, a user tool, a snippet that reshaped a result): unbounded.
	default:
		return v, "" // a built-in tool's own result, which its tool already caps; or nil
	}
	data, err := json.Marshal(v)
	if err != nil || len(data) <= s.m.cfg.MaxResultBytes {
		return v, ""
	}
	capped, note := jsoncap.Cap(data, s.m.cfg.MaxResultBytes)
	var out any
	if err := json.Unmarshal(capped, &out); err != nil {
		return v, ""
	}
	return out, note
}

// typedResult returns a built-in tool's result as a pointer to its declared type, whatever
// shape it came back in: the VM hands a tool's Go value back unchanged only when no Lua
// code touched it, else as a table converted to maps.
func typedResult(tool string, v any) any {
	typ, ok := builtin.ResultType(tool)
	if !ok || v == nil || reflect.TypeOf(v) == reflect.PointerTo(typ) {
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	p := reflect.New(typ)
	if json.Unmarshal(data, p.Interface()) != nil {
		return v
	}
	return p.Interface()
}

// Close ends the session: it cancels a running call (killing its command) and waits for
// it to return, kills the session's background jobs, and releases its VM. Close is
// idempotent.
func (s *Session) Close() error {
	s.vm.Abort(errSessionClosed) // the running call ends; the VM is closed below
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	err := s.closeLocked()
	s.mu.Unlock()
	s.m.forget(s)
	return err
}

// closeLocked marks the session closed, kills its jobs and releases its VM; the caller
// holds s.mu and then calls m.forget.
func (s *Session) closeLocked() error {
	s.closed = true
	s.closePlanner()
	s.shell.Close()
	err := s.vm.Close()
	s.emit(Event{Event: "session.close", Session: s.id})
	return err
}

// errClosed is the error of a call on a closed session, saying why it closed.
func (s *Session) errClosed() *definitions.ToolError {
	if s.expired > 0 {
		return definitions.NewError(definitions.InternalError, "the session expired after %s without a call", s.expired).
			With("session", s.id).Hint("Open a new session")
	}
	return definitions.NewError(definitions.InternalError, "the session is closed").With("session", s.id).Hint("Open a new session")
}

// luaError maps a failed VM call to a ToolError. A structured error raised by the snippet
// (a bridge error passed to error()) keeps its type.
func luaError(err error) *definitions.ToolError {
	var te *definitions.ToolError
	if errors.As(err, &te) { // a worker's death (worker-error)
		return te
	}
	var re *runtime.Error
	if !errors.As(err, &re) {
		return definitions.NewError(definitions.InternalError, "%v", err)
	}
	switch re.Kind {
	case runtime.KindSyntax:
		return definitions.NewError(definitions.ValidationError, "%s", re.Message).Hint("Fix the Lua syntax of the snippet")
	case runtime.KindTimeout:
		return definitions.NewError(definitions.TimeoutError, "%s", re.Message).With("limit", "lua_time").
			Hint("Do less Lua work in one call, or give the call a longer timeout (at most " + short(MaxCallTimeout) + ")")
	case runtime.KindCancelled:
		return definitions.NewError(definitions.TimeoutError, "%s", re.Message).Hint("The call was stopped before it finished; run it again if it is still needed")
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

// Root is the host path of the session's project root: the directory its files and
// commands are confined to, as opened (with no symbolic link on the way).
func (s *Session) Root() string { return s.p.root.Path() }
