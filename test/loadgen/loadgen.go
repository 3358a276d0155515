// Package loadgen is the workload of jido's load test (test/integration) and load benchmark
// (test/bench/loadbench): a small project tree, and workers that make tool calls through
// the Go API, one worker per session, either back to back on a goroutine each (Run, a
// closed loop) or as requests arriving on a schedule (RunOpen, an open loop).
package loadgen

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
)

// The tree: packages src/pkg0..src/pkg3, each with small Go files and two 4 KiB text files,
// and a README; the workers' own files go to scratch/, out of the way of list_dir, glob and
// search, which look at src/ only.
const (
	packages   = 4
	goFiles    = 6 // per package
	textFiles  = 2 // 4 KiB files per package
	scratchDir = "scratch"
)

// fourKiB is the content of every 4 KiB file: 64 lines of 64 bytes.
var fourKiB = strings.Repeat(strings.Repeat("x", 63)+"\n", 64)

// Files4K are the 4 KiB files of the tree, relative to its root.
var Files4K []string

// dirs and goPaths are the directories and Go files of the tree, relative to its root.
var dirs, goPaths []string

func init() {
	for p := range packages {
		dir := fmt.Sprintf("src/pkg%d", p)
		dirs = append(dirs, dir)
		for f := range goFiles {
			goPaths = append(goPaths, fmt.Sprintf("%s/f%d.go", dir, f))
		}
		for f := range textFiles {
			Files4K = append(Files4K, fmt.Sprintf("%s/data%d.txt", dir, f))
		}
	}
}

