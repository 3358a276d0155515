package runtime

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// FuzzConversion sends arbitrary JSON values through ToLua and back through ToGo: the result
// must be the same value (integral numbers as int64), or a KindLimit error, never a panic.
func FuzzConversion(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,2.5,"x",true,{"b":[]}],"n":null}`, `[]`, `{}`, `[[[[[]]]]]`, `{"1":"a","2":"b"}`,
		`[1e308,-1e308,9007199254740993]`, `"\u0000\ud7ff"`, `{"":{"":[{"":null}]}}`,
	} {
		f.Add(seed)
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	f.Cleanup(L.Close)
	lim := DefaultLimits()
	f.Fuzz(func(t *testing.T, raw string) {
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil || v == nil {
			return
		}
		want, comparable := goShape(v)
		got, err := ToGo(ToLua(L, v), lim, false)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindLimit {
				t.Fatalf("ToGo(%s): want a KindLimit error, got %v", raw, err)
			}
			return
		}
		if comparable && !reflect.DeepEqual(want, got) {
			t.Fatalf("round trip of %s:\nwant %#v\ngot  %#v", raw, want, got)
		}
	})
}

// goShape is what ToGo gives back for a decoded JSON value: integral numbers below 2^53 become
// int64, and null members of objects vanish (a Lua table cannot hold nil). ok is false for
// arrays holding null: Lua turns them into tables with holes, which are maps, by design.
func goShape(v any) (shape any, ok bool) {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
		return x, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if e == nil {
				return nil, false
			}
			if out[i], ok = goShape(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e == nil {
				continue
			}
			if out[k], ok = goShape(e); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

// FuzzSnippet runs arbitrary source in one VM with tight limits: whatever it does, the call
// ends with a result or an *Error (never an internal panic of ours leaking out as a crash),
// and the VM answers the next call as if nothing happened.
func FuzzSnippet(f *testing.F) {
	for _, seed := range []string{
		"return 1", "x = 1", "while true do end", "return ('x'):rep(1e9)", "local t = {} t.t = t return t",
		"setmetatable('', {})", "return getmetatable('').__index", "string.upper = nil", "error({})",
		"return (function(...) return select('#', ...) end)(unpack({1, 2, 3}))", "local a = {} for i = 1, 1e6 do a[i] = i end",
		"return string.format('%5.2f %q %x', 1.5, 'a\\n', 255)", "return pcall(error)", "goto x",
	} {
		f.Add(seed)
	}
	vm, err := New(Options{Limits: Limits{Timeout: 200 * time.Millisecond, Instructions: 200_000}})
	require.NoError(f, err)
	f.Cleanup(func() { vm.Close() })
	f.Fuzz(func(t *testing.T, src string) {
		_, err := vm.Call(t.Context(), "fuzz", src)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%q: error of type %T: %v", src, err, err)
		}
		if e != nil && (strings.Contains(e.Message, "goroutine ") || strings.Contains(e.Message, ".go:")) {
			t.Fatalf("%q: error leaks Go internals: %s", src, e.Message)
		}
		vals, err := vm.Call(t.Context(), "canary", `return 1 + 1, ("a"):upper(), x, type(string.rep)`)
		if err != nil || !reflect.DeepEqual(vals, []any{int64(2), "A", nil, "function"}) {
			t.Fatalf("after %q the VM is not pristine: %v %v", src, vals, err)
		}
	})
}
