package worker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failConfineEnv, set in a worker's environment, makes its confinement fail.
const failConfineEnv = "JIDO_TEST_WORKER_CONFINE_FAIL"

// TestMain lets the test binary serve as the worker of the clients the tests start; with
// failConfineEnv set, as a worker that cannot confine itself.
func TestMain(m *testing.M) {
	if os.Getenv(failConfineEnv) != "" {
		confine = func() (sandbox.SelfConfinement, error) {
			return sandbox.SelfConfinement{}, errors.New("refused by the test")
		}
	}
	MaybeServe()
	os.Exit(m.Run())
}

// project is a temp project root with a.txt, and the deps of a session on it.
func project(t testing.TB) (string, bridge.Deps) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return dir, bridge.Deps{Tools: builtin.Deps{Root: root, Reads: builtin.NewReadLog()}}
}

// client starts a client whose host runs the tools with d.
func client(t testing.TB, d bridge.Deps, opts Options) *Client {
	if opts.Forward == nil {
		opts.Forward = bridge.NewHost(d).Run
	}
	c, err := New(opts)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestReadFileThroughTheHost(t *testing.T) {
	_, d := project(t)
	c := client(t, d, Options{})
	vals, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}.content, ...`, "x", int64(3))
	require.NoError(t, err)
	assert.Equal(t, []any{"     1\thello\n", "x", int64(3)}, vals)
	t.Logf("memory ceiling: %s", c.Ceiling())
	assert.NotEmpty(t, c.Ceiling())

	// Errors come back as nil and the error table, positional arguments work, jido.call too.
	vals, err = c.Call(t.Context(), "test", `local r, e = jido.read_file("missing.txt") return r, e.type, jido.call("read_file", {path = "a.txt"}).content`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil, "file-error", "     1\thello\n"}, vals)

	// A snippet's own error is a runtime.Error, as in process.
	_, err = c.Call(t.Context(), "test", `error("boom")`)
	var re *runtime.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, runtime.KindRuntime, re.Kind)
	assert.Contains(t, re.Message, "boom")
}

// TestEditAfterRead: the read log is the host's, so a file read in one call can be edited
// in the next.
func TestEditAfterRead(t *testing.T) {
	dir, d := project(t)
	c := client(t, d, Options{})
	_, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}`)
	require.NoError(t, err)
	vals, err := c.Call(t.Context(), "test", `local r, e = jido.edit_file{path="a.txt", old_string="hello", new_string="bye"} return e`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil}, vals)
	data, err := os.ReadFile(filepath.Join(dir, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bye\n", string(data))
}

// TestMemoryBudgetInsideTheWorker: runtime.Limits.MaxMemory bounds a call in the worker
// as in process; the worker survives it.
func TestMemoryBudgetInsideTheWorker(t *testing.T) {
	_, d := project(t)
	c := client(t, d, Options{Limits: runtime.Limits{MaxMemory: 32 << 20}})
	_, err := c.Call(t.Context(), "bomb", `local t = {} for i = 1, 1e7 do t[i] = string.rep("x", 1000) .. i end`)
	var re *runtime.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, runtime.KindMemory, re.Kind)
	pid := c.Pid()
	vals, err := c.Call(t.Context(), "test", `return 1 + 1`)
	require.NoError(t, err)
	assert.Equal(t, []any{int64(2)}, vals)
	assert.Equal(t, pid, c.Pid(), "the same worker serves on")
}

