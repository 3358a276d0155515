package runtime

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile is a snippet written to escape, pollute or exhaust the sandbox. It must succeed (ok),
// with want if set, or fail with one of kinds; both may be allowed.
type hostile struct {
	name  string
	src   string
	ok    bool
	want  []any
	kinds []Kind
}

var (
	stopped = []Kind{KindTimeout, KindBudget}                         // loops
	bounded = []Kind{KindLimit, KindMemory, KindTimeout, KindBudget}  // memory bombs, heavy builtins (exact kinds: strlib_test.go)
	refused = []Kind{KindRuntime}                                     // plain errors
	nothing = []any{nil}                                              // return of an absent capability
	limited = []Kind{KindLimit}                                       // capped builtins and conversions
	failed  = []Kind{KindRuntime, KindLimit, KindMemory, KindTimeout} // any bounded failure
)

var hostileCases = []hostile{
	// Capabilities that reach the host are absent.
	{name: "os", src: "return os", want: nothing},
	{name: "os.exit", src: "os.exit(1)", kinds: refused},
	{name: "io", src: "return io", want: nothing},
	{name: "io.open", src: "return io.open('/etc/passwd')", kinds: refused},
	{name: "load", src: "return load", want: nothing},
	{name: "loadstring", src: "return loadstring", want: nothing},
	{name: "loadstring call", src: "return loadstring('return os')()", kinds: refused},
	{name: "dofile", src: "return dofile", want: nothing},
	{name: "loadfile", src: "return loadfile", want: nothing},
	{name: "require", src: "return require", want: nothing},
	{name: "module", src: "return module", want: nothing},
	{name: "package", src: "return package", want: nothing},
	{name: "package.loadlib", src: "return package.loadlib('liblua.so', 'luaopen_io')", kinds: refused},
	{name: "debug", src: "return debug", want: nothing},
	{name: "debug.getregistry", src: "return debug.getregistry()", kinds: refused},
	{name: "getfenv", src: "return getfenv", want: nothing},
	{name: "getfenv of a builtin", src: "return getfenv(print).os", kinds: refused},
	{name: "setfenv", src: "return setfenv", want: nothing},
	{name: "string.dump", src: "return string.dump", want: nothing},
	{name: "collectgarbage", src: "return collectgarbage", want: nothing},
	{name: "newproxy", src: "return newproxy", want: nothing},
	{name: "_printregs", src: "return _printregs", want: nothing},
	{name: "print", src: "return print", want: nothing},
	{name: "rawset", src: "return rawset", want: nothing},
	{name: "rawget", src: "return rawget", want: nothing},
	{name: "_G", src: "return _G", want: nothing},
	{name: "coroutine", src: "return coroutine", want: nothing},
	{name: "channel", src: "return channel", want: nothing},
	{name: "math.randomseed", src: "return math.randomseed", want: nothing},
	{name: "a library's metatable", src: "return getmetatable(string), getmetatable(jido)", want: []any{false, false}},
	{name: "a library's contents", src: "return next(string), next(jido)", want: []any{nil, nil}},

	// Builtin metatables and library tables cannot be changed.
	{name: "setmetatable of a string", src: "setmetatable('', {__index = function() return 'pwned' end})", kinds: refused},
	{name: "setmetatable of a number", src: "setmetatable(1, {__add = function() return 0 end})", kinds: refused},
	{name: "setmetatable of a function", src: "setmetatable(type, {__index = {}})", kinds: refused},
	{name: "string metatable __index.upper", src: "getmetatable('').__index.upper = function() return 'pwned' end", kinds: refused},
	{name: "string metatable new field", src: "getmetatable('').x = 1", kinds: refused},
	{name: "string metatable __index", src: "getmetatable('').__index = {}", kinds: refused},
	{name: "string metatable replaced", src: "setmetatable(getmetatable(''), {})", kinds: refused},
	{name: "string.upper = nil", src: "string.upper = nil", kinds: refused},
	{name: "string.format replaced", src: "string.format = function() return 'pwned' end", kinds: refused},
	{name: "table.insert = f", src: "table.insert = function() end", kinds: refused},
	{name: "math.pi = 3", src: "math.pi = 3", kinds: refused},
	{name: "jido.x = 1", src: "jido.x = 1", kinds: refused},
	{name: "jido.f replaced", src: "jido.f = function() return 0 end", kinds: refused},
	{name: "library metatable replaced", src: "setmetatable(string, {})", kinds: refused},
	{name: "raw insert into a library", src: "table.insert(string, 'x')", kinds: refused},
	{name: "raw insert at a key", src: "table.insert(jido, 1, function() end)", kinds: refused},
	{name: "sort a library", src: "table.sort(math)", kinds: refused},

	// Globals die with the call (the canary checks the next call).
	{name: "global variable", src: "x = 1 return x", want: []any{int64(1)}},
	{name: "global function shadowing", src: "function tostring() return 'pwned' end return tostring(1)", want: []any{"pwned"}},
	{name: "library shadowed", src: "string = {upper = function() return 'pwned' end} return string.upper('a')", want: []any{"pwned"}},
	{name: "builtins removed", src: "pairs, type, error = nil, nil, nil return 1", want: []any{int64(1)}},
	{name: "_ENV is a plain global", src: "_ENV = {} return 1", want: []any{int64(1)}},
	{name: "closure kept for later", src: "keep = function() return os end return keep ~= nil", want: []any{true}},

	// Loops end with the deadline or the budget.
	{name: "while true", src: "while true do end", kinds: stopped},
	{name: "repeat", src: "repeat until false", kinds: stopped},
	{name: "for to huge", src: "for i = 1, math.huge do end", kinds: stopped},
	{name: "tail call loop", src: "local function f() return f() end return f()", kinds: stopped},
	{name: "mutual tail calls", src: "local a, b function a() return b() end function b() return a() end return a()", kinds: stopped},
	{name: "loop in pcall", src: "pcall(function() while true do end end) return 'escaped'", kinds: stopped},
	{name: "loop in xpcall", src: "return xpcall(function() while true do end end, function(e) return e end)", kinds: stopped},
	{name: "loop in the xpcall handler", src: "return xpcall(error, function() while true do end end)", kinds: stopped},
	{name: "retry with pcall", src: "while true do pcall(error, 'x') end", kinds: stopped},
	{name: "exponential pcall recursion", src: "local function f() pcall(f) pcall(f) end f() return 'done'", kinds: stopped},
	{name: "sort comparator loop", src: "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function() while true do end end)", kinds: stopped},
	{name: "gsub callback loop", src: "return ('abc'):gsub('.', function() while true do end end)", kinds: stopped},
	{name: "__index loop", src: "return setmetatable({}, {__index = function() while true do end end}).x", kinds: stopped},
	{name: "__tostring loop", src: "return tostring(setmetatable({}, {__tostring = function() while true do end end}))", kinds: stopped},
	{name: "format %s loop", src: "return string.format('%s', setmetatable({}, {__tostring = function() while true do end end}))", kinds: stopped},
	{name: "bridge callback loop", src: "local t = {} for i = 1, 1e9 do t[i % 10] = jido.f(i) end", kinds: stopped},

	// Deep recursion is an error; the host is fine.
	{name: "deep recursion", src: "local function f() return 1 + f() end return f()", kinds: refused},
	{name: "recursion through __index", src: "local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return t[k] end return t.x", kinds: refused},
	{name: "registry overflow with varargs", src: "local t = {} for i = 1, 9000 do t[i] = i end local function f(...) return 1 + f(...) end return f(unpack(t))", kinds: failed},

	// Memory bombs end quickly.
	{name: "string.rep 2^31", src: "return string.rep('x', 2^31)", kinds: limited},
	{name: "string.rep 2^41", src: "return #string.rep('x', 2^41)", kinds: limited},
	{name: "rep of rep", src: "return ('x'):rep(2^24):rep(2)", kinds: bounded},
	{name: "doubling concatenation", src: "local s = 'x' while true do s = s .. s end", kinds: bounded},
	{name: "table.concat of big strings", src: "local t = {} local s = string.rep('x', 2^20) for i = 1, 100 do t[i] = s end return #table.concat(t)", kinds: bounded},
	{name: "sparse array 2^26", src: "local t = {} t[2^26] = 1 t[2^26 - 1] = 2 return t[2^26]", want: []any{int64(1)}},
	{name: "sparse array below the bound", src: "local t = {} t[2^14 - 1] = 1 return #t", want: []any{int64(1<<14 - 1)}}, // small: under -race on a loaded machine 2^18 slots outran the 200 ms deadline
	{name: "gsub growth on a megabyte", src: "return (string.rep('a', 2^20):gsub('.', string.rep('x', 1000)))", kinds: bounded},
	{name: "appending big strings", src: "local t, s = {}, string.rep('x', 2^20) while true do t[#t + 1] = s .. #t end", kinds: bounded},
	{name: "appending tables", src: "local t = {} while true do t[#t + 1] = {1, 2, 3} end", kinds: bounded},
	{name: "format of big strings", src: "local s = string.rep('x', 2^23) return string.format('%s%s%s', s, s, s)", kinds: bounded},
	{name: "unpack of a huge range", src: "return unpack({}, -2^31, 2^31)", kinds: limited},
	{name: "string.byte of everything", src: "return string.byte(string.rep('x', 2^20), 1, -1)", kinds: bounded},
	{name: "sort without comparator", src: "local t = {} for i = 1, 100001 do t[i] = -i end table.sort(t)", kinds: bounded},
	{name: "one .. with many operands", src: "local s = string.rep('x', 2^23) return #(s .. s .. s .. s)", ok: true, kinds: []Kind{KindMemory, KindTimeout}},

	// Pathological patterns end in time.
	{name: "backtracking captures", src: `return string.find(string.rep("a", 30), "(.-)(.-)(.-)(.-)(.-)(.-)(.-)(.-)b$")`, kinds: stopped},
	{name: "backtracking lazy items", src: `return string.rep("a", 1e5):find(".-.-.-.-b")`, kinds: stopped},
	{name: "quadratic anchor at the end", src: `return (string.rep("x", 1e6) .. "y"):gsub("x*$", "")`, kinds: stopped},
	{name: "quadratic balance", src: `return string.rep("(", 1e6):find("%b()")`, kinds: stopped},
	{name: "quadratic back reference", src: `return string.rep("a", 1e5):find("(a*)%1b")`, kinds: stopped},
	{name: "gsub callback on a megabyte", src: `return string.rep("a", 2^23):gsub(".", function(c) for i = 1, 10 do end return c end)`, kinds: stopped},
	{name: "deep pattern recursion", src: `return string.find(string.rep("a", 1000), string.rep("a?", 1000))`, kinds: limited},
	{name: "long repetition is no recursion", src: `return #string.rep("a", 2^20):match("(a*)")`, want: []any{int64(1 << 20)}},

	// string.format never shows Go internals.
	{name: "format %T", src: "return string.format('%T', {})", kinds: refused},
	{name: "format %#v", src: "return string.format('%#v', {})", kinds: refused},
	{name: "format %p", src: "return string.format('%p', {})", kinds: refused},
	{name: "format %0999999d", src: "return string.format('%0999999d', 1)", kinds: refused},
	{name: "format %d of a word", src: "return string.format('%d', 'abc')", kinds: refused},
	{name: "format widest number", src: "return #string.format('%99.99f', 1e308)", want: []any{int64(409)}},

	// Results are bounded.
	{name: "cyclic result", src: "local t = {} t.t = t return t", kinds: limited},
	{name: "deeply nested result", src: "local t = {} for i = 1, 1e4 do t = {t} end return t", kinds: limited},
	{name: "huge result table", src: "local t = {} for i = 1, 2e4 do t[i] = i end return t", kinds: limited},
	{name: "many results", src: "local t = {} for i = 1, 1e4 do t[i] = i end return select('#', unpack(t))", want: []any{int64(10000)}},
	{name: "non-finite results", src: "return 0/0, 1/0, -1/0, 1e308", want: []any{"NaN", "Inf", "-Inf", 1e308}},
	{name: "functions in results", src: "return {f = string.rep}, type", want: []any{map[string]any{"f": "<function>"}, "<function>"}},

	// Errors are bounded and raise no metamethod.
	// (Building 8 MiB may run past the 200 ms of Lua time under the race detector on a busy
	// machine: a timeout is a bounded end too.)
	{name: "huge error string", src: "error(string.rep('x', 2^23))", kinds: failed},
	{name: "huge error message field", src: "error({message = string.rep('x', 2^23)})", kinds: failed},
	{name: "cyclic error table", src: "local t = {message = 'm'} t.t = t error(t)", kinds: refused},
	{name: "error with a looping __tostring", src: "error(setmetatable({}, {__tostring = function() while true do end end}))", kinds: refused},
}

