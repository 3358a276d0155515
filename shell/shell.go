// Package shell runs an agent's commands in the sandbox: foreground commands with a
// timeout that kills the whole process tree, background jobs whose output is read as it
// comes, environments without credentials, and output kept within a budget (the rest in
// a file inside the project that read_file can page).
package shell

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
)

// Limits of commands.
const (
	DefaultTimeout = 120 * time.Second
	MaxTimeout     = 600 * time.Second
	DefaultOutput  = 30_000 // bytes of each stream shown to the model
	waitDelay      = 200 * time.Millisecond
)

// OutputDir is where full outputs are kept, inside the project root.
const OutputDir = ".jido/output"

// Runner runs the commands of one session; safe for concurrent use. Close kills its jobs.
type Runner struct {
	root     *security.Root
	sb       *sandbox.Sandbox
	goCache  *goCache
	tmp      string   // the session's private temp dir (host path)
	release  func()   // releases tmp's path once it is removed (sessionTemp)
	base     []string // the base environment
	shell    string   // bash, or sh when bash is absent
	maxJobs  int
	lifetime time.Duration
	mu       sync.Mutex
	jobs     map[string]*Job
	starting int // jobs being started: they count against maxJobs
	closed   bool
	counter  int
}

// Options configure a Runner.
type Options struct {
	Root      *security.Root
	Network   bool     // allow network access
	Helper    string   // the sandbox helper binary ("" for the running executable)
	ReadOnly  []string // more host paths commands may read
	ReadWrite []string // more host paths commands may read and write
	// BuildCacheKey names the private build caches of the commands (Go's): runners with the
	// same key share them, as the worktrees of one repository may; "" is the root's path.
	BuildCacheKey string
	// MaxJobs bounds the background jobs running at once (0: DefaultMaxJobs), and
	// JobLifetime how long one may run before it is killed (0: DefaultJobLifetime).
	MaxJobs     int
	JobLifetime time.Duration
}

// Defaults of the background jobs of one session.
const (
	DefaultMaxJobs     = 8
	DefaultJobLifetime = 30 * time.Minute
)

// New makes a runner with its private temp dir.
func New(o Options) (*Runner, error) {
	tmp, release, err := sessionTemp(o.Root.Path())
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Runner, error) {
		os.RemoveAll(tmp)
		release()
		return nil, err
	}
	key := cmp.Or(o.BuildCacheKey, o.Root.Path())
	env, caches, err := toolEnv(key, o.Network)
	if err != nil {
		return fail(fmt.Errorf("making the project's private caches: %w", err))
	}
	gc, err := openGoCache(key, tmp)
	if err != nil {
		return fail(fmt.Errorf("making the project's Go build cache: %w", err))
	}
	sb, err := sandbox.New(o.Helper, sandbox.Policy{Root: o.Root.Path(), TempDir: tmp, Network: o.Network, ReadOnly: o.ReadOnly,
		ReadWrite: slices.Concat([]string{gc.dir}, caches, o.ReadWrite), Sockets: gc.sockets()})
	if err != nil {
		gc.close()
		return fail(err)
	}
	env["GOCACHE"] = gc.dir
	if prog := gc.program(sb.Helper()); prog != "" {
		env["GOCACHEPROG"] = prog
	}
	writeGitConfig(tmp)
	sh := "bash"
	if _, err := exec.LookPath("bash"); err != nil {
		sh = "sh"
	}
	pruneOutputs(o.Root, OutputMaxAge) // one directory listing: cheap enough to do inline
	return &Runner{root: o.Root, sb: sb, goCache: gc, tmp: tmp, release: release, base: baseEnv(os.Environ(), tmp, env), shell: sh, jobs: map[string]*Job{},
		maxJobs: cmp.Or(o.MaxJobs, DefaultMaxJobs), lifetime: cmp.Or(o.JobLifetime, DefaultJobLifetime)}, nil
}

