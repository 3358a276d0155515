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

// CallTool is the tool name under which a Remote library forwards jido.call(name, args):
// its arguments are then {tool = name, args = args}.
const CallTool = "call"

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
		var args map[string]any
		var terr *definitions.ToolError
		if def, ok := defs[name]; ok {
			args, terr = callArgs(L, def, lim)
		} else {
			args, terr = tableArgs(L, 1, lim)
		}
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

// pushError pushes nil and the error table of terr.
func pushError(L *lua.LState, terr *definitions.ToolError) int {
	L.Push(lua.LNil)
	L.Push(runtime.ToLua(L, terr))
	return 2
}

// Host runs, with a session's dependencies, the calls a Remote library forwards, as the
// functions of Libraries run them in process: through the same tools, gate, approvals,
// journal and read log, observed the same way.
type Host struct {
	d       Deps
	goTools map[string]*builtin.Tool
	// Fallback runs the calls Host does not serve itself: jido.call of a user's Lua tool,
	// or in a session with a profile, of a name of the profile's dialect. nil: they fail.
	Fallback Forwarder
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
	return &Host{d: d, goTools: goTools}
}

// Run runs one forwarded call: a built-in or Go tool by name, or CallTool.
func (h *Host) Run(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
	if tool == CallTool {
		name, _ := args["tool"].(string)
		callArgs, _ := args["args"].(map[string]any)
		if callArgs == nil {
			callArgs = map[string]any{}
		}
		t, ok := h.goTools[name]
		if ok && (h.d.Profile.Canonical() || (&Dispatch{Deps: h.d}).ownTool(name)) {
			return h.run(ctx, t, callArgs)
		}
		if h.Fallback == nil {
			names := make([]string, 0, len(h.goTools))
			for n := range h.goTools {
				names = append(names, n)
			}
			return nil, definitions.UnknownTool(name, names)
		}
		return h.Fallback(ctx, tool, args)
	}
	t, ok := h.goTools[tool]
	if !ok {
		return nil, definitions.NewError(definitions.InternalError, "the worker asked for tool %s, which this session has not", tool)
	}
	return h.run(ctx, t, args)
}

// run runs tool t as luaTool does, observed.
func (h *Host) run(ctx context.Context, t *builtin.Tool, args map[string]any) (any, *definitions.ToolError) {
	done := h.d.observe(t.Def.Name, args)
	res, terr := t.Run(ctx, h.d.Tools, args)
	done(res, terr)
	return res, terr
}
