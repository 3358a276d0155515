package runtime

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memoryBombs allocate without bound, each in its own way; bombSetup makes a 16 MiB string
// first (32 MiB allocated on the way), as the concatenation bomb does.
var memoryBombs = []struct{ name, src string }{
	{"one .. of 64 operands", "local s = 'x' for i = 1, 24 do s = s .. s end local r = " + strings.Repeat("s .. ", 63) + "s return #r"},
	{"doubling", "local s = 'x' while true do s = s .. s end"},
	{"table of tables", "local t = {} while true do t[#t + 1] = {1, 2, 3} end"},
	{"table.insert", "local t = {} while true do table.insert(t, 'x') end"},
	{"hash keys", "local t, i = {}, 0 while true do i = i + 1 t['k' .. i] = i end"},
	{"closures", "local t = {} while true do t[#t + 1] = function() return t end end"},
	{"constructor lists", "local t = {} while true do t[#t + 1] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16} end"},
	{"string.rep", "local t = {} while true do t[#t + 1] = string.rep('x', 2^20) end"},
	{"upper of a megabyte", "local s = string.rep('x', 2^20) while true do local u = s:upper() end"},
	{"table.concat", "local t = {} for i = 1, 1000 do t[i] = string.rep('x', 1000) end local r = {} while true do r[#r + 1] = table.concat(t) end"},
	// A megabyte a call from 64 Ki matches: a million one-byte matches a call took over 20 s
	// under the race detector on a busy machine.
	{"gsub", "local s, y = string.rep('x', 2^16), string.rep('y', 16) local r = {} while true do r[#r + 1] = s:gsub('x', y) end"},
}

// TestMemoryBudgetIsChargedBeforeAllocating runs each bomb with a 64 MiB budget: the call fails
// with KindMemory having allocated about its budget, never the bomb's gigabytes, and the next
// call of the same VM succeeds at once. The first bomb (one `..` instruction building 1 GiB)
// fails this test if the gopher-lua patch of third_party/gopher-lua is lost: nothing else can
// refuse its allocation before it happens.
func TestMemoryBudgetIsChargedBeforeAllocating(t *testing.T) {
	const budget = 64 << 20
	vm := newVM(t, Limits{Timeout: 60 * time.Second, MaxMemory: budget}) // a guard: each bomb ends in seconds
	for _, b := range memoryBombs {
		t.Run(b.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := run(t, vm, b.src)
			runtime.ReadMemStats(&after)
			require.NotNil(t, err)
			assert.Equal(t, KindMemory, err.Kind, err.Message)
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %d MiB for a budget of %d MiB", allocated>>20, budget>>20)
			assert.Less(t, allocated, uint64(budget+budget/4), "allocated at most about its budget: the charges estimate Go's footprint")

			next, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond) // the failing case
			defer cancel()
			vals, nerr := vm.Call(next, "next", "return 1+1")
			require.NoError(t, nerr, "the next call succeeds at once, within 200 ms")
			assert.Equal(t, []any{int64(2)}, vals)
		})
	}
}

// TestMemoryBudgetIsPerCall: what one call allocated is not charged to the next, and a call
// below its budget is not refused whatever other VMs allocate.
func TestMemoryBudgetIsPerCall(t *testing.T) {
	vm := newVM(t, Limits{Timeout: 20 * time.Second, MaxMemory: 16 << 20})
	for range 5 {
		assert.Equal(t, []any{int64(8 << 20)}, mustRun(t, vm, "local s = string.rep('x', 2^22) return #(s .. s)"))
	}
	other := newVM(t, Limits{Timeout: 20 * time.Second, MaxMemory: 1 << 30})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = other.Call(t.Context(), "big", "local t = {} for i = 1, 200 do t[i] = string.rep('x', 2^20) end return #t")
	}()
	for range 20 {
		assert.Equal(t, []any{int64(8 << 20)}, mustRun(t, vm, "local s = string.rep('x', 2^22) return #(s .. s)"), "not refused for another VM's memory")
	}
	<-done
}

// TestNextCallAfterAnyLimit: after a call ends on any limit (memory, instructions, time), the
// session's next call runs at once on a fresh VM.
func TestNextCallAfterAnyLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		lim  Limits
		src  string
		kind Kind
	}{
		{"memory", Limits{Timeout: 10 * time.Second, MaxMemory: 16 << 20}, "local s = 'x' while true do s = s .. s end", KindMemory},
		{"instructions", Limits{Timeout: 10 * time.Second, Instructions: 1_000_000}, "while true do end", KindBudget},
		{"time", Limits{Timeout: 100 * time.Millisecond}, "while true do end", KindTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vm := newVM(t, tc.lim)
			for range 6 {
				_, err := run(t, vm, tc.src)
				require.NotNil(t, err)
				assert.Equal(t, tc.kind, err.Kind, err.Message)
				next, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
				vals, nerr := vm.Call(next, "next", "return 1+1")
				cancel()
				require.NoError(t, nerr)
				assert.Equal(t, []any{int64(2)}, vals)
			}
		})
	}
}
