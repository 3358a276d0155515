package manager

import (
	"context"
	"fmt"
	"strconv"
	"sync"

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
	// IsolationWorker runs each session's Lua in a worker process of its own (package
	// worker), under a memory ceiling, while its tools and state stay here: a snippet that
	// exhausts memory or crashes the Go runtime fails its call with worker-error and takes
	// down its worker, not the manager. The program must call worker.MaybeServe first thing
	// in main (and TestMain).
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

// sessionVM runs a session's snippets: a runtime.VM in process, or a workerVM.
type sessionVM interface {
	Call(ctx context.Context, chunkName, src string, args ...any) ([]any, error)
	Abort(cause error)
	Close() error
}

// newSessionVM makes the VM of a session with deps, in the manager's isolation mode.
func (m *Manager) newSessionVM(limits runtime.Limits, deps bridge.Deps) (sessionVM, error) {
	if m.cfg.Isolation != IsolationWorker {
		return runtime.New(runtime.Options{Limits: limits, Libraries: bridge.Libraries(deps)})
	}
	w := &workerVM{limits: limits, deps: deps}
	host := bridge.NewHost(deps)
	host.Fallback = w.fallback
	tools := make([]*definitions.Tool, len(m.cfg.Tools))
	for i, t := range m.cfg.Tools {
		tools[i] = t.Def
	}
	c, err := worker.New(worker.Options{Limits: limits, Tools: tools, Forward: host.Run, MaxMemory: m.cfg.WorkerMemory})
	if err != nil {
		return nil, err
	}
	w.Client = c
	return w, nil
}

// workerVM is a session's VM in worker isolation: the worker's client, and an in-process
// VM, made at its first use, for the jido.call the host does not serve itself (a user's
// Lua tool, a name of the session's profile), which still runs here.
type workerVM struct {
	*worker.Client
	limits runtime.Limits
	deps   bridge.Deps

	mu    sync.Mutex
	local *runtime.VM
}

// fallback runs jido.call(tool, args) in the local VM.
func (w *workerVM) fallback(ctx context.Context, _ string, args map[string]any) (any, *definitions.ToolError) {
	w.mu.Lock()
	if w.local == nil {
		vm, err := runtime.New(runtime.Options{Limits: w.limits, Libraries: bridge.Libraries(w.deps)})
		if err != nil {
			w.mu.Unlock()
			return nil, definitions.NewError(definitions.InternalError, "%v", err)
		}
		w.local = vm
	}
	vm := w.local
	w.mu.Unlock()
	name, _ := args["tool"].(string)
	callArgs, _ := args["args"].(map[string]any)
	if callArgs == nil {
		callArgs = map[string]any{}
	}
	vals, err := vm.Call(ctx, "@"+name, "return jido.call("+strconv.Quote(name)+", ...)", callArgs)
	if err != nil {
		return nil, luaError(err)
	}
	if len(vals) >= 2 && vals[0] == nil {
		if te, ok := definitions.ErrorFromValue(vals[1]); ok {
			return nil, te
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	return vals[0], nil
}

// Abort ends the running call and every later one, in the worker and here.
func (w *workerVM) Abort(cause error) {
	w.Client.Abort(cause)
	w.mu.Lock()
	if w.local != nil {
		w.local.Abort(cause)
	}
	w.mu.Unlock()
}

// Close stops the worker and closes the local VM.
func (w *workerVM) Close() error {
	err := w.Client.Close()
	w.mu.Lock()
	if w.local != nil {
		w.local.Close()
	}
	w.mu.Unlock()
	return err
}
