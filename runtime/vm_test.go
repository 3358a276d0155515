package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// testLimits are short limits for tests that hit them.
var testLimits = Limits{Timeout: 200 * time.Millisecond, MaxMemory: 64 << 20, MaxValues: 10_000}

func newVM(t testing.TB, lim Limits, libs ...Library) *VM {
	t.Helper()
	vm, err := New(Options{Limits: lim, Libraries: libs})
	require.NoError(t, err)
	t.Cleanup(func() { vm.Close() })
	return vm
}

// run calls src on vm and returns its values or its *Error.
func run(t testing.TB, vm *VM, src string, args ...any) ([]any, *Error) {
	t.Helper()
	vals, err := vm.Call(t.Context(), "test", src, args...)
	if err == nil {
		return vals, nil
	}
	var e *Error
	require.ErrorAs(t, err, &e)
	return nil, e
}

// mustRun calls src on vm and fails the test if it fails.
func mustRun(t testing.TB, vm *VM, src string, args ...any) []any {
	t.Helper()
	vals, err := run(t, vm, src, args...)
	require.Nil(t, err, "%s", src)
	return vals
}

// testLib is a bridge library: f adds one, state reports the LState, fail raises a bridge error
// table, panic panics in Go, wait blocks until the call's context ends.
func testLib() Library {
	return Library{Name: "jido", Funcs: map[string]lua.LGFunction{
		"f": func(L *lua.LState) int {
			L.Push(L.CheckNumber(1) + 1)
			return 1
		},
		"state": func(L *lua.LState) int {
			L.Push(lua.LString(fmt.Sprintf("%p", L)))
			return 1
		},
		"fail": func(L *lua.LState) int {
			t := L.NewTable()
			t.RawSetString("type", lua.LString("file-error"))
			t.RawSetString("message", lua.LString("no such file"))
			L.Error(t, 1)
			return 0
		},
		"panic": func(L *lua.LState) int {
			var m map[string]int
			m["boom"]++
			return 0
		},
		"wait": func(L *lua.LState) int {
			<-L.Context().Done()
			return 0
		},
	}}
}

func TestDefaultLimits(t *testing.T) {
	d := DefaultLimits()
	assert.Equal(t, Limits{
		Timeout: 30 * time.Second, Instructions: 50_000_000, MaxMemory: 256 << 20,
		MaxSourceBytes: 64 << 10, MaxStringBytes: 16 << 20, CallStackSize: 200, MaxDepth: 64, MaxValues: 200_000,
	}, d)
	assert.Equal(t, d, Limits{}.withDefaults())
	custom := Limits{Timeout: time.Second, MaxDepth: 3, MaxValues: -1}.withDefaults()
	assert.Equal(t, time.Second, custom.Timeout)
	assert.Equal(t, 3, custom.MaxDepth)
	assert.Equal(t, d.MaxValues, custom.MaxValues)
	assert.Equal(t, maxArrayIndex, lua.MaxArrayIndex)
}

func TestAllowList(t *testing.T) {
	vm := newVM(t, testLimits, testLib())
	denied := []string{"os", "io", "debug", "package", "channel", "coroutine", "load", "loadstring",
		"dofile", "loadfile", "require", "module", "getfenv", "setfenv", "rawset", "rawget",
		"collectgarbage", "newproxy", "_printregs", "print", "_G", "_GOPHER_LUA_VERSION",
		"string.dump", "string.gfind", "math.randomseed"}
	for _, name := range denied {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, []any{true}, mustRun(t, vm, "return "+name+" == nil"))
		})
	}
	present := []string{"assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "select",
		"tonumber", "tostring", "type", "unpack", "xpcall", "getmetatable", "setmetatable",
		"string.byte", "string.char", "string.find", "string.format", "string.gmatch", "string.gsub",
		"string.len", "string.lower", "string.match", "string.rep", "string.reverse", "string.sub",
		"string.upper", "table.concat", "table.insert", "table.remove", "table.sort", "table.getn",
		"table.maxn", "math.floor", "math.random", "math.sqrt", "jido.f"}
	for _, name := range present {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, []any{"function"}, mustRun(t, vm, "return type("+name+")"))
		})
	}
	assert.Equal(t, []any{"Lua 5.1", 3.141592653589793, "Inf"}, mustRun(t, vm, "return _VERSION, math.pi, math.huge"))
}

