// Package runtime runs untrusted Lua snippets in a hardened gopher-lua VM.
//
// A VM exposes only base (without load, loadstring, dofile, loadfile, require, module, getfenv,
// setfenv, rawset, rawget, collectgarbage, newproxy, _printregs, print, _G), string (without
// dump), table and math (without randomseed), plus the Go libraries given in Options. Every
// library is an empty read-only proxy, the string metatable is protected, and setmetatable and
// getmetatable work on tables only. Each call compiles its snippet as its own chunk (or takes it
// from a cache keyed by hash) and runs it in a fresh environment that falls back to those
// read-only builtins: nothing a snippet writes outlives its call.
//
// Limits bound each call: a deadline, an instruction budget, a memory budget, capped builtins
// (string.rep, format, gsub, find, match, gmatch, table.concat, sort, unpack), the call depth,
// the value stack, and bounded conversion of results. The memory budget is charged before
// each allocation of Lua data (a concatenation, a table and its growth, a closure, a builtin's
// result, a converted value): gopher-lua has no allocator hook, so the few VM sites that
// allocate call one (LState.Charge, a patch kept in third_party/gopher-lua). A call over its
// budget fails having allocated at most that budget, whatever other VMs do.
//
// Importing the package changes nothing outside it. The first New sets two gopher-lua
// variables that gopher-lua keeps per process, not per state: lua.MaxArrayIndex (lowered to
// 1<<20) and lua.CompatVarArg (false). A program that runs other gopher-lua states beside
// jido's shares them from then on.
package runtime

import (
	"context"
	"sync"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"
)

// Options configure a VM.
type Options struct {
	Limits    Limits
	Libraries []Library
}

// VM is a hardened Lua VM. It holds one *lua.LState, which each call takes, runs on its
// caller's goroutine (no hand-off to another goroutine, whose wake-ups cost a call more than
// its Lua), and gives back: Call is safe for concurrent use and calls run one at a time. A
// call that hit the deadline, its instruction or memory budget, or recovered a Go panic, may
// leave the LState inconsistent: the VM then replaces it with a fresh one before its next
// call. The VM value stays usable; only the Lua state is new.
type VM struct {
	lim      Limits
	libs     map[string]map[string]lua.LGFunction
	slot     chan *state   // holds the Lua state between calls
	quit     chan struct{} // closed by Close
	once     sync.Once
	compiles atomic.Int64 // chunks this VM compiled rather than took from the cache
	stop     stopper      // ends the running call and all later ones (Abort)
}

// stopper lets another goroutine end the VM's running call and every later one (Abort).
type stopper struct {
	cause   atomic.Pointer[error]   // set by Abort
	running atomic.Pointer[callCtx] // the call running, nil between calls
}

// enter publishes c as the running call, cancelled at once if the VM was aborted. Abort
// stores its cause before it loads the running call, and enter the other way round, so
// one of the two always sees the other.
func (s *stopper) enter(c *callCtx) {
	s.running.Store(c)
	if cause := s.cause.Load(); cause != nil {
		c.cancel(*cause)
	}
}

// leave clears the running call.
func (s *stopper) leave() { s.running.Store(nil) }

// Abort ends the running call as if its caller's context had been cancelled with cause (a
// snippet stops at its next instruction, a host function waiting on its context returns),
// and makes every later call fail the same way at once: the VM's owner is going away
// (a session that closes, a server that shuts down). It does not wait; Close does.
func (vm *VM) Abort(cause error) {
	vm.stop.cause.CompareAndSwap(nil, &cause)
	if c := vm.stop.running.Load(); c != nil {
		c.cancel(cause)
	}
}

// New creates a VM ready to run snippets. It fails if a library's name is not a Lua identifier
// free in the base environment, or if a library function is nil or defined twice.
func New(opts Options) (*VM, error) {
	useLuaSettings()
	libs, err := mergeLibraries(opts.Libraries)
	if err != nil {
		return nil, err
	}
	vm := &VM{
		lim:  opts.Limits.withDefaults(),
		libs: libs,
		slot: make(chan *state, 1),
		quit: make(chan struct{}),
	}
	vm.slot <- newState(vm.lim, libs)
	return vm, nil
}

// Call compiles (or takes from the cache) src, runs it in a fresh environment with args as its
// varargs (converted Go->Lua), and returns its results converted Lua->Go. A failure is an
// *Error. If ctx ends while the call waits for the VM, Call returns at once; while it runs,
// the snippet stops at its next instruction, and a host function it is in returns as it
// watches ctx (L.Context()).
//
// Results are converted as ToGo does with lenient set (NaN becomes "NaN", a function
// "<function>"); a cyclic, too deep or too large result is a KindLimit error. A call that ends
// past its deadline is a failure even if the snippet returned (e.g. `return pcall(loop)`).
func (vm *VM) Call(ctx context.Context, chunkName, src string, args ...any) ([]any, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	select {
	case <-vm.quit:
		return nil, errClosed()
	default:
	}
	var st *state
	select {
	case st = <-vm.slot:
	case <-vm.quit:
		return nil, errClosed()
	case <-ctx.Done():
		return nil, callerGone(ctx)
	}
	select {
	case <-vm.quit: // closed while this call waited: Close takes the state back
		vm.slot <- st
		return nil, errClosed()
	default:
	}
	vals, err, discard := vm.serve(ctx, st, chunkName, src, args)
	if discard {
		st.L.Close()
		st = newState(vm.lim, vm.libs)
	}
	vm.slot <- st
	if err != nil {
		return nil, err
	}
	return vals, nil
}

// Close waits for the running call if any, and releases the LState. Calls after Close fail.
// Close is idempotent.
func (vm *VM) Close() error {
	vm.once.Do(func() {
		close(vm.quit)
		st := <-vm.slot
		st.L.Close()
	})
	return nil
}

// serve runs one call on st; discard reports that st must not run another call. Panics are
// recovered around compiling and PCall already; this last recover keeps a bug elsewhere (in a
// conversion, say) from ending the process.
func (vm *VM) serve(ctx context.Context, st *state, name, src string, args []any) (vals []any, err *Error, discard bool) {
	defer func() {
		if r := recover(); r != nil {
			vals, err, discard = nil, newError(KindInternal, "a Go panic was recovered: %v", r), true
		}
	}()
	if ctx.Err() != nil {
		return nil, callerGone(ctx), false
	}
	if name == "" {
		name = "snippet"
	}
	proto, err := vm.compile(name, src)
	if err != nil {
		return nil, err, err.Kind == KindInternal
	}
	return st.run(ctx, proto, args, &vm.stop)
}

// errClosed is the error of a call on a closed VM.
func errClosed() *Error { return newError(KindInternal, "the VM is closed") }

// callerGone is the error of a call whose caller's context ended before it could run.
func callerGone(ctx context.Context) *Error {
	return newError(KindCancelled, "the caller's context ended: %v", context.Cause(ctx))
}
