package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"time"
)

// The runtime's metrics that tell where a request's time goes besides its own work.
const (
	metricSched   = "/sched/latencies:seconds"          // waits of runnable goroutines for a CPU
	metricPauses  = "/sched/pauses/total/gc:seconds"    // the GC's stop-the-world pauses
	metricCycles  = "/gc/cycles/total:gc-cycles"        // GC cycles completed
	metricGCCPU   = "/cpu/classes/gc/total:cpu-seconds" // CPU time of the GC (an estimate)
	metricCPU     = "/cpu/classes/total:cpu-seconds"    // all CPU time available (GOMAXPROCS × wall)
	metricMutexes = "/sync/mutex/wait/total:seconds"    // waits for a sync.Mutex or RWMutex, or a runtime lock
)

// runtimeReading is the value of each of the metrics above at one moment, and the
// kernel's accounting of the process's threads (os).
type runtimeReading struct {
	at     time.Time
	values map[string]metrics.Value
	os     schedstat
}

// schedstat is what the kernel says of the process's threads, summed: seconds on a CPU,
// and seconds runnable but waiting in a run queue, for a CPU that other processes held.
type schedstat struct{ onCPU, waited float64 }

// readSchedstat sums /proc/self/task/*/schedstat (zero where there is none); a thread that
// ended between two readings is left out of the second.
func readSchedstat() schedstat {
	var st schedstat
	files, _ := filepath.Glob("/proc/self/task/*/schedstat")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var on, wait uint64
		if _, err := fmt.Sscan(string(data), &on, &wait); err == nil {
			st.onCPU += float64(on) / 1e9
			st.waited += float64(wait) / 1e9
		}
	}
	return st
}

// readRuntime reads the metrics above and the kernel's accounting.
func readRuntime() runtimeReading {
	names := []string{metricSched, metricPauses, metricCycles, metricGCCPU, metricCPU, metricMutexes}
	samples := make([]metrics.Sample, len(names))
	for i, name := range names {
		samples[i].Name = name
	}
	metrics.Read(samples)
	r := runtimeReading{at: time.Now(), values: map[string]metrics.Value{}, os: readSchedstat()}
	for _, s := range samples {
		r.values[s.Name] = s.Value
	}
	return r
}

// runtimeDelta is what the runtime did between two readings.
type runtimeDelta struct {
	sched, pauses       histogram // in seconds
	cycles              uint64
	gcCPU, cpu, mutexes float64 // seconds
	os                  schedstat
	wall                time.Duration
}

// since returns what the runtime did from before to r.
func (r runtimeReading) since(before runtimeReading) runtimeDelta {
	now, then := r.values, before.values
	float := func(name string) float64 { return now[name].Float64() - then[name].Float64() }
	return runtimeDelta{
		sched:   delta(then[metricSched].Float64Histogram(), now[metricSched].Float64Histogram()),
		pauses:  delta(then[metricPauses].Float64Histogram(), now[metricPauses].Float64Histogram()),
		cycles:  now[metricCycles].Uint64() - then[metricCycles].Uint64(),
		gcCPU:   float(metricGCCPU),
		cpu:     float(metricCPU),
		mutexes: float(metricMutexes),
		os:      schedstat{onCPU: r.os.onCPU - before.os.onCPU, waited: r.os.waited - before.os.waited},
		wall:    r.at.Sub(before.at),
	}
}

// print prints d on two lines: the Go runtime's view, then the kernel's.
func (d runtimeDelta) print() {
	fmt.Printf("  Go runtime: goroutines' waits for a P p50 %s, p99 %s, p999 %s, max %s; %d GCs, GC %.0f%% of the CPU, pauses p99 %s, max %s; mutex waits %.2f s in all\n",
		d.sched.quantile(0.5), d.sched.quantile(0.99), d.sched.quantile(0.999), d.sched.quantile(1),
		d.cycles, 100*d.gcCPU/d.cpu, d.pauses.quantile(0.99), d.pauses.quantile(1), d.mutexes)
	fmt.Printf("  kernel: in %.2f s, the process's threads ran %.2f s and waited %.2f s in run queues for a CPU (the machine has %d)\n",
		d.wall.Seconds(), d.os.onCPU, d.os.waited, runtime.NumCPU())
}

// histogram is a runtime histogram of durations in seconds: counts[i] of them fell in
// [buckets[i], buckets[i+1]).
type histogram struct {
	counts  []uint64
	buckets []float64
}

// delta returns the histogram of what was added to before to make after.
func delta(before, after *metrics.Float64Histogram) histogram {
	h := histogram{counts: make([]uint64, len(after.Counts)), buckets: after.Buckets}
	for i, c := range after.Counts {
		h.counts[i] = c - before.Counts[i]
	}
	return h
}

// quantile returns the upper bound of the bucket in which the fraction p (0..1) of the
// durations is reached (its lower bound for the last, unbounded bucket), rounded to the
// microsecond; 0 for none.
func (h histogram) quantile(p float64) time.Duration {
	var total uint64
	for _, c := range h.counts {
		total += c
	}
	want := max(1, uint64(math.Ceil(p*float64(total))))
	var seen uint64
	for i, c := range h.counts {
		if seen += c; total > 0 && seen >= want {
			upper := h.buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = h.buckets[i]
			}
			return us(time.Duration(upper * float64(time.Second)))
		}
	}
	return 0
}
