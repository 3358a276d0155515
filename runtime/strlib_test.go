package runtime

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libCase is a snippet and what it returns, or the kind of error it raises when want is nil.
type libCase struct {
	name string
	src  string
	want []any
	kind Kind
}

func runLibCases(t *testing.T, tests []libCase) {
	t.Helper()
	vm := newVM(t, Limits{Timeout: 5 * time.Second})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, err := run(t, vm, tt.src)
			if tt.want == nil {
				require.NotNil(t, err, "want an error, got %v", vals)
				assert.Equal(t, tt.kind, err.Kind, err.Message)
				assert.NotContains(t, err.Message, "lua.L", "no Go internals")
				return
			}
			require.Nil(t, err)
			assert.Equal(t, tt.want, vals)
		})
	}
}

func TestPatterns(t *testing.T) {
	runLibCases(t, []libCase{
		{name: "find plain", src: `return string.find("a.b", ".", 1, true)`, want: []any{int64(2), int64(2)}},
		{name: "find without specials", src: `return string.find("a.b", "b")`, want: []any{int64(3), int64(3)}},
		{name: "find any", src: `return string.find("a.b", ".")`, want: []any{int64(1), int64(1)}},
		{name: "find init", src: `return string.find("abcabc", "b", 3)`, want: []any{int64(5), int64(5)}},
		{name: "find negative init", src: `return string.find("abcabc", "b", -2)`, want: []any{int64(5), int64(5)}},
		{name: "find init past the end", src: `return string.find("abc", "", 10)`, want: []any{int64(4), int64(3)}},
		{name: "find anchored miss", src: `return string.find("abc", "^b")`, want: []any{nil}},
		{name: "find anchored", src: `return string.find("abc", "^ab")`, want: []any{int64(1), int64(2)}},
		{name: "find captures", src: `return string.find("key = val", "(%w+)%s*=%s*(%w+)")`, want: []any{int64(1), int64(9), "key", "val"}},
		{name: "position captures", src: `return string.find("hello", "()ll()")`, want: []any{int64(3), int64(4), int64(3), int64(5)}},
		{name: "match captures", src: `return string.match("2024-01-15", "(%d+)-(%d+)-(%d+)")`, want: []any{"2024", "01", "15"}},
		{name: "match trim", src: `return string.match("  trim me  ", "^%s*(.-)%s*$")`, want: []any{"trim me"}},
		{name: "match miss", src: `return string.match("abc", "%d")`, want: []any{nil}},
		{name: "match init", src: `return string.match("a1b2", "%a", 2)`, want: []any{"b"}},
		{name: "classes", src: `return string.match("aB1 _.", "%l%u%d%s%p(.)")`, want: []any{"."}},
		{name: "negated class", src: `return string.match("abc123", "%D+")`, want: []any{"abc"}},
		{name: "hex and control", src: `return string.match("zz0fA\1", "%x+%c")`, want: []any{"0fA\x01"}},
		{name: "set", src: `return string.match("x_y-z", "[%w_]+")`, want: []any{"x_y"}},
		{name: "set range", src: `return string.match("hello42", "[a-f]+")`, want: []any{"e"}},
		{name: "negated set", src: `return string.match("abc,def", "[^,]+$")`, want: []any{"def"}},
		{name: "set with ]", src: `return string.match("a]b", "[]]")`, want: []any{"]"}},
		{name: "set with -", src: `return string.match("a-b", "[a-]+")`, want: []any{"a-"}},
		{name: "frontier", src: `return string.gsub("THE (quick) fox", "%f[%a]%a+", "W")`, want: []any{"W (W) W", int64(3)}},
		{name: "balance", src: `return string.match("f(a(b)c) d", "%b()")`, want: []any{"(a(b)c)"}},
		{name: "back reference", src: `return string.match("say 'hi' now", "([\"'])(.-)%1")`, want: []any{"'", "hi"}},
		{name: "greedy", src: `return string.match("<a><b>", "<(.*)>")`, want: []any{"a><b"}},
		{name: "lazy", src: `return string.match("<a><b>", "<(.-)>")`, want: []any{"a"}},
		{name: "optional", src: `return string.match("colour", "colou?r")`, want: []any{"colour"}},
		{name: "one or more", src: `return string.match("aaab", "a+b")`, want: []any{"aaab"}},
		{name: "dollar inside", src: `return string.match("a$b", "a$b")`, want: []any{"a$b"}},
		{name: "dollar at the end", src: `return string.match("ab", "b$"), string.match("ba", "b$")`, want: []any{"b", nil}},
		{name: "gmatch words", src: `local t = {} for w in string.gmatch("one two  three", "%a+") do t[#t+1] = w end return table.concat(t, ",")`, want: []any{"one,two,three"}},
		{name: "gmatch captures", src: `local t = {} for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do t[#t+1] = k .. v end return table.concat(t, ",")`, want: []any{"a1,b2"}},
		{name: "gmatch empty matches", src: `local n = 0 for _ in ("abc"):gmatch("") do n = n + 1 end return n`, want: []any{int64(4)}},
		{name: "gmatch ^ is a character", src: `local n = 0 for _ in ("^a^a"):gmatch("^a") do n = n + 1 end return n`, want: []any{int64(2)}},
		{name: "gmatch is lazy", src: `local s = string.rep("a", 2^23) for w in s:gmatch("a") do return w end`, want: []any{"a"}},
		{name: "gsub string", src: `return ("hello world"):gsub("o", "0")`, want: []any{"hell0 w0rld", int64(2)}},
		{name: "gsub captures", src: `return ("hello world"):gsub("(%w+) (%w+)", "%2 %1")`, want: []any{"world hello", int64(1)}},
		{name: "gsub %0 and %%", src: `return ("abc"):gsub("b", "[%0%%%x]")`, want: []any{"a[b%x]c", int64(1)}},
		{name: "gsub %1 without captures", src: `return ("abc"):gsub("b", "<%1>")`, want: []any{"a<b>c", int64(1)}},
		{name: "gsub max", src: `return ("aaa"):gsub("a", "b", 2)`, want: []any{"bba", int64(2)}},
		{name: "gsub anchored", src: `return ("aaa"):gsub("^a", "b")`, want: []any{"baa", int64(1)}},
		{name: "gsub empty pattern", src: `return ("abc"):gsub("", "-")`, want: []any{"-a-b-c-", int64(4)}},
		{name: "gsub position capture", src: `return ("abc"):gsub("()", "%1")`, want: []any{"1a2b3c4", int64(4)}},
		{name: "gsub table", src: `return ("$a $b $c"):gsub("%$(%w)", {a = 1, b = "B"})`, want: []any{"1 B $c", int64(3)}},
		{name: "gsub function", src: `return ("a b"):gsub("%w", function(c) return c:upper() end)`, want: []any{"A B", int64(2)}},
		{name: "gsub function keeps on false", src: `return ("a b"):gsub("%w", function(c) return c == "b" and "B" end)`, want: []any{"a B", int64(2)}},
		{name: "gsub number replacement", src: `return ("a"):gsub("a", 1)`, want: []any{"1", int64(1)}},
		{name: "gsub of a megabyte", src: `local s, n = string.rep("ab", 2^19):gsub("b", "") return #s, n`, want: []any{int64(1 << 19), int64(1 << 19)}},
		{name: "ends with %", src: `return string.find("a", "%")`, kind: KindRuntime},
		{name: "missing ]", src: `return string.find("a", "[a")`, kind: KindRuntime},
		{name: "unfinished capture", src: `return string.find("a", "(a")`, kind: KindRuntime},
		{name: "invalid back reference", src: `return string.find("a", "%1")`, kind: KindRuntime},
		{name: "invalid pattern capture", src: `return string.match("a", "a)")`, kind: KindRuntime},
		{name: "too many captures", src: `return string.find("a", string.rep("()", 33))`, kind: KindRuntime},
		{name: "%b without arguments", src: `return string.find("a", "%b")`, kind: KindRuntime},
		{name: "%f without a set", src: `return string.find("a", "%fa")`, kind: KindRuntime},
		{name: "invalid capture in replacement", src: `return ("a"):gsub("a", "%2")`, kind: KindRuntime},
		{name: "% at the end of a replacement", src: `return ("a"):gsub("a", "%")`, kind: KindRuntime},
		{name: "bad replacement type", src: `return ("a"):gsub("a", true)`, kind: KindRuntime},
		{name: "bad replacement value", src: `return ("a"):gsub("a", {a = {}})`, kind: KindRuntime},
		{name: "pattern too complex", src: `return string.find(string.rep("a", 300), string.rep("a?", 300))`, kind: KindLimit},
		{name: "gsub result capped", src: `return string.rep("a", 2^20):gsub(".", string.rep("x", 1000))`, kind: KindLimit},
	})
}

