package integration

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"sync"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Parallel sessions: many sessions of one Manager work at the same time (run under -race in
// CI) without seeing each other's globals or read records; and the calls of one session,
// made from several goroutines, are serialized.

const (
	parallelSessions = 16
	parallelFiles    = 5 // files each session creates
)

// toolCaller runs tool calls and snippets; it wraps one session for one goroutine's checks.
type toolCaller struct {
	t    *testing.T
	s    *manager.Session
	name string // for messages
}

// call runs a tool call and returns its result object, or nil after reporting a failure.
func (c toolCaller) call(tool string, args map[string]any) map[string]any {
	r := c.s.Call(context.Background(), manager.ToolCall{Name: tool, Args: args})
	if !assert.True(c.t, r.OK, "%s: %s(%v) failed: %+v", c.name, tool, args, r.Error) {
		return nil
	}
	var res map[string]any
	assert.NoError(c.t, r.Decode(&res), "%s: %s result is an object: %#v", c.name, tool, r.Result)
	return res
}

// fails runs a tool call that must fail with the error type typ.
func (c toolCaller) fails(tool string, args map[string]any, typ string) bool {
	r := c.s.Call(context.Background(), manager.ToolCall{Name: tool, Args: args})
	if !assert.False(c.t, r.OK, "%s: %s(%v) must fail, got %v", c.name, tool, args, r.Result) {
		return false
	}
	return assert.Equal(c.t, typ, r.Error.Type, "%s: %s(%v): %s", c.name, tool, args, r.Error.Message)
}

// eval runs a snippet and returns its values, or nil after reporting a failure.
func (c toolCaller) eval(src string) []any {
	vals, terr := c.s.Eval(context.Background(), src)
	if !assert.Nil(c.t, terr, "%s: eval %q", c.name, src) {
		return nil
	}
	return vals
}

// entryNames returns the names of list_dir's entries.
func entryNames(res map[string]any) []string {
	var names []string
	entries, _ := res["entries"].([]any)
	for _, e := range entries {
		m, _ := e.(map[string]any)
		name, _ := m["name"].(string)
		names = append(names, name)
	}
	return names
}

// globPaths returns the paths of glob's files.
func globPaths(res map[string]any) []string {
	var paths []string
	files, _ := res["files"].([]any)
	for _, f := range files {
		m, _ := f.(map[string]any)
		p, _ := m["path"].(string)
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// sessionWork is what session i does before the barrier: create its files, read, edit,
// list and glob them, and set and check globals. It returns false after a failure.
func sessionWork(c toolCaller, i int) bool {
	dir := fmt.Sprintf("s%02d", i)
	var want []string
	for f := range parallelFiles {
		name := fmt.Sprintf("f%d.txt", f)
		p := path.Join(dir, name)
		want = append(want, name)
		w := c.call("write_file", map[string]any{"path": p, "content": fmt.Sprintf("session %d file %d\nline two\n", i, f)})
		if w == nil || !assert.Equal(c.t, true, w["created"], "%s: %s is new", c.name, p) {
			return false
		}
		r := c.call("read_file", map[string]any{"path": p})
		if r == nil || !assert.Contains(c.t, r["content"], fmt.Sprintf("session %d file %d", i, f), c.name) {
			return false
		}
		e := c.call("edit_file", map[string]any{"path": p, "old_string": "line two", "new_string": fmt.Sprintf("edited by %d", i)})
		if e == nil || !assert.EqualValues(c.t, 1, e["replacements"], c.name) {
			return false
		}
		r = c.call("read_file", map[string]any{"path": p})
		if r == nil || !assert.Contains(c.t, r["content"], fmt.Sprintf("edited by %d", i), c.name) {
			return false
		}

		vals := c.eval(fmt.Sprintf("local before = x\nx = %q\nreturn before == nil, x", c.s.ID()))
		if vals == nil || !assert.Equal(c.t, []any{true, c.s.ID()}, vals, "%s: a global set in a call", c.name) {
			return false
		}
		vals = c.eval("return x == nil, type(x)")
		if vals == nil || !assert.Equal(c.t, []any{true, "nil"}, vals, "%s: the previous call's global is gone", c.name) {
			return false
		}

		l := c.call("list_dir", map[string]any{"path": dir})
		if l == nil || !assert.Equal(c.t, want, entryNames(l), "%s: list_dir shows exactly its own files", c.name) {
			return false
		}
		g := c.call("glob", map[string]any{"pattern": dir + "/**/*.txt"})
		var wantPaths []string
		for _, n := range want {
			wantPaths = append(wantPaths, path.Join(dir, n))
		}
		if g == nil || !assert.Equal(c.t, wantPaths, globPaths(g), "%s: glob finds exactly its own files", c.name) {
			return false
		}
	}
	return true
}

// crossSessionWork is what session i does after the barrier: it never read its neighbour's
// files, so it can neither edit nor overwrite them, whatever the neighbour read.
func crossSessionWork(c toolCaller, i int) bool {
	other := path.Join(fmt.Sprintf("s%02d", (i+1)%parallelSessions), "f0.txt")
	ok := c.fails("edit_file", map[string]any{"path": other, "old_string": "line", "new_string": "pwned"}, "conflict-error")
	ok = c.fails("write_file", map[string]any{"path": other, "content": "pwned"}, "conflict-error") && ok
	ok = c.fails("multi_edit", map[string]any{"path": other, "edits": []any{map[string]any{"old_string": "session", "new_string": "pwned"}}}, "conflict-error") && ok
	// Its own file, read before the barrier, is still editable.
	own := path.Join(fmt.Sprintf("s%02d", i), "f1.txt")
	e := c.call("edit_file", map[string]any{"path": own, "old_string": "session", "new_string": "SESSION"})
	return e != nil && ok
}

func TestParallelSessions(t *testing.T) {
	root := t.TempDir()
	m, err := manager.New(manager.Config{Root: root})
	require.NoError(t, err)
	defer m.Close()

	sessions := make([]*manager.Session, parallelSessions)
	var opened sync.WaitGroup
	for i := range sessions {
		opened.Go(func() {
			s, err := m.Open(t.Context(), "")
			if assert.NoError(t, err) {
				sessions[i] = s
			}
		})
	}
	opened.Wait()
	for _, s := range sessions {
		require.NotNil(t, s)
		defer s.Close()
	}

	var barrier, done sync.WaitGroup
	barrier.Add(parallelSessions)
	for i, s := range sessions {
		done.Go(func() {
			c := toolCaller{t: t, s: s, name: fmt.Sprintf("session %d (%s)", i, s.ID())}
			ok := sessionWork(c, i)
			barrier.Done() // everyone's files exist and are read after this point
			barrier.Wait()
			if ok {
				crossSessionWork(c, i)
			}
		})
	}
	done.Wait()

	// Every file holds exactly what its own session wrote: no cross-session edit went through.
	for i := range parallelSessions {
		for f := range parallelFiles {
			p := path.Join(root, fmt.Sprintf("s%02d", i), fmt.Sprintf("f%d.txt", f))
			first := "session"
			if f == 1 {
				first = "SESSION"
			}
			want := fmt.Sprintf("%s %d file %d\nedited by %d\n", first, i, f, i)
			assert.FileExists(t, p)
			got := readFileString(t, p)
			assert.Equal(t, want, got, "content of %s", p)
		}
	}
}

// TestParallelSessionsReadTracking checks, step by step, that a read is recorded for the session
// that made it only.
func TestParallelSessionsReadTracking(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"shared.txt": "one\ntwo\n"})
	m, err := manager.New(manager.Config{Root: root})
	require.NoError(t, err)
	defer m.Close()
	open := func(name string) toolCaller {
		s, err := m.Open(t.Context(), "")
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return toolCaller{t: t, s: s, name: name}
	}
	a, b := open("A"), open("B")

	require.NotNil(t, a.call("read_file", map[string]any{"path": "shared.txt"}))
	b.fails("edit_file", map[string]any{"path": "shared.txt", "old_string": "one", "new_string": "B1"}, "conflict-error")
	b.fails("write_file", map[string]any{"path": "shared.txt", "content": "B"}, "conflict-error")
	assert.Equal(t, "one\ntwo\n", readFileString(t, path.Join(root, "shared.txt")), "B's refused edits changed nothing")

	require.NotNil(t, b.call("read_file", map[string]any{"path": "shared.txt"}))
	require.NotNil(t, b.call("edit_file", map[string]any{"path": "shared.txt", "old_string": "one", "new_string": "B1"}))
	// A read the file before B changed it: its edit is stale.
	a.fails("edit_file", map[string]any{"path": "shared.txt", "old_string": "two", "new_string": "A2"}, "conflict-error")
	assert.Equal(t, "B1\ntwo\n", readFileString(t, path.Join(root, "shared.txt")))
	// After reading again, A's edit goes through.
	require.NotNil(t, a.call("read_file", map[string]any{"path": "shared.txt"}))
	require.NotNil(t, a.call("edit_file", map[string]any{"path": "shared.txt", "old_string": "two", "new_string": "A2"}))
	assert.Equal(t, "B1\nA2\n", readFileString(t, path.Join(root, "shared.txt")))
	// A new session has read nothing.
	open("C").fails("edit_file", map[string]any{"path": "shared.txt", "old_string": "A2", "new_string": "C"}, "conflict-error")
}

// counterSnippet increments counter.txt in one call (read, then write) and reports the value
// it read; w names the goroutine. If calls of one session interleaved, increments would be
// lost or writes refused as stale.
const counterSnippet = `
local before = x
x = %q
local r, err = jido.read_file{path = "counter.txt"}
if not r then error(err) end
local n = tonumber(r.content:match("(%%d+)%%s*$"))
local spin = 0
for i = 1, 200 do spin = spin + i end
local w, werr = jido.write_file{path = "counter.txt", content = tostring(n + 1)}
if not w then error(werr) end
return before == nil, x, n
`

func TestParallelCallsOnOneSession(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"counter.txt": "0"})
	_, s := openSession(t, root)
	const workers, iterations = 8, 20

	var mu sync.Mutex
	seen := map[int64]string{} // counter value read -> worker that read it
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			c := toolCaller{t: t, s: s, name: fmt.Sprintf("worker %d", w)}
			id := fmt.Sprintf("worker-%d", w)
			for i := range iterations {
				vals := c.eval(fmt.Sprintf(counterSnippet, id))
				if vals == nil || !assert.Len(t, vals, 3) {
					return
				}
				assert.Equal(t, true, vals[0], "%s: a global of another call is visible", id)
				assert.Equal(t, id, vals[1], "%s: its own global", id)
				n, ok := vals[2].(int64)
				if f, isFloat := vals[2].(float64); isFloat {
					n, ok = int64(f), true
				}
				if !assert.True(t, ok, "counter value %#v", vals[2]) {
					return
				}
				mu.Lock()
				if prev, dup := seen[n]; dup {
					assert.Failf(t, "calls interleaved", "%s and %s both read counter %d", prev, id, n)
				}
				seen[n] = id
				mu.Unlock()

				// Tool calls interleave with the snippets of the other goroutines.
				p := fmt.Sprintf("w%d/f%d.txt", w, i)
				content := fmt.Sprintf("%s %d\n", id, i)
				if c.call("write_file", map[string]any{"path": p, "content": content}) == nil {
					return
				}
				r := c.call("read_file", map[string]any{"path": p, "line_numbers": false})
				if r == nil || !assert.Equal(t, content, r["content"], "%s: read back its own file", id) {
					return
				}
			}
		})
	}
	wg.Wait()

	assert.Len(t, seen, workers*iterations, "every increment read a distinct value")
	assert.Equal(t, fmt.Sprint(workers*iterations), readFileString(t, path.Join(root, "counter.txt")), "no increment was lost")
	vals, terr := s.Eval(t.Context(), "return x")
	require.Nil(t, terr)
	assert.Equal(t, []any{nil}, vals, "no global survives the concurrent calls")
}

// readFileString reads a file of the test's own tree (outside jido) as a string.
func readFileString(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(data)
}
