// Package worker runs a session's Lua snippets in a worker process while the session's
// tools and state stay in the host: the isolation mode in which a snippet that exhausts
// memory, or crashes the Go runtime through a gopher-lua bug, takes down its worker, not
// the host.
//
// The host (Client) starts the worker by re-executing its own binary (or Options.Exe)
// with ServeArg; the program calls MaybeServe first thing, as it calls
// sandbox.MaybeHelper. They speak length-prefixed JSON over the worker's stdin and
// stdout: hello (limits, tools, ceiling) once, answered by ready, then per call `call` →
// any number of `bridge` (a jido.* call of the snippet, run by the host with the
// session's deps) ← `result` → and `done`. The worker's VM has the bridge.Remote library: it converts the
// Lua arguments as the in-process bridge does and forwards them; the host runs them with
// bridge.Host, through the same gate, approvals, journal and read log.
//
// One worker serves one client (one session): calls of a session are serialized, so one
// call is in flight per connection; a worker of its own gives each session its own memory
// ceiling and keeps one session's crash from failing another's call. The worker starts at
// the first call, and again at the call after it died: a call it was running fails with a
// ToolError of type worker-error, and the session's state, in the host, is intact.
//
// The worker's memory is capped by the strongest mechanism the host allows (Ceiling): a
// cgroup of its own (v2 memory.max, else v1 memory.limit_in_bytes), else RLIMIT_AS; its
// Go memory limit (GOMEMLIMIT) is set below the ceiling, and runtime.Limits.MaxMemory
// still bounds each call inside it.
//
// Before it builds its VM, the worker confines itself with the kernel (sandbox.ConfineSelf:
// no file, no network, no exec, no new process, no signal outside) and says how in ready
// (Client.Confinement); a worker that cannot be confined exits, and the call fails.
package worker

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/tools/definitions"
)

// DefaultMaxMemory is Options.MaxMemory's default: the whole worker's ceiling.
const DefaultMaxMemory = 1 << 30

// cancelGrace is how long a cancelled call may take to end before its worker is killed.
const cancelGrace = 2 * time.Second

// workerSlack is how much longer than the call's Lua time limit the host waits for a
// worker that does not answer (its own clock ends the snippet first: this is a backstop).
const workerSlack = time.Second

// errWorkerTimeout ends a call whose worker did not answer within its Lua time limit.
var errWorkerTimeout = errors.New("the worker ran past the call's Lua time limit")

// Options configure a Client.
type Options struct {
	Limits  runtime.Limits      // per-call limits, applied in the worker
	Tools   []*definitions.Tool // the session's Go tools besides the built-in ones (names, positional parameters)
	Forward bridge.Forwarder    // runs the jido.* calls of the worker's snippets (bridge.Host.Run)
	// MaxMemory is the worker process's memory ceiling in bytes (0: DefaultMaxMemory, or
	// more when twice Limits.MaxMemory needs more).
	MaxMemory int64
	// Exe is the binary started as the worker, which must call MaybeServe first thing
	// ("" for the running executable).
	Exe string
	// OnStart, when set, is told of each worker that starts, once it is confined and ready.
	OnStart func(Started)
}

// Started describes a worker that started: its process and what bounds it.
type Started struct {
	Pid         int
	Ceiling     string // how its memory is capped: CeilingCgroupV2, CeilingCgroupV1, CeilingRlimit
	MaxMemory   int64  // the ceiling, in bytes
	Confinement sandbox.SelfConfinement
}

// Client runs Lua calls in a worker process. It has runtime.VM's methods (Call, Abort,
// Close) and is safe for concurrent use; calls run one at a time.
type Client struct {
	opts    Options
	timeout time.Duration // Limits.Timeout, defaults applied
	mu      sync.Mutex    // held by a call, and by Close
	w       *proc         // the worker, nil before the first call and after it died
	id      uint64        // of the last call
	kind    atomic.Value
	conf    atomic.Pointer[sandbox.SelfConfinement]
	abort   atomic.Pointer[error]
	run     atomic.Pointer[context.CancelCauseFunc] // cancels the running call
	shut    bool
	pids    atomic.Int64 // the current worker's pid, for tests and diagnostics
}

// proc is one worker process.
type proc struct {
	cmd    *exec.Cmd
	c      *conn
	in     *os.File // the host's ends of the worker's stdin, stdout and cancel pipe
	out    *os.File
	cancel *os.File
	ceil   *ceiling
	stderr *tail
}

