package loadgen

import (
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Arrival is one request of an open loop: when it is due, from the start of the run, and
// the number of the worker (the session) that makes it.
type Arrival struct {
	At     time.Duration
	Worker int
}

// Even returns n arrivals at rate per second, evenly spaced, dealt to workers in turn.
func Even(n int, rate float64, workers int) []Arrival {
	gap := time.Duration(float64(time.Second) / rate)
	sched := make([]Arrival, n)
	for i := range sched {
		sched[i] = Arrival{At: time.Duration(i) * gap, Worker: i % workers}
	}
	return sched
}

// Poisson returns n arrivals at rate per second on average, a Poisson process (independent,
// exponentially distributed gaps, so with the bursts of independent clients), each to a
// worker drawn at random; the same seed gives the same schedule.
func Poisson(n int, rate float64, workers int, seed uint64) []Arrival {
	r := rand.New(rand.NewPCG(seed, 0))
	sched := make([]Arrival, n)
	var at float64 // seconds
	for i := range sched {
		sched[i] = Arrival{At: time.Duration(at * float64(time.Second)), Worker: r.IntN(workers)}
		at += r.ExpFloat64() / rate
	}
	return sched
}

// RunOpen makes the requests of sched, each one operation op of its worker on a goroutine
// of its own started when it is due, whatever the earlier ones are doing, and returns what
// they did once all have ended. A call's latency counts from when its operation was due
// (the first call's; a second call of the operation, which waits for the first, from its
// own start), so that the time a request waits, for a CPU, for its session or for the
// load generator itself, is part of it: no coordinated omission. A worker makes one
// operation at a time; its requests due meanwhile wait for their turn.
func RunOpen(workers []*Worker, sched []Arrival, op func(*Worker)) *Stats {
	locks := make([]sync.Mutex, len(workers))
	lag := make([]time.Duration, len(sched))
	var wg sync.WaitGroup
	start := time.Now()
	for i, a := range sched {
		due := start.Add(a.At)
		for wait := time.Until(due); wait > 0; wait = time.Until(due) {
			sleep(wait) // when it wakes late, the requests due meanwhile go at once
		}
		wg.Go(func() {
			lag[i] = time.Since(due)
			locks[a.Worker].Lock()
			defer locks[a.Worker].Unlock()
			w := workers[a.Worker]
			w.due = due
			op(w)
			w.ops++
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	st := Collect(workers)
	st.Elapsed = elapsed
	slices.Sort(lag)
	st.Lag = lag
	return st
}
