// Command loadbench measures jido's Go API under load, on one Manager and many sessions of
// it, in one process:
//
//   - the memory of idle sessions: heap and RSS before and after opening them;
//   - a mixed load (test/loadgen, as TestLoad runs it): calls/s and p50/p99 latency per tool;
//   - read_file of 4 KiB files only: aggregate calls/s, beside a direct Go reference (as
//     many goroutines doing os.ReadFile and numbering the lines as read_file does),
//     alternated in rounds so that the noise of a shared machine hits both alike.
//
// Every session has its own goroutine, making calls back to back, so a latency includes
// the wait for a CPU among them all (the direct reference's latencies show that share).
// Writes skip fsync (Config.NoSync): the disk is not what is measured.
//
//	go run ./test/bench/loadbench [-seconds 30] [-sessions 1000] [-isolation process|worker] [-cpuprofile F] [-memprofile F]
//
// -cpuprofile F writes F.mixed and F.read_file, a CPU profile of each load; the direct
// reference's samples in the second carry the label reference=direct (leave them out with
// go tool pprof -tagignore reference=direct). -memprofile F writes a heap profile taken with
// the idle sessions open.
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

func main() {
	sandbox.MaybeHelper() // run_shell re-executes this binary to confine its command
	worker.MaybeServe()   // and -isolation worker runs sessions' Lua in it
	seconds := flag.Float64("seconds", 30, "duration of the mixed load, and of the read_file phase")
	sessions := flag.Int("sessions", 1000, "sessions, one goroutine each")
	cpuprofile := flag.String("cpuprofile", "", "write CPU profiles of the loads to `file`.mixed and file.read_file")
	memprofile := flag.String("memprofile", "", "write a heap profile with the idle sessions open to `file`")
	isolation := flag.String("isolation", manager.IsolationProcess, "where sessions' Lua runs: process, or worker (a process per session: use fewer -sessions)")
	flag.Parse()
	if err := run(time.Duration(*seconds*float64(time.Second)), *sessions, *isolation, *cpuprofile, *memprofile); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func run(d time.Duration, n int, isolation, cpuprofile, memprofile string) error {
	root, err := os.MkdirTemp("", "loadbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	if err := loadgen.WriteTree(root); err != nil {
		return err
	}
	m, err := manager.New(manager.Config{Root: root, NoSync: true, Isolation: isolation})
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Printf("loadbench: %d sessions, GOMAXPROCS %d, %s per load\n\n", n, runtime.GOMAXPROCS(0), d)

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
	if memprofile != "" {
		if err := writeHeapProfile(memprofile); err != nil {
			return err
		}
	}

	failures, err := loads(workers, root, d, cpuprofile)
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

// loads runs the mixed load, then the read_file phase, and prints their figures. It
// returns the first failures of the calls.
func loads(workers []*loadgen.Worker, root string, d time.Duration, cpuprofile string) ([]error, error) {
	var mixed *loadgen.Stats
	if err := profiled(cpuprofile, "mixed", func() { mixed = loadgen.Run(workers, d, (*loadgen.Worker).Mixed) }); err != nil {
		return nil, err
	}
	printMixed(mixed)

	var jido, direct loadgen.Stats
	err := profiled(cpuprofile, "read_file", func() {
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

// profiled runs f, writing a CPU profile of it to base.phase unless base is "".
func profiled(base, phase string, f func()) error {
	if base == "" {
		f()
		return nil
	}
	file, err := os.Create(base + "." + phase)
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

func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
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

func printMixed(st *loadgen.Stats) {
	secs := st.Elapsed.Seconds()
	fmt.Printf("mixed load: %d calls in %.1f s: %.0f calls/s, %d failed\n", st.Calls(), secs, float64(st.Calls())/secs, st.Failed)
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
