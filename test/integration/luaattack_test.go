package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Lua attack suite runs the corpus testdata/lua_attacks.txt (its format is documented at
// the top of that file) against the sandbox: every case through the Go API in one session,
// and a subset through `jido eval`. Besides each case's own expectation, it checks after every
// case that nothing escaped (the host secret is never shown, no file appears outside the root)
// and that nothing leaked into the next call (a canary fingerprint is unchanged).

const (
	luaCorpus = "testdata/lua_attacks.txt"
	// luaSecret is the content of a file outside the project root. The corpus never contains
	// it, so it can only show up in an output if a snippet reached that file.
	luaSecret = "HOST-SECRET-7f3a9c1e"
	// luaDeadline is the default per-case deadline through the Go API.
	luaDeadline = 300 * time.Millisecond
	// luaCLITimeout is the per-snippet deadline given to `jido eval`.
	luaCLITimeout = "2s"
	// luaHangGuard is how much longer than its deadline a case may take before it counts as a hang.
	luaHangGuard = 9 * time.Second
	// luaCanaryDeadline bounds the canary snippet.
	luaCanaryDeadline = 10 * time.Second
)

// luaCase is one case of the corpus.
type luaCase struct {
	name     string // FAMILY/NAME
	family   string
	line     int      // line of the header in the corpus, for messages
	src      string   // the snippet, templates not yet expanded
	expect   []string // ok, any, error, error:TYPE
	value    string   // raw JSON the value must equal (ok only), "" if unchecked
	kind     string   // JSON kind of the value (ok only), "" if unchecked
	contains string
	lacks    []string
	maxLen   int
	limit    string
	deadline time.Duration
	cli      bool
}

var luaCaseHeader = regexp.MustCompile(`^-- case: (.*)$`)

// loadLuaCorpus parses the corpus file.
func loadLuaCorpus(t *testing.T) []*luaCase {
	t.Helper()
	f, err := os.Open(luaCorpus)
	require.NoError(t, err)
	defer f.Close()
	var cases []*luaCase
	var cur *luaCase
	var body []string
	flush := func() {
		if cur == nil {
			return
		}
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1]
		}
		cur.src = strings.Join(body, "\n")
		require.NotEmpty(t, cur.src, "%s:%d: case %s has no snippet", luaCorpus, cur.line, cur.name)
		cases = append(cases, cur)
		cur, body = nil, nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "##") {
			continue
		}
		if m := luaCaseHeader.FindStringSubmatch(line); m != nil {
			flush()
			cur = parseLuaCaseHeader(t, m[1], n)
			continue
		}
		if cur == nil {
			require.Empty(t, strings.TrimSpace(line), "%s:%d: text outside a case", luaCorpus, n)
			continue
		}
		body = append(body, line)
	}
	require.NoError(t, sc.Err())
	flush()
	seen := map[string]bool{}
	for _, c := range cases {
		require.False(t, seen[c.name], "duplicate case name %s", c.name)
		seen[c.name] = true
	}
	return cases
}

