package manager

import (
	"github.com/jido-run/jido/runtime"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/worker"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// init lets the test binary serve as the Lua worker of sessions in worker isolation
// (before TestMain: the worker needs nothing of the tests).
func init() { worker.MaybeServe() }

// workerSession opens a session in worker isolation on a root holding a.txt.
func workerSession(t *testing.T, cfg Config) (*Session, string) {
	t.Helper()
	cfg.Isolation = IsolationWorker
	m := newManager(t, cfg)
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, m.Root()
}

func TestIsolationIsChecked(t *testing.T) {
	_, err := New(Config{Root: t.TempDir(), Isolation: "vm"})
	assert.ErrorContains(t, err, "Isolation")
}

// TestWorkerIsolation: the session's snippets run in a worker, its tools here: results are
// the tools' own, the read log is the session's, and a tool's events are emitted here.
func TestWorkerIsolation(t *testing.T) {
	s, root := workerSession(t, Config{})
	vals, terr := s.Eval(t.Context(), `return jido.read_file{path="a.txt"}.content`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"     1\told\n"}, vals)

	res := s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}})
	require.True(t, res.OK, resultJSON(t, res))
	r, err := ResultAs[definitions.ReadFileResult](res)
	require.NoError(t, err, "a built-in tool's result keeps its type")
	assert.Equal(t, "a.txt", r.Path)

	res = s.Call(t.Context(), ToolCall{Name: "edit_file", Args: map[string]any{"path": "a.txt", "old_string": "old", "new_string": "new"}})
	require.True(t, res.OK, resultJSON(t, res))
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(data))

	res = s.Call(t.Context(), ToolCall{Name: "edit_file", Args: map[string]any{"path": "missing.txt", "old_string": "x", "new_string": "y"}})
	require.False(t, res.OK)
	assert.Equal(t, definitions.FileError, res.Error.Type)
}

// TestWorkerIsolationUserTools: a user's Lua tool runs in the worker (killing the worker
// ends it with worker-error) and its calls here; a tool its worker's death cut short
// leaves nothing behind: the next call is not held to its declared flags.
func TestWorkerIsolationUserTools(t *testing.T) {
	root := toolProject(t, map[string]string{"a.txt": "old\n"}, map[string]string{
		"shout": `return jido.tool{name = "shout", description = "Shouts a file.", params = {properties = {path = {type = "string"}}}, run = function(a) return (jido.read_file{path = a.path}.content:upper()) end}`,
		"spin":  `return jido.tool{name = "spin", description = "Reads, then never ends.", run = function() jido.read_file{path = "a.txt"} while true do end end}`,
	})
	s, _ := workerSession(t, Config{Root: root, Permissions: policy.New(policy.ModeYolo), Yes: true, Limits: runtime.Limits{Timeout: 20 * time.Second}})
	require.Empty(t, s.ToolLoadErrors())
	res := s.Call(t.Context(), ToolCall{Name: "shout", Args: map[string]any{"path": "a.txt"}})
	require.True(t, res.OK, resultJSON(t, res))
	assert.Equal(t, "     1\tOLD\n", res.Result)
	vals, terr := s.Eval(t.Context(), `return (jido.call("shout", {path = "a.txt"}))`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"     1\tOLD\n"}, vals)

	wvm := s.vm.(*workerVM)
	done := make(chan ToolResult, 1)
	go func() { done <- s.Call(t.Context(), ToolCall{Name: "spin"}) }()
	require.Eventually(t, func() bool { return wvm.Pid() != 0 }, 5*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // the tool spins
	require.NoError(t, syscall.Kill(wvm.Pid(), syscall.SIGKILL))
	select {
	case res := <-done:
		require.NotNil(t, res.Error)
		assert.Equal(t, definitions.WorkerError, res.Error.Type, "the tool ran in the worker: %v", res.Error)
	case <-time.After(10 * time.Second):
		t.Fatal("the user tool did not end with its worker")
	}
	res = s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	assert.True(t, res.OK, "read-only spin no longer runs: %s", resultJSON(t, res))
	vals, terr = s.Eval(t.Context(), `return jido.write_file{path = "c.txt", content = "x"}.path`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"c.txt"}, vals)
}

// TestWorkerMemoryLimit: the call's memory budget applies in the worker.
func TestWorkerMemoryLimit(t *testing.T) {
	s, _ := workerSession(t, Config{})
	_, terr := s.Eval(t.Context(), `local t = {} for i = 1, 1e7 do t[i] = string.rep("x", 1000) .. i end`)
	require.NotNil(t, terr)
	assert.Equal(t, "memory", terr.Details["limit"], "%v", terr)
	vals, terr := s.Eval(t.Context(), `return 1`)
	require.Nil(t, terr)
	assert.Equal(t, []any{int64(1)}, vals)
}