// WriteTree writes the project tree under root.
func WriteTree(root string) error {
	files := map[string]string{"README.md": "# load\n\nThe project of jido's load test.\n"}
	for i, p := range goPaths {
		files[p] = fmt.Sprintf("package %s\n\n// Func%d returns its number.\nfunc Func%d() int { return %d }\n\n// Helper%d does nothing.\nfunc Helper%d() {}\n",
			path.Base(path.Dir(p)), i, i, i, i, i)
	}
	for _, p := range Files4K {
		files[p] = fourKiB
	}
	if err := os.MkdirAll(filepath.Join(root, scratchDir), 0o755); err != nil {
		return err
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// mix is the mixed load: each operation with its weight, in operations per 1,000. run_shell
// is rare because it starts processes (the sandbox helper, then the shell).
var mix = []struct {
	weight int
	op     func(*Worker)
}{
	{319, (*Worker).Read4K},
	{100, (*Worker).readGo},
	{100, (*Worker).listDir},
	{80, (*Worker).glob},
	{80, (*Worker).search},
	{100, (*Worker).fileExists},
	{100, (*Worker).eval},
	{40, (*Worker).write},
	{80, (*Worker).edit}, // two calls: read_file, then edit_file
	{1, (*Worker).shell},
}

// deck is mix laid out as a sequence of 1,000 in a fixed random order. Worker n goes
// through it from position n, so that 1,000 workers make every operation from their first
// step on: at each step, as many of them as its weight.
var deck = shuffledMix()

func shuffledMix() []func(*Worker) {
	var ops []func(*Worker)
	for _, m := range mix {
		for range m.weight {
			ops = append(ops, m.op)
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	return ops
}

// Worker makes the calls of one session and records them. A worker is used by one
// goroutine at a time.
type Worker struct {
	s      *manager.Session
	n      int       // the worker's number: where it starts in the deck, and its own file's name
	k      int       // operations made
	own    string    // its own file, under scratch/
	state  int       // the number on the "state:" line of its own file; -1 before it exists
	ops    int       // operations made since the last Collect
	due    time.Time // when the operation under way was scheduled to start; zero in a closed loop
	lat    map[string][]time.Duration
	fails  []error        // the first maxErrors failures
	failed map[string]int // all failures, per tool
}

// NewWorker returns worker number n, which calls session s.
func NewWorker(s *manager.Session, n int) *Worker {
	return &Worker{s: s, n: n, own: fmt.Sprintf("%s/%d.txt", scratchDir, n), state: -1, lat: map[string][]time.Duration{}, failed: map[string]int{}}
}

// Mixed makes the next operation of the mixed load (one or two calls).
func (w *Worker) Mixed() {
	deck[(w.n+w.k)%len(deck)](w)
	w.k++
}

// Sample makes each operation of the mix once, run_shell included.
func (w *Worker) Sample() {
	for _, m := range mix {
		m.op(w)
	}
}

// Read4K reads one of the 4 KiB files with read_file.
func (w *Worker) Read4K() {
	w.call("read_file", map[string]any{"path": w.pick(Files4K)})
}

func (w *Worker) readGo()  { w.call("read_file", map[string]any{"path": w.pick(goPaths)}) }
func (w *Worker) listDir() { w.call("list_dir", map[string]any{"path": w.pick(dirs)}) }
func (w *Worker) glob()    { w.call("glob", map[string]any{"pattern": "**/*.go", "path": "src"}) }
func (w *Worker) search()  { w.call("search", map[string]any{"query": "func Helper", "path": "src"}) }
func (w *Worker) shell()   { w.call("run_shell", map[string]any{"command": "true"}) }

// fileExists asks about a file of the tree, or one that is not there (every fourth time).
func (w *Worker) fileExists() {
	p := w.pick(goPaths)
	if w.k%4 == 0 {
		p += ".missing"
	}
	w.call("file_exists", map[string]any{"path": p})
}

// eval runs a small snippet with Session.Eval.
func (w *Worker) eval() {
	start := w.begin()
	_, terr := w.s.Eval(context.Background(), "local n = 0 for i = 1, 100 do n = n + i end return n")
	w.record("eval", time.Since(start), terr, nil)
}

// write creates or overwrites the worker's own file (the session wrote it last, so it needs
// no read first).
func (w *Worker) write() {
	w.state = max(w.state, 0)
	w.call("write_file", map[string]any{"path": w.own, "content": fmt.Sprintf("worker %d\nstate: %d\n", w.n, w.state)})
}

// edit reads the worker's own file (writing it first if it does not exist yet), then edits
// its state line, as an agent reads before it edits.
func (w *Worker) edit() {
	if w.state < 0 {
		w.write()
	}
	w.call("read_file", map[string]any{"path": w.own})
	if w.call("edit_file", map[string]any{"path": w.own, "old_string": fmt.Sprintf("state: %d\n", w.state), "new_string": fmt.Sprintf("state: %d\n", w.state+1)}) {
		w.state++
	}
}

// pick returns one of paths, a different one at each step.
func (w *Worker) pick(paths []string) string { return paths[(w.n+w.k)%len(paths)] }

// call makes a tool call, records it and reports whether it succeeded.
func (w *Worker) call(tool string, args map[string]any) bool {
	start := w.begin()
	res := w.s.Call(context.Background(), manager.ToolCall{Name: tool, Args: args})
	w.record(tool, time.Since(start), res.Error, args)
	return res.OK
}

// begin returns the moment a call's latency counts from: for the first call of an operation
// of an open loop, when the operation was due, so that its wait for a turn counts; else now.
func (w *Worker) begin() time.Time {
	if due := w.due; !due.IsZero() {
		w.due = time.Time{}
		return due
	}
	return time.Now()
}

// maxErrors is how many failures a worker keeps the error of.
const maxErrors = 3

// record notes one call's latency and, when it failed, its error.
func (w *Worker) record(tool string, d time.Duration, terr *definitions.ToolError, args map[string]any) {
	w.lat[tool] = append(w.lat[tool], d)
	if terr == nil {
		return
	}
	if w.failed[tool]++; len(w.fails) < maxErrors {
		w.fails = append(w.fails, fmt.Errorf("session %s: %s(%v): %w (recovery: %v)", w.s.ID(), tool, args, terr, terr.Recovery))
	}
}

// Stats is what the workers of a run did.
type Stats struct {
	Elapsed   time.Duration              // from the start to the end of the last call
	Requests  int                        // operations made (one or two calls each)
	Latencies map[string][]time.Duration // per tool ("eval" for Session.Eval), sorted
	// Lag is, in an open loop, how late each operation's goroutine started after it was
	// due (the load generator's share of the latencies, and the scheduler's), sorted.
	Lag      []time.Duration
	Failed   int            // calls that failed
	Failures map[string]int // calls that failed, per tool
	Errors   []error        // the first failures of each worker
}

// Calls returns how many calls were made.
func (s *Stats) Calls() int {
	n := 0
	for _, l := range s.Latencies {
		n += len(l)
	}
	return n
}

// Tools returns the tools called, sorted.
func (s *Stats) Tools() []string {
	return slices.Sorted(maps.Keys(s.Latencies))
}

// Add adds the calls of o, a run made after s, to s.
func (s *Stats) Add(o *Stats) {
	if s.Latencies == nil {
		s.Latencies, s.Failures = map[string][]time.Duration{}, map[string]int{}
	}
	s.Elapsed += o.Elapsed
	s.Requests += o.Requests
	s.Failed += o.Failed
	s.Errors = append(s.Errors, o.Errors...)
	s.Lag = append(s.Lag, o.Lag...)
	slices.Sort(s.Lag)
	for tool, l := range o.Latencies {
		s.Latencies[tool] = append(s.Latencies[tool], l...)
		slices.Sort(s.Latencies[tool])
	}
	for tool, n := range o.Failures {
		s.Failures[tool] += n
	}
}

// Percentile returns the latency of tool that a fraction p (0..1) of its calls did not exceed.
func (s *Stats) Percentile(tool string, p float64) time.Duration {
	return Quantile(s.Latencies[tool], p)
}

// Quantile returns the duration of sorted that a fraction p (0..1) of them do not exceed;
// 0 for none.
func Quantile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

// Run makes every worker repeat op, each on its own goroutine, until d has passed (the
// operation under way then runs to its end), and returns what they did. Every worker makes
// at least one operation, even one the scheduler starts late.
func Run(workers []*Worker, d time.Duration, op func(*Worker)) *Stats {
	start := time.Now()
	end := start.Add(d)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
			for {
				op(w)
				w.ops++
				if !time.Now().Before(end) {
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	st := Collect(workers)
	st.Elapsed = elapsed
	return st
}

// Collect returns, and clears, what the workers recorded (Elapsed left zero).
func Collect(workers []*Worker) *Stats {
	st := &Stats{Latencies: map[string][]time.Duration{}, Failures: map[string]int{}}
	for _, w := range workers {
		for tool, l := range w.lat {
			st.Latencies[tool] = append(st.Latencies[tool], l...)
		}
		for tool, n := range w.failed {
			st.Failures[tool] += n
			st.Failed += n
		}
		st.Requests += w.ops
		st.Errors = append(st.Errors, w.fails...)
		w.lat, w.fails, w.failed, w.ops = map[string][]time.Duration{}, nil, map[string]int{}, 0
	}
	for _, l := range st.Latencies {
		slices.Sort(l)
	}
	return st
}
