package integration

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/test/loadgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The load test: 1,000 sessions of one Manager make mixed calls at once; none may fail, and
// closing them and the manager must give back every goroutine and file descriptor.
// test/bench/loadbench runs the same load and prints the figures.

const (
	loadSessions = 1000
	// goroutineSlack is how many goroutines above the baseline are tolerated after the
	// close: the check runs on a goroutine of testify's own (EventuallyWithT), and the
	// runtime or the testing package may hold one of theirs for a moment. A session that
	// leaked a goroutine (its VM's, say) would leave 1,000.
	goroutineSlack = 3
)

// loadDuration is how long the load runs: JIDO_LOAD_SECONDS, by default 3 seconds so that
// CI stays fast (the figure is 30: JIDO_LOAD_SECONDS=30).
func loadDuration(t *testing.T) time.Duration {
	s := os.Getenv("JIDO_LOAD_SECONDS")
	if s == "" {
		return 3 * time.Second
	}
	secs, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, "JIDO_LOAD_SECONDS")
	return time.Duration(secs * float64(time.Second))
}

func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test opens 1,000 sessions")
	}
	d := loadDuration(t)
	warmUp(t)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)

	root := t.TempDir()
	require.NoError(t, loadgen.WriteTree(root))
	m, err := manager.New(manager.Config{Root: root, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() }) // after a failure; Shutdown below is the check
	sessions := make([]*manager.Session, loadSessions)
	workers := make([]*loadgen.Worker, loadSessions)
	for i := range sessions {
		sessions[i], err = m.Open(t.Context(), "")
		require.NoError(t, err)
		workers[i] = loadgen.NewWorker(sessions[i], i)
	}

	st := loadgen.Run(workers, d, (*loadgen.Worker).Mixed)
	t.Logf("%d sessions, %d calls in %s (%.0f calls/s)", loadSessions, st.Calls(), st.Elapsed.Round(time.Millisecond), float64(st.Calls())/st.Elapsed.Seconds())
	assert.Zero(t, st.Failed, "failed calls; the first:\n%v", st.Errors[:min(10, len(st.Errors))])
	assert.Equal(t, []string{"edit_file", "eval", "file_exists", "glob", "list_dir", "read_file", "run_shell", "search", "write_file"}, st.Tools(), "the mix made every kind of call")

	for _, s := range sessions {
		require.NoError(t, s.Close())
	}
	require.NoError(t, m.Shutdown(t.Context()))
	ok := assert.EventuallyWithT(t, func(c *assert.CollectT) {
		assert.LessOrEqual(c, runtime.NumGoroutine(), goroutines+goroutineSlack, "goroutines")
		assert.LessOrEqual(c, openFDs(c), fds, "open file descriptors")
	}, 5*time.Second, 50*time.Millisecond, "back to the baseline after the close")
	t.Logf("after the close: %d goroutines (baseline %d), %d open file descriptors (baseline %d)", runtime.NumGoroutine(), goroutines, openFDs(t), fds)
	if !ok {
		var stacks strings.Builder
		pprof.Lookup("goroutine").WriteTo(&stacks, 1)
		t.Logf("goroutines left:\n%s", stacks.String())
	}
}

// warmUp runs one session through every kind of call, run_shell included, and closes it,
// so that what the process sets up once for good (the netpoller's descriptors, the
// sandbox's lazily made state) is part of the baseline, and only a leak is not.
func warmUp(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, loadgen.WriteTree(root))
	m, err := manager.New(manager.Config{Root: root, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	w := loadgen.NewWorker(s, 0)
	w.Sample()
	st := loadgen.Collect([]*loadgen.Worker{w})
	require.Zero(t, st.Failed, "warm-up: %v", st.Errors)
	require.NoError(t, m.Shutdown(t.Context()))
}

// openFDs counts the open file descriptors of the process.
func openFDs(t require.TestingT) int {
	fds, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(fds)
}