// TestMemoryCeiling: a bomb the call's budget lets through hits the worker's ceiling: the
// worker dies, the host does not, and the next call has a new worker.
func TestMemoryCeiling(t *testing.T) {
	_, d := project(t)
	c := client(t, d, Options{MaxMemory: 256 << 20, Limits: runtime.Limits{MaxMemory: 16 << 30, Instructions: 1e9}})
	_, err := c.Call(t.Context(), "bomb", `local t = {} for i = 1, 1e6 do t[i] = string.rep("x", 1048576) .. i end`)
	var terr *definitions.ToolError
	require.ErrorAs(t, err, &terr, "%v", err)
	assert.Equal(t, definitions.WorkerError, terr.Type)
	assert.Equal(t, "memory", terr.Details["limit"], "%s: %v", c.Ceiling(), terr)
	t.Logf("ceiling %s: %v", c.Ceiling(), terr)
	vals, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}.content`)
	require.NoError(t, err)
	assert.Equal(t, []any{"     1\thello\n"}, vals)
}

// TestKilledWorker: kill -9 of the worker mid-call fails that call with worker-error; the
// next call starts a new worker, and the host's state (the read log) is intact.
func TestKilledWorker(t *testing.T) {
	dir, d := project(t)
	host := bridge.NewHost(d)
	var bridged atomic.Int32
	c := client(t, d, Options{Limits: runtime.Limits{Instructions: 1e12, Timeout: time.Minute}, Forward: func(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
		defer bridged.Add(1)
		return host.Run(ctx, tool, args)
	}})
	errc := make(chan error, 1)
	go func() {
		_, err := c.Call(t.Context(), "spin", `jido.read_file{path="a.txt"} local x = 0 while true do x = x + 1 end`)
		errc <- err
	}()
	require.Eventually(t, func() bool { return bridged.Load() > 0 }, 10*time.Second, time.Millisecond)
	pid := c.Pid()
	require.NotZero(t, pid)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	var terr *definitions.ToolError
	select {
	case err := <-errc:
		require.ErrorAs(t, err, &terr)
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end when its worker died")
	}
	assert.Equal(t, definitions.WorkerError, terr.Type)
	assert.NotEmpty(t, terr.Recovery)

	vals, err := c.Call(t.Context(), "test", `local r, e = jido.edit_file{path="a.txt", old_string="hello", new_string="bye"} return e`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil}, vals, "the file read before the crash can be edited")
	assert.NotEqual(t, pid, c.Pid())
	data, err := os.ReadFile(filepath.Join(dir, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bye\n", string(data))
}

// TestCancelAndAbort: a caller's context ending stops the call in the worker, which
// serves on; Abort fails the running call and every later one.
func TestCancelAndAbort(t *testing.T) {
	_, d := project(t)
	c := client(t, d, Options{Limits: runtime.Limits{Instructions: 1e12}})
	_, err := c.Call(t.Context(), "start", `return 1`) // the worker runs: the cancel below meets a call, not a start
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err = c.Call(ctx, "spin", `while true do end`)
	var re *runtime.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, runtime.KindCancelled, re.Kind)
	pid := c.Pid()
	_, err = c.Call(t.Context(), "test", `return 1`)
	require.NoError(t, err)
	assert.Equal(t, pid, c.Pid())

	errc := make(chan error, 1)
	go func() {
		_, err := c.Call(t.Context(), "spin", `while true do end`)
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	c.Abort(errors.New("closing"))
	select {
	case err := <-errc:
		require.ErrorAs(t, err, &re)
		assert.Equal(t, runtime.KindCancelled, re.Kind)
	case <-time.After(5 * time.Second):
		t.Fatal("Abort did not end the call")
	}
	_, err = c.Call(t.Context(), "test", `return 1`)
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Message, "closing")
	require.NoError(t, c.Close())
	assert.Zero(t, c.Pid())
}

// TestNoLeaks: clients that start, serve, crash and close leave no goroutine and no file
// descriptor behind.
func TestNoLeaks(t *testing.T) {
	_, d := project(t)
	run := func() {
		c := client(t, d, Options{})
		_, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}.content`)
		require.NoError(t, err)
		require.NoError(t, syscall.Kill(c.Pid(), syscall.SIGKILL))
		_, err = c.Call(t.Context(), "test", `return 1`) // the dead worker, or a new one
		if err != nil {
			_, err = c.Call(t.Context(), "test", `return 1`)
		}
		require.NoError(t, err)
		require.NoError(t, c.Close())
	}
	run() // warm up: lazily made runtime goroutines and files
	goroutines, fds := goruntime.NumGoroutine(), openFDs(t)
	for range 5 {
		run()
	}
	deadline := time.Now().Add(5 * time.Second) // not assert.Eventually: it runs goroutines of its own
	for time.Now().Before(deadline) && (goruntime.NumGoroutine() > goroutines || openFDs(t) > fds) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, goruntime.NumGoroutine(), goroutines, "goroutines")
	assert.LessOrEqual(t, openFDs(t), fds, "open files")
	t.Logf("goroutines %d, open files %d", goroutines, fds)
}

