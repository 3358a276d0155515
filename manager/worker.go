package manager

import (
	"context"
	"fmt"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/worker"
)

// Isolation modes of Config.Isolation.
const (
	// IsolationProcess runs every session's Lua in the manager's own process (the default,
	// also "").
	IsolationProcess = "process"
	// IsolationWorker runs the Lua of each session that jido did not write (evals, user
	// tools) in a worker process of its own (package worker), under a memory ceiling, while
	// its tools and state stay here: a snippet that exhausts memory or crashes the Go
	// runtime fails its call with worker-error and takes down its worker, not the manager.
	// The program must call worker.MaybeServe first thing in main (and TestMain).
	IsolationWorker = "worker"
)

// checkIsolation refuses an unknown Config.Isolation.
func checkIsolation(mode string) error {
	switch mode {
	case "", IsolationProcess, IsolationWorker:
		return nil
	}
	return fmt.Errorf("Config.Isolation: %q is none of %q, %q", mode, IsolationProcess, IsolationWorker)
}

// sessionVM runs a session's snippets. Call runs Lua that came from outside jido (an
// eval, a user's Lua tool); CallScript runs one of jido's own tool scripts (package
// scripts), which only hand their arguments to a tool and need no isolation.
type sessionVM interface {
	Call(ctx context.Context, chunkName, src string, args ...any) ([]any, error)
	CallScript(ctx context.Context, chunkName, src string, args ...any) ([]any, error)
	Abort(cause error)
	Close() error
}

// processVM runs everything in one runtime.VM of the manager's process.
type processVM struct{ *runtime.VM }

func (v processVM) CallScript(ctx context.Context, chunkName, src string, args ...any) ([]any, error) {
	return v.Call(ctx, chunkName, src, args...)
}

// newSessionVM makes the VM of a session with deps, in the manager's isolation mode.
func (m *Manager) newSessionVM(id string, limits runtime.Limits, deps bridge.Deps) (sessionVM, error) {
	own, err := runtime.New(runtime.Options{Limits: limits, Libraries: bridge.Libraries(deps)})
	if err != nil || m.cfg.Isolation != IsolationWorker {
		return processVM{own}, err
	}
	host := bridge.NewHost(deps)
	tools := make([]*definitions.Tool, len(m.cfg.Tools))
	for i, t := range m.cfg.Tools {
		tools[i] = t.Def
	}
	opts := worker.Options{Limits: limits, Tools: tools, Forward: host.Run, MaxMemory: m.cfg.WorkerMemory}
	if started := m.cfg.OnWorkerStart; started != nil {
		opts.OnStart = func(w worker.Started) { started(id, w) }
	}
	c, err := worker.New(opts)
	if err != nil {
		own.Close()
		return nil, err
	}
	return &workerVM{Client: c, host: host, own: own}, nil
}

// workerVM is a session's VM in worker isolation: the worker's client, which runs the Lua
// that came from outside jido (user tools included: the host hands their source to the
// worker), and a VM here for jido's own tool scripts, whose only work is the tool call
// they forward, so a read_file costs what it costs in process.
type workerVM struct {
	*worker.Client
	host *bridge.Host
	own  *runtime.VM
}

// Call runs src in the worker; the user tools a dying worker left running are ended.
func (w *workerVM) Call(ctx context.Context, chunkName, src string, args ...any) ([]any, error) {
	vals, err := w.Client.Call(ctx, chunkName, src, args...)
	w.host.Settle(func() *definitions.ToolError {
		if err != nil {
			return luaError(err)
		}
		return definitions.NewError(definitions.InternalError, "the call ended before its user tool did")
	})
	return vals, err
}

// CallScript runs one of jido's own scripts here.
func (w *workerVM) CallScript(ctx context.Context, chunkName, src string, args ...any) ([]any, error) {
	return w.own.Call(ctx, chunkName, src, args...)
}

// Abort ends the running call and every later one, in the worker and here.
func (w *workerVM) Abort(cause error) {
	w.Client.Abort(cause)
	w.own.Abort(cause)
}

// Close stops the worker and closes the VM here.
func (w *workerVM) Close() error {
	err := w.Client.Close()
	w.own.Close()
	return err
}
