package bridge

import (
	"context"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// Forwarder runs a jido.* call somewhere else than the Lua that made it: for a snippet
// running in a worker process, in the host that owns the session's tools and state. It
// returns the tool's result or its error.
type Forwarder func(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError)

// The names under which a Remote library forwards what is not a tool call of its own.
const (
	// CallTool forwards jido.call(name, args) of a built-in or Go tool's name, with the
	// arguments {tool = name, args = args}; the answer is the tool's.
	CallTool = "call"
	// UserToolBegin forwards jido.call(name, args) of any other name, with the same
	// arguments. When name is a user's Lua tool, the host checks and gates the call and
	// answers {run = {file, source, args, observe}}: the Lua runs where the snippet does,
	// then UserToolEnd tells the host of its end. Otherwise the host runs the call (a name
	// of the session's profile) and answers {result = its result}.
	UserToolBegin = "user_tool.begin"
	// UserToolEnd ends the innermost user tool begun, with {result} or {error}; the
	// result is sent only when the answer to its begin asked (observe).
	UserToolEnd = "user_tool.end"
)

// Remote returns the bridge modules of a Lua VM that runs apart from the session's tools
// (in a worker process): the jido.* names Libraries offers (the built-in tools, their
// aliases, the extra tools named, jido.call and jido.tool), whose functions convert their
// Lua arguments as Libraries' do, hand the call to fwd, and push its answer back as a
// result, or as nil and an error table. extra are the session's other Go tools: only
// their names and positional parameters are read. Host.Run is fwd's other end.
func Remote(extra []*definitions.Tool, lim runtime.Limits, fwd Forwarder) []runtime.Library {
	defs := make(map[string]*definitions.Tool, len(builtin.All())+len(extra))
	for _, t := range builtin.All() {
		defs[t.Def.Name] = t.Def
	}
	for _, t := range extra {
		defs[t.Name] = t
	}
	funcs := make(map[string]lua.LGFunction, len(defs)+len(aliases)+2)
	for name, def := range defs {
		funcs[name] = func(L *lua.LState) int {
			args, terr := callArgs(L, def, lim)
			if terr != nil {
				return pushError(L, terr)
			}
			return pushForwarded(L, fwd, name, args)
		}
	}
	for alias, name := range aliases {
		funcs[alias] = funcs[name]
	}
	funcs["call"] = func(L *lua.LState) int {
		name := L.CheckString(1)
		L.Remove(1)
		def, ok := defs[name]
		if !ok {
			return remoteUserTool(L, fwd, name, lim)
		}
		args, terr := callArgs(L, def, lim)
		if terr != nil {
			return pushError(L, terr)
		}
		return pushForwarded(L, fwd, CallTool, map[string]any{"tool": name, "args": args})
	}
	funcs["tool"] = declareTool
	return []runtime.Library{{Name: LibraryName, Funcs: funcs}}
}

// pushForwarded runs a call through fwd and pushes its result, or nil and its error.
func pushForwarded(L *lua.LState, fwd Forwarder, tool string, args map[string]any) int {
	res, terr := fwd(L.Context(), tool, args)
	if terr != nil {
		return pushError(L, terr)
	}
	runtime.PushResult(L, res)
	return 1
}

// remoteUserTool runs jido.call(name, args) of a name that is none of the session's Go
// tools, the arguments table at index 1: the host begins it (UserToolBegin); a user's Lua
// tool then runs here, in this VM, and the host is told of its end.
func remoteUserTool(L *lua.LState, fwd Forwarder, name string, lim runtime.Limits) int {
	args, terr := tableArgs(L, 1, lim)
	if terr != nil {
		return pushError(L, terr)
	}
	ans, terr := fwd(L.Context(), UserToolBegin, map[string]any{"tool": name, "args": args})
	if terr != nil {
		return pushError(L, terr)
	}
	begun, _ := ans.(map[string]any)
	if res, ok := begun["result"]; ok {
		runtime.PushResult(L, res)
		return 1
	}
	run, _ := begun["run"].(map[string]any)
	file, _ := run["file"].(string)
	source, _ := run["source"].(string)
	filled, _ := run["args"].(map[string]any)
	observe, _ := run["observe"].(bool)
	ended := false
	end := func(res any, terr *definitions.ToolError) {
		if ended {
			return
		}
		ended = true
		msg := map[string]any{"result": res}
		if terr != nil {
			msg = map[string]any{"error": terr} // JSON on its way to a host in another process
		}
		fwd(L.Context(), UserToolEnd, msg) // nothing to do if the host is gone: the call fails anyway
	}
	defer end(nil, raised(name)) // a run that raises ends the tool as the error unwinds
	n, terr := callUserRun(L, name, file, source, filled)
	if terr != nil {
		end(nil, terr)
		return pushError(L, terr)
	}
	var res any
	if observe {
		res, _ = runtime.ToGo(L.Get(1), lim, false)
	}
	end(res, nil)
	return n
}

// pushError pushes nil and the error table of terr.
func pushError(L *lua.LState, terr *definitions.ToolError) int {
	L.Push(lua.LNil)
	L.Push(runtime.ToLua(L, terr))
	return 2
}

// Host runs, with a session's dependencies, the calls a Remote library forwards, as the
// functions of Libraries run them in process: through the same tools, gate, approvals,
// journal and read log, observed the same way. It is used by one call at a time.
type Host struct {
	d        Deps
	dispatch *Dispatch
	// ends tells of the end of each user tool begun and not ended, innermost last.
	ends []func(any, *definitions.ToolError)
}

// NewHost returns the host end of a Remote library for a session with deps d.
func NewHost(d Deps) *Host {
	d.users = &userCalls{}
	d.Tools = d.Tools.Ready()
	d.Tools.Allow = d.users.allows
	goTools := make(map[string]*builtin.Tool, len(builtin.All())+len(d.GoTools))
	for _, t := range append(builtin.All()[:len(builtin.All()):len(builtin.All())], d.GoTools...) {
		goTools[t.Def.Name] = t
	}
	return &Host{d: d, dispatch: &Dispatch{Deps: d, goTools: goTools}}
}

// Run runs one forwarded call: a built-in or Go tool by name, CallTool, UserToolBegin or
// UserToolEnd.
func (h *Host) Run(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
	switch tool {
	case CallTool, UserToolBegin:
		name, _ := args["tool"].(string)
		callArgs, _ := args["args"].(map[string]any)
		if callArgs == nil {
			callArgs = map[string]any{}
		}
		if tool == UserToolBegin {
			return h.beginUserTool(ctx, name, callArgs)
		}
		t, ok := h.dispatch.goTools[name]
		if ok && (h.d.Profile.Canonical() || h.dispatch.ownTool(name)) {
			return h.run(ctx, t, callArgs)
		}
		return h.dispatch.runDialect(ctx, name, callArgs)
	case UserToolEnd:
		return nil, h.endUserTool(args)
	}
	t, ok := h.dispatch.goTools[tool]
	if !ok {
		return nil, definitions.NewError(definitions.InternalError, "the worker asked for tool %s, which this session has not", tool)
	}
	return h.run(ctx, t, args)
}

// beginUserTool answers UserToolBegin: a user tool's checked call, to run in the worker,
// or the result of a call in the profile's dialect.
func (h *Host) beginUserTool(ctx context.Context, name string, args map[string]any) (any, *definitions.ToolError) {
	ut, ok := h.d.userTool(name)
	if !ok {
		if h.d.Profile.Canonical() {
			return nil, h.dispatch.unknownTool(name)
		}
		res, terr := h.dispatch.runDialect(ctx, name, args)
		if terr != nil {
			return nil, terr
		}
		return map[string]any{"result": res}, nil
	}
	done := h.d.observe(name, args)
	filled, terr := h.d.enterUserTool(ctx, ut.Def, args)
	if terr != nil {
		done(nil, terr)
		return nil, terr
	}
	h.ends = append(h.ends, done)
	return map[string]any{"run": map[string]any{"file": ut.File, "source": ut.Source, "args": filled, "observe": h.d.Observe != nil}}, nil
}

// endUserTool answers UserToolEnd.
func (h *Host) endUserTool(args map[string]any) *definitions.ToolError {
	if len(h.ends) == 0 {
		return definitions.NewError(definitions.InternalError, "the worker ended a user tool that had not begun")
	}
	terr, _ := definitions.ErrorFromValue(args["error"])
	h.leave(args["result"], terr)
	return nil
}

// leave ends the innermost user tool begun.
func (h *Host) leave(res any, terr *definitions.ToolError) {
	done := h.ends[len(h.ends)-1]
	h.ends = h.ends[:len(h.ends)-1]
	h.d.users.leave()
	done(res, terr)
}

// Settle ends the user tools a call began and did not end (its worker died under them),
// with the error cause gives; call it when each call returns.
func (h *Host) Settle(cause func() *definitions.ToolError) {
	if len(h.ends) == 0 {
		return
	}
	terr := cause()
	for len(h.ends) > 0 {
		h.leave(nil, terr)
	}
}

// run runs tool t as luaTool does, observed.
func (h *Host) run(ctx context.Context, t *builtin.Tool, args map[string]any) (any, *definitions.ToolError) {
	done := h.d.observe(t.Def.Name, args)
	res, terr := t.Run(ctx, h.d.Tools, args)
	done(res, terr)
	return res, terr
}
