package worker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	goruntime "runtime"
	"runtime/debug"
	"sync"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/tools/definitions"
)

// ServeArg is the hidden first argument that turns a jido process into a Lua worker.
const ServeArg = "__jido_lua_worker"

// MaybeServe serves as a worker on stdin, stdout and the cancel pipe (fd 3), and never
// returns, when os.Args asks for it; otherwise it returns at once. Call it first thing in
// main, and in TestMain (or an init of a test file) of the packages whose tests start
// workers.
func MaybeServe() {
	if len(os.Args) >= 2 && os.Args[1] == ServeArg {
		// On a goroutine of its own: called from an init function, the main goroutine is
		// locked to the main thread, and every wait of a call on the host's pipe would then
		// switch threads.
		status := make(chan int)
		go func() { status <- serve(os.Stdin, os.Stdout, os.NewFile(3, "cancel")) }()
		os.Exit(<-status)
	}
}

// server is the worker's side of one connection: one VM, one call at a time. One goroutine
// reads the host's calls and runs them (a runtime.VM runs a call on its caller's
// goroutine), and reads the answers to a call's bridge requests itself, so that no message
// changes goroutine on its way.
type server struct {
	c       *conn
	bmu     sync.Mutex
	seq     uint64 // of the last bridge request
	lastVal any    // the result of the last bridge request
	mu      sync.Mutex
	callID  uint64                  // of the running call, 0 between calls
	cancel  context.CancelCauseFunc // of the running call
}

// confine confines the worker (a variable, so that tests can make it fail).
var confine = sandbox.ConfineSelf

// errCancelled is the cause of a call the host cancelled.
var errCancelled = errors.New("the host cancelled the call")

// serve runs the worker until its input ends; it returns the exit status.
func serve(r io.Reader, w io.Writer, cancels io.Reader) int {
	s := &server{c: newConn(r, w)}
	s.c.trusted = true // it reads the host's messages
	m, err := s.c.read()
	if err != nil || m.T != tHello || m.Hello == nil {
		fmt.Fprintln(os.Stderr, "jido worker: the host did not say hello:", err)
		return 2
	}
	h := m.Hello
	if err := limitSelf(h.RlimitAS); err != nil {
		fmt.Fprintln(os.Stderr, "jido worker: limiting memory:", err)
		return 2
	}
	if h.GoMemLimit > 0 {
		debug.SetMemoryLimit(h.GoMemLimit)
	}
	// One P: the worker runs one snippet at a time on one goroutine, beside the cancel
	// pipe's reader; with one P, waking one another needs no futex wake-up of another
	// thread.
	goruntime.GOMAXPROCS(1)
	// The worker's live heap is small between calls (a VM, a result): collect less often,
	// with GOMEMLIMIT, below the ceiling, as the bound.
	debug.SetGCPercent(400)
	// From here on the worker needs nothing of the kernel but its pipes and memory: every
	// jido.* call goes to the host. GOMAXPROCS above also stops the runtime from re-reading
	// the cgroup's CPU limit. A worker that cannot be confined runs nothing.
	conf, err := confine()
	if err != nil {
		fmt.Fprintln(os.Stderr, "jido worker: confining the process:", err)
		s.c.send(&message{T: tReady, Fail: &runtime.Error{Kind: runtime.KindInternal, Message: "confining the worker: " + err.Error()}})
		return 2
	}
	if err := s.c.send(&message{T: tReady, Ready: &conf}); err != nil {
		return 0 // the host is gone
	}
	extra := make([]*definitions.Tool, len(h.Tools))
	for i, t := range h.Tools {
		extra[i] = &definitions.Tool{Name: t.Name, Decl: definitions.Decl{Positional: t.Positional}}
	}
	vm, err := runtime.New(runtime.Options{Limits: h.Limits, Libraries: bridge.Remote(extra, h.Limits, s.forward)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "jido worker:", err)
		return 2
	}
	defer vm.Close()
	go s.readCancels(cancels)
	for {
		m, err := s.c.read()
		if err != nil {
			return 0 // the host is gone or closed the connection
		}
		if m.T == tCall {
			s.run(vm, m)
		} // else the answer to a bridge request its call no longer waited for
	}
}

// readCancels cancels the running call when the host writes its id to the cancel pipe.
func (s *server) readCancels(r io.Reader) {
	var b [8]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return
		}
		id := binary.BigEndian.Uint64(b[:])
		s.mu.Lock()
		if s.callID == id && s.cancel != nil {
			s.cancel(errCancelled)
		}
		s.mu.Unlock()
	}
}

// run runs one call and sends its outcome.
func (s *server) run(vm *runtime.VM, m *message) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	s.mu.Lock()
	s.callID, s.cancel = m.ID, cancel
	s.mu.Unlock()
	s.bmu.Lock()
	s.lastVal = nil
	s.bmu.Unlock()
	vals, err := vm.Call(runtime.WithTimeout(context.WithValue(ctx, callKey{}, m.ID), m.Timeout), m.Name, m.Src, m.Args...)
	s.mu.Lock()
	s.callID, s.cancel = 0, nil
	s.mu.Unlock()
	out := &message{T: tDone, ID: m.ID, Values: vals}
	if err != nil {
		re, ok := err.(*runtime.Error)
		if !ok {
			re = &runtime.Error{Kind: runtime.KindInternal, Message: err.Error()}
		}
		out.Values, out.Fail = nil, re
	} else {
		s.bmu.Lock()
		if len(vals) == 1 && sameMap(vals[0], s.lastVal) {
			out.Values, out.Passed = nil, s.seq
		}
		s.bmu.Unlock()
	}
	if err := s.c.send(out); err != nil {
		// A value JSON cannot carry (the host's result had one): say so rather than hang.
		s.c.send(&message{T: tDone, ID: m.ID, Fail: &runtime.Error{Kind: runtime.KindLimit, Message: "the call's result cannot be sent to the host: " + err.Error()}})
	}
}

// sameMap reports whether a and b are the same Go map: a bridge result the VM handed back
// unconverted (runtime.PushResult).
func sameMap(a, b any) bool {
	ma, ok := a.(map[string]any)
	mb, ok2 := b.(map[string]any)
	return ok && ok2 && reflect.ValueOf(ma).UnsafePointer() == reflect.ValueOf(mb).UnsafePointer()
}

// callKey carries the running call's id in its context.
type callKey struct{}

// forward is the Forwarder of the worker's bridge: it asks the host to run the tool and
// reads its answer. The host runs the tool under the call's context and deadline, so it
// answers even a call that is being cancelled.
func (s *server) forward(ctx context.Context, tool string, params map[string]any) (any, *definitions.ToolError) {
	id, _ := ctx.Value(callKey{}).(uint64)
	s.bmu.Lock()
	s.seq++
	seq := s.seq
	s.lastVal = nil
	s.bmu.Unlock()
	if err := s.c.send(&message{T: tBridge, ID: id, Seq: seq, Tool: tool, Params: params}); err != nil {
		return nil, definitions.NewError(definitions.InternalError, "the worker could not send the call of %s to its host: %v", tool, err)
	}
	for {
		m, err := s.c.read()
		if err != nil {
			return nil, definitions.NewError(definitions.InternalError, "the worker lost its host during %s: %v", tool, err)
		}
		if m.T != tResult || m.Seq != seq {
			continue
		}
		if m.Err != nil {
			return nil, m.Err
		}
		s.bmu.Lock()
		s.lastVal = m.Value
		s.bmu.Unlock()
		return m.Value, nil
	}
}
