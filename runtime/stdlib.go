package runtime

import (
	lua "github.com/yuin/gopher-lua"
	"sync"
)

// allowed lists, per library ("" is the base library), the gopher-lua builtins exposed as they
// are. Everything else is denied: os, io, debug, package, channel, coroutine, load, loadstring,
// dofile, loadfile, require, module, getfenv, setfenv, rawset, rawget, collectgarbage, newproxy,
// _printregs, print, _G, string.dump, math.randomseed (research 1.4 and 5.2).
var allowed = map[string][]string{
	"":       {"error", "next", "rawequal", "select", "tonumber", "tostring", "type"},
	"string": {"char", "len", "lower", "reverse", "sub", "upper"},
	"table":  {"getn", "maxn"},
	"math": {"abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "deg", "exp", "floor",
		"fmod", "frexp", "ldexp", "log", "log10", "max", "min", "mod", "modf", "pow", "rad", "sin",
		"sinh", "sqrt", "tan", "tanh"},
}

// wrapped lists the builtins the sandbox implements itself, with caps, budgets, or Lua 5.1
// semantics that gopher-lua lacks.
var wrapped = map[string]map[string]lua.LGFunction{
	"": {
		"assert": baseAssert, "pcall": basePCall, "xpcall": baseXPCall, "unpack": baseUnpack,
		"getmetatable": baseGetMetatable, "setmetatable": baseSetMetatable,
	},
	"string": {
		"byte": strByte, "rep": strRep, "format": strFormat,
		"find": strFind, "match": strMatch, "gmatch": strGmatch, "gsub": strGsub,
	},
	"table": {"concat": tabConcat, "sort": tabSort},
	"math":  {"random": mathRandom},
}

// stdlib returns the Go function of every exposed library member, by library; built on
// first use, not at init, since every jido process (the sandbox helper too) would pay for
// a template Lua state before main.
var stdlib = sync.OnceValue(buildStdlib)

// buildStdlib takes gopher-lua's own functions for the allowed names from a template state
// (they are unexported), guards the table functions that write, and adds the wrapped ones.
func buildStdlib() map[string]map[string]lua.LGFunction {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, open := range []lua.LGFunction{lua.OpenBase, lua.OpenString, lua.OpenTable, lua.OpenMath} {
		L.Push(L.NewFunction(open))
		L.Call(0, 0)
	}
	out := map[string]map[string]lua.LGFunction{}
	for lib, names := range allowed {
		src := L.Get(lua.GlobalsIndex)
		if lib != "" {
			src = L.GetGlobal(lib)
		}
		out[lib] = map[string]lua.LGFunction{}
		for _, name := range names {
			out[lib][name] = L.GetField(src, name).(*lua.LFunction).GFunction
		}
	}
	for _, name := range []string{"insert", "remove"} {
		out["table"][name] = writable(L.GetField(L.GetGlobal("table"), name).(*lua.LFunction).GFunction)
	}
	insert := out["table"]["insert"]
	out["table"]["insert"] = func(L *lua.LState) int { // one more element: its growth is charged
		t := L.CheckTable(1)
		L.ChargeIndex(t, t.Len()+1)
		return insert(L)
	}
	for _, name := range []string{"lower", "upper", "reverse"} {
		out["string"][name] = sized(out["string"][name])
	}
	for lib, funcs := range wrapped {
		for name, fn := range funcs {
			out[lib][name] = fn
		}
	}
	return out
}

// sized charges a string builtin whose result is as long as its first argument for that
// result, before it is built.
func sized(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		L.Charge(int64(len(L.CheckString(1))))
		return fn(L)
	}
}