func TestHostileSnippets(t *testing.T) {
	require.GreaterOrEqual(t, len(hostileCases), 60)
	vm := newVM(t, testLimits, testLib())
	canary := `return 1+1, ("a"):upper(), type(string.rep), type(table.insert), math.pi, x, tostring(1),
		type(pairs), jido.f(1), getmetatable("").__index == string, next(string), keep, _ENV, string.upper("b")`
	pristine := []any{int64(2), "A", "function", "function", 3.141592653589793, nil, "1",
		"function", int64(2), true, nil, nil, nil, "B"}
	for _, tt := range hostileCases {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			vals, err := run(t, vm, tt.src)
			elapsed := time.Since(start)
			switch {
			case err == nil:
				assert.True(t, tt.ok || tt.want != nil, "want one of %v, got success %v", tt.kinds, vals)
				if tt.want != nil {
					assert.Equal(t, tt.want, vals)
				}
			default:
				assert.Contains(t, tt.kinds, err.Kind, "%s", err.Message)
				assert.LessOrEqual(t, len(err.Message), maxMessageBytes)
				assert.NotContains(t, err.Message, "goroutine ")
				assert.NotContains(t, err.Message, "lua.L")
				assert.False(t, strings.Contains(err.Message, ".go:"), err.Message)
			}
			assert.Less(t, elapsed, 3*time.Second, "the call must end with its deadline")
			assert.Equal(t, pristine, mustRun(t, vm, canary), "the next call sees a pristine VM")
		})
	}
}