func TestReadOnlyLibraries(t *testing.T) {
	vm := newVM(t, testLimits, testLib())
	tests := []struct{ name, src string }{
		{"assign existing", "string.upper = nil"},
		{"assign new", "string.x = 1"},
		{"table function", "table.insert = function() end"},
		{"math constant", "math.pi = 3"},
		{"bridge function", "jido.f = function() return 0 end"},
		{"bridge new key", "jido.x = 1"},
		{"setmetatable on a library", "setmetatable(math, nil)"},
		{"table.insert into a library", "table.insert(string, 1)"},
		{"table.remove from a library", "table.remove(jido)"},
		{"table.sort of a library", "table.sort(table)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, vm, tt.src)
			require.NotNil(t, err)
			assert.Equal(t, KindRuntime, err.Kind)
			assert.Equal(t, []any{"A", 3.141592653589793, int64(42)}, mustRun(t, vm, "return string.upper('a'), math.pi, jido.f(41)"))
		})
	}
	assert.Equal(t, []any{false, false, nil, nil}, mustRun(t, vm, "return getmetatable(string), getmetatable(jido), next(string), next(jido)"))
}

func TestStringMetatable(t *testing.T) {
	vm := newVM(t, testLimits)
	tests := []struct {
		name string
		src  string
		want []any // nil: the snippet must fail
	}{
		{"methods work", `return ("abc"):upper(), ("%d"):format(7), ("x"):rep(3)`, []any{"ABC", "7", "xxx"}},
		{"methods are capped", `return ("x"):rep(2^40)`, nil},
		{"getmetatable gives a view", `return getmetatable("").__index == string`, []any{true}},
		{"the view is read-only", `getmetatable("").x = 1`, nil},
		{"its __index is the proxy", `getmetatable("").__index.upper = string.lower`, nil},
		{"setmetatable on a string", `setmetatable("", {})`, nil},
		{"setmetatable on a number", `setmetatable(1, {})`, nil},
		{"setmetatable on the view", `setmetatable(getmetatable(""), {})`, nil},
		{"getmetatable of other types", `return getmetatable(1), getmetatable(print), getmetatable(true)`, []any{nil, nil, nil}},
		{"tables keep metatables", `local mt = {} return getmetatable(setmetatable({}, mt)) == mt`, []any{true}},
		{"__metatable is honoured", `return getmetatable(setmetatable({}, {__metatable = "locked"}))`, []any{"locked"}},
		{"protected tables stay", `local t = setmetatable({}, {__metatable = 1}) setmetatable(t, {})`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, err := run(t, vm, tt.src)
			if tt.want == nil {
				require.NotNil(t, err)
			} else {
				require.Nil(t, err)
				assert.Equal(t, tt.want, vals)
			}
			assert.Equal(t, []any{"ABC", "abc"}, mustRun(t, vm, `return ("abc"):upper(), string.lower("ABC")`))
		})
	}
}

func TestFreshEnvironment(t *testing.T) {
	vm := newVM(t, testLimits)
	mustRun(t, vm, `x = 1; function f() return 2 end; string = nil; local t = setmetatable({}, {}) shared = t`)
	assert.Equal(t, []any{nil, nil, "table", nil}, mustRun(t, vm, `return x, f, type(string), shared`))
	assert.Equal(t, []any{int64(3), "b"}, mustRun(t, vm, `local a, b = ... return a + 1, b.k`, 2, map[string]any{"k": "b"}))
	assert.Equal(t, []any{int64(0)}, mustRun(t, vm, `return select('#', ...)`))
}

func TestChunkCache(t *testing.T) {
	vm := newVM(t, testLimits)
	src := fmt.Sprintf("return %d", time.Now().UnixNano())
	before := vm.compiles.Load()
	first := mustRun(t, vm, src)
	second := mustRun(t, vm, src)
	assert.Equal(t, first, second)
	assert.Equal(t, int64(1), vm.compiles.Load()-before, "the second call must come from the cache")

	_, err := vm.Call(t.Context(), "other", src)
	require.NoError(t, err)
	assert.Equal(t, int64(2), vm.compiles.Load()-before, "the chunk name is part of the key")

	for range 2 {
		_, err := run(t, vm, "return +")
		assert.Equal(t, KindSyntax, err.Kind)
	}
	assert.Equal(t, int64(2), vm.compiles.Load()-before)

	c := newProtoCache(2)
	p := &lua.FunctionProto{}
	for i := range 3 {
		c.put(chunkKey("n", fmt.Sprint(i)), p)
	}
	assert.Nil(t, c.get(chunkKey("n", "0")), "the least recently used entry is evicted")
	assert.Equal(t, p, c.get(chunkKey("n", "2")))
}