// New returns a client; its worker starts at the first call.
func New(opts Options) (*Client, error) {
	if opts.Forward == nil {
		return nil, errors.New("worker: Options.Forward is required")
	}
	if opts.MaxMemory <= 0 { // room for two calls' budgets and the Go runtime, at least DefaultMaxMemory
		budget := int64(cmp.Or(opts.Limits.MaxMemory, runtime.DefaultLimits().MaxMemory))
		opts.MaxMemory = max(DefaultMaxMemory, 2*budget+256<<20)
	}
	if opts.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("worker: finding the binary to start: %w", err)
		}
		opts.Exe = exe
	}
	c := &Client{opts: opts, timeout: cmp.Or(opts.Limits.Timeout, runtime.DefaultLimits().Timeout)}
	c.kind.Store("")
	return c, nil
}

// Ceiling says how the last worker's memory was capped: CeilingCgroupV2, CeilingCgroupV1,
// CeilingRlimit or CeilingNone; "" before a worker started.
func (c *Client) Ceiling() string { return c.kind.Load().(string) }

// Confinement says how the kernel confined the last worker (sandbox.ConfineSelf): zero
// before a worker started, and where the kernel has neither Landlock nor seccomp.
func (c *Client) Confinement() sandbox.SelfConfinement {
	if conf := c.conf.Load(); conf != nil {
		return *conf
	}
	return sandbox.SelfConfinement{}
}

// Pid is the running worker's process id, 0 when none runs.
func (c *Client) Pid() int { return int(c.pids.Load()) }

// WorkerError is the error of a call whose worker died or could not start.
func WorkerError(format string, args ...any) *definitions.ToolError {
	return definitions.NewError(definitions.WorkerError, format, args...).
		Hint("The session's state is intact: retry the call; a new worker starts")
}

// Call runs src in the worker as runtime.VM.Call runs it in process: with args as its
// varargs, returning its values, or a *runtime.Error; or a *definitions.ToolError of type
// worker-error when the worker died under the call or could not start.
//
// The calling goroutine does all the host's work of the call: it writes the call, reads
// the worker's bridge requests and runs them (under ctx, bounded by Limits.Timeout as
// the worker bounds the snippet), until done. When ctx ends, the worker is told through
// its cancel pipe, and killed if it has not answered within a grace period.
func (c *Client) Call(ctx context.Context, chunkName, src string, args ...any) ([]any, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if cause := c.abort.Load(); cause != nil {
		return nil, gone(*cause)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shut {
		return nil, &runtime.Error{Kind: runtime.KindInternal, Message: "the VM is closed"}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.run.Store(&cancel)
	defer c.run.Store(nil)
	if cause := c.abort.Load(); cause != nil { // Abort stores before it loads run: one of us sees the other
		return nil, gone(*cause)
	}
	if ctx.Err() != nil {
		return nil, gone(context.Cause(ctx))
	}
	// The worker bounds the snippet's Lua time; this clock, stopped while the host runs a
	// bridge request, is the same bound on the host's side, for a worker that stops answering.
	limit := runtime.TimeoutOf(ctx, c.timeout)
	clock := runtime.StartClock(limit+workerSlack, func() { cancel(errWorkerTimeout) })
	defer clock.Release()
	p, err := c.worker(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, gone(context.Cause(ctx))
		}
		return nil, WorkerError("the Lua worker could not start: %v", err)
	}
	c.id++
	id := c.id
	if args == nil {
		args = []any{}
	}
	w := p.watch(ctx, id)
	defer w.finish()
	if err := p.c.send(&message{T: tCall, ID: id, Name: chunkName, Src: src, Args: args, Timeout: runtime.TimeoutOf(ctx, 0)}); err != nil {
		return nil, c.died(ctx, p, "sending it the call: "+err.Error())
	}
	var last struct {
		seq uint64
		val any
	}
	for {
		m, err := p.c.read()
		if err != nil {
			if errors.Is(err, io.EOF) || isBrokenPipe(err) {
				err = nil
			}
			how := ""
			if err != nil {
				how = err.Error()
			}
			return nil, c.died(ctx, p, how)
		}
		switch {
		case m.T == tBridge && m.ID == id:
			clock.Stop()
			res, terr := c.opts.Forward(ctx, m.Tool, m.Params)
			clock.Start()
			out := &message{T: tResult, Seq: m.Seq, Value: res, Err: terr}
			if terr != nil {
				out.Value = nil
			}
			err := p.c.send(out)
			if err != nil && !isBrokenPipe(err) {
				err = p.c.send(&message{T: tResult, Seq: m.Seq, Err: definitions.NewError(definitions.InternalError, "%s's result cannot be sent to the worker: %v", m.Tool, err)})
			}
			if err != nil {
				return nil, c.died(ctx, p, "sending it a result: "+err.Error())
			}
			last.seq, last.val = m.Seq, res
		case m.T == tDone && m.ID == id:
			switch {
			case m.Fail != nil:
				return nil, m.Fail
			case m.Passed != 0 && m.Passed == last.seq:
				return []any{last.val}, nil // the tool's own Go value, as in process
			}
			return m.Values, nil
		}
	}
}

// watcher cancels a worker's call when its context ends, and kills the worker if the call
// has not ended cancelGrace later.
type watcher struct {
	stop   func() bool
	mu     sync.Mutex
	ended  bool
	timer  *time.Timer
	killed bool
}

// watch starts watching call id under ctx.
func (p *proc) watch(ctx context.Context, id uint64) *watcher {
	w := &watcher{}
	w.stop = context.AfterFunc(ctx, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.ended {
			return
		}
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], id)
		p.cancel.Write(b[:]) // a dead worker shows on the call's read
		w.timer = time.AfterFunc(cancelGrace, func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			if !w.ended {
				w.killed = true
				p.cmd.Process.Kill()
			}
		})
	})
	return w
}

