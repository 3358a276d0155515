package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// expiry starts a clock of limit and returns it with a channel closed when it expires.
func expiry(limit time.Duration) (*Clock, chan struct{}) {
	expired := make(chan struct{})
	return StartClock(limit, func() { close(expired) }), expired
}

// fired reports whether ch is closed within wait.
func fired(ch chan struct{}, wait time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(wait):
		return false
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	t.Run("a running clock expires", func(t *testing.T) {
		t.Parallel()
		c, expired := expiry(20 * time.Millisecond)
		defer c.Release()
		assert.True(t, fired(expired, 10*time.Second))
	})
	t.Run("a stopped clock does not", func(t *testing.T) {
		t.Parallel()
		c, expired := expiry(time.Second)
		c.Stop()
		assert.False(t, fired(expired, 1500*time.Millisecond), "host time is not Lua time")
		c.Start()
		assert.True(t, fired(expired, 10*time.Second), "the Lua time left runs out once started again")
		c.Release()
	})
	t.Run("nested host spans", func(t *testing.T) {
		t.Parallel()
		c, expired := expiry(time.Second)
		c.Stop()
		c.Stop()
		c.Start() // still inside the outer span
		assert.False(t, fired(expired, 1500*time.Millisecond))
		c.Start()
		assert.True(t, fired(expired, 10*time.Second))
		c.Release()
	})
	t.Run("Lua called back from a host span runs the clock", func(t *testing.T) {
		t.Parallel()
		c, expired := expiry(50 * time.Millisecond)
		c.Stop()
		again := c.Resume()
		assert.True(t, fired(expired, 10*time.Second))
		again()
		c.Start()
		c.Release()
	})
	t.Run("released clocks never expire", func(t *testing.T) {
		t.Parallel()
		c, expired := expiry(20 * time.Millisecond)
		c.Release()
		assert.False(t, fired(expired, 200*time.Millisecond))
	})
}

// sleepLib is a library whose function waits (host time), and one that calls a Lua
// function back (as jido.call runs a user's tool).
func sleepLib() Library {
	return Library{Name: "host", Funcs: map[string]lua.LGFunction{
		"sleep": func(L *lua.LState) int {
			select {
			case <-time.After(time.Duration(L.CheckNumber(1)) * time.Millisecond):
			case <-L.Context().Done():
			}
			return 0
		},
		"callback": func(L *lua.LState) int {
			L.Push(L.CheckFunction(1))
			CallLua(L, 0, 0)
			return 0
		},
	}}
}

func TestLuaTimeExcludesHostTime(t *testing.T) {
	t.Parallel()
	vm := newVM(t, Limits{Timeout: 100 * time.Millisecond, Instructions: 1 << 62}, sleepLib())

	vals, err := vm.Call(t.Context(), "t", "host.sleep(400) host.sleep(400) return 'waited'")
	require.NoError(t, err, "800 ms in host functions is not 100 ms of Lua")
	assert.Equal(t, []any{"waited"}, vals)

	_, err = vm.Call(t.Context(), "t", "host.sleep(10) while true do end")
	var e *Error
	require.ErrorAs(t, err, &e, "Lua work after a host call still has its limit")
	assert.Equal(t, KindTimeout, e.Kind)
	assert.Contains(t, e.Message, "100ms")

	_, err = vm.Call(t.Context(), "t", "host.callback(function() while true do end end)")
	require.ErrorAs(t, err, &e, "Lua that a host function calls back is Lua time")
	assert.Equal(t, KindTimeout, e.Kind)
}

func TestWithTimeout(t *testing.T) {
	t.Parallel()
	const loop = "for i = 1, 2000000 do end return 'done'"
	t.Run("lengthens", func(t *testing.T) {
		t.Parallel()
		vm := newVM(t, Limits{Timeout: time.Millisecond, Instructions: 1 << 62})
		_, err := vm.Call(t.Context(), "t", loop)
		var e *Error
		require.ErrorAs(t, err, &e, "the loop takes more than the default 1 ms")
		assert.Equal(t, KindTimeout, e.Kind)

		vals, err := vm.Call(WithTimeout(t.Context(), time.Hour), "t", loop)
		require.NoError(t, err)
		assert.Equal(t, []any{"done"}, vals)
	})
	t.Run("shortens", func(t *testing.T) {
		t.Parallel()
		vm := newVM(t, Limits{Timeout: time.Hour, Instructions: 1 << 62})
		_, err := vm.Call(WithTimeout(t.Context(), 50*time.Millisecond), "t", "while true do end")
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, KindTimeout, e.Kind)
		assert.Contains(t, e.Message, "50ms")
	})
	t.Run("zero keeps the limit", func(t *testing.T) {
		t.Parallel()
		assert.Equal(t, time.Minute, TimeoutOf(WithTimeout(context.Background(), 0), time.Minute))
	})
}
