package loadgen

import (
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newWorkers opens n sessions on a project tree and returns a worker for each.
func newWorkers(t *testing.T, n int) []*Worker {
	root := t.TempDir()
	require.NoError(t, WriteTree(root))
	m, err := manager.New(manager.Config{Root: root, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	workers := make([]*Worker, n)
	for i := range workers {
		s, err := m.Open(t.Context(), "")
		require.NoError(t, err)
		workers[i] = NewWorker(s, i)
	}
	return workers
}

func TestSchedules(t *testing.T) {
	tests := []struct {
		name  string
		sched []Arrival
	}{
		{"even", Even(1000, 500, 7)},
		{"poisson", Poisson(1000, 500, 7, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Len(t, tt.sched, 1000)
			perWorker := map[int]int{}
			for i, a := range tt.sched {
				perWorker[a.Worker]++
				if i > 0 {
					assert.GreaterOrEqual(t, a.At, tt.sched[i-1].At, "arrival %d before the one ahead of it", i)
				}
			}
			assert.Len(t, perWorker, 7, "every worker gets requests, and no other")
			assert.InDelta(t, 2.0, tt.sched[999].At.Seconds(), 0.2, "1,000 arrivals at 500/s take about 2 s")
		})
	}
	assert.Equal(t, Poisson(100, 50, 3, 9), Poisson(100, 50, 3, 9), "the same seed, the same schedule")
}

func TestRunOpenCountsEveryRequestOnce(t *testing.T) {
	workers := newWorkers(t, 4)
	sched := Even(200, 400, len(workers))
	st := RunOpen(workers, sched, (*Worker).Read4K)
	assert.Equal(t, 200, st.Requests, "requests made")
	assert.Equal(t, []string{"read_file"}, st.Tools())
	assert.Len(t, st.Latencies["read_file"], 200, "calls recorded")
	assert.Len(t, st.Lag, 200, "start lags recorded")
	assert.Zero(t, st.Failed, "failed calls: %v", st.Errors)
	assert.GreaterOrEqual(t, st.Elapsed, sched[199].At, "the run lasts until the last request is due")

	again := Collect(workers)
	assert.Zero(t, again.Requests+again.Calls(), "Collect cleared what the run recorded")
}

// TestRunOpenCountsTheWait gives each session requests twice as often as it can serve them
// (the operation sleeps for service before its call), so that they queue: each call's
// latency must count from when its request was due, the wait for its session included.
// The bounds follow from the sleeps alone, whatever the speed of the machine: a session
// whose first request is due at d1 ends its m-th operation at d1 + m*service at the
// earliest.
func TestRunOpenCountsTheWait(t *testing.T) {
	const service = 4 * time.Millisecond
	workers := newWorkers(t, 4)
	// 200 requests over 4 sessions: one every service/2 for each session.
	sched := Even(200, float64(len(workers))*float64(time.Second)/float64(service/2), len(workers))
	st := RunOpen(workers, sched, func(w *Worker) {
		time.Sleep(service)
		w.Read4K()
	})
	require.Zero(t, st.Failed, "failed calls: %v", st.Errors)
	lat := st.Latencies["read_file"]
	require.Len(t, lat, 200)

	var total, atLeast, maxAtLeast time.Duration
	for _, d := range lat {
		total += d
	}
	for _, dues := range duesPerWorker(sched) {
		first, last := dues[0], dues[len(dues)-1]
		for m, due := range dues {
			atLeast += first + time.Duration(m+1)*service - due
		}
		maxAtLeast = max(maxAtLeast, first+time.Duration(len(dues))*service-last)
	}
	assert.GreaterOrEqual(t, total, atLeast, "sum of the latencies, with the waits for the session")
	assert.GreaterOrEqual(t, lat[len(lat)-1], maxAtLeast, "the longest latency, the last request's wait included")
}

// duesPerWorker returns when each worker's requests of sched are due, in order.
func duesPerWorker(sched []Arrival) map[int][]time.Duration {
	dues := map[int][]time.Duration{}
	for _, a := range sched {
		dues[a.Worker] = append(dues[a.Worker], a.At)
	}
	return dues
}

func TestRunCountsRequests(t *testing.T) {
	workers := newWorkers(t, 3)
	st := Run(workers, 50*time.Millisecond, (*Worker).Read4K)
	assert.GreaterOrEqual(t, st.Requests, 3, "every worker makes at least one operation")
	assert.Equal(t, st.Requests, st.Calls(), "one call per read")
	assert.Empty(t, st.Lag, "a closed loop has no schedule to lag behind")
	assert.Zero(t, st.Failed, "failed calls: %v", st.Errors)
}
