package bridge

import (
	"context"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/usertools"
	lua "github.com/yuin/gopher-lua"
)

// maxUserDepth bounds user tools calling user tools (recursion is a bug, not a feature).
const maxUserDepth = 8

// UserTools is the bridge module of users' Lua tools. jido.tool returns its declaration, so
// that a tool file's `return jido.tool{...}` hands it back; jido.call runs a user tool
// (runUserTool) inside the calling snippet, through the same validation and gate as every
// tool.
type UserTools struct {
	Deps
}

// Library exposes jido.tool.
func (u *UserTools) Library() runtime.Library {
	return runtime.Library{Name: LibraryName, Funcs: map[string]lua.LGFunction{"tool": declareTool}}
}

// declareTool is jido.tool at call time: the declaration was checked when the file was
// loaded, so it only hands the table back.
func declareTool(L *lua.LState) int {
	L.Push(L.CheckTable(1))
	return 1
}

// userCalls is the stack of the user tools running in a session's current call, innermost
// last, so that a tool is held to the flags it declared for every call it makes.
type userCalls struct {
	stack []*definitions.Tool
}

// allows refuses a call of tool t made by a user tool that declared it would not do such a
// thing: a read-only tool calling a mutating one, a non-destructive one a destructive one.
func (u *userCalls) allows(t *definitions.Tool) *definitions.ToolError {
	if u == nil || len(u.stack) == 0 {
		return nil
	}
	caller := u.stack[len(u.stack)-1]
	switch {
	case caller.ReadOnly && !t.ReadOnly:
		return definitions.NewError(definitions.PermissionError, "user tool %s is declared read-only and cannot call %s, which changes things", caller.Name, t.Name).
			With("tool", t.Name).With("caller", caller.Name).
			Hint("Declare the tool mutating = true in its file if it must change things")
	case !caller.Destructive && t.Destructive:
		return definitions.NewError(definitions.PermissionError, "user tool %s is not declared destructive and cannot call %s, which may destroy data or run commands", caller.Name, t.Name).
			With("tool", t.Name).With("caller", caller.Name).
			Hint("Declare the tool destructive = true in its file if it must call " + t.Name)
	}
	return nil
}

// runUserTool runs user tool ut for jido.call with the arguments table at index 1: it
// validates the arguments against the declared schema (applying defaults), asks the gate
// (deny rules and the session's role; the tool's own calls are gated one by one, with
// their previews, so the tool itself is not asked about), then runs the file's chunk and
// calls its run function with the arguments. It returns what run returns; a run that
// returns nil and a message fails with that message.
func runUserTool(L *lua.LState, d Deps, ut *usertools.Tool) int {
	args, terr := tableArgs(L, 1, d.Limits)
	done, finished := d.observe(ut.Def.Name, args), false
	finish := func(res any, e *definitions.ToolError) {
		if !finished {
			finished = true
			done(res, e)
		}
	}
	// A run that raises ends the call too: its event says so as the error unwinds.
	defer finish(nil, raised(ut.Def.Name))
	if terr != nil {
		finish(nil, terr)
		return pushError(L, terr)
	}
	filled, terr := d.enterUserTool(L.Context(), ut.Def, args)
	if terr != nil {
		finish(nil, terr)
		return pushError(L, terr)
	}
	defer d.users.leave()
	n, terr := callUserRun(L, ut.Def.Name, ut.File, ut.Source, filled)
	if terr != nil {
		finish(nil, terr)
		return pushError(L, terr)
	}
	if d.Observe != nil {
		res, _ := runtime.ToGo(L.Get(1), d.Limits, false)
		finish(res, nil)
	}
	return n
}

// raised is what the end of a user tool whose run raised a Lua error is told.
func raised(tool string) *definitions.ToolError {
	return definitions.NewError(definitions.LuaError, "%s raised an error", tool).With("tool", tool)
}

// enterUserTool checks a call of user tool t before it runs: its arguments against the
// declared schema (returned with defaults applied), the gate, and the nesting depth; then
// pushes t on the stack of running user tools, which leave pops.
func (d Deps) enterUserTool(ctx context.Context, t *definitions.Tool, args map[string]any) (map[string]any, *definitions.ToolError) {
	filled, terr := t.Check(args)
	if terr != nil {
		return nil, terr
	}
	if terr := gateComposite(ctx, d, t, filled); terr != nil {
		return nil, terr
	}
	if len(d.users.stack) >= maxUserDepth {
		return nil, definitions.NewError(definitions.ValidationError, "user tools nest more than %d deep (%s calls itself?)", maxUserDepth, t.Name).
			Hint("Call the tool's work directly instead of going through jido.call again")
	}
	d.users.stack = append(d.users.stack, t)
	return filled, nil
}

// leave pops the innermost running user tool.
func (u *userCalls) leave() { u.stack = u.stack[:len(u.stack)-1] }

// callUserRun runs a user tool's file (name, from file with source) and calls the run
// function it returns with args, leaving run's two results on an emptied stack: it
// returns their count, or the error of a run that returned nil and a message. A file that
// no longer returns a tool raises.
func callUserRun(L *lua.LState, name, file, source string, args map[string]any) (int, *definitions.ToolError) {
	L.SetTop(0)
	L.Push(runtime.Chunk(L, file, source))
	runtime.CallLua(L, 0, 1)
	decl, ok := L.Get(1).(*lua.LTable)
	run, isFn := lua.LNil, false
	if ok {
		run = decl.RawGetString("run")
		_, isFn = run.(*lua.LFunction)
	}
	if !isFn {
		L.RaiseError("%s: the file no longer returns jido.tool{..., run = function(args) ... end}", file)
	}
	L.SetTop(0)
	L.Push(run)
	L.Push(runtime.ToLua(L, args))
	runtime.CallLua(L, 1, 2)
	if L.Get(1) == lua.LNil {
		if msg, isString := L.Get(2).(lua.LString); isString {
			L.SetTop(0)
			return 0, definitions.NewError(definitions.LuaError, "%s: %s", name, string(msg)).With("tool", name)
		}
	}
	return 2, nil
}

// gateComposite asks the gate about a user tool: a composite call, whose own calls pass
// the gate one by one, so that only deny rules, the role and the caller's declared flags
// can stop it here.
func gateComposite(ctx context.Context, d Deps, t *definitions.Tool, args map[string]any) *definitions.ToolError {
	if terr := d.users.allows(t); terr != nil {
		return terr
	}
	if d.Tools.Gate == nil {
		return nil
	}
	return d.Tools.Gate.Check(ctx, builtin.Call{Tool: t, Params: args, Composite: true})
}

// userTool finds a user tool by name in the session's registry.
func (d Deps) userTool(name string) (*usertools.Tool, bool) {
	if d.UserTools == nil {
		return nil, false
	}
	return d.UserTools.Current().Lookup(name)
}

// userToolNames lists the user tools, for "did you mean".
func (d Deps) userToolNames() []string {
	var names []string
	if d.UserTools != nil {
		for _, t := range d.UserTools.Current().Tools() {
			names = append(names, t.Def.Name)
		}
	}
	return names
}
