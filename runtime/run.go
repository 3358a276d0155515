package runtime

import (
	"context"

	lua "github.com/yuin/gopher-lua"
)

// run calls proto with args in a fresh environment under the call's context and classifies
// the outcome. discard reports that the LState may be inconsistent. The call is published
// in stop while it runs, so that VM.Abort can end it.
func (st *state) run(ctx context.Context, proto *lua.FunctionProto, args []any, stop *stopper) (vals []any, err *Error, discard bool) {
	c := newCallCtx(ctx, st)
	defer c.release()
	stop.enter(c)
	defer stop.leave()
	st.L.SetContext(c)
	defer st.L.RemoveContext()

	raised, failed, escaped := st.exec(c, proto, args)
	switch {
	case c.Err() != nil: // the snippet may have "returned" after its deadline
		return nil, c.failure(), true
	case c.internal != "":
		return nil, newError(KindInternal, "a Go panic was recovered: %s", c.internal), true
	case escaped != nil:
		if ae, ok := escaped.(*lua.ApiError); ok {
			return nil, c.luaError(ae.Object), true
		}
		return nil, newError(KindInternal, "a Go panic was recovered: %v", escaped), true
	case failed:
		return nil, c.luaError(raised), c.broken
	}
	defer st.L.SetTop(0)
	if v, ok := c.passedThrough(st.L); ok {
		return []any{v}, nil, c.broken
	}
	conv := newConverter(st.lim, true)
	vals = make([]any, st.L.GetTop())
	for i := range vals {
		if vals[i], err = conv.value(st.L.Get(i+1), 0); err != nil {
			return nil, err, c.broken
		}
	}
	return vals, nil, c.broken
}

// exec pushes the chunk with its environment and args and calls it in protected mode. A panic
// that escapes PCall is returned as escaped.
func (st *state) exec(c *callCtx, proto *lua.FunctionProto, args []any) (raised lua.LValue, failed bool, escaped any) {
	defer func() {
		if r := recover(); r != nil {
			escaped = r
		}
	}()
	L := st.L
	env := L.CreateTable(0, 0)
	env.Metatable = st.envMeta
	fn := L.NewFunctionFromProto(proto)
	fn.Env = env
	L.Push(fn)
	for _, a := range args {
		L.Push(ToLua(L, a))
	}
	raised, failed = c.protect(L, len(args))
	return raised, failed, nil
}