func openFDs(t testing.TB) int {
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(entries)
}

// The benchmarks compare a call in process (runtime.VM with bridge.Libraries) and in a
// worker, in the same run.
func BenchmarkEval(b *testing.B) {
	_, d := project(b)
	bench(b, d, `return 1 + 1`)
}

func BenchmarkReadFile4K(b *testing.B) {
	dir, d := project(b)
	require.NoError(b, os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat("0123456789abcde\n", 256)), 0o644))
	bench(b, d, `return jido.read_file{path="a.txt"}`)
}

func bench(b *testing.B, d bridge.Deps, src string) {
	b.Run("process", func(b *testing.B) {
		vm, err := runtime.New(runtime.Options{Libraries: bridge.Libraries(d)})
		require.NoError(b, err)
		defer vm.Close()
		for b.Loop() {
			if _, err := vm.Call(b.Context(), "bench", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("worker", func(b *testing.B) {
		c := client(b, d, Options{})
		_, err := c.Call(b.Context(), "bench", src) // starts the worker
		require.NoError(b, err)
		for b.Loop() {
			if _, err := c.Call(b.Context(), "bench", src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestRlimitCeiling: where no cgroup can be made, RLIMIT_AS caps the worker; Go reserves
// address space up front, so the limit is set over what the worker has reserved.
// Under the race detector (whose runtime cannot start under RLIMIT_AS) the worker is a
// binary built without it (testdata/serve).
func TestRlimitCeiling(t *testing.T) {
	makeCeiling = func(int64) *ceiling { return &ceiling{kind: CeilingRlimit} }
	defer func() { makeCeiling = newCeiling }()
	_, d := project(t)
	opts := Options{MaxMemory: 256 << 20, Limits: runtime.Limits{MaxMemory: 16 << 30, Instructions: 1e9}}
	if raceEnabled {
		opts.Exe = filepath.Join(t.TempDir(), "serve")
		build := exec.Command("go", "build", "-o", opts.Exe, "./testdata/serve")
		out, err := build.CombinedOutput()
		require.NoError(t, err, "building the worker without the race detector: %s", out)
	}
	c := client(t, d, opts)
	vals, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}.content`)
	require.NoError(t, err, "the worker runs under its RLIMIT_AS")
	assert.Equal(t, []any{"     1\thello\n"}, vals)
	assert.Equal(t, CeilingRlimit, c.Ceiling())
	_, err = c.Call(t.Context(), "bomb", `local t = {} for i = 1, 1e6 do t[i] = string.rep("x", 1048576) .. i end`)
	var terr *definitions.ToolError
	require.ErrorAs(t, err, &terr, "%v", err)
	assert.Equal(t, definitions.WorkerError, terr.Type)
	assert.Equal(t, "memory", terr.Details["limit"], "%v", terr)
	t.Logf("%v", terr)
	_, err = c.Call(t.Context(), "test", `return 1`)
	require.NoError(t, err)
}

// TestGoMemLimit: a worker's soft Go memory limit leaves room for two call budgets and the
// runtime, and stays below its ceiling.
func TestGoMemLimit(t *testing.T) {
	assert.EqualValues(t, 192<<20, goMemLimit(Options{MaxMemory: 1 << 30, Limits: runtime.Limits{MaxMemory: 64 << 20}}))
	assert.EqualValues(t, 576<<20, goMemLimit(Options{MaxMemory: 1 << 30}), "the default budget, 256 MiB")
	assert.EqualValues(t, 192<<20, goMemLimit(Options{MaxMemory: 256 << 20, Limits: runtime.Limits{MaxMemory: 1 << 30}}), "3/4 of a low ceiling")
}