// parseLuaCaseHeader parses "FAMILY/NAME | expect: ... | key: value | cli".
func parseLuaCaseHeader(t *testing.T, header string, line int) *luaCase {
	t.Helper()
	parts := strings.Split(header, " | ")
	c := &luaCase{name: strings.TrimSpace(parts[0]), line: line, deadline: luaDeadline}
	fam, _, ok := strings.Cut(c.name, "/")
	require.True(t, ok, "%s:%d: case name %q is not FAMILY/NAME", luaCorpus, line, c.name)
	c.family = fam
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		if p == "cli" {
			c.cli = true
			continue
		}
		key, val, ok := strings.Cut(p, ": ")
		require.True(t, ok, "%s:%d: bad attribute %q", luaCorpus, line, p)
		val = strings.TrimSpace(val)
		switch key {
		case "expect":
			for _, e := range strings.Split(val, ",") {
				e = strings.TrimSpace(e)
				require.True(t, e == "ok" || e == "any" || e == "error" || strings.HasPrefix(e, "error:"),
					"%s:%d: bad luaOutcome %q", luaCorpus, line, e)
				c.expect = append(c.expect, e)
			}
		case "value":
			require.True(t, json.Valid([]byte(val)), "%s:%d: value is not JSON: %s", luaCorpus, line, val)
			c.value = val
		case "kind":
			c.kind = val
		case "contains":
			c.contains = val
		case "lacks":
			c.lacks = append(c.lacks, val)
		case "maxlen":
			n, err := strconv.Atoi(val)
			require.NoError(t, err, "%s:%d", luaCorpus, line)
			c.maxLen = n
		case "limit":
			c.limit = val
		case "deadline":
			d, err := time.ParseDuration(val)
			require.NoError(t, err, "%s:%d", luaCorpus, line)
			c.deadline = d
		default:
			require.Failf(t, "bad corpus", "%s:%d: unknown attribute %q", luaCorpus, line, key)
		}
	}
	require.NotEmpty(t, c.expect, "%s:%d: case %s has no expect", luaCorpus, line, c.name)
	if c.value != "" || c.kind != "" {
		require.True(t, slices.Contains(c.expect, "ok"), "%s:%d: value/kind without ok", luaCorpus, line)
	}
	return c
}

var luaRepeat = regexp.MustCompile(`<<REPEAT (\d+) (.*?)>>`)

// expand replaces the corpus templates for a project laid out by luaProject.
func (p luaProject) expand(src string) string {
	src = luaRepeat.ReplaceAllStringFunc(src, func(m string) string {
		sub := luaRepeat.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[1])
		return strings.Repeat(sub[2], n)
	})
	return strings.NewReplacer("<<ROOT>>", p.root, "<<OUTSIDE>>", p.outside, "<<ESC>>", "\x1b").Replace(src)
}

// luaProject is the layout the corpus runs against: dir/root is the project root and
// dir/outside.txt a host file with the secret.
type luaProject struct {
	dir, root, outside string
}

func newLuaProject(t *testing.T) luaProject {
	t.Helper()
	dir := t.TempDir()
	p := luaProject{dir: dir, root: filepath.Join(dir, "root"), outside: filepath.Join(dir, "outside.txt")}
	writeTree(t, p.root, map[string]string{"a": "alpha\n", "canary.txt": "canary-line\n"})
	require.NoError(t, os.Mkdir(filepath.Join(p.root, "scratch"), 0o755))
	require.NoError(t, os.Symlink("..", filepath.Join(p.root, "link")))
	require.NoError(t, os.WriteFile(p.outside, []byte(`return "`+luaSecret+`"`+"\n"), 0o644))
	return p
}

// escapes reports the traces a case may have left outside the sandbox: files next to the root
// other than outside.txt, a changed outside.txt, and files named *pwned* inside the root.
func (p luaProject) escapes() []string {
	var bad []string
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		return []string{err.Error()}
	}
	for _, e := range entries {
		if e.Name() != "root" && e.Name() != "outside.txt" {
			bad = append(bad, "file created outside the root: "+e.Name())
		}
	}
	if data, err := os.ReadFile(p.outside); err != nil || !strings.Contains(string(data), luaSecret) {
		bad = append(bad, fmt.Sprintf("outside.txt changed: %q %v", data, err))
	}
	_ = filepath.WalkDir(p.root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(strings.ToLower(d.Name()), "pwned") {
			bad = append(bad, "file created by a case: "+path)
		}
		return nil
	})
	return bad
}

// luaOutcome is what one snippet produced, through either the Go API or the binary.
type luaOutcome struct {
	ok        bool
	value     any    // the value as JSON decodes it (ok only)
	valueJSON string // its JSON text
	err       *definitions.ToolError
	errJSON   string // the whole error as JSON
	dur       time.Duration
}

func (o luaOutcome) String() string {
	if o.ok {
		return "ok " + luaClip(o.valueJSON, 300)
	}
	return fmt.Sprintf("error %s: %s (details %v)", o.err.Type, luaClip(o.err.Message, 300), o.err.Details)
}

func luaClip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("...(%d bytes)", len(s))
}