// finish ends the watch: nothing is cancelled or killed after it returns.
func (w *watcher) finish() {
	w.stop()
	w.mu.Lock()
	w.ended = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
}

// gone is the error of a call whose caller's context ended, as runtime's, or whose worker
// did not answer within its Lua time.
func gone(cause error) *runtime.Error {
	if errors.Is(cause, errWorkerTimeout) {
		return &runtime.Error{Kind: runtime.KindTimeout, Message: cause.Error()}
	}
	return &runtime.Error{Kind: runtime.KindCancelled, Message: "the caller's context ended: " + cause.Error()}
}

// isBrokenPipe reports a write to a worker that is gone.
func isBrokenPipe(err error) bool {
	return errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe) || strings.Contains(err.Error(), "broken pipe")
}

// Abort ends the running call as if its caller's context had been cancelled with cause,
// and makes every later call fail the same way (runtime.VM.Abort). It does not wait.
func (c *Client) Abort(cause error) {
	c.abort.CompareAndSwap(nil, &cause)
	if cancel := c.run.Load(); cancel != nil {
		(*cancel)(cause)
	}
}

// Close stops the worker, after the call it runs if any. Calls after Close fail. Close is
// idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shut = true
	if c.w != nil {
		c.stop(c.w)
	}
	return nil
}

