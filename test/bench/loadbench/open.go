package main

import (
	"fmt"
	"time"

	"github.com/jido-run/jido/test/loadgen"
)

// The targets for an open loop at half the closed loop's maximum rate.
const (
	targetPercent  = 50
	targetReadP99  = 5 * time.Millisecond
	targetReadP999 = 20 * time.Millisecond
)

// openLoads measures each load, mixed then read_file, as an open loop (openLoad), and
// returns the first failures of the calls.
func openLoads(workers []*loadgen.Worker, _ string, o options) ([]error, error) {
	var failures []error
	for _, l := range []struct {
		name string
		op   func(*loadgen.Worker)
	}{
		{"mixed", (*loadgen.Worker).Mixed},
		{"read_file", (*loadgen.Worker).Read4K},
	} {
		errs, err := openLoad(workers, l.name, l.op, o)
		if err != nil {
			return nil, err
		}
		failures = append(failures, errs...)
	}
	return failures, nil
}

// openLoad measures one load: a closed loop for o.step gives its maximum rate of requests
// (operations of op); then, for each of o.rates, requests arrive at that percentage of it
// for o.step, spread over the sessions. It returns the first failures of the calls.
func openLoad(workers []*loadgen.Worker, name string, op func(*loadgen.Worker), o options) ([]error, error) {
	var closed *loadgen.Stats
	if err := o.profiles.phase(name+".closed", func() { closed = loadgen.Run(workers, o.step, op) }); err != nil {
		return nil, err
	}
	maxRate := float64(closed.Requests) / closed.Elapsed.Seconds()
	fmt.Println()
	printMixed(name+" load, closed loop", closed)
	fmt.Printf("  maximum: %.0f requests/s (%d requests)\n", maxRate, closed.Requests)
	failures := closed.Errors
	for i, pct := range o.rates {
		rate := maxRate * float64(pct) / 100
		sched := o.schedule(rate, len(workers), uint64(i+1))
		var st *loadgen.Stats
		var rt runtimeDelta
		err := o.profiles.phase(fmt.Sprintf("%s.open%d", name, pct), func() {
			before := readRuntime()
			st = loadgen.RunOpen(workers, sched, op)
			rt = readRuntime().since(before)
		})
		if err != nil {
			return nil, err
		}
		printOpen(name, pct, rate, len(sched), st, o)
		rt.print()
		if pct == targetPercent {
			printTarget(st)
		}
		failures = append(failures, st.Errors...)
	}
	return failures, nil
}

// schedule returns the arrivals of one phase of o at rate per second over n sessions;
// seed varies the Poisson schedule from one phase to the next.
func (o options) schedule(rate float64, n int, seed uint64) []loadgen.Arrival {
	count := max(1, int(rate*o.step.Seconds()))
	if o.arrivals == "even" {
		return loadgen.Even(count, rate, n)
	}
	return loadgen.Poisson(count, rate, n, seed)
}

// printOpen prints one open-loop phase: what was asked and done, how late the load
// generator started requests, and per tool the latency from when each request was due.
func printOpen(name string, pct int, rate float64, scheduled int, st *loadgen.Stats, o options) {
	fmt.Printf("\n%s load, open loop at %d%%: %.0f requests/s, %s over %d sessions: %d scheduled, %d made (%d calls, %d failed) in %.1f s\n",
		name, pct, rate, o.arrivals, o.sessions, scheduled, st.Requests, st.Calls(), st.Failed, st.Elapsed.Seconds())
	fmt.Printf("  start lag (due to goroutine running): p50 %s, p99 %s, max %s\n",
		us(loadgen.Quantile(st.Lag, 0.5)), us(loadgen.Quantile(st.Lag, 0.99)), us(loadgen.Quantile(st.Lag, 1)))
	fmt.Printf("  %-12s %9s %7s %10s %10s %10s %10s\n", "tool", "calls", "failed", "p50", "p99", "p999", "max")
	for _, tool := range st.Tools() {
		fmt.Printf("  %-12s %9d %7d %10s %10s %10s %10s\n", tool, len(st.Latencies[tool]), st.Failures[tool],
			us(st.Percentile(tool, 0.50)), us(st.Percentile(tool, 0.99)), us(st.Percentile(tool, 0.999)), us(st.Percentile(tool, 1)))
	}
}

// printTarget prints whether read_file met the targets in st, if it was called.
func printTarget(st *loadgen.Stats) {
	if len(st.Latencies["read_file"]) == 0 {
		return
	}
	p99, p999 := st.Percentile("read_file", 0.99), st.Percentile("read_file", 0.999)
	fmt.Printf("  target at %d%%: read_file p99 <= %s: %s (%s); p999 <= %s: %s (%s)\n", targetPercent,
		targetReadP99, verdict(p99 <= targetReadP99), us(p99), targetReadP999, verdict(p999 <= targetReadP999), us(p999))
}

// us rounds d to the microsecond, for printing.
func us(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