func TestFormat(t *testing.T) {
	runLibCases(t, []libCase{
		{name: "integers", src: `return string.format("%d|%5d|%-5d|%05d|%+d|% d", 3, 42, 42, 42, 42, 42)`, want: []any{"3|   42|42   |00042|+42| 42"}},
		{name: "integer conversion truncates", src: `return string.format("%i %d", 3.9, "-7")`, want: []any{"3 -7"}},
		{name: "precision of integers", src: `return string.format("%.3d", 7)`, want: []any{"007"}},
		{name: "unsigned", src: `return string.format("%x %X %o %#x %u", 255, 255, 8, 255, -1)`, want: []any{"ff FF 10 0xff 18446744073709551615"}},
		{name: "char", src: `return string.format("%c%c%c|%3c", 76, 117, 97, 65)`, want: []any{"Lua|  A"}},
		{name: "floats", src: `return string.format("%e|%.3f|%5.1f|%E", 12345.678, 3.14159, 2.26, 0.5)`, want: []any{"1.234568e+04|3.142|  2.3|5.000000E-01"}},
		{name: "g", src: `return string.format("%g %g %g %G %.3g", 100000, 1e20, 0.0001, 1e-10, 3.14159)`, want: []any{"100000 1e+20 0.0001 1E-10 3.14"}},
		{name: "non-finite", src: `return string.format("%f|%5.1f|%e|%+g", 1/0, -1/0, 0/0, 1/0)`, want: []any{"inf| -inf|nan|+inf"}},
		{name: "strings", src: `return string.format("%s|%10s|%-4s|%.2s|%5.1s", "a", "right", "l", "trunc", "xyz")`, want: []any{"a|     right|l   |tr|    x"}},
		{name: "width counts bytes", src: `return string.format("%4s", "é")`, want: []any{"  é"}},
		{name: "%s of other values", src: `return string.format("%s %s %s", 1, true, nil)`, want: []any{"1 true nil"}},
		{name: "%s uses __tostring", src: `return string.format("%s", setmetatable({}, {__tostring = function() return "T" end}))`, want: []any{"T"}},
		{name: "quoted", src: `return string.format("%q", 'a "q"\n\r\0z\\')`, want: []any{"\"a \\\"q\\\"\\\n\\r\\000z\\\\\""}},
		{name: "percent", src: `return string.format("100%% %s", "sure")`, want: []any{"100% sure"}},
		{name: "%T", src: `return string.format("%T", {})`, kind: KindRuntime},
		{name: "%v", src: `return string.format("%v", {})`, kind: KindRuntime},
		{name: "%#v", src: `return string.format("%#v", {})`, kind: KindRuntime},
		{name: "huge width", src: `return string.format("%0999999d", 1)`, kind: KindRuntime},
		{name: "three-digit precision", src: `return string.format("%.100f", 1)`, kind: KindRuntime},
		{name: "repeated flags", src: `return string.format("%------d", 1)`, kind: KindRuntime},
		{name: "%d of a word", src: `return string.format("%d", "abc")`, kind: KindRuntime},
		{name: "%d of a table", src: `return string.format("%d", {})`, kind: KindRuntime},
		{name: "%d of infinity", src: `return string.format("%d", 1/0)`, kind: KindRuntime},
		{name: "missing argument", src: `return string.format("%d %d", 1)`, kind: KindRuntime},
		{name: "lone percent", src: `return string.format("50%")`, kind: KindRuntime},
		{name: "result capped", src: `local s = string.rep("x", 2^23) return string.format("%s%s%s", s, s, s)`, kind: KindLimit},
	})
}