// luaAPIOutcome shapes the result of Session.Eval as `jido eval` does: no value is null, one
// value itself, several values an array.
func luaAPIOutcome(vals []any, terr *definitions.ToolError, dur time.Duration) (luaOutcome, error) {
	if terr != nil {
		b, err := json.Marshal(terr)
		return luaOutcome{err: terr, errJSON: string(b), dur: dur}, err
	}
	var v any
	switch len(vals) {
	case 0:
	case 1:
		v = vals[0]
	default:
		v = vals
	}
	b, err := json.Marshal(v)
	if err != nil {
		return luaOutcome{}, fmt.Errorf("the value cannot be encoded as JSON: %w", err)
	}
	o := luaOutcome{ok: true, valueJSON: string(b), dur: dur}
	return o, json.Unmarshal(b, &o.value)
}

// luaJSONKind names the JSON kind of a decoded value.
func luaJSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// check returns how o falls short of the case's expectation (nil if it does not).
func (c *luaCase) check(o luaOutcome) []string {
	var bad []string
	matched := false
	for _, e := range c.expect {
		switch {
		case e == "any", e == "ok" && o.ok, e == "error" && !o.ok:
			matched = true
		case strings.HasPrefix(e, "error:") && !o.ok && o.err.Type == strings.TrimPrefix(e, "error:"):
			matched = true
		}
	}
	if !matched {
		bad = append(bad, fmt.Sprintf("expected %s, got %s", strings.Join(c.expect, " or "), o))
	}
	text, full := o.valueJSON, o.valueJSON
	if !o.ok {
		details, _ := json.Marshal(o.err.Details)
		text, full = o.err.Message, o.err.Message+" "+string(details)
	}
	if o.ok && c.value != "" {
		var want any
		_ = json.Unmarshal([]byte(c.value), &want)
		if !assert.ObjectsAreEqual(want, o.value) {
			bad = append(bad, fmt.Sprintf("value: want %s, got %s", c.value, luaClip(o.valueJSON, 300)))
		}
	}
	if o.ok && c.kind != "" && luaJSONKind(o.value) != c.kind {
		bad = append(bad, fmt.Sprintf("value kind: want %s, got %s (%s)", c.kind, luaJSONKind(o.value), luaClip(o.valueJSON, 300)))
	}
	if c.contains != "" && !strings.Contains(text, c.contains) {
		bad = append(bad, fmt.Sprintf("output does not contain %q: %s", c.contains, luaClip(text, 300)))
	}
	for _, l := range c.lacks {
		if strings.Contains(full, l) {
			bad = append(bad, fmt.Sprintf("output contains %q: %s", l, luaClip(full, 300)))
		}
	}
	if c.maxLen > 0 && len(text) > c.maxLen {
		bad = append(bad, fmt.Sprintf("output is %d bytes, over %d", len(text), c.maxLen))
	}
	if c.limit != "" && !o.ok && fmt.Sprint(o.err.Details["limit"]) != c.limit {
		bad = append(bad, fmt.Sprintf("details.limit: want %q, got %v", c.limit, o.err.Details["limit"]))
	}
	return bad
}

// secretShown reports whether an luaOutcome shows the content of the host file.
func (o luaOutcome) secretShown() bool {
	return strings.Contains(o.valueJSON, luaSecret) || strings.Contains(o.errJSON, luaSecret)
}

// luaBannedGlobals must be nil in every call.
var luaBannedGlobals = []string{"os", "io", "load", "loadstring", "dofile", "loadfile", "require",
	"module", "package", "debug", "getfenv", "setfenv", "collectgarbage", "newproxy", "rawset",
	"rawget", "_printregs", "channel"}