// worker returns the running worker, starting one if none runs: it has said how it is
// confined (or ctx ended, and it was killed).
func (c *Client) worker(ctx context.Context) (*proc, error) {
	if c.w != nil {
		return c.w, nil
	}
	// Blocking pipes, not the runtime poller's: a call's goroutine reads and writes them
	// itself and wakes up in the read syscall, without a scheduler hop either side.
	var files []*os.File // child's stdin, parent's end; parent's stdout end, child's; child's fd 3, parent's end
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for range 3 {
		r, w, err := blockingPipe()
		if err != nil {
			closeAll()
			return nil, err
		}
		files = append(files, r, w)
	}
	childIn, in, out, childOut, childCancel, cancel := files[0], files[1], files[2], files[3], files[4], files[5]
	ceil := makeCeiling(c.opts.MaxMemory)
	cmd := exec.Command(c.opts.Exe, ServeArg)
	cmd.SysProcAttr = sysProcAttr()
	cmd.Env = workerEnv(os.Environ())
	cmd.Stdin, cmd.Stdout, cmd.ExtraFiles = childIn, childOut, []*os.File{childCancel}
	st := &tail{}
	cmd.Stderr = st
	err := cmd.Start()
	childIn.Close()
	childOut.Close()
	childCancel.Close()
	if err != nil {
		in.Close()
		out.Close()
		cancel.Close()
		ceil.remove()
		return nil, err
	}
	p := &proc{cmd: cmd, c: newConn(out, in), in: in, out: out, cancel: cancel, ceil: ceil, stderr: st}
	if err := ceil.join(cmd.Process.Pid); err != nil {
		ceil.remove()
		ceil = &ceiling{kind: CeilingRlimit}
		p.ceil = ceil
	}
	h := &hello{Limits: c.opts.Limits, GoMemLimit: goMemLimit(c.opts)}
	if ceil.kind == CeilingRlimit {
		h.RlimitAS = c.opts.MaxMemory
	}
	for _, t := range c.opts.Tools {
		h.Tools = append(h.Tools, toolSpec{Name: t.Name, Positional: t.Positional})
	}
	if err := p.c.send(&message{T: tHello, Hello: h}); err != nil {
		p.kill()
		ceil.remove()
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	m, err := p.c.read()
	stop()
	died := err != nil
	switch {
	case died:
		err = fmt.Errorf("it ended before it was ready: %w", err)
	case m.T == tReady && m.Ready != nil:
		c.conf.Store(m.Ready)
	case m.T == tReady && m.Fail != nil:
		err = errors.New(m.Fail.Message)
	default:
		err = fmt.Errorf("it answered hello with %q", m.T)
	}
	if err != nil {
		p.kill()
		ceil.remove()
		if died {
			err = fmt.Errorf("%w (%s) %s", err, p.cmd.ProcessState, p.stderr.String())
		}
		return nil, err
	}
	c.w = p
	c.kind.Store(ceil.kind)
	c.pids.Store(int64(cmd.Process.Pid))
	if c.opts.OnStart != nil {
		c.opts.OnStart(Started{Pid: cmd.Process.Pid, Ceiling: ceil.kind, MaxMemory: c.opts.MaxMemory, Confinement: c.Confinement()})
	}
	return p, nil
}

// goMemLimit is a worker's soft Go memory limit: room for two calls' budgets (a call's
// garbage, the next call's data) and the Go runtime, and below the ceiling. Without it
// the worker's GC, tuned for few collections, lets a bomb's garbage pile up to the
// ceiling.
func goMemLimit(opts Options) int64 {
	budget := int64(cmp.Or(opts.Limits.MaxMemory, runtime.DefaultLimits().MaxMemory))
	return min(opts.MaxMemory/4*3, 2*budget+64<<20)
}

// workerEnv keeps of the host's environment what the Go runtime of a worker reads: a
// snippet has no use for the rest (API keys, tokens).
func workerEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GODEBUG", "GOTRACEBACK", "GOCOVERDIR", "TMPDIR":
			out = append(out, kv)
		}
	}
	return append(out, "PATH=/nonexistent") // an empty list would make exec inherit everything
}

// died reaps a worker that is gone and returns the error of the call it ran: the
// caller's context's if it ended (the worker was killed for not stopping), else a
// worker-error.
func (c *Client) died(ctx context.Context, p *proc, how string) error {
	p.kill()
	oom := p.ceil.oomKilled()
	p.ceil.remove()
	c.forget(p)
	if ctx.Err() != nil {
		return gone(context.Cause(ctx))
	}
	msg := "the Lua worker died under the call"
	if state := p.cmd.ProcessState; state != nil {
		msg += " (" + state.String() + ")"
	}
	if how != "" {
		msg += ": " + how
	}
	out := p.stderr.String()
	if s, _, _ := strings.Cut(out, "\ngoroutine "); s != "" {
		msg += ": " + strings.Join(strings.Fields(s), " ") // the fatal error, without the stacks
	}
	terr := WorkerError("%s", msg)
	if oom || strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory") {
		terr.With("limit", "memory").With("ceiling", c.opts.MaxMemory)
	}
	return terr
}

// stop ends a worker: its input closes (it exits at once when idle), and it is killed if
// it has not exited shortly after.
func (c *Client) stop(p *proc) {
	p.in.Close()
	t := time.AfterFunc(time.Second, func() { p.cmd.Process.Kill() })
	p.wait()
	t.Stop()
	p.ceil.remove()
	c.forget(p)
}

// kill kills the worker and reaps it.
func (p *proc) kill() {
	p.cmd.Process.Kill()
	p.wait()
}

// wait reaps the worker and closes the host's ends of its pipes; its cgroup is left to
// the caller.
func (p *proc) wait() {
	p.cmd.Wait()
	p.in.Close()
	p.out.Close()
	p.cancel.Close()
}

// forget drops p as the client's worker.
func (c *Client) forget(p *proc) {
	if c.w == p {
		c.w = nil
		c.pids.Store(0)
	}
}

// tail keeps the first bytes a worker wrote to stderr, for the error of its death: a Go
// runtime's fatal error comes first, then the goroutines' stacks.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 1 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := tailBytes - len(t.buf); room > 0 {
		t.buf = append(t.buf, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// makeCeiling makes a worker's ceiling (a variable, so that tests can try the weaker ones).
var makeCeiling = newCeiling
