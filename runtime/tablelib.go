package runtime

import (
	"sort"

	lua "github.com/yuin/gopher-lua"
)

// tabConcat is table.concat into a capped builder sized in a first pass: gopher-lua's pushes
// every element on the value stack (registry overflow past ~2,500 elements) and has no size
// limit (research 1.9 #7).
func tabConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := optInt(L, 3, 1)
	j := optInt(L, 4, int64(t.Len()))
	c := callOf(L)
	b := newCapped(L, "table.concat")
	size := 0
	for k := i; k <= j; k++ {
		v := t.RawGetInt(int(k))
		if !lua.LVCanConvToString(v) {
			L.RaiseError("invalid value (at index %d) in table for 'concat'", k)
		}
		if size += len(lua.LVAsString(v)) + len(sep); size > b.max+len(sep) {
			raiseLimit(L, "table.concat: the result would exceed %d bytes", b.max)
		}
		if (k-i)%pollSteps == pollSteps-1 {
			c.spend(L, pollSteps)
		}
	}
	b.Grow(max(size-len(sep), 0))
	for k := i; k <= j; k++ {
		b.add(lua.LVAsString(t.RawGetInt(int(k))))
		if k < j {
			b.add(sep)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// tabSort is table.sort. Without a comparator the sort is uninterruptible Go, so it takes at
// most maxSortPlain elements; a comparator runs as Lua code, which the deadline stops.
func tabSort(L *lua.LState) int {
	t := L.CheckTable(1)
	checkWritable(L, t)
	s := sorter{L: L}
	if L.Get(2) != lua.LNil {
		s.less = L.CheckFunction(2)
	}
	n := t.Len()
	if s.less == nil && n > maxSortPlain {
		raiseLimit(L, "table.sort: %d elements without a comparator, over the limit of %d", n, maxSortPlain)
	}
	s.vals = make([]lua.LValue, 0, n)
	for i := 1; i <= n; i++ {
		s.vals = append(s.vals, t.RawGetInt(i))
	}
	sort.Sort(s)
	for i, v := range s.vals {
		t.RawSetInt(i+1, v)
	}
	return 0
}

// sorter sorts Lua values with a Lua comparator, or with Lua's < (metamethods included).
type sorter struct {
	L    *lua.LState
	less *lua.LFunction
	vals []lua.LValue
}

func (s sorter) Len() int      { return len(s.vals) }
func (s sorter) Swap(i, j int) { s.vals[i], s.vals[j] = s.vals[j], s.vals[i] }

func (s sorter) Less(i, j int) bool {
	if s.less == nil {
		return s.L.LessThan(s.vals[i], s.vals[j])
	}
	s.L.Push(s.less)
	s.L.Push(s.vals[i])
	s.L.Push(s.vals[j])
	s.L.Call(2, 1)
	r := lua.LVAsBool(s.L.Get(-1))
	s.L.Pop(1)
	return r
}

// writable guards a table builtin that writes raw (table.insert, table.remove) against the
// read-only proxies, which it would otherwise fill with state that outlives the call.
func writable(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		checkWritable(L, L.CheckTable(1))
		return fn(L)
	}
}

// checkWritable raises if t is a read-only proxy.
func checkWritable(L *lua.LState, t *lua.LTable) {
	if callOf(L).st.isReadOnly(t) {
		L.ArgError(1, "the table is read-only")
	}
}