// luaCanarySrc is the canary: it describes the environment a call sees. Run before the first
// case and after each one, in the same session, it must give the same table every time.
var luaCanarySrc = func() string {
	var b strings.Builder
	b.WriteString("local fp = {}\n")
	names := append(slices.Clone(luaBannedGlobals), "_G", "print", "coroutine", "gcinfo", "string", "table",
		"math", "jido", "pairs", "ipairs", "next", "tostring", "tonumber", "type", "error", "pcall",
		"xpcall", "select", "unpack", "assert", "setmetatable", "getmetatable", "rawequal", "_VERSION",
		// the globals that cases set
		"x", "y", "pwned", "leak", "counter", "evil", "undefined_global")
	for _, n := range names {
		fmt.Fprintf(&b, "fp[%q] = type(%s)\n", "type "+n, n)
	}
	b.WriteString(`
fp.version = _VERSION
fp.arith = 1 + 1
fp.upper = ("a"):upper()
fp.strupper = string.upper("b")
fp.len = #("abc") .. ("abc"):len()
fp.sub = ("hello"):sub(2, 3)
fp.rep = ("ab"):rep(3)
fp.concat_op = "a" .. "b" .. 1
fp.fmt = string.format("%d-%s-%5.1f", 3, "z", 2.25)
fp.find = table.concat({string.find("hello", "l+")}, ",")
fp.gsub = (string.gsub("hello", "l", "L"))
fp.match = string.match("key=value", "(%w+)=(%w+)")
local words = {}
for w in string.gmatch("one two", "%a+") do words[#words + 1] = w end
fp.gmatch = table.concat(words, "+")
fp.byte = string.byte("A") .. string.char(66)
fp.tconcat = table.concat({1, 2, 3}, ",")
local t = {3, 1, 2}
table.sort(t)
fp.sort = table.concat(t, ",")
local ins = {}
table.insert(ins, "a")
table.insert(ins, 1, "b")
fp.insert = table.concat(ins) .. table.remove(ins)
fp.huge = math.huge == 1/0
fp.math = math.floor(math.pi * 1000) + math.max(3, 9, 2) + math.abs(-4)
local n = 0
for _ in pairs({a = 1, b = 2, c = 3}) do n = n + 1 end
fp.pairs = n
local m = 0
for _, v in ipairs({5, 6, 7}) do m = m + v end
fp.ipairs = m
fp.next = next({}) == nil
fp.tostring = tostring(12) .. tostring(true) .. tostring(nil)
fp.tonumber = tonumber("0x10") + tonumber("1.5e3")
local ok, e = pcall(error, "boom", 0)
fp.pcall = tostring(ok) .. ":" .. tostring(e)
local ok2, e2 = pcall(error, {code = 7})
fp.error_table = not ok2 and type(e2) == "table" and e2.code
fp.xpcall = select(2, xpcall(function() error("z", 0) end, function(msg) return "h:" .. msg end))
fp.select = select("#", 1, nil, 3)
fp.unpack = select("#", unpack({1, 2, 3}))
fp.assert = (pcall(assert, false, "no"))
local mt = setmetatable({}, {__index = function(_, k) return k .. "!" end})
fp.meta = mt.q
fp.getmeta = type(getmetatable(mt))
fp.protected = getmetatable(setmetatable({}, {__metatable = "locked"}))
fp.string_meta = type(getmetatable(""))
fp.index_number = (pcall(function() local v = 5 return v.x end))
fp.index_boolean = (pcall(function() local v = true return v.x end))
fp.index_nil = (pcall(function() local v = nil return v.x end))
fp.call_string = (pcall(function() return ("x")() end))
fp.string_method_missing = (pcall(function() return ("x"):nosuch() end))
fp.string_write = (pcall(function() string.pwned = 1 end))
fp.string_meta_write = (pcall(function() getmetatable("").__index = {} end))
fp.set_string_meta = (pcall(setmetatable, "", {}))
fp.jido_write = (pcall(function() jido.pwned = 1 end))
fp.jido_x = tostring(select(2, pcall(function() return jido.x end)))
fp.jido_funcs = type(jido.read_file) .. type(jido.write_file) .. type(jido.call) .. type(jido.glob)
local r, err = jido.read_file{path = "canary.txt"}
fp.read = r and r.content:find("canary-line", 1, true) ~= nil or tostring(err and err.type)
local r2, err2 = jido.call("read_file", {path = "canary.txt"})
fp.call = r2 and r2.total_lines or tostring(err2 and err2.type)
local r3, err3 = jido.read_file{path = "../outside.txt"}
fp.outside = r3 == nil and err3.type
local s = 0
for i = 1, 1e3 do s = s + i end
fp.loop = s
fp.bigrep = #string.rep("x", 2^16)
fp.dump = (pcall(string.dump, function() end))
return fp
`)
	return b.String()
}()