// OutputMaxAge is how long full outputs and test reports stay in OutputDir.
const OutputMaxAge = 7 * 24 * time.Hour

// pruneOutputs removes the entries of OutputDir that jido made (output files, test report
// directories) last modified more than maxAge ago, so that kept outputs do not pile up in
// the project. It never goes through a symbolic link (.jido or its output directory made a
// link to the project would otherwise aim it at the project's own files) and removes only
// names jido gives. It returns how many it removed; errors (a missing directory first of
// all) remove nothing.
func pruneOutputs(root *security.Root, maxAge time.Duration) int {
	for _, dir := range []string{".jido", OutputDir} {
		if info, err := root.Lstat(dir); err != nil || !info.IsDir() {
			return 0
		}
	}
	entries, err := root.ReadDir(OutputDir)
	if err != nil {
		return 0
	}
	cutoff := time.Now().Add(-maxAge)
	removed := 0
	for _, e := range entries {
		if !outputName().MatchString(e.Name()) || e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(cutoff) {
			continue
		}
		if root.Remove(OutputDir+"/"+e.Name(), e.IsDir()) == nil {
			removed++
		}
	}
	return removed
}

// outputName matches the names jido gives in OutputDir: a command's spool files
// (newID's run-N-HEX and job-N-HEX) and run_tests's report directories (tests-HEX).
var outputName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^((run|job)-[0-9]+-[0-9a-f]{8}\.(stdout|stderr)\.log|tests-[0-9a-f]{12})$`)
})

// Request is one command.
type Request struct {
	Command string            // run by bash -c (sh -c without bash)
	Argv    []string          // or an argv, run directly
	Cwd     string            // directory inside the root ("" = the root)
	Env     map[string]string // added to the base environment
	Stdin   *string           // nil: stdin is closed (/dev/null)
	Timeout time.Duration     // 0: DefaultTimeout; capped at MaxTimeout
	Output  int               // bytes of each stream shown; 0: DefaultOutput
}

// Result is what a finished command did.
type Result struct {
	ExitCode   int    `json:"exit_code"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	DurationMS int64  `json:"duration_ms"`
	TimedOut   bool   `json:"timed_out"`
	// OutOfMemory says the kernel killed the command for the session's memory limit.
	OutOfMemory bool                `json:"out_of_memory,omitempty"`
	Truncated   bool                `json:"truncated"`
	Sandbox     sandbox.Confinement `json:"sandbox"`
	Files       map[string]string   `json:"output_files,omitempty"`  // stream -> root-relative file with its full output
	Notes       []string            `json:"sandbox_notes,omitempty"` // what the sandbox refused or undid, and how to proceed
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("the session's shell is closed")

// ErrInvalid wraps the refusals of a malformed request (no command, a bad variable name).
var ErrInvalid = errors.New("invalid command request")

// ErrUncheckable refuses a command in a project jido cannot look over before it: more
// than maxScanDirs directories (node_modules aside), or a root it cannot open safely.
var ErrUncheckable = fmt.Errorf("the project has more than %d directories (node_modules aside), or could not be looked at: jido cannot check what a command could plant or read in it, so it runs none", maxScanDirs)

// process is a started command with its captured streams.
type process struct {
	p              *sandbox.Process
	stdout, stderr *output
	latest         *latest // the last bytes of both, for Progress.Tail
	start          time.Time
	done           chan struct{} // closed when the command has exited and been cleaned up
	err            error         // Wait's error
	notes          []string      // what the audit after the command undid
	scan           Scan          // what the command saw read-only and hidden
}

