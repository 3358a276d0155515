package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"
)

// hostResult is what the host function of the pass-through tests returns.
type hostResult struct {
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

// TestPushResultPassesUnchangedTablesThrough checks that a result returned as it came from
// the host is handed back as the host's own Go value, and that any change on the way,
// however small, gives the converted table instead.
func TestPushResultPassesUnchangedTablesThrough(t *testing.T) {
	var made *hostResult
	lib := Library{Name: "host", Funcs: map[string]lua.LGFunction{
		"get": func(L *lua.LState) int {
			made = &hostResult{Name: "n", Items: []string{"a", "b"}}
			PushResult(L, made)
			return 1
		},
	}}
	vm := newVM(t, Limits{}, lib)
	converted := func(name string, items ...any) map[string]any { return map[string]any{"name": name, "items": items} }
	for src, want := range map[string]any{
		"return host.get()":                                        nil, // nil: passed through
		"local args = ... return host.get(args)":                   nil,
		"local r = host.get() return r":                            nil,
		"return (host.get())":                                      nil,
		"local r = host.get() r.name = 'x' return r":               converted("x", "a", "b"),
		"local r = host.get() r.items[1] = 'z' return r":           converted("n", "z", "b"),
		"local r = host.get() table.insert(r.items, 'c') return r": converted("n", "a", "b", "c"),
		"local r = host.get() host.get() return r":                 converted("n", "a", "b"),
		"local r = host.get() local s = r return s":                converted("n", "a", "b"),
	} {
		vals := mustRun(t, vm, src)
		if want == nil {
			assert.Same(t, made, vals[0], src)
		} else {
			assert.Equal(t, want, vals[0], src)
		}
	}
	vals := mustRun(t, vm, "local r = host.get() return r, 1")
	assert.Equal(t, []any{converted("n", "a", "b"), int64(1)}, vals, "several results are converted")
}

// TestPushResultReturnedToHostIsNotConverted checks that a result the outermost function
// returns in a tail call reaches the host unconverted (a list far over the call's memory
// budget passes, because no Lua table is made of it), and that a result Lua code can still
// see, from an inner function or pcall, is converted as before.
func TestPushResultReturnedToHostIsNotConverted(t *testing.T) {
	big := &hostResult{Name: "big", Items: make([]string, 100_000)}
	lib := Library{Name: "host", Funcs: map[string]lua.LGFunction{
		"get": func(L *lua.LState) int {
			PushResult(L, big)
			return 1
		},
	}}
	vm := newVM(t, Limits{MaxMemory: 256 << 10}, lib)
	for _, src := range []string{"return host.get()", "local args = ... return host.get(args)"} {
		vals := mustRun(t, vm, src)
		assert.Same(t, big, vals[0], src)
	}
	for _, src := range []string{
		"local function f() return host.get() end local r = f() r.name = 'x' return r",
		"local ok, r = pcall(host.get) r.name = 'x' return r",
		"local r = host.get() return r",
	} {
		_, err := vm.Call(t.Context(), "test", src)
		var re *Error
		if assert.ErrorAs(t, err, &re, src) {
			assert.Equal(t, KindMemory, re.Kind, "%s: converted, and charged: %v", src, err)
		}
	}
}
