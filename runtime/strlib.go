package runtime

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// capped is a strings.Builder for the result of a builtin that refuses to grow past the call's
// MaxStringBytes.
type capped struct {
	strings.Builder
	L    *lua.LState
	max  int
	what string
}

func newCapped(L *lua.LState, what string) *capped {
	return &capped{L: L, max: callOf(L).st.lim.MaxStringBytes, what: what}
}

// Grow grows the buffer for n more bytes, charging the call for the new buffer first
// (strings.Builder grows to twice its capacity plus n).
func (b *capped) Grow(n int) {
	if b.Cap()-b.Len() < n {
		b.L.Charge(int64(2*b.Cap() + n))
	}
	b.Builder.Grow(n)
}

func (b *capped) add(s string) {
	if b.Len()+len(s) > b.max {
		raiseLimit(b.L, "%s: the result would exceed %d bytes", b.what, b.max)
	}
	b.Grow(len(s)) // doubles the buffer: append's growth of large slices by 1.25 makes more garbage
	b.WriteString(s)
}

func (b *capped) addByte(c byte) {
	if b.Len() >= b.max {
		raiseLimit(b.L, "%s: the result would exceed %d bytes", b.what, b.max)
	}
	b.Grow(1)
	b.WriteByte(c)
}

// strByte is string.byte with at most maxUnpack values.
func strByte(L *lua.LState) int {
	s := L.CheckString(1)
	i := posrelat(optInt(L, 2, 1), len(s))
	j := posrelat(optInt(L, 3, i), len(s))
	i, j = max(i, 1), min(j, int64(len(s)))
	if i > j {
		return 0
	}
	if j-i >= maxUnpack {
		raiseLimit(L, "string.byte: %d values, over the limit of %d", j-i+1, maxUnpack)
	}
	for k := i; k <= j; k++ {
		L.Push(lua.LNumber(s[k-1]))
	}
	return int(j - i + 1)
}

// posrelat turns a negative string position into one from the start, as Lua 5.1 does.
func posrelat(pos int64, n int) int64 {
	if pos < 0 {
		return int64(n) + pos + 1
	}
	return pos
}

// strRep is string.rep with the result capped at MaxStringBytes.
func strRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := checkInt(L, 2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	if limit := int64(callOf(L).st.lim.MaxStringBytes); n > limit/int64(len(s)) {
		raiseLimit(L, "string.rep: the result would exceed %d bytes", limit)
	}
	L.Charge(n * int64(len(s)))
	L.Push(lua.LString(strings.Repeat(s, int(n))))
	return 1
}

// strFind is string.find on the budgeted matcher.
func strFind(L *lua.LState) int { return findAux(L, true) }

// strMatch is string.match on the budgeted matcher.
func strMatch(L *lua.LState) int { return findAux(L, false) }

// findAux is Lua 5.1's str_find_aux.
func findAux(L *lua.LState, find bool) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	init := min(max(posrelat(optInt(L, 3, 1), len(s))-1, 0), int64(len(s)))
	if find && (L.ToBool(4) || !strings.ContainsAny(p, "^$*+?.([%-")) {
		if at := strings.Index(s[init:], p); at >= 0 {
			L.Push(lua.LNumber(init + int64(at) + 1))
			L.Push(lua.LNumber(init + int64(at+len(p))))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	m := newMatcher(L, s, p, true)
	for from := int(init); ; from++ {
		if end := m.start(from); end >= 0 {
			if find {
				L.Push(lua.LNumber(from + 1))
				L.Push(lua.LNumber(end))
				return m.pushCaptures(-1, -1, false) + 2
			}
			return m.pushCaptures(from, end, true)
		}
		if from >= len(s) || m.anchored {
			break
		}
	}
	L.Push(lua.LNil)
	return 1
}

// strGmatch is string.gmatch: its iterator looks for the next match only when called (gopher-lua's
// finds every match up front).
func strGmatch(L *lua.LState) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	m := newMatcher(L, s, p, false) // in gmatch a leading ^ is no anchor, as in Lua 5.1
	pos := 0
	L.Push(L.NewFunction(func(*lua.LState) int {
		for ; pos <= len(s); pos++ {
			if end := m.start(pos); end >= 0 {
				from := pos
				pos = max(end, from+1)
				return m.pushCaptures(from, end, true)
			}
		}
		return 0
	}))
	return 1
}

// strGsub is string.gsub: linear in the input, budgeted, its result capped at MaxStringBytes.
func strGsub(L *lua.LState) int {
	src := L.CheckString(1)
	p := L.CheckString(2)
	repl := L.Get(3)
	switch repl.Type() {
	case lua.LTNumber, lua.LTString, lua.LTTable, lua.LTFunction:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	maxN := optInt(L, 4, int64(len(src))+1)
	m := newMatcher(L, src, p, true)
	b := newCapped(L, "string.gsub")
	s, n, copied := 0, int64(0), 0 // src[copied:s] is still to be copied
	for n < maxN {
		end := m.start(s)
		if end >= 0 {
			n++
			b.add(src[copied:s])
			m.addValue(b, s, end, repl)
			copied = end
		}
		if end > s {
			s = end
		} else if s < len(src) {
			s++
		} else {
			break
		}
		if m.anchored {
			break
		}
	}
	b.add(src[copied:])
	L.Push(lua.LString(b.String()))
	L.Push(lua.LNumber(n))
	return 2
}