func TestCappedBuiltins(t *testing.T) {
	runLibCases(t, []libCase{
		{name: "rep", src: `return ("ab"):rep(3), ("x"):rep(0), ("x"):rep(-1), (""):rep(1e9)`, want: []any{"ababab", "", "", ""}},
		{name: "rep over the limit", src: `return ("ab"):rep(2^23 + 1)`, kind: KindLimit},
		{name: "rep of infinity", src: `return ("ab"):rep(1/0)`, kind: KindRuntime},
		{name: "byte", src: `return string.byte("ABC"), string.byte("ABC", 2), string.byte("ABC", -1), string.byte("ABC", 1, -1)`, want: []any{int64(65), int64(66), int64(67), int64(65), int64(66), int64(67)}},
		{name: "byte of an empty range", src: `return select('#', string.byte("ABC", 3, 2)), select('#', string.byte("", 1))`, want: []any{int64(0), int64(0)}},
		{name: "byte over the limit", src: `return string.byte(string.rep("x", 20000), 1, -1)`, kind: KindLimit},
		{name: "concat", src: `return table.concat({1, "a", 2.5}, ", "), table.concat({"a", "b", "c"}, "", 2, 3), table.concat({}), table.concat({1, 2}, "-", 3)`, want: []any{"1, a, 2.5", "bc", "", ""}},
		{name: "concat of many elements", src: `local t = {} for i = 1, 1e5 do t[i] = "x" end return #table.concat(t, ",")`, want: []any{int64(199999)}},
		{name: "concat of a bad value", src: `return table.concat({1, {}, 3})`, kind: KindRuntime},
		{name: "concat over the limit", src: `local t = {} for i = 1, 20 do t[i] = string.rep("x", 2^20) end return table.concat(t)`, kind: KindLimit},
		{name: "sort", src: `local t = {3, 1, 2} table.sort(t) local s = {"b", "c", "a"} table.sort(s, function(a, b) return a > b end) return t, s`, want: []any{[]any{int64(1), int64(2), int64(3)}, []any{"c", "b", "a"}}},
		{name: "sort with __lt", src: `local mt = {__lt = function(a, b) return a.v < b.v end} local t = {setmetatable({v = 2}, mt), setmetatable({v = 1}, mt)} table.sort(t) return t[1].v`, want: []any{int64(1)}},
		{name: "sort of mixed types", src: `local t = {1, "a"} table.sort(t)`, kind: KindRuntime},
		{name: "sort over the limit", src: `local t = {} for i = 1, 100001 do t[i] = i end table.sort(t)`, kind: KindLimit},
		{name: "unpack", src: `return unpack({1, 2, 3}), unpack({1, 2, 3}, 2), select('#', unpack({}, 1, 0))`, want: []any{int64(1), int64(2), int64(0)}},
		{name: "unpack a range", src: `return unpack({1, 2, 3}, 2, 3)`, want: []any{int64(2), int64(3)}},
		{name: "unpack over the limit", src: `return unpack({}, 1, 1e6)`, kind: KindLimit},
		{name: "unpack of a huge range", src: `return unpack({}, -2^31, 2^31)`, kind: KindLimit},
		{name: "unpack of infinity", src: `return unpack({}, 1, 1/0)`, kind: KindRuntime},
		{name: "insert and remove", src: `local t = {} table.insert(t, "a") table.insert(t, 1, "b") local r = table.remove(t) return t[1], r, #t`, want: []any{"b", "a", int64(1)}},
		{name: "random", src: `local a, b, c = math.random(), math.random(3), math.random(5, 6) return a >= 0 and a < 1, b >= 1 and b <= 3, c >= 5 and c <= 6`, want: []any{true, true, true}},
		{name: "random of an empty interval", src: `return math.random(0)`, kind: KindRuntime},
		{name: "random of a reversed interval", src: `return math.random(2, 1)`, kind: KindRuntime},
		{name: "random of infinity", src: `return math.random(1/0)`, kind: KindRuntime},
		{name: "ipairs and pairs", src: `local n = 0 for i, v in ipairs({1, 2, nil, 4}) do n = n + i end for k in pairs({a = 1, b = 2}) do n = n + 10 end return n`, want: []any{int64(23)}},
	})
}

// TestLua51Suite runs the string and pattern-matching tests of the Lua 5.1 test suite.
func TestLua51Suite(t *testing.T) {
	vm := newVM(t, Limits{Timeout: 10 * time.Second})
	for _, name := range []string{"pm51.lua", "strings51.lua"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name))
			require.NoError(t, err)
			vals, err := vm.Call(t.Context(), name, string(src))
			require.NoError(t, err)
			assert.Equal(t, []any{"OK"}, vals)
		})
	}
}
