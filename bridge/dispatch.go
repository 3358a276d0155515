package bridge

import (
	"context"
	"maps"
	"slices"

	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/tools/builtin"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// Dispatch is the bridge module of jido.call(name, args): it calls any built-in tool by name,
// through the same validation as a direct jido.<tool>(args) call, or a user's Lua tool.
type Dispatch struct {
	Deps
	tools   map[string]lua.LGFunction
	goTools map[string]*builtin.Tool // the same tools, for calls in a profile's dialect
}

// Library exposes jido.call.
func (d *Dispatch) Library() runtime.Library {
	return runtime.Library{Name: LibraryName, Funcs: map[string]lua.LGFunction{"call": d.call}}
}

func (d *Dispatch) call(L *lua.LState) int {
	name := L.CheckString(1)
	if !d.Profile.Canonical() && !d.ownTool(name) {
		L.Remove(1)
		return d.callDialect(L, name)
	}
	fn, ok := d.tools[name]
	if !ok {
		if ut, ok := d.userTool(name); ok {
			L.Remove(1)
			return runUserTool(L, d.Deps, ut)
		}
		return pushError(L, d.unknownTool(name))
	}
	L.Remove(1) // the tool function sees its arguments table as argument 1
	return fn(L)
}

// unknownTool is the error of a call of a name that is no tool of the session: the
// built-in and Go tools and the user's tools are listed for "did you mean".
func (d *Dispatch) unknownTool(name string) *definitions.ToolError {
	names := append(slices.Collect(maps.Keys(d.goTools)), d.userToolNames()...)
	slices.Sort(names)
	return definitions.UnknownTool(name, names)
}

// ownTool reports whether name is a user's or an embedder's tool, which every profile
// offers under its own name.
func (d *Dispatch) ownTool(name string) bool {
	if _, ok := d.userTool(name); ok {
		return true
	}
	return slices.ContainsFunc(d.GoTools, func(t *builtin.Tool) bool { return t.Def.Name == name })
}

// callDialect runs jido.call(name, args) in the session's profile, the arguments table
// at index 1 (runDialect).
func (d *Dispatch) callDialect(L *lua.LState, name string) int {
	args, terr := tableArgs(L, 1, d.Limits)
	var res any
	if terr == nil {
		res, terr = d.runDialect(L.Context(), name, args)
	} else {
		terr, _ = d.Profile.Error(nil, terr)
	}
	if terr != nil {
		return pushError(L, terr)
	}
	runtime.PushResult(L, res)
	return 1
}

// runDialect runs a call of the session's profile: it is mapped to its canonical tool, run
// like a direct call (or on the plan overlay), and its result or error mapped back.
func (d *Dispatch) runDialect(ctx context.Context, name string, args map[string]any) (any, *definitions.ToolError) {
	t, ok := d.Profile.Lookup(name)
	var ran *profile.Tool // the tool whose canonical call failed: its error speaks the dialect's names
	fail := func(terr *definitions.ToolError) (any, *definitions.ToolError) {
		terr, _ = d.Profile.Error(ran, terr)
		return nil, terr
	}
	if !ok {
		return fail(d.Profile.Unknown(name))
	}
	c, terr := d.Profile.Map(t, args)
	if terr != nil {
		return fail(terr)
	}
	var res any
	switch tool, ok := d.goTools[c.Name]; {
	case t.OnPlan && d.PlanCall == nil:
		return fail(definitions.NewError(definitions.InternalError, "%s needs the session's plan, which this session has not", name))
	case t.OnPlan:
		res, terr = d.PlanCall(ctx, c.Name, c.Canon)
	case !ok:
		return fail(definitions.NewError(definitions.InternalError, "%s maps to %s, which this session has not", name, c.Name))
	default:
		done := d.observe(c.Name, c.Canon)
		res, terr = tool.Run(ctx, d.Tools, c.Canon)
		done(res, terr)
	}
	if terr != nil {
		ran = t
		return fail(terr)
	}
	c.Result = res
	return d.Profile.Result(c), nil
}
