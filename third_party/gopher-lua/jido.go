package lua

// jido patch (see PATCH.md): allocation accounting. The VM tells LState.Charge, before it
// allocates them, of the bytes of Lua data a snippet makes it build, so that a host can
// bound what one call may allocate. The sizes are estimates of Go's footprint on 64-bit
// platforms; what matters is that no allocation a snippet controls is left out.

const (
	slotBytes    = 16  // an LValue (interface) in an array, a register or an upvalue list
	tableBytes   = 128 // an LTable with its header fields
	keyBytes     = 320 // one new hash key: its map entry, its slots in keys and k2i, their growth
	closureBytes = 96  // an LFunction
)

// charge tells Charge of n bytes about to be allocated.
func (ls *LState) charge(n int) {
	if ls.Charge != nil && n > 0 {
		ls.Charge(int64(n))
	}
}

// chargeKey charges the growth that setting the absent key of tb to value will cause: an
// append that outgrows the array part doubles it; any other key adds a hash entry.
func (ls *LState) chargeKey(tb *LTable, key LValue, value LValue) {
	if ls.Charge == nil || value == LNil {
		return
	}
	if n, ok := key.(LNumber); ok {
		if i := int(n); LNumber(i) == n && i >= 1 && i <= MaxArrayIndex {
			ls.chargeArray(tb, i)
			return
		}
	}
	ls.charge(keyBytes)
}

// chargeList charges the growth of tb's array part that a constructor's list (OP_SETLIST)
// storing indexes up to last will cause.
func (ls *LState) chargeList(tb *LTable, last int) {
	if c := cap(tb.array); last > c {
		ls.charge((max(2*last, defaultArrayCap) - c) * slotBytes)
	}
}

// chargeArray charges the growth of tb's array part that storing index i (1-based) will
// cause: RawSetInt appends at len+1 (doubling a full array) and stores below len in place;
// other indexes go to the hash part.
func (ls *LState) chargeArray(tb *LTable, i int) {
	if ls.Charge == nil {
		return
	}
	switch n := len(tb.array); {
	case i <= n:
	case i == n+1 && n == cap(tb.array):
		ls.charge(max(2*n, defaultArrayCap) * slotBytes)
	case i == n+1:
	default:
		ls.charge(keyBytes)
	}
}

// ChargeIndex charges, as the VM does, the growth that storing a value at index i (1-based)
// of tb will cause: for a host's own builtins that write tables (table.insert).
func (ls *LState) ChargeIndex(tb *LTable, i int) { ls.chargeArray(tb, i) }

// TailCallDepth tells a running Go function where its results go: when the Lua function
// that called it made a tail call (`return f(...)`), they go unchanged to that function's
// caller, and TailCallDepth returns the number of call frames below that function (0: it
// was called from Go directly); otherwise -1. A host that knows what sits at that depth
// can tell that no Lua code will see the results, and push a stand-in for a value that is
// costly to convert.
func (ls *LState) TailCallDepth() int {
	cf := ls.currentFrame
	if cf == nil || !cf.Fn.IsG {
		return -1
	}
	caller := cf.Parent
	if caller == nil || caller.Fn.IsG || caller.Pc == 0 || opGetOpCode(caller.Fn.Proto.Code[caller.Pc-1]) != OP_TAILCALL {
		return -1
	}
	depth := 0
	for f := caller.Parent; f != nil; f = f.Parent {
		depth++
	}
	return depth
}
