package runtime

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// passError is the Go error handler of every protected call: it returns the error value as is.
// With a handler gopher-lua builds no traceback, which after a long run of tail calls would
// cost seconds and hundreds of MB past the deadline (research 1.9 #1).
func passError(L *lua.LState) int { return 1 }

// trampoline calls its first argument with the others and returns all results. It sits between
// PCall and the callee so that a Go panic (a bug in a builtin or a bridge function) is seen for
// what it is before PCall turns it into an ordinary error value: the call is marked, the snippet
// cannot catch it, and the VM is discarded.
func trampoline(L *lua.LState) int {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*lua.ApiError); !ok {
				c := callOf(L)
				if c.internal == "" {
					c.internal = fmt.Sprint(r)
				}
			}
			panic(r)
		}
	}()
	L.Call(L.GetTop()-1, lua.MultRet)
	return L.GetTop()
}

// protect calls the function under the nargs arguments at the top of L's stack in protected
// mode, through the trampoline and with the Go error handler, leaving its results on the stack.
// It returns the raised value if the call failed. A panic escaping PCall (gopher-lua's registry
// overflow while it unwinds, research 1.9 #2) marks the call broken and goes on up.
func (c *callCtx) protect(L *lua.LState, nargs int) (raised lua.LValue, failed bool) {
	defer func() {
		if r := recover(); r != nil {
			c.broken = true
			panic(r)
		}
	}()
	L.Insert(c.st.trampoline, L.GetTop()-nargs)
	if err := L.PCall(nargs+1, lua.MultRet, c.st.handler); err != nil {
		if ae, ok := err.(*lua.ApiError); ok {
			return ae.Object, true
		}
		return lua.LString(err.Error()), true
	}
	return nil, false
}

// basePCall is pcall on protect: a cancelled call or a Go panic is raised again, not returned.
func basePCall(L *lua.LState) int {
	L.CheckAny(1)
	c := callOf(L)
	raised, failed := c.protect(L, L.GetTop()-1)
	c.reraise(L)
	if failed {
		L.Push(lua.LFalse)
		L.Push(raised)
		return 2
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// baseXPCall is xpcall on protect. The handler runs after the stack is unwound, which no one can
// tell without the debug library; it is protected too.
func baseXPCall(L *lua.LState) int {
	L.CheckAny(1)
	L.CheckFunction(2)
	L.SetTop(2)
	c := callOf(L)
	L.Push(L.Get(1))
	raised, failed := c.protect(L, 0)
	c.reraise(L)
	if !failed {
		L.Insert(lua.LTrue, 3)
		return L.GetTop() - 2
	}
	L.Push(L.Get(2))
	L.Push(raised)
	if raised, failed = c.protect(L, 1); !failed {
		raised = L.Get(3)
	}
	c.reraise(L)
	L.SetTop(2)
	L.Push(lua.LFalse)
	L.Push(raised)
	return 2
}

// baseUnpack is unpack with at most maxUnpack values.
func baseUnpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i := optInt(L, 2, 1)
	j := optInt(L, 3, int64(t.Len()))
	if i > j {
		return 0
	}
	if j-i >= maxUnpack {
		raiseLimit(L, "unpack: %d values, over the limit of %d", j-i+1, maxUnpack)
	}
	for k := i; k <= j; k++ {
		L.Push(t.RawGetInt(int(k)))
	}
	return int(j - i + 1)
}

// baseGetMetatable honours __metatable and gives nothing for values other than tables but a
// protected __metatable field: getmetatable("") is a read-only view, never the string library.
func baseGetMetatable(L *lua.LState) int {
	switch v := L.CheckAny(1).(type) {
	case *lua.LUserData:
		if mt, ok := v.Metatable.(*lua.LTable); ok {
			L.Push(mt.RawGetString("__metatable"))
		} else {
			L.Push(lua.LNil)
		}
	default:
		// gopher-lua returns the __metatable field when there is one. Of the types other than
		// tables and userdata, only strings have a metatable (setmetatable takes tables only),
		// and its field is the view.
		L.Push(L.GetMetatable(v))
	}
	return 1
}

// baseSetMetatable sets metatables of tables only: gopher-lua's would replace the metatable
// shared by every string (or number, boolean, function) of the VM (research 1.4).
func baseSetMetatable(L *lua.LState) int {
	t := L.CheckTable(1)
	L.CheckTypes(2, lua.LTNil, lua.LTTable)
	if mt, ok := t.Metatable.(*lua.LTable); ok && mt.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	t.Metatable = L.Get(2)
	L.SetTop(1)
	return 1
}

// basePairs returns next (its upvalue), t, nil.
func basePairs(L *lua.LState) int {
	t := L.CheckTable(1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(t)
	L.Push(lua.LNil)
	return 3
}

// baseIpairs returns its iterator (its upvalue), t, 0.
func baseIpairs(L *lua.LState) int {
	t := L.CheckTable(1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(t)
	L.Push(lua.LNumber(0))
	return 3
}

// ipairsAux is the iterator of ipairs: raw reads up to the first nil.
func ipairsAux(L *lua.LState) int {
	t := L.CheckTable(1)
	i := checkInt(L, 2) + 1
	v := t.RawGetInt(int(i))
	if v == lua.LNil {
		return 0
	}
	L.Push(lua.LNumber(i))
	L.Push(v)
	return 2
}

// checkInt returns argument n truncated to an integer, as luaL_checkint does. NaN, infinities
// and magnitudes over 2^53 are argument errors rather than Go's undefined conversions.
func checkInt(L *lua.LState, n int) int64 {
	v := float64(L.CheckNumber(n))
	if math.IsNaN(v) || math.Abs(v) > 1<<53 {
		L.ArgError(n, "number has no integer representation")
	}
	return int64(v)
}

// optInt is checkInt with a default for an absent or nil argument.
func optInt(L *lua.LState, n int, def int64) int64 {
	if L.Get(n) == lua.LNil {
		return def
	}
	return checkInt(L, n)
}

// baseAssert is assert as Lua 5.2 and later have it: a false or nil value raises its message
// whatever its type, so that assert(jido.read_file{...}) fails with the tool's error table
// (gopher-lua's, as Lua 5.1's, wants a string and complains of the table instead); no
// message raises "assertion failed!". A true value returns all the arguments.
func baseAssert(L *lua.LState) int {
	if L.GetTop() == 0 {
		L.ArgError(1, "value expected")
	}
	if lua.LVAsBool(L.Get(1)) {
		return L.GetTop()
	}
	switch msg := L.Get(2); msg.(type) {
	case *lua.LNilType:
		L.RaiseError("assertion failed!")
	case lua.LString, lua.LNumber:
		L.RaiseError("%s", msg.String())
	default:
		L.Error(msg, 0)
	}
	return 0
}
