// Command loadbench measures jido's Go API under load, on one Manager and many sessions of
// it, in one process:
//
//   - the memory of idle sessions: heap and RSS before and after opening them;
//   - a mixed load (test/loadgen, as TestLoad runs it): calls/s and p50/p99 latency per tool;
//   - read_file of 4 KiB files only: aggregate calls/s, beside a direct Go reference (as
//     many goroutines doing os.ReadFile and numbering the lines as read_file does),
//     alternated in rounds so that the noise of a shared machine hits both alike.
//
// Every session has its own goroutine, making calls back to back (a closed loop), so a
// latency includes the wait for a CPU among them all (the direct reference's latencies show
// that share). Writes skip fsync (Config.NoSync): the disk is not what is measured.
//
// With -open, the two loads run as an open loop instead (open.go): per load, a short closed
// loop measures the maximum rate, then requests arrive at fixed fractions of it (-rates),
// each on a goroutine of its own, and latencies count from when a request was due, so that
// its queueing counts (no coordinated omission): p50, p99, p999 and max per tool.
//
//	go run ./test/bench/loadbench [-seconds 30] [-sessions 1000] [-isolation process|worker]
//		[-open [-step-seconds 3] [-rates 25,50,75] [-arrivals poisson|even]] [-quick]
//		[-cpuprofile F] [-mutexprofile F] [-blockprofile F] [-memprofile F]
//
// -cpuprofile F writes a CPU profile of each phase to F.<phase> (F.mixed and F.read_file;
// with -open, F.mixed.closed, F.mixed.open50 and so on); the direct reference's samples
// carry the label reference=direct (leave them out with go tool pprof -tagignore
// reference=direct). -mutexprofile and -blockprofile write theirs at the end of each phase
// too, but these count from the start of the run: go tool pprof -base F.<previous phase>
// F.<phase> shows one phase alone. -memprofile F writes a heap profile taken with the idle
// sessions open. -quick is a short run that checks the benchmark works (its test runs it).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/test/loadgen"
	"github.com/jido-run/jido/worker"
)

// readRounds is how many rounds of each the read_file phase alternates.
const readRounds = 5

// The targets, on a 2-core machine.
const (
	targetReadsPerSec = 20_000
	targetIdleMB      = 200 // for 1,000 idle sessions
)

// options are the settings of a run, one per flag.
type options struct {
	d          time.Duration // the closed loops' duration per load
	sessions   int
	isolation  string
	open       bool          // measure open loops (open.go) rather than closed ones
	step       time.Duration // with open: the duration of each phase
	rates      []int         // with open: the arrival rates, in percent of the maximum
	arrivals   string        // with open: poisson or even
	memprofile string
	profiles   profiles
}

// quick returns o made short: a few sessions and phases of half a second.
func (o options) quick() options {
	o.d, o.step, o.sessions = 500*time.Millisecond, 500*time.Millisecond, 20
	return o
}