// luaEval runs src in s with a deadline and a hang guard; hung is true when the call did not
// return within the guard (the session is then blocked, so the caller must stop).
func luaEval(s *manager.Session, src string, deadline time.Duration) (o luaOutcome, hung bool, err error) {
	type res struct {
		vals []any
		terr *definitions.ToolError
		dur  time.Duration
	}
	done := make(chan res, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		start := time.Now()
		vals, terr := s.Eval(ctx, src)
		done <- res{vals, terr, time.Since(start)}
	}()
	select {
	case r := <-done:
		o, err = luaAPIOutcome(r.vals, r.terr, r.dur)
		return o, false, err
	case <-time.After(deadline + luaHangGuard):
		return luaOutcome{}, true, nil
	}
}

// luaSummary counts what a run of the corpus saw.
type luaSummary struct {
	cases, failed, escapes, leaks int
	byType                        map[string]int
	slowest                       string
	slowestDur                    time.Duration
}

func (s *luaSummary) add(name string, o luaOutcome) {
	s.cases++
	if o.ok {
		s.byType["ok"]++
	} else {
		s.byType[o.err.Type]++
	}
	if o.dur > s.slowestDur {
		s.slowest, s.slowestDur = name, o.dur
	}
}

func (s *luaSummary) String() string {
	types := make([]string, 0, len(s.byType))
	for k := range s.byType {
		types = append(types, k)
	}
	sort.Strings(types)
	var parts []string
	for _, k := range types {
		parts = append(parts, fmt.Sprintf("%s=%d", k, s.byType[k]))
	}
	return fmt.Sprintf("cases=%d outcomes[%s] expectation-failures=%d escapes=%d leaks=%d slowest=%s (%v)",
		s.cases, strings.Join(parts, " "), s.failed, s.escapes, s.leaks, s.slowest, s.slowestDur.Round(time.Millisecond))
}

// checkLuaCanaryBaseline asserts what the fingerprint of a clean session must say.
func checkLuaCanaryBaseline(t *testing.T, base map[string]any) {
	t.Helper()
	for _, n := range luaBannedGlobals {
		assert.Equal(t, "nil", base["type "+n], "the global %s must not exist", n)
	}
	for _, n := range []string{"x", "y", "pwned", "leak", "counter", "evil"} {
		assert.Equal(t, "nil", base["type "+n], "global %s", n)
	}
	assert.Equal(t, "A", base["upper"])
	assert.Equal(t, true, base["read"], "jido.read_file on a real file")
	assert.Equal(t, float64(1), base["call"], "jido.call read_file on a real file")
	assert.Equal(t, "permission-error", base["outside"])
	assert.Equal(t, false, base["dump"], "string.dump must be absent or fail")
	assert.Equal(t, false, base["string_write"], "the string library must be read-only")
	assert.Equal(t, false, base["jido_write"], "jido must be read-only")
	assert.Equal(t, false, base["set_string_meta"], "setmetatable on a string must fail")
}