func TestSourceLimits(t *testing.T) {
	vm := newVM(t, Limits{MaxSourceBytes: 1 << 20, Timeout: 2 * time.Second})
	tests := []struct {
		name string
		src  string
		want Kind
	}{
		{"syntax error", "return return", KindSyntax},
		{"over the size limit", "return 1 --" + strings.Repeat("x", 1<<20), KindSyntax},
		{"deep brackets", "return " + strings.Repeat("{", 300_000) + strings.Repeat("}", 300_000), KindSyntax},
		{"deep parentheses", "return " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201), KindSyntax},
		{"deep blocks", strings.Repeat("do ", 201) + strings.Repeat("end ", 201), KindSyntax},
		{"deep functions", strings.Repeat("function f() ", 201) + strings.Repeat("end ", 201), KindSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, vm, tt.src)
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.Kind)
		})
	}
	ok := []string{
		"return " + strings.Repeat("(", 150) + "1" + strings.Repeat(")", 150),
		"local s = '((((((' .. [[{{{{{{]] .. [==[ ]] [[[[ ]==] -- ((((((((\n return #s",
		"--[[ " + strings.Repeat("(", 500) + " ]] return 1",
		`return "\"((((" .. '\'((((('`,
	}
	for _, src := range ok {
		_, err := run(t, vm, src)
		assert.Nil(t, err, src)
	}
}

func TestBudgetAndDeadline(t *testing.T) {
	loop := "local i = 0 while true do i = i + 1 end"
	tests := []struct {
		name string
		lim  Limits
		src  string
		want Kind
	}{
		{"budget", Limits{Instructions: 100_000, Timeout: 10 * time.Second}, loop, KindBudget},
		{"deadline", Limits{Instructions: 1 << 62, Timeout: 100 * time.Millisecond}, loop, KindTimeout},
		{"pattern steps spend the budget", Limits{Instructions: 100_000, Timeout: 10 * time.Second},
			`return string.find(string.rep("a", 40), "(.-)(.-)(.-)(.-)(.-)(.-)b$")`, KindBudget},
		{"pattern steps meet the deadline", Limits{Instructions: 1 << 62, Timeout: 100 * time.Millisecond},
			`return string.find(string.rep("a", 40), "(.-)(.-)(.-)(.-)(.-)(.-)b$")`, KindTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := newVM(t, tt.lim)
			start := time.Now()
			_, err := run(t, vm, tt.src)
			require.NotNil(t, err)
			assert.Equal(t, tt.want, err.Kind, err.Message)
			assert.Less(t, time.Since(start), 3*time.Second)
			assert.Equal(t, []any{int64(2)}, mustRun(t, vm, "return 1+1"))
		})
	}

	t.Run("budget is exact and per call", func(t *testing.T) {
		vm := newVM(t, Limits{Instructions: 2000})
		for range 3 {
			mustRun(t, vm, "for i = 1, 300 do end")
		}
		_, err := run(t, vm, "for i = 1, 3000 do end")
		assert.Equal(t, KindBudget, err.Kind)
	})
}

func TestCallerContext(t *testing.T) {
	vm := newVM(t, Limits{Timeout: 10 * time.Second}, testLib())

	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		_, err := vm.Call(ctx, "t", "while true do end")
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, KindCancelled, e.Kind)
	})

	t.Run("cancel while a bridge function blocks", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := vm.Call(ctx, "t", "jido.wait() return 1")
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, KindCancelled, e.Kind)
		assert.Less(t, time.Since(start), time.Second)
	})

	t.Run("already done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := vm.Call(ctx, "t", "return 1")
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, KindCancelled, e.Kind)
	})

	assert.Equal(t, []any{int64(2)}, mustRun(t, vm, "return 1+1"))
}