func main() {
	sandbox.MaybeHelper() // run_shell re-executes this binary to confine its command
	worker.MaybeServe()   // and -isolation worker runs sessions' Lua in it
	o := options{rates: []int{25, 50, 75}}
	seconds := flag.Float64("seconds", 30, "duration of the mixed load, and of the read_file phase")
	flag.IntVar(&o.sessions, "sessions", 1000, "sessions, one goroutine each")
	flag.StringVar(&o.profiles.cpu, "cpuprofile", "", "write a CPU profile of each phase to `file`.phase (file.mixed, file.read_file, ...)")
	flag.StringVar(&o.profiles.mutex, "mutexprofile", "", "write the mutex profile at the end of each phase to `file`.phase")
	flag.StringVar(&o.profiles.block, "blockprofile", "", "write the block profile at the end of each phase to `file`.phase")
	flag.StringVar(&o.memprofile, "memprofile", "", "write a heap profile with the idle sessions open to `file`")
	flag.StringVar(&o.isolation, "isolation", manager.IsolationProcess, "where sessions' Lua runs: process, or worker (a process per session: use fewer -sessions)")
	flag.BoolVar(&o.open, "open", false, "measure latency under open-loop load: per load, a closed loop for the maximum rate, then requests arriving at -rates of it")
	step := flag.Float64("step-seconds", 3, "with -open: duration of each phase (the closed loop, and each rate)")
	flag.Func("rates", "with -open: the arrival rates, in percent of the closed loop's maximum (default 25,50,75)", func(v string) (err error) {
		o.rates, err = parsePercents(v)
		return err
	})
	flag.StringVar(&o.arrivals, "arrivals", "poisson", "with -open: how requests arrive: poisson (random gaps) or even (evenly spaced)")
	quick := flag.Bool("quick", false, "a short run, to check that the benchmark works: 20 sessions, phases of 0.5 s")
	flag.Parse()
	o.d, o.step = duration(*seconds), duration(*step)
	if *quick {
		o = o.quick()
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func duration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// parsePercents parses a comma-separated list of percentages, each in 1..1000.
func parsePercents(v string) ([]int, error) {
	var ps []int
	for f := range strings.SplitSeq(v, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 || p > 1000 {
			return nil, fmt.Errorf("%q is not a percentage in 1..1000", f)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func run(o options) error {
	if o.open && o.arrivals != "poisson" && o.arrivals != "even" {
		return fmt.Errorf("-arrivals %q: poisson or even", o.arrivals)
	}
	n := o.sessions
	stop := o.profiles.start()
	defer stop()
	root, err := os.MkdirTemp("", "loadbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	if err := loadgen.WriteTree(root); err != nil {
		return err
	}
	m, err := manager.New(manager.Config{Root: root, NoSync: true, Isolation: o.isolation})
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Printf("loadbench: %d sessions, %s isolation, GOMAXPROCS %d, %s\n\n", n, o.isolation, runtime.GOMAXPROCS(0), o.durations())

	before := measureMemory()
	workers := make([]*loadgen.Worker, n)
	for i := range workers {
		s, err := m.Open(context.Background(), "")
		if err != nil {
			return err
		}
		workers[i] = loadgen.NewWorker(s, i)
	}
	idle := measureMemory()
	printMemory(before, idle, n)
	if o.memprofile != "" {
		if err := writeProfile("heap", o.memprofile); err != nil {
			return err
		}
	}

	load := loads
	if o.open {
		load = openLoads
	}
	failures, err := load(workers, root, o)
	if err != nil {
		return err
	}
	used := measureMemory()
	debug.FreeOSMemory()
	fmt.Printf("\nthe same sessions, idle again after the loads: heap in use %.1f MB, heap live %.1f MB, stacks %.1f MB,\n"+
		"  RSS %.1f MB (%.1f MB once debug.FreeOSMemory has returned the free pages)\n",
		mb(used.heapInuse), mb(used.heapAlloc), mb(used.stacks), mb(used.rss), mb(rss()))
	if len(failures) > 0 {
		return fmt.Errorf("calls failed, the first: %v", failures[0])
	}
	return m.Shutdown(context.Background())
}

// durations says how long the loads of o run.
func (o options) durations() string {
	if o.open {
		return fmt.Sprintf("open loops: phases of %s at %v%% of the closed loop's maximum, %s arrivals", o.step, o.rates, o.arrivals)
	}
	return fmt.Sprintf("%s per load", o.d)
}

// loads runs the mixed load, then the read_file phase, and prints their figures. It
// returns the first failures of the calls.
func loads(workers []*loadgen.Worker, root string, o options) ([]error, error) {
	d := o.d
	var mixed *loadgen.Stats
	if err := o.profiles.phase("mixed", func() { mixed = loadgen.Run(workers, d, (*loadgen.Worker).Mixed) }); err != nil {
		return nil, err
	}
	printMixed("mixed load", mixed)

	var jido, direct loadgen.Stats
	err := o.profiles.phase("read_file", func() {
		for range readRounds {
			jido.Add(loadgen.Run(workers, d/readRounds, (*loadgen.Worker).Read4K))
			pprof.Do(context.Background(), pprof.Labels("reference", "direct"), func(context.Context) {
				direct.Add(readDirect(root, len(workers), d/readRounds))
			})
		}
	})
	if err != nil {
		return nil, err
	}
	printReads(&jido, &direct, len(workers), d/readRounds)
	return append(mixed.Errors, jido.Errors...), nil
}

// profiles are the base names of the profiles to write, "" for none.
type profiles struct{ cpu, mutex, block string }

// The sampling of the mutex and block profiles: one contention event in mutexFraction, and
// on average one blocking event per blockRate nanoseconds blocked.
const (
	mutexFraction = 10
	blockRate     = 10_000
)

// start turns on the sampling of the mutex and block profiles that are wanted; stop turns
// it off.
func (p profiles) start() (stop func()) {
	if p.mutex != "" {
		runtime.SetMutexProfileFraction(mutexFraction)
	}
	if p.block != "" {
		runtime.SetBlockProfileRate(blockRate)
	}
	return func() {
		runtime.SetMutexProfileFraction(0)
		runtime.SetBlockProfileRate(0)
	}
}

// phase runs f, writing a CPU profile of it to cpu.name, and the mutex and block profiles
// as they stand at its end to mutex.name and block.name, for those wanted.
func (p profiles) phase(name string, f func()) error {
	if p.cpu == "" {
		f()
	} else if err := cpuProfile(p.cpu+"."+name, f); err != nil {
		return err
	}
	for kind, base := range map[string]string{"mutex": p.mutex, "block": p.block} {
		if base == "" {
			continue
		}
		if err := writeProfile(kind, base+"."+name); err != nil {
			return err
		}
	}
	return nil
}

// cpuProfile runs f, writing a CPU profile of it to name.
func cpuProfile(name string, f func()) error {
	file, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(file); err != nil {
		file.Close()
		return err
	}
	f()
	pprof.StopCPUProfile()
	return file.Close()
}

// writeProfile writes the profile of kind ("heap", "mutex", "block") to name.
func writeProfile(kind, name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(kind).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// memory is the process's memory at one moment.
type memory struct{ heapInuse, heapAlloc, stacks, rss uint64 }

// measureMemory collects the garbage, then reads the heap's figures and the RSS.
func measureMemory() memory {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memory{heapInuse: ms.HeapInuse, heapAlloc: ms.HeapAlloc, stacks: ms.StackInuse, rss: rss()}
}

// rss returns the resident set size of the process (VmRSS of /proc/self/status), 0 if unknown.
func rss() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kB, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kB << 10
		}
	}
	return 0
}

func printMemory(before, after memory, n int) {
	fmt.Printf("idle sessions: %d opened, no call made (MB = 10^6 bytes)\n", n)
	fmt.Printf("  %-12s %10s %10s %12s %12s\n", "", "before", "after", "per session", "per 1,000")
	row := func(name string, b, a uint64) float64 {
		per := (float64(a) - float64(b)) / float64(n)
		fmt.Printf("  %-12s %7.1f MB %7.1f MB %8.1f KiB %9.1f MB\n", name, mb(b), mb(a), per/1024, per*1000/1e6)
		return per * 1000
	}
	row("heap in use", before.heapInuse, after.heapInuse)
	row("heap live", before.heapAlloc, after.heapAlloc)
	row("stacks", before.stacks, after.stacks)
	perThousand := row("RSS", before.rss, after.rss)
	fmt.Printf("  target: 1,000 idle sessions <= %d MB of RSS: %s\n\n", targetIdleMB, verdict(perThousand <= targetIdleMB*1e6))
}

// printMixed prints a closed loop's figures under title: calls, and per tool their rate
// and p50 and p99 latency.
func printMixed(title string, st *loadgen.Stats) {
	secs := st.Elapsed.Seconds()
	fmt.Printf("%s: %d calls in %.1f s: %.0f calls/s, %d failed\n", title, st.Calls(), secs, float64(st.Calls())/secs, st.Failed)
	fmt.Printf("  %-12s %9s %9s %10s %10s\n", "tool", "calls", "calls/s", "p50", "p99")
	for _, tool := range st.Tools() {
		printRow(st, tool, "")
	}
}

func printReads(jido, direct *loadgen.Stats, n int, round time.Duration) {
	fmt.Printf("\nread_file of 4 KiB files, %d goroutines, %d alternated rounds of %s:\n", n, readRounds, round)
	fmt.Printf("  %-12s %9s %9s %10s %10s\n", "", "calls", "calls/s", "p50", "p99")
	printRow(jido, "read_file", "")
	printRow(direct, "direct", "  (os.ReadFile + line numbers)")
	j, r := rate(jido), rate(direct)
	fmt.Printf("  ratio jido/direct %.2f (direct %.1fx faster)\n", j/r, r/j)
	fmt.Printf("  target: >= %d read_file calls/s: %s\n", targetReadsPerSec, verdict(j >= targetReadsPerSec))
}

// printRow prints the calls of tool: how many, per second, and their p50 and p99 latency.
func printRow(st *loadgen.Stats, tool, note string) {
	calls := len(st.Latencies[tool])
	fmt.Printf("  %-12s %9d %9.0f %10s %10s%s\n", tool, calls, float64(calls)/st.Elapsed.Seconds(),
		st.Percentile(tool, 0.50).Round(time.Microsecond), st.Percentile(tool, 0.99).Round(time.Microsecond), note)
}

func rate(st *loadgen.Stats) float64 { return float64(st.Calls()) / st.Elapsed.Seconds() }

// readDirect is the reference of the read_file phase: n goroutines read and number the
// 4 KiB files of the tree for d, in the same order as the workers, as "direct" calls.
func readDirect(root string, n int, d time.Duration) *loadgen.Stats {
	start := time.Now()
	end := start.Add(d)
	lat := make([][]time.Duration, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() {
			for k := 0; time.Now().Before(end); k++ {
				t := time.Now()
				if _, err := readNumbered(filepath.Join(root, loadgen.Files4K[(g+k)%len(loadgen.Files4K)])); err != nil {
					panic(err) // the tree is ours: a failure is a bug of the benchmark
				}
				lat[g] = append(lat[g], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	all := slices.Concat(lat...)
	slices.Sort(all)
	return &loadgen.Stats{Elapsed: elapsed, Latencies: map[string][]time.Duration{"direct": all}}
}

// readNumbered reads a file and numbers its lines cat -n style, as plain Go does it best
// (the reference of manager's BenchmarkReadFile4K).
func readNumbered(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	out := make([]byte, 0, len(data)+len(data)/4)
	n := 0
	for line := range bytes.Lines(data) {
		n++
		num := strconv.Itoa(n)
		out = append(out, "      "[:max(0, 6-len(num))]...)
		out = append(out, num...)
		out = append(out, '\t')
		out = append(out, line...)
	}
	return string(out), nil
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}

func mb(b uint64) float64 { return float64(b) / 1e6 }
