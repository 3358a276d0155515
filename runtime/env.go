package runtime

import (
	"fmt"
	"maps"
	"math"
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// Library is a set of Go functions exposed to snippets as one read-only global table.
// Several libraries with the same Name are merged.
type Library struct {
	Name  string
	Funcs map[string]lua.LGFunction
}

// state is one gopher-lua LState dressed as a sandbox: a read-only base environment that the
// fresh environment of every call falls back to. Only the VM's owner goroutine touches it.
type state struct {
	L          *lua.LState
	lim        Limits
	envMeta    *lua.LTable    // metatable of every call's environment: __index = the base
	handler    *lua.LFunction // Go error handler of every protected call
	trampoline *lua.LFunction // sits between PCall and the callee to see Go panics
	deny       *lua.LFunction // __newindex of the read-only proxies
}

// newState builds an LState with only the allowed libraries, each behind a read-only proxy,
// and the protected string metatable.
func newState(lim Limits, libs map[string]map[string]lua.LGFunction) *state {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:     true,
		CallStackSize:    lim.CallStackSize,
		RegistrySize:     registrySize,
		RegistryMaxSize:  registryMaxSize,
		RegistryGrowStep: registryGrowStep,
	})
	st := &state{
		L:          L,
		lim:        lim,
		handler:    L.NewFunction(passError),
		trampoline: L.NewFunction(trampoline),
		deny:       L.NewFunction(denyWrite),
	}
	L.Charge = func(n int64) {
		if c, ok := L.Context().(*callCtx); ok { // outside a call (building the state): free
			c.charge(L, n)
		}
	}
	base := L.CreateTable(0, len(stdlib()[""])+len(stdlib())+len(libs)+3)
	st.register(base, stdlib()[""])
	base.RawSetString("_VERSION", lua.LString(lua.LuaVersion))
	base.RawSetString("pairs", L.NewClosure(basePairs, base.RawGetString("next")))
	base.RawSetString("ipairs", L.NewClosure(baseIpairs, L.NewFunction(ipairsAux)))

	reals := map[string]*lua.LTable{}
	for name, funcs := range stdlib() {
		if name != "" {
			reals[name] = st.register(L.CreateTable(0, len(funcs)+2), funcs)
		}
	}
	for name, funcs := range libs {
		t := L.CreateTable(0, len(funcs))
		for fname, fn := range funcs {
			t.RawSetString(fname, L.NewFunction(hostFunc(fn)))
		}
		reals[name] = t
	}
	reals["math"].RawSetString("pi", lua.LNumber(math.Pi))
	reals["math"].RawSetString("huge", lua.LNumber(math.Inf(1)))
	for name, real := range reals {
		base.RawSetString(name, st.readOnly(real))
	}

	// Strings index the real string library, so ("x"):rep(3) uses the capped functions, and
	// getmetatable("") gives only a read-only view whose __index is the string proxy.
	view := L.CreateTable(0, 1)
	view.RawSetString("__index", base.RawGetString("string"))
	strMeta := L.CreateTable(0, 2)
	strMeta.RawSetString("__index", reals["string"])
	strMeta.RawSetString("__metatable", st.readOnly(view))
	L.SetMetatable(lua.LString(""), strMeta)

	st.envMeta = L.CreateTable(0, 2)
	st.envMeta.RawSetString("__index", base)
	st.envMeta.RawSetString("__metatable", lua.LFalse)
	return st
}

// register sets a fresh LFunction for each of funcs in t and returns t.
func (st *state) register(t *lua.LTable, funcs map[string]lua.LGFunction) *lua.LTable {
	for name, fn := range funcs {
		t.RawSetString(name, st.L.NewFunction(fn))
	}
	return t
}

// readOnly returns an empty proxy of target: reads go through __index, writes raise, and the
// metatable is hidden. The proxy is sound only because rawset is not exposed and the table
// functions refuse it.
func (st *state) readOnly(target *lua.LTable) *lua.LTable {
	mt := st.L.CreateTable(0, 3)
	mt.RawSetString("__index", target)
	mt.RawSetString("__newindex", st.deny)
	mt.RawSetString("__metatable", lua.LFalse)
	proxy := st.L.CreateTable(0, 0)
	proxy.Metatable = mt
	return proxy
}

// isReadOnly reports whether t is one of st's proxies.
func (st *state) isReadOnly(t *lua.LTable) bool {
	mt, ok := t.Metatable.(*lua.LTable)
	return ok && mt.RawGetString("__newindex") == lua.LValue(st.deny)
}

// denyWrite is the __newindex of the read-only proxies.
func denyWrite(L *lua.LState) int {
	key := L.Get(2).String()
	if len(key) > 64 {
		key = key[:64] + "..."
	}
	L.RaiseError("attempt to modify a read-only table (key %q)", key)
	return 0
}

// mergeLibraries merges libs by name and checks that every name is a free Lua identifier.
func mergeLibraries(libs []Library) (map[string]map[string]lua.LGFunction, error) {
	out := map[string]map[string]lua.LGFunction{}
	for _, lib := range libs {
		if !isIdentifier(lib.Name) || stdlib()[""][lib.Name] != nil || stdlib()[lib.Name] != nil ||
			slices.Contains([]string{"_VERSION", "pairs", "ipairs"}, lib.Name) {
			return nil, fmt.Errorf("runtime: library name %q is not a free Lua identifier", lib.Name)
		}
		merged := out[lib.Name]
		if merged == nil {
			merged = map[string]lua.LGFunction{}
			out[lib.Name] = merged
		}
		for _, name := range slices.Sorted(maps.Keys(lib.Funcs)) {
			switch {
			case lib.Funcs[name] == nil:
				return nil, fmt.Errorf("runtime: library function %s.%s is nil", lib.Name, name)
			case merged[name] != nil:
				return nil, fmt.Errorf("runtime: library function %s.%s is defined twice", lib.Name, name)
			}
			merged[name] = lib.Funcs[name]
		}
	}
	return out, nil
}

// isIdentifier reports whether s is a Lua name that is not a keyword.
func isIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) || luaKeywords[s] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentStart(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

var luaKeywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "if": true, "in": true, "local": true,
	"nil": true, "not": true, "or": true, "repeat": true, "return": true, "then": true,
	"true": true, "until": true, "while": true,
}