func TestLuaAttackCorpus(t *testing.T) {
	cases := loadLuaCorpus(t)
	families := map[string]int{}
	for _, c := range cases {
		families[c.family]++
	}
	require.GreaterOrEqual(t, len(cases), 100, "the corpus must have at least 100 cases")

	p := newLuaProject(t)
	_, s := openSession(t, p.root)

	baseOut, hung, err := luaEval(s, luaCanarySrc, luaCanaryDeadline)
	require.False(t, hung, "the canary hung")
	require.NoError(t, err)
	require.True(t, baseOut.ok, "the canary fails on a fresh session: %s", baseOut)
	base, isMap := baseOut.value.(map[string]any)
	require.True(t, isMap, "the canary returns a table: %s", baseOut)
	checkLuaCanaryBaseline(t, base)

	sum := &luaSummary{byType: map[string]int{}}
	var leaked, escaped []string
	for _, c := range cases {
		var stop bool
		t.Run(c.name, func(t *testing.T) {
			o, hung, err := luaEval(s, p.expand(c.src), c.deadline)
			if hung {
				stop = true
				t.Fatalf("%s:%d: Eval did not return within %v of its %v deadline: the session is blocked", luaCorpus, c.line, luaHangGuard, c.deadline)
			}
			require.NoError(t, err, "%s:%d", luaCorpus, c.line)
			t.Logf("%v: %s", o.dur.Round(time.Millisecond), o)
			sum.add(c.name, o)
			if bad := c.check(o); len(bad) > 0 {
				sum.failed++
				assert.Failf(t, "unexpected outcome", "%s:%d: %s\nsnippet:\n%s", luaCorpus, c.line, strings.Join(bad, "\n"), luaClip(c.src, 600))
			}
			var esc []string
			if o.secretShown() {
				esc = append(esc, "the host secret appears in the output: "+o.String())
			}
			esc = append(esc, p.escapes()...)
			if c.family == "capability" && len(c.check(o)) > 0 {
				esc = append(esc, "capability probe failed: "+o.String())
			}
			if len(esc) > 0 {
				sum.escapes++
				escaped = append(escaped, c.name)
				assert.Failf(t, "escape", "%s:%d: %s", luaCorpus, c.line, strings.Join(esc, "\n"))
			}

			fp, hung, err := luaEval(s, luaCanarySrc, luaCanaryDeadline)
			if hung {
				stop = true
				t.Fatalf("the canary after %s hung", c.name)
			}
			require.NoError(t, err)
			if !fp.ok || !assert.ObjectsAreEqual(base, fp.value) {
				sum.leaks++
				leaked = append(leaked, c.name)
				assert.Failf(t, "leak into the next call", "%s:%d: after this case the canary differs: %s",
					luaCorpus, c.line, canaryDiff(base, fp))
			}
		})
		if stop {
			break
		}
	}
	t.Logf("Lua attack corpus through the Go API, one session: %s", sum)
	t.Logf("families: %v", families)
	assert.Zero(t, sum.escapes, "escapes: %v", escaped)
	assert.Zero(t, sum.leaks, "leaks: %v", leaked)
}