// TestWorkerMemoryCeiling: Config.WorkerMemory is the worker's ceiling; a call the budget
// lets through dies at it with worker-error, and the next call has a new worker.
func TestWorkerMemoryCeiling(t *testing.T) {
	s, _ := workerSession(t, Config{WorkerMemory: 256 << 20, Limits: runtime.Limits{MaxMemory: 16 << 30, Instructions: 1e9}})
	_, terr := s.Eval(t.Context(), `local t = {} for i = 1, 1e6 do t[i] = string.rep("x", 1048576) .. i end`)
	require.NotNil(t, terr)
	assert.Equal(t, definitions.WorkerError, terr.Type, "%v", terr)
	assert.Equal(t, "memory", terr.Details["limit"], "%v", terr)
	assert.EqualValues(t, 256<<20, terr.Details["ceiling"])
	vals, terr := s.Eval(t.Context(), `return 1`)
	require.Nil(t, terr)
	assert.Equal(t, []any{int64(1)}, vals)
}

// TestWorkerKilled: kill -9 of the worker mid-call fails that call with worker-error; the
// next call has a new worker and the session's state: the file read before the crash can
// be edited.
func TestWorkerKilled(t *testing.T) {
	s, root := workerSession(t, Config{})
	res := s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}})
	require.True(t, res.OK, resultJSON(t, res))
	wvm := s.vm.(*workerVM)
	var pid atomic.Int64
	errc := make(chan *definitions.ToolError, 1)
	go func() {
		_, terr := s.Eval(t.Context(), `local x = 0 while true do x = x + 1 end`)
		errc <- terr
	}()
	require.Eventually(t, func() bool { pid.Store(int64(wvm.Pid())); return pid.Load() != 0 }, 5*time.Second, time.Millisecond)
	time.Sleep(20 * time.Millisecond) // the snippet spins
	require.NoError(t, syscall.Kill(int(pid.Load()), syscall.SIGKILL))
	select {
	case terr := <-errc:
		require.NotNil(t, terr)
		assert.Equal(t, definitions.WorkerError, terr.Type, "%v", terr)
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end when its worker died")
	}
	res = s.Call(t.Context(), ToolCall{Name: "edit_file", Args: map[string]any{"path": "a.txt", "old_string": "old", "new_string": "new"}})
	require.True(t, res.OK, resultJSON(t, res))
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(data))
	assert.NotEqual(t, int(pid.Load()), wvm.Pid(), "a new worker")
}

// BenchmarkIsolation compares a session's calls in process and in worker isolation, in
// the same run: a trivial eval, read_file of 4 KiB as a tool call (jido's own script,
// which runs in the host in both modes), and the same read from an eval (in the worker).
func BenchmarkIsolation(b *testing.B) {
	for _, mode := range []string{IsolationProcess, IsolationWorker} {
		root := b.TempDir()
		require.NoError(b, os.WriteFile(filepath.Join(root, "a.txt"), []byte(strings.Repeat("0123456789abcde\n", 256)), 0o644))
		s := testSession(b, Config{Root: root, Isolation: mode, NoSync: true})
		b.Run("eval/"+mode, func(b *testing.B) {
			for b.Loop() {
				if _, terr := s.Eval(b.Context(), `return 1 + 1`); terr != nil {
					b.Fatal(terr)
				}
			}
		})
		b.Run("read_file/"+mode, func(b *testing.B) {
			for b.Loop() {
				if res := s.Call(b.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}); !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
		b.Run("eval_read_file/"+mode, func(b *testing.B) {
			for b.Loop() {
				if _, terr := s.Eval(b.Context(), `return jido.read_file{path = "a.txt"}`); terr != nil {
					b.Fatal(terr)
				}
			}
		})
	}
}

// TestWorkerIsolationProfile: jido.call in a profile's dialect works from the worker as in
// process: a dialect name, a plan tool on the session's plan, and another profile's name
// refused.
func TestWorkerIsolationProfile(t *testing.T) {
	claude, err := profile.Get("claude")
	require.NoError(t, err)
	s, _ := workerSession(t, Config{Profile: claude})
	vals, terr := s.Eval(t.Context(), `return jido.call("Read", {file_path = "a.txt"})`)
	require.Nil(t, terr)
	require.Len(t, vals, 1)
	assert.Contains(t, vals[0], "1\told")
	vals, terr = s.Eval(t.Context(), `local r, e = jido.call("Nope", {}) return r, e.type`)
	require.Nil(t, terr)
	assert.Equal(t, []any{nil, "validation-error"}, vals)

	forge, err := profile.Get("forge")
	require.NoError(t, err)
	s, root := workerSession(t, Config{Profile: forge})
	vals, terr = s.Eval(t.Context(), `assert(jido.call("plan_write", {path = "p.md", content = "plan"})) return jido.call("plan_read", {path = "p.md"}).content, jido.call("read", {path = "a.txt"}).content`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"plan", "old\n"}, vals)
	assert.NoFileExists(t, filepath.Join(root, "p.md"), "the plan is beside the files")
	vals, terr = s.Eval(t.Context(), `local r, e = jido.call("read_file", {path = "a.txt"}) return e.message`)
	require.Nil(t, terr)
	assert.Contains(t, vals[0], "not of the forge profile")
}
