package bridge

import (
	"maps"
	"slices"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// Dispatch is the bridge module of jido.call(name, args): it calls any registered tool by name,
// through the same validation as a direct jido.<tool>(args) call.
type Dispatch struct {
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
		L.Push(lua.LNil)
		L.Push(runtime.ToLua(L, definitions.UnknownTool(name, slices.Sorted(maps.Keys(d.tools)))))
		return 2
	}
	L.Remove(1) // the tool function sees its arguments table as argument 1
	return fn(L)
}
