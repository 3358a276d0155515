package runtime

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// luaValue evaluates a trusted expression in a plain gopher-lua state.
func luaValue(t *testing.T, expr string) lua.LValue {
	t.Helper()
	L := lua.NewState()
	t.Cleanup(L.Close)
	require.NoError(t, L.DoString("return "+expr))
	return L.Get(-1)
}

func TestToGo(t *testing.T) {
	tests := []struct {
		name    string
		expr    string
		lim     Limits
		lenient bool
		want    any
		fails   bool
	}{
		{name: "nil", expr: "nil", want: nil},
		{name: "bool", expr: "true", want: true},
		{name: "integer", expr: "42", want: int64(42)},
		{name: "negative zero", expr: "-0", want: int64(0)},
		{name: "fraction", expr: "0.25", want: 0.25},
		{name: "beyond 2^53", expr: "2^53", want: 9007199254740992.0},
		{name: "string", expr: "'x'", want: "x"},
		{name: "array", expr: "{1, 'b', {true}}", want: []any{int64(1), "b", []any{true}}},
		{name: "map", expr: "{a = 1, b = {c = 'd'}}", want: map[string]any{"a": int64(1), "b": map[string]any{"c": "d"}}},
		{name: "empty table", expr: "{}", want: map[string]any{}},
		{name: "mixed keys", expr: "{1, 2, x = 3}", want: map[string]any{"1": int64(1), "2": int64(2), "x": int64(3)}},
		{name: "keys from 2", expr: "{[2] = 'a', [3] = 'b'}", want: map[string]any{"2": "a", "3": "b"}},
		{name: "fractional and negative keys", expr: "{[0.5] = 1, [-1] = 2}", want: map[string]any{"0.5": int64(1), "-1": int64(2)}},
		{name: "metatables ignored", expr: "setmetatable({}, {__index = {a = 1}})", want: map[string]any{}},
		{name: "NaN strict", expr: "0/0", fails: true},
		{name: "NaN lenient", expr: "0/0", lenient: true, want: "NaN"},
		{name: "infinities lenient", expr: "{1/0, -1/0}", lenient: true, want: []any{"Inf", "-Inf"}},
		{name: "function strict", expr: "print", fails: true},
		{name: "function lenient", expr: "{f = print}", lenient: true, want: map[string]any{"f": "<function>"}},
		{name: "boolean key strict", expr: "{[true] = 1}", fails: true},
		{name: "boolean key lenient", expr: "{[true] = 1}", lenient: true, want: map[string]any{"true": int64(1)}},
		{name: "keys that collide", expr: "{[1] = 'a', ['1'] = 'b', x = 1}", lenient: true, fails: true},
		{name: "cycle", expr: "(function() local t = {} t.t = t return t end)()", lenient: true, fails: true},
		{name: "shared table", expr: "(function() local t = {} return {t, t} end)()", want: []any{map[string]any{}, map[string]any{}}},
		{name: "depth at the limit", expr: "{{}}", lim: Limits{MaxDepth: 2}, want: []any{map[string]any{}}},
		{name: "depth over the limit", expr: "{{{}}}", lim: Limits{MaxDepth: 2}, fails: true},
		{name: "values at the limit", expr: "{1, 2, 3}", lim: Limits{MaxValues: 4}, want: []any{int64(1), int64(2), int64(3)}},
		{name: "values over the limit", expr: "{1, 2, 3, 4}", lim: Limits{MaxValues: 4}, fails: true},
		{name: "exponential sharing", expr: "(function() local t = {} for i = 1, 40 do t = {t, t} end return t end)()", fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ToGo(luaValue(t, tt.expr), tt.lim, tt.lenient)
			if tt.fails {
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, KindLimit, e.Kind)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

type inner struct {
	Z int `json:"z"`
}

type Embedded struct {
	E      string `json:"e"`
	Shadow string `json:"a"`
}

type hidden struct {
	H int `json:"h"`
}

type sample struct {
	A       string         `json:"a"`
	B       int            `json:"b,omitempty"`
	C       []string       `json:"c,omitempty"`
	D       *inner         `json:"d"`
	Nil     *inner         `json:"nil"`
	Skip    string         `json:"-"`
	Dash    string         `json:"-,"`
	NoTag   bool           //
	private int            //
	T       time.Time      `json:"t"`
	Zero    time.Time      `json:"zero,omitzero"`
	Raw     []byte         `json:"raw"`
	M       map[string]int `json:"m"`
	IntKeys map[int]int    `json:"int_keys"`
	F       func()         `json:"f"`
	Any     any            `json:"any"`
	Arr     [2]uint8       `json:"arr"`
	Float   float32        `json:"float"`
	List    []any          `json:"list"`
	Embedded
	hidden
}

func TestToLua(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	when := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	v := sample{
		A: "a", D: &inner{Z: 1}, Skip: "no", Dash: "yes", NoTag: true, private: 1, T: when,
		Raw: []byte("raw"), M: map[string]int{"k": 2}, IntKeys: map[int]int{1: 1}, F: func() {},
		Any: []int{3}, Arr: [2]uint8{4, 5}, Float: 0.5, Embedded: Embedded{E: "e", Shadow: "shadowed"},
		hidden: hidden{H: 6},
	}
	got, err := ToGo(ToLua(L, &v), Limits{}, false)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"a": "a", "d": map[string]any{"z": int64(1)}, "-": "yes", "NoTag": true,
		"t": "2025-03-04T05:06:07Z", "raw": "raw", "m": map[string]any{"k": int64(2)},
		"any": []any{int64(3)}, "arr": []any{int64(4), int64(5)}, "float": 0.5, "list": []any{},
		"e": "e", "h": int64(6),
	}, got)

	scalars := []struct {
		in   any
		want lua.LValue
	}{
		{nil, lua.LNil},
		{lua.LString("as is"), lua.LString("as is")},
		{true, lua.LTrue},
		{int8(-3), lua.LNumber(-3)},
		{uint64(7), lua.LNumber(7)},
		{3.5, lua.LNumber(3.5)},
		{"s", lua.LString("s")},
		{(*inner)(nil), lua.LNil},
		{make(chan int), lua.LNil},
		{complex(1, 2), lua.LNil},
	}
	for _, s := range scalars {
		assert.Equal(t, s.want, ToLua(L, s.in), "%T", s.in)
	}
}

func TestToLuaCyclicValue(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	lib := Library{Name: "jido", Funcs: map[string]lua.LGFunction{"cyclic": func(L *lua.LState) int {
		L.Push(ToLua(L, cyclic))
		return 1
	}}}
	vm := newVM(t, testLimits, lib)
	_, err := run(t, vm, "return jido.cyclic()")
	require.NotNil(t, err)
	assert.Equal(t, KindRuntime, err.Kind)
	assert.Contains(t, err.Message, "deeper than")
	assert.Equal(t, []any{int64(2)}, mustRun(t, vm, "return 1+1"))
}

func TestConversionRoundTrip(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	in := map[string]any{
		"s": "x", "n": int64(3), "f": 1.5, "b": false, "list": []any{"a", int64(1)},
		"nested": map[string]any{"deep": []any{map[string]any{"k": "v"}}},
	}
	out, err := ToGo(ToLua(L, in), Limits{}, false)
	require.NoError(t, err)
	assert.Equal(t, in, out)
	_, err = ToGo(ToLua(L, math.NaN()), Limits{}, false)
	assert.Error(t, err)
}

func TestEmptyGoListSurvivesLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	lim := DefaultLimits()
	got, err := ToGo(ToLua(L, map[string]any{"files": []string{}, "none": map[string]any{}}), lim, false)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"files": []any{}, "none": map[string]any{}}, got)

	list := ToLua(L, []int{}).(*lua.LTable)
	list.RawSetString("x", lua.LNumber(1))
	got, err = ToGo(list, lim, false)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"x": int64(1)}, got, "a list given keys is a map again")
}