// FuzzPatterns runs the pattern functions on arbitrary subjects and patterns: they may fail, but
// never with a Go panic.
func FuzzPatterns(f *testing.F) {
	for _, seed := range [][2]string{
		{"hello world", "(%w+) (%w+)"}, {"a]b", "[]]"}, {"(a(b)c)", "%b()"}, {"THE fox", "%f[%a]%a+"},
		{"aaa", "(a*)%1"}, {"x", "%"}, {"x", "[%"}, {"x", "[^"}, {"x", "(()"}, {"ab", "%1"}, {"", "$"},
		{"abc", "[a-]"}, {"abc", "[%a-z]"}, {"a.b", "%f[%."}, {"aaaa", "a-a?a*a+$"},
	} {
		f.Add(seed[0], seed[1])
	}
	vm, err := New(Options{Limits: Limits{Timeout: time.Second, Instructions: 1_000_000}})
	require.NoError(f, err)
	f.Cleanup(func() { vm.Close() })
	src := `local s, p = ... local n = 0
		string.find(s, p) string.match(s, p) string.gsub(s, p, "%0")
		for _ in string.gmatch(s, p) do n = n + 1 if n > 100 then break end end`
	f.Fuzz(func(t *testing.T, s, p string) {
		_, err := vm.Call(t.Context(), "fuzz", src, s, p)
		if e, ok := err.(*Error); ok && e.Kind == KindInternal {
			t.Fatalf("find(%q, %q): %v", s, p, e)
		}
	})
}