func TestPcallCannotSwallowLimits(t *testing.T) {
	vm := newVM(t, testLimits)
	tests := []struct{ name, src string }{
		{"loop in pcall", "pcall(function() while true do end end) return 'escaped'"},
		{"pcall in a tail call", "return pcall(function() while true do end end)"},
		{"nested pcall", "pcall(pcall, function() while true do end end) return 'escaped'"},
		{"loop in xpcall", "return xpcall(function() while true do end end, function(e) return e end)"},
		{"loop in the xpcall handler", "return xpcall(function() error('x') end, function() while true do end end)"},
		{"pcall retrying", "while true do pcall(function() while true do end end) end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, vm, tt.src)
			require.NotNil(t, err)
			assert.Equal(t, KindTimeout, err.Kind)
		})
	}
}

func TestPcallSemantics(t *testing.T) {
	vm := newVM(t, testLimits)
	tests := []struct {
		name string
		src  string
		want []any
	}{
		{"success", "return pcall(function(a, b) return a + b, 'x' end, 1, 2)", []any{true, int64(3), "x"}},
		{"error string", "return pcall(error, 'e', 0)", []any{false, "e"}},
		{"error table", "local ok, e = pcall(error, {code = 7}) return ok, e.code", []any{false, int64(7)}},
		{"error nil", "return pcall(error, nil)", []any{false, nil}},
		{"not callable", "local ok, e = pcall(42) return ok, type(e)", []any{false, "string"}},
		{"xpcall success", "return xpcall(function() return 1, 2 end, type)", []any{true, int64(1), int64(2)}},
		{"xpcall handler", "return xpcall(function() error('e', 0) end, function(e) return 'h:' .. e end)", []any{false, "h:e"}},
		{"xpcall failing handler", "local ok, e = xpcall(function() error('e') end, function(e) error('h', 0) end) return ok, e", []any{false, "h"}},
		{"deep recursion is an error", "local function f() return 1 + f() end local ok, e = pcall(f) return ok, (e:find('stack overflow')) ~= nil", []any{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mustRun(t, vm, tt.src))
		})
	}
}

func TestDiscardAfterLimit(t *testing.T) {
	vm := newVM(t, testLimits, testLib())
	state := func() any { return mustRun(t, vm, "return jido.state()")[0] }
	first := state()
	assert.Equal(t, first, state(), "a VM keeps its LState between ordinary calls")

	_, err := run(t, vm, "error('plain')")
	require.Equal(t, KindRuntime, err.Kind)
	assert.Equal(t, first, state(), "an ordinary error keeps the LState")

	_, err = run(t, vm, "while true do end")
	require.Equal(t, KindTimeout, err.Kind)
	second := state()
	assert.NotEqual(t, first, second, "a timeout discards the LState")

	_, err = run(t, vm, "jido.panic()")
	require.Equal(t, KindInternal, err.Kind)
	assert.NotEqual(t, second, state(), "a Go panic discards the LState")
}

func TestLibraries(t *testing.T) {
	other := Library{Name: "jido", Funcs: map[string]lua.LGFunction{"g": func(L *lua.LState) int {
		L.Push(lua.LString("g"))
		return 1
	}}}
	vm := newVM(t, testLimits, testLib(), other)
	assert.Equal(t, []any{int64(42), "g"}, mustRun(t, vm, "return jido.f(41), jido.g()"))

	t.Run("a bridge error table", func(t *testing.T) {
		_, err := run(t, vm, "jido.fail()")
		require.NotNil(t, err)
		assert.Equal(t, KindRuntime, err.Kind)
		assert.Equal(t, "no such file", err.Message)
		assert.Equal(t, map[string]any{"type": "file-error", "message": "no such file"}, err.Value)
		assert.Equal(t, []any{false, "file-error"}, mustRun(t, vm, "local ok, e = pcall(jido.fail) return ok, e.type"))
	})

	t.Run("a Go panic", func(t *testing.T) {
		for _, src := range []string{"jido.panic()", "pcall(jido.panic) return 'caught'", "return pcall(jido.panic)"} {
			_, err := run(t, vm, src)
			require.NotNil(t, err, src)
			assert.Equal(t, KindInternal, err.Kind, src)
			assert.NotContains(t, err.Message, "goroutine")
			assert.NotContains(t, err.Message, ".go:")
		}
		assert.Equal(t, []any{int64(2)}, mustRun(t, vm, "return jido.f(1)"))
	})

	t.Run("invalid libraries", func(t *testing.T) {
		fn := func(*lua.LState) int { return 0 }
		for _, libs := range [][]Library{
			{{Name: "", Funcs: map[string]lua.LGFunction{"f": fn}}},
			{{Name: "1x", Funcs: map[string]lua.LGFunction{"f": fn}}},
			{{Name: "end", Funcs: map[string]lua.LGFunction{"f": fn}}},
			{{Name: "string", Funcs: map[string]lua.LGFunction{"f": fn}}},
			{{Name: "pairs", Funcs: map[string]lua.LGFunction{"f": fn}}},
			{{Name: "x", Funcs: map[string]lua.LGFunction{"f": nil}}},
			{{Name: "x", Funcs: map[string]lua.LGFunction{"f": fn}}, {Name: "x", Funcs: map[string]lua.LGFunction{"f": fn}}},
		} {
			_, err := New(Options{Libraries: libs})
			assert.Error(t, err, "%+v", libs)
		}
	})
}

