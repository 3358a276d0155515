package bridge

import (
	"maps"
	"slices"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// Dispatch is the bridge module of jido.call(name, args): it calls any built-in tool by name,
// through the same validation as a direct jido.<tool>(args) call, or a user's Lua tool.
type Dispatch struct {
	Deps
	tools map[string]lua.LGFunction
}

// Library exposes jido.call.
func (d *Dispatch) Library() runtime.Library {
	return runtime.Library{Name: LibraryName, Funcs: map[string]lua.LGFunction{"call": d.call}}
}

func (d *Dispatch) call(L *lua.LState) int {
	name := L.CheckString(1)
	fn, ok := d.tools[name]
	if !ok {
		if ut, ok := d.userTool(name); ok {
			L.Remove(1)
			return runUserTool(L, d.Deps, ut)
		}
		names := append(slices.Collect(maps.Keys(d.tools)), d.userToolNames()...)
		slices.Sort(names)
		L.Push(lua.LNil)
		L.Push(runtime.ToLua(L, definitions.UnknownTool(name, names)))
		return 2
	}
	L.Remove(1) // the tool function sees its arguments table as argument 1
	return fn(L)
}
