package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	lua "github.com/yuin/gopher-lua"
)

// callCtx is the context of one call, set on the LState with SetContext. It is done when the
// call's Lua time runs out (its clock), the caller's context ends, its memory budget or its
// instruction budget runs out. gopher-lua polls Done before every VM instruction (research 1.3), so Done
// counts instructions: that count is the budget, and pattern matching spends from it too.
type callCtx struct {
	context.Context
	cancel context.CancelCauseFunc // cancels with errTimeout, errBudget or errMemory
	clock  *Clock                  // the call's Lua time; stopped while a host function runs
	left   atomic.Int64            // instructions left
	st     *state
	used   int64 // bytes of Lua data the call allocated (charge); the owner goroutine's

	// Set by the owner goroutine while the call runs.
	limitMsg string // the last refusal of a capped builtin, to classify the error it raised
	internal string // a Go panic recovered under the call
	broken   bool   // a panic escaped PCall: the LState may be inconsistent
	result   passResult
}

// newCallCtx starts the context of a call on st, under the caller's parent.
func newCallCtx(parent context.Context, st *state) *callCtx {
	ctx, cancel := context.WithCancelCause(parent)
	c := &callCtx{Context: ctx, cancel: cancel, st: st}
	c.left.Store(st.lim.Instructions)
	c.clock = StartClock(TimeoutOf(parent, st.lim.Timeout), func() { cancel(errTimeout) })
	return c
}

// Done counts one instruction and returns the done channel, cancelling the call first when the
// budget is used up.
func (c *callCtx) Done() <-chan struct{} {
	if c.left.Add(-1) < 0 {
		c.cancel(errBudget)
	}
	return c.Context.Done()
}

// spend charges n steps of Go work (pattern matching, long loops in builtins) to the budget and
// raises the cancellation on L if the call is over, as the VM would at its next instruction.
func (c *callCtx) spend(L *lua.LState, n int64) {
	if c.left.Add(-n) < 0 {
		c.cancel(errBudget)
	}
	if c.Err() != nil {
		L.RaiseError("%s", context.Cause(c))
	}
}

// charge counts n bytes of Lua data the call is about to allocate (a string, a table, a
// table's growth, a closure, a converted value) and refuses them, ending the call, when they
// would take it over its MaxMemory: the allocation never happens. gopher-lua calls it through
// LState.Charge (the patch in third_party/gopher-lua), the capped builtins and ToLua directly.
func (c *callCtx) charge(L *lua.LState, n int64) {
	c.used += n
	if c.used > int64(min(c.st.lim.MaxMemory, math.MaxInt64)) {
		c.cancel(errMemory)
		L.RaiseError("%s", context.Cause(c))
	}
}

// reraise raises again, after a pcall or xpcall, what the snippet must not catch: the end of the
// call and a recovered Go panic.
func (c *callCtx) reraise(L *lua.LState) {
	if c.Err() != nil {
		L.RaiseError("%s", context.Cause(c))
	}
	if c.internal != "" {
		L.RaiseError("internal error: %s", c.internal)
	}
}

// release frees the call's clock.
func (c *callCtx) release() {
	c.clock.Release()
	c.cancel(nil)
}

// failure is the error of a call whose context is done, or nil.
func (c *callCtx) failure() *Error {
	if c.Err() == nil {
		return nil
	}
	lim := c.st.lim
	switch cause := context.Cause(c); {
	case errors.Is(cause, errBudget):
		return newError(KindBudget, "the call used up its budget of %d instructions", lim.Instructions)
	case errors.Is(cause, errMemory):
		return newError(KindMemory, "the call would allocate more than %d bytes of Lua data (strings, tables, closures)", lim.MaxMemory)
	case errors.Is(cause, errTimeout):
		return newError(KindTimeout, "the snippet's Lua work ran past its limit of %v (time spent in jido.* calls does not count)", c.clock.limit)
	default:
		return newError(KindCancelled, "the caller's context ended: %v", cause)
	}
}

// luaError is the error of a call that raised obj.
func (c *callCtx) luaError(obj lua.LValue) *Error {
	switch v := obj.(type) {
	case lua.LString:
		kind := KindRuntime
		if c.limitMsg != "" && strings.HasSuffix(string(v), c.limitMsg) {
			kind = KindLimit
		}
		return &Error{Kind: kind, Message: truncate(string(v))}
	case lua.LNumber:
		return &Error{Kind: KindRuntime, Message: v.String()}
	case *lua.LTable:
		e := &Error{Kind: KindRuntime, Message: "(error object is a table value)"}
		if msg, ok := v.RawGetString("message").(lua.LString); ok {
			e.Message = truncate(string(msg))
		}
		e.Value, _ = ToGo(v, c.st.lim, true)
		return e
	default:
		return &Error{Kind: KindRuntime, Message: fmt.Sprintf("(error object is a %s value)", obj.Type())}
	}
}

// callOf returns the call running on L. Every sandbox builtin runs inside a call.
func callOf(L *lua.LState) *callCtx {
	c, ok := L.Context().(*callCtx)
	if !ok {
		panic("runtime: sandbox builtin called outside a call")
	}
	return c
}

// raiseLimit raises the refusal of a capped builtin, remembered so that the call's error is a
// KindLimit if the snippet does not catch it.
func raiseLimit(L *lua.LState, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	callOf(L).limitMsg = msg
	L.RaiseError("%s", msg)
}
