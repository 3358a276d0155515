// Package bridge exposes jido's tools to Lua snippets as the jido.* functions: each takes
// one table of arguments, converts it to Go, and runs the built-in tool (package builtin)
// or the user's Lua tool it names; results come back as Lua values, errors as nil and a
// table {type, message, details, recovery}. It is the Lua adaptation and nothing else.
package bridge

import (
	"context"
	"maps"
	"strings"

	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/usertools"
	lua "github.com/yuin/gopher-lua"
)

// LibraryName is the global table snippets reach the bridge through.
const LibraryName = "jido"

// Deps are what the jido.* functions of one session need.
type Deps struct {
	Tools   builtin.Deps    // what the built-in tools act on and who approves them
	GoTools []*builtin.Tool // an embedder's own Go tools, beside the built-in ones
	// Observe, when set, is told of every call a snippet makes (of a built-in, Go or user
	// tool) with its arguments, and returns what is told of its end (or nil).
	Observe   func(tool string, args map[string]any) func(result any, terr *definitions.ToolError)
	Limits    runtime.Limits      // bounds on Lua->Go conversion of arguments
	UserTools *usertools.Registry // the users' Lua tools jido.call may run (nil: none)
	// Profile is the dialect jido.call speaks (nil: jido's own names); PlanCall runs a
	// canonical call on the session's plan overlay, for the profile's plan tools.
	Profile  *profile.Profile
	PlanCall func(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError)

	users *userCalls // the user tools running in the current call (made by Libraries)
}

// Libraries returns every bridge module of a session, ready for runtime.Options.
func Libraries(d Deps) []runtime.Library {
	d.users = &userCalls{}
	d.Tools = d.Tools.Ready()
	d.Tools.Allow = d.users.allows
	tools := make(map[string]lua.LGFunction, len(builtin.All())+len(d.GoTools))
	goTools := make(map[string]*builtin.Tool, len(builtin.All())+len(d.GoTools))
	for _, t := range append(builtin.All()[:len(builtin.All()):len(builtin.All())], d.GoTools...) {
		tools[t.Def.Name] = luaTool(d, t)
		goTools[t.Def.Name] = t
	}
	funcs := maps.Clone(tools)
	for alias, name := range aliases {
		funcs[alias] = tools[name]
	}
	return []runtime.Library{{Name: LibraryName, Funcs: funcs}, (&Dispatch{Deps: d, tools: tools, goTools: goTools}).Library(), (&UserTools{Deps: d}).Library()}
}

// aliases are other names of built-in tools in the jido table, as seed 003's bridge
// spells them: jido.mkdir_p("a/b") is jido.create_directory("a/b"). They are Lua names
// only: jido.call, the catalogue and the events know the tool by its own name.
var aliases = map[string]string{"mkdir_p": "create_directory"}

// Aliases returns the other names of built-in tools in the jido table, each with the
// tool it names.
func Aliases() map[string]string { return maps.Clone(aliases) }

// luaTool adapts built-in tool t to a Lua function: it takes one table of arguments and
// returns the result table, or nil and an error table {type, message, details, recovery}.
// A non-table argument is a programming error of the script and raises.
func luaTool(d Deps, t *builtin.Tool) lua.LGFunction {
	return func(L *lua.LState) int {
		args, terr := callArgs(L, t.Def, d.Limits)
		if terr == nil {
			var res any
			done := d.observe(t.Def.Name, args)
			res, terr = t.Run(L.Context(), d.Tools, args)
			done(res, terr)
			if terr == nil {
				runtime.PushResult(L, res)
				return 1
			}
		}
		L.Push(lua.LNil)
		L.Push(runtime.ToLua(L, terr))
		return 2
	}
}

// observe tells Observe of a call and returns what to tell of its end.
func (d Deps) observe(tool string, args map[string]any) func(any, *definitions.ToolError) {
	if d.Observe != nil {
		if done := d.Observe(tool, args); done != nil {
			return done
		}
	}
	return func(any, *definitions.ToolError) {}
}

// callArgs converts a call's Lua arguments to a Go map: one table of named arguments, or,
// as seed 003's bridge takes them, the tool's positional parameters in order, then
// optionally a table of the others: jido.edit_file("a.go", "old", "new").
func callArgs(L *lua.LState, t *definitions.Tool, lim runtime.Limits) (map[string]any, *definitions.ToolError) {
	first := L.Get(1)
	if _, isTable := first.(*lua.LTable); isTable || first == lua.LNil || len(t.Positional) == 0 {
		return tableArgs(L, 1, lim)
	}
	top, n := L.GetTop(), len(t.Positional)
	args := map[string]any{}
	if top > n {
		if _, isTable := L.Get(n + 1).(*lua.LTable); !isTable || top > n+1 {
			return nil, definitions.NewError(definitions.ValidationError, "%s takes at most %d arguments by position (%s), then a table of the others",
				t.Name, n, strings.Join(t.Positional, ", ")).Hint("Pass the other arguments by name in one table")
		}
		var terr *definitions.ToolError
		if args, terr = tableArgs(L, n+1, lim); terr != nil {
			return nil, terr
		}
	}
	for i, name := range t.Positional[:min(n, top)] {
		if _, dup := args[name]; dup {
			return nil, definitions.NewError(definitions.ValidationError, "%s: `%s` is given by position and by name", t.Name, name).With("field", name)
		}
		v, err := runtime.ToGo(L.Get(i+1), lim, false)
		if err != nil {
			return nil, definitions.NewError(definitions.ValidationError, "%s: argument %d (%s): %v", t.Name, i+1, name, err).With("field", name)
		}
		args[name] = v
	}
	return args, nil
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