func TestConcurrentCallsOnOneVM(t *testing.T) {
	vm := newVM(t, Limits{Timeout: 10 * time.Second}, testLib())
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 20 {
				vals, err := vm.Call(t.Context(), "t", "local a, b = ... x = a return jido.f(a) + b.n, x", g*100+i, map[string]any{"n": 1})
				if !assert.NoError(t, err) {
					return
				}
				assert.Equal(t, []any{int64(g*100 + i + 2), int64(g*100 + i)}, vals)
			}
		})
	}
	wg.Wait()
}

func TestManyVMsInParallel(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			vm, err := New(Options{Libraries: []Library{testLib()}})
			if !assert.NoError(t, err) {
				return
			}
			defer vm.Close()
			for i := range 20 {
				vals, err := vm.Call(t.Context(), "t", "return jido.f(...) + #string.rep('x', 10)", g+i)
				if assert.NoError(t, err) {
					assert.Equal(t, []any{int64(g + i + 11)}, vals)
				}
			}
		})
	}
	wg.Wait()
}

func TestClose(t *testing.T) {
	vm, err := New(Options{Limits: Limits{Timeout: 5 * time.Second}})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := vm.Call(context.Background(), "t", "for i = 1, 1e6 do end return 1")
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, vm.Close())
	require.NoError(t, vm.Close(), "Close is idempotent")
	_, err = vm.Call(t.Context(), "t", "return 1")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, KindInternal, e.Kind)
	assert.NoError(t, <-done, "the running call finishes")
}

func TestResults(t *testing.T) {
	vm := newVM(t, testLimits)
	tests := []struct {
		name string
		src  string
		want []any
	}{
		{"none", "return", []any{}},
		{"scalars", "return nil, true, 1, 1.5, 'x'", []any{nil, true, int64(1), 1.5, "x"}},
		{"non-finite", "return 0/0, 1/0, -1/0", []any{"NaN", "Inf", "-Inf"}},
		{"big numbers", "return 2^53, -2^60", []any{9007199254740992.0, -1152921504606846976.0}},
		{"array", "return {1, 'a', {true}}", []any{[]any{int64(1), "a", []any{true}}}},
		{"map", "return {a = 1, [2] = 'b', [1.5] = 'c'}", []any{map[string]any{"a": int64(1), "2": "b", "1.5": "c"}}},
		{"empty table", "return {}", []any{map[string]any{}}},
		{"holes make a map", "return {1, nil, 3}", []any{map[string]any{"1": int64(1), "3": int64(3)}}},
		{"non-data values", "return print, string.gmatch('', ''), {f = type}", []any{nil, "<function>", map[string]any{"f": "<function>"}}},
		{"shared tables are no cycle", "local t = {1} return {t, t}", []any{[]any{[]any{int64(1)}, []any{int64(1)}}}},
		{"metamethods are not run", "return setmetatable({}, {__index = function() error('no') end, __pairs = error})", []any{map[string]any{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mustRun(t, vm, tt.src))
		})
	}
}