// canaryDiff describes how a canary outcome differs from the baseline fingerprint.
func canaryDiff(base map[string]any, fp luaOutcome) string {
	got, isMap := fp.value.(map[string]any)
	if !fp.ok || !isMap {
		return "the canary gives " + fp.String()
	}
	var diffs []string
	for k, want := range base {
		if !assert.ObjectsAreEqual(want, got[k]) {
			diffs = append(diffs, fmt.Sprintf("%s: %v -> %v", k, want, got[k]))
		}
	}
	for k, v := range got {
		if _, ok := base[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: (none) -> %v", k, v))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

// luaEvalLine is one output line of `jido eval`.
type luaEvalLine struct {
	OK    *bool                  `json:"ok"`
	Value json.RawMessage        `json:"value"`
	Error *definitions.ToolError `json:"error"`
}

func (l luaEvalLine) toOutcome() (luaOutcome, error) {
	if l.OK == nil {
		return luaOutcome{}, errors.New(`no "ok" field`)
	}
	if !*l.OK {
		if l.Error == nil {
			return luaOutcome{}, errors.New(`"ok": false without an error`)
		}
		b, _ := json.Marshal(l.Error)
		return luaOutcome{err: l.Error, errJSON: string(b)}, nil
	}
	raw := l.Value
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	o := luaOutcome{ok: true, valueJSON: string(raw)}
	return o, json.Unmarshal(raw, &o.value)
}

// luaCLISubset returns the first case of every family and the cases marked cli.
func luaCLISubset(cases []*luaCase) []*luaCase {
	var sub []*luaCase
	seen := map[string]bool{}
	for _, c := range cases {
		if !seen[c.family] || c.cli {
			sub = append(sub, c)
		}
		seen[c.family] = true
	}
	return sub
}

func TestLuaAttackCLI(t *testing.T) {
	t.Parallel()
	cases := luaCLISubset(loadLuaCorpus(t))
	require.GreaterOrEqual(t, len(cases), 20)
	p := newLuaProject(t)

	// One process: the canary, then each case followed by the canary.
	args := []string{"eval", "--root", p.root, "--yes", "--timeout", luaCLITimeout, "-e", luaCanarySrc}
	for _, c := range cases {
		args = append(args, "-e", p.expand(c.src), "-e", luaCanarySrc)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, jidoBin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	start := time.Now()
	require.NoError(t, cmd.Start())
	// Lines are read as they come, so that each snippet's time is known.
	var lines []string
	var at []time.Time
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		at = append(at, time.Now())
	}
	require.NoError(t, sc.Err())
	err = cmd.Wait()
	elapsed := time.Since(start)
	require.NoError(t, ctx.Err(), "jido eval hung: killed after %v with %d lines out; stderr:\n%s", elapsed, len(lines), luaClip(stderr.String(), 4000))
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		require.NotEqual(t, -1, code, "jido eval was killed by a signal (%v); stderr:\n%s", ee, luaClip(stderr.String(), 4000))
	} else {
		require.NoError(t, err)
	}
	for _, crash := range []string{"panic:", "fatal error:", "goroutine ", "SIGSEGV"} {
		assert.NotContains(t, stderr.String(), crash, "jido eval crashed")
	}

	require.Len(t, lines, 1+2*len(cases), "one JSON line per snippet; stderr:\n%s\nstdout:\n%s",
		luaClip(stderr.String(), 2000), luaClip(strings.Join(lines, "\n"), 4000))
	guard, _ := time.ParseDuration(luaCLITimeout)
	guard += luaHangGuard
	parse := func(i int) (luaOutcome, bool) {
		var l luaEvalLine
		if !assert.NoError(t, json.Unmarshal([]byte(lines[i]), &l), "stdout line %d is not a JSON object: %s", i+1, luaClip(lines[i], 300)) {
			return luaOutcome{}, false
		}
		o, err := l.toOutcome()
		if i > 0 {
			o.dur = at[i].Sub(at[i-1])
		}
		return o, assert.NoError(t, err, "stdout line %d: %s", i+1, luaClip(lines[i], 300))
	}
	base, ok := parse(0)
	require.True(t, ok)
	require.True(t, base.ok, "the canary fails on a fresh session: %s", base)
	baseMap, isMap := base.value.(map[string]any)
	require.True(t, isMap)
	checkLuaCanaryBaseline(t, baseMap)

	sum := &luaSummary{byType: map[string]int{}}
	allOK := base.ok
	for i, c := range cases {
		o, ok := parse(1 + 2*i)
		if ok {
			sum.add(c.name, o)
			assert.Less(t, o.dur, guard, "%s took %v with a %s deadline: a hang", c.name, o.dur, luaCLITimeout)
			allOK = allOK && o.ok
			if bad := c.check(o); len(bad) > 0 {
				sum.failed++
				assert.Failf(t, "unexpected outcome", "%s (%s:%d): %s", c.name, luaCorpus, c.line, strings.Join(bad, "\n"))
			}
			if o.secretShown() {
				sum.escapes++
				assert.Failf(t, "escape", "%s: the host secret appears in the output: %s", c.name, o)
			}
		}
		fp, ok := parse(2 + 2*i)
		if ok {
			allOK = allOK && fp.ok
			if !fp.ok || !assert.ObjectsAreEqual(base.value, fp.value) {
				sum.leaks++
				assert.Failf(t, "leak into the next call", "after %s the canary differs: %s", c.name, canaryDiff(baseMap, fp))
			}
		}
	}
	if esc := p.escapes(); len(esc) > 0 {
		sum.escapes += len(esc)
		assert.Failf(t, "escape", "%s", strings.Join(esc, "\n"))
	}
	wantCode := 1
	if allOK {
		wantCode = 0
	}
	assert.Equal(t, wantCode, code, "exit code: 0 when every snippet succeeded, 1 otherwise")
	t.Logf("Lua attack subset through `jido eval` (%d cases, one process, %v): %s", len(cases), elapsed.Round(time.Millisecond), sum)
}
