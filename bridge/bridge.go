// Package bridge implements the jido.* functions that Lua snippets call. Each function decodes
// its Lua table into the tool's params struct, validates it against the tool's schema, and calls
// a plain Go function that knows nothing of Lua; all file access goes through security.Root.
package bridge

import (
	"context"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/redact"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/usertools"
	"github.com/jido-run/jido/walk"
	lua "github.com/yuin/gopher-lua"
)

// LibraryName is the global table snippets reach the bridge through.
const LibraryName = "jido"

// Deps are what the bridge functions of one session need.
type Deps struct {
	Root    *security.Root   // the project on disk
	Store   Store            // what the file tools act on (nil: Disk(Root), or the plan's View)
	Plan    *plan.Overlay    // plan mode: the session's plan, which every tool acts on (nil: off)
	Reads   *ReadLog         // the session's read tracking, for compare-and-swap edits
	Limits  runtime.Limits   // bounds on Lua->Go conversion of arguments
	Walker  *walk.Walker     // tree walks of list_files, glob and search (nil: one without global excludes)
	Shell   *shell.Lazy      // the session's command runner (nil: run_shell and run_tests are refused)
	Gate    Gate             // approves or refuses every call (nil: everything runs)
	Journal *journal.Journal // keeps the before-state of every change set, for undo (nil: none)
	// Redactor returns the rules that remove secrets from what tools return, asked when a
	// tool needs them (so that a project's secret values are read only if ever needed;
	// nil: the default rules).
	Redactor func() *redact.Redactor
	// UserTools are the users' Lua tools jido.call may run (nil: none).
	UserTools *usertools.Registry

	users *userCalls // the user tools running in the current call (made by Libraries)
}

// Libraries returns every bridge module of a session, ready for runtime.Options.
func Libraries(d Deps) []runtime.Library {
	switch {
	case d.Store != nil:
	case d.Plan != nil:
		d.Store = d.Plan.View()
	default:
		d.Store = Disk(d.Root)
	}
	if d.Walker == nil {
		d.Walker = walk.NewTree(d.Store, nil)
	} else if d.Plan != nil {
		d.Walker = d.Walker.On(d.Store)
	}
	d.users = &userCalls{}
	tools := make(map[string]lua.LGFunction, len(builtins))
	for _, b := range builtins {
		tools[b.tool.Name] = b.lua(d)
	}
	return []runtime.Library{{Name: LibraryName, Funcs: tools}, (&Dispatch{Deps: d, tools: tools}).Library(), (&UserTools{Deps: d}).Library()}
}

// redactor returns the redaction rules in force.
func (d Deps) redactor() *redact.Redactor {
	if d.Redactor == nil {
		return redact.Default()
	}
	return d.Redactor()
}

// toolFunc adapts the Go implementation fn of tool t to a Lua function: it takes one table of
// arguments, validates them, asks the gate, and returns the result table, or nil and an error
// table {type, message, details, recovery}.
// A non-table argument is a programming error of the script and raises.
func toolFunc[P, R any](d Deps, t *definitions.Tool, fn func(context.Context, P) (R, error)) lua.LGFunction {
	return func(L *lua.LState) int {
		args, terr := tableArgs(L, 1, d.Limits)
		if terr == nil {
			var p P
			if p, terr = definitions.Decode[P](t, args); terr == nil {
				if terr = gated(L.Context(), d, t, p, fn); terr == nil {
					res, err := journaled(L.Context(), d, t, p, fn)
					if err == nil {
						runtime.PushResult(L, res)
						return 1
					}
					terr = toolError(err)
				}
			}
		}
		L.Push(lua.LNil)
		L.Push(runtime.ToLua(L, terr))
		return 2
	}
}

// tableArgs converts argument n (a table, or nothing for no arguments) to a Go map.
func tableArgs(L *lua.LState, n int, lim runtime.Limits) (map[string]any, *definitions.ToolError) {
	v := L.Get(n)
	if v == lua.LNil {
		return map[string]any{}, nil
	}
	if _, ok := v.(*lua.LTable); !ok {
		L.ArgError(n, "a table of arguments expected, got "+v.Type().String())
	}
	g, err := runtime.ToGo(v, lim, false)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "arguments: %v", err).
			Hint("Pass plain data: strings, finite numbers, booleans, lists and tables with string keys")
	}
	switch m := g.(type) {
	case map[string]any:
		return m, nil
	case []any:
		if len(m) == 0 {
			return map[string]any{}, nil
		}
	}
	return nil, definitions.NewError(definitions.ValidationError, "arguments must be a table with named fields, e.g. {path = \"README.md\"}")
}