// start validates a request and starts its command.
func (r *Runner) start(req Request, id string) (*process, error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	argv := req.Argv
	if req.Command != "" {
		argv = []string{r.shell, "-c", req.Command}
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: no command: give command or cmd", ErrInvalid)
	}
	dir, err := r.dir(req.Cwd)
	if err != nil {
		return nil, err
	}
	for k := range req.Env {
		if !validEnvName().MatchString(k) {
			return nil, fmt.Errorf("%w: env: %q is not a valid variable name", ErrInvalid, k)
		}
	}
	limit := req.Output
	if limit <= 0 {
		limit = DefaultOutput
	}
	pr := &process{
		stdout: newOutput(limit, r.spool(id, "stdout")),
		stderr: newOutput(limit, r.spool(id, "stderr")),
		latest: &latest{},
		done:   make(chan struct{}),
	}
	pr.stdout.latest, pr.stderr.latest = pr.latest, pr.latest
	var stdin io.Reader
	if req.Stdin != nil {
		stdin = strings.NewReader(*req.Stdin)
	}
	if pr.scan = r.look(); !pr.scan.Complete {
		return nil, ErrUncheckable
	}
	p, err := r.sb.Start(sandbox.Options{
		Argv: argv, Dir: dir, Env: withEnv(r.base, req.Env),
		Stdin: stdin, Stdout: pr.stdout, Stderr: pr.stderr, WaitDelay: waitDelay,
	}, pr.scan.Paths)
	if err != nil {
		return nil, err
	}
	pr.p, pr.start = p, time.Now()
	go func() {
		pr.err = p.Cmd.Wait()
		p.Release() // background children of the command die with it
		pr.notes = audit(r.root, pr.scan, id)
		pr.stdout.close()
		pr.stderr.close()
		close(pr.done)
	}()
	return pr, nil
}

// Warm prepares the sandbox for the runner's next command in the background (see
// sandbox.Sandbox.Warm), predicting the project as it is now.
func (r *Runner) Warm() { r.sb.Warm(r.look().Paths) }

// look is the look over the project before a command (its protected and secret paths).
// jido's directory exists before the command, so that the command sees it read-only (but
// for the output directory) rather than creating it; an error leaves it as it is.
func (r *Runner) look() Scan {
	ownDir(r.root, OutputDir)
	return scanProject(r.root)
}

// ownDir makes dir, a directory of jido's own in the project (command outputs and test
// reports, quarantined entries), with a .gitignore that ignores all of it, itself included:
// what jido keeps there is not the project's, and an agent's `git add -A` must not take it.
// A .gitignore already there is left alone; errors leave things as they are.
func ownDir(root *security.Root, dir string) {
	if root.MkdirAll(dir) != nil {
		return
	}
	if _, err := root.Lstat(dir + "/.gitignore"); errors.Is(err, fs.ErrNotExist) {
		root.WriteFile(dir+"/.gitignore", []byte(ownIgnore), security.WriteOptions{})
	}
}

// ownIgnore is the .gitignore of jido's own directories in a project.
const ownIgnore = "# jido's own files, not the project's\n*\n"

// dir resolves the working directory inside the root to a host path.
func (r *Runner) dir(cwd string) (string, error) {
	if cwd == "" {
		cwd = "."
	}
	info, err := r.root.Stat(cwd)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", &os.PathError{Op: "cwd", Path: cwd, Err: security.ErrNotDir}
	}
	canon, err := r.root.Resolve(cwd)
	if err != nil {
		return "", err
	}
	return filepath.Join(r.root.Path(), filepath.FromSlash(canon)), nil
}

// spool returns the opener of a stream's spool file in OutputDir.
func (r *Runner) spool(id, stream string) func() (io.WriteCloser, string, error) {
	return func() (io.WriteCloser, string, error) {
		f, canon, err := r.root.CreateLog(OutputDir + "/" + id + "." + stream + ".log")
		if err != nil {
			return nil, "", err
		}
		return f, canon, nil
	}
}

// newID names a command's output files.
func (r *Runner) newID(prefix string) string {
	var b [4]byte
	rand.Read(b[:])
	r.mu.Lock()
	r.counter++
	n := r.counter
	r.mu.Unlock()
	return fmt.Sprintf("%s-%d-%s", prefix, n, hex.EncodeToString(b[:]))
}