func TestErrors(t *testing.T) {
	vm := newVM(t, testLimits)
	tests := []struct {
		name    string
		src     string
		kind    Kind
		message string
		value   any
	}{
		{"string", "error('boom')", KindRuntime, "test:1: boom", nil},
		{"level 0", "error('boom', 0)", KindRuntime, "boom", nil},
		{"number", "error(42)", KindRuntime, "42", nil},
		{"nil", "error(nil)", KindRuntime, "(error object is a nil value)", nil},
		{"table with message", "error({type = 't', message = 'm', details = {n = 1}})", KindRuntime, "m",
			map[string]any{"type": "t", "message": "m", "details": map[string]any{"n": int64(1)}}},
		{"table without message", "error({1, 2})", KindRuntime, "(error object is a table value)", []any{int64(1), int64(2)}},
		{"cyclic table", "local t = {message = 'c'} t.t = t error(t)", KindRuntime, "c", nil},
		{"bad operation", "return nil + 1", KindRuntime, "", nil},
		{"limit", "return string.rep('x', 2^40)", KindLimit, "", nil},
		{"caught limit raised again", "local ok, e = pcall(string.rep, 'x', 2^40) error(e, 0)", KindLimit, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, vm, tt.src)
			require.NotNil(t, err)
			assert.Equal(t, tt.kind, err.Kind)
			if tt.message != "" {
				assert.Equal(t, tt.message, err.Message)
			}
			assert.Equal(t, tt.value, err.Value)
			assert.Equal(t, string(tt.kind)+": "+err.Message, err.Error())
		})
	}

	t.Run("huge messages are truncated", func(t *testing.T) {
		_, err := run(t, vm, "error(string.rep('é', 1e6))")
		require.NotNil(t, err)
		assert.LessOrEqual(t, len(err.Message), maxMessageBytes)
		assert.True(t, strings.HasSuffix(err.Message, "(truncated)"))
		assert.True(t, strings.HasPrefix(err.Message, "test:1: éé"))
	})

	t.Run("errors.As", func(t *testing.T) {
		_, err := vm.Call(t.Context(), "t", "error('x')")
		var e *Error
		assert.True(t, errors.As(err, &e))
	})
}

func TestAbortEndsTheRunningCallAndLaterOnes(t *testing.T) {
	errGone := errors.New("the session was closed")
	for _, src := range []string{"while true do end", "jido.wait()"} {
		t.Run(src, func(t *testing.T) {
			vm := newVM(t, Limits{Timeout: time.Minute, Instructions: 1 << 50}, testLib())
			done := make(chan error, 1)
			go func() {
				_, err := vm.Call(t.Context(), "spin", src)
				done <- err
			}()
			time.Sleep(50 * time.Millisecond) // the call is running
			vm.Abort(errGone)
			select {
			case err := <-done:
				var re *Error
				require.ErrorAs(t, err, &re)
				assert.Equal(t, KindCancelled, re.Kind)
				assert.Contains(t, re.Message, "the session was closed")
			case <-time.After(10 * time.Second):
				t.Fatal("Abort did not end the running call")
			}
			_, err := vm.Call(t.Context(), "later", "return 1")
			require.Error(t, err, "a later call fails at once")
			assert.Contains(t, err.Error(), "the session was closed")
		})
	}
	idle := newVM(t, Limits{}, testLib())
	idle.Abort(errGone)
	idle.Abort(errors.New("second"))
	_, err := idle.Call(t.Context(), "x", "return 1")
	assert.ErrorContains(t, err, "the session was closed", "the first cause stays")
}

// TestAssert: assert returns its arguments when the first is true, and otherwise raises
// its message whatever its type (a tool's error table included), or "assertion failed!".
func TestAssert(t *testing.T) {
	vm := newVM(t, testLimits, testLib())
	assert.Equal(t, []any{int64(1), "two"}, mustRun(t, vm, "return assert(1, 'two')"))
	_, err := run(t, vm, "assert(false)")
	assert.Contains(t, err.Message, "assertion failed!")
	_, err = run(t, vm, "assert(nil, 'no file')")
	assert.Contains(t, err.Message, "no file")
	_, err = run(t, vm, "assert(nil, {type = 'file-error', message = 'no such file'})")
	require.NotNil(t, err)
	assert.Equal(t, "no such file", err.Message)
	assert.Equal(t, "file-error", err.Value.(map[string]any)["type"])
	_, err = run(t, vm, "assert()")
	assert.Contains(t, err.Message, "value expected")
}