// Run runs a command to its end, its timeout, or ctx's end (then it is killed).
func (r *Runner) Run(ctx context.Context, req Request) (*Result, error) {
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timeout = min(timeout, MaxTimeout)
	pr, err := r.start(req, r.newID("run"))
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var tick <-chan time.Time
	report := progressOf(ctx)
	if report != nil {
		t := time.NewTicker(report.every)
		defer t.Stop()
		tick = t.C
	}
	timedOut := false
wait:
	for {
		select {
		case <-pr.done:
			break wait
		case <-tick:
			report.fn(Progress{Elapsed: time.Since(pr.start), Output: pr.stdout.size() + pr.stderr.size(), Tail: pr.latest.String()})
		case <-timer.C:
			timedOut = true
			pr.p.Kill()
			<-pr.done
			break wait
		case <-ctx.Done():
			pr.p.Kill()
			<-pr.done
			return nil, ctx.Err()
		}
	}
	res := pr.result()
	res.TimedOut = timedOut
	return res, nil
}

// result summarizes a finished process.
func (pr *process) result() *Result {
	res := &Result{ExitCode: exitCode(pr.p.Cmd, pr.err), DurationMS: time.Since(pr.start).Milliseconds(), Sandbox: pr.p.Confinement, OutOfMemory: pr.p.OOMKilled}
	var cutOut, cutErr bool
	res.Stdout, cutOut = pr.stdout.text()
	res.Stderr, cutErr = pr.stderr.text()
	res.Truncated = cutOut || cutErr
	for stream, o := range map[string]*output{"stdout": pr.stdout, "stderr": pr.stderr} {
		if o.path != "" {
			if res.Files == nil {
				res.Files = map[string]string{}
			}
			res.Files[stream] = o.path
		}
	}
	res.Notes = append(append([]string(nil), pr.notes...), sandboxNotes(res, pr.scan)...)
	return res
}

// exitCode is the command's exit status, 128+signal when a signal ended it (as shells
// report it), -1 when it could not be known.
func exitCode(cmd *exec.Cmd, err error) int {
	st := cmd.ProcessState
	if st == nil {
		return -1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

// Close kills every job, stops the Go build cache's server, and removes the session's
// cgroup and private temp dir.
func (r *Runner) Close() error {
	r.mu.Lock()
	r.closed = true
	jobs := r.jobs
	r.jobs = map[string]*Job{}
	r.mu.Unlock()
	for _, j := range jobs {
		j.kill()
	}
	r.sb.Close()
	r.goCache.close()
	err := os.RemoveAll(r.tmp)
	r.release()
	return err
}

// Lazy makes a session's Runner on first use, so that sessions that never run a command
// pay nothing (no temp dir, no sandbox setup).
type Lazy struct {
	opts    Options
	mu      sync.Mutex
	r       *Runner
	err     error
	closed  bool
	warming sync.WaitGroup // Warm's goroutine, which Close waits for
}

// NewLazy returns a Lazy runner with opts.
func NewLazy(opts Options) *Lazy { return &Lazy{opts: opts} }

// Get returns the runner, making it on the first call.
func (l *Lazy) Get() (*Runner, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, ErrClosed
	case l.r == nil && l.err == nil:
		l.r, l.err = New(l.opts)
	}
	return l.r, l.err
}

// Warm makes the runner and warms it (Runner.Warm) in the background, so that a first
// command later pays as little as the commands after it. It costs a waiting helper process.
func (l *Lazy) Warm() {
	l.warming.Go(func() {
		if r, err := l.Get(); err == nil {
			r.Warm()
		}
	})
}

// Close closes the runner if it was made.
func (l *Lazy) Close() error {
	l.mu.Lock()
	l.closed = true
	r := l.r
	l.mu.Unlock()
	l.warming.Wait()
	if r == nil {
		return nil
	}
	return r.Close()
}
