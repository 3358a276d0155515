package runtime

import lua "github.com/yuin/gopher-lua"

// Chunk compiles src (or takes it from the cache) and returns it as a function with a fresh
// environment, to be called by a Go function during a call: a user's Lua tool that jido.call
// runs inside the snippet that called it. The chunk shares the call's deadline, budget and
// limits, and sees only what every snippet sees. A source that does not compile raises a
// Lua error naming the chunk.
func Chunk(L *lua.LState, name, src string) *lua.LFunction {
	st := callOf(L).st
	proto, _, err := compileCached(st.lim, name, src)
	if err != nil {
		L.RaiseError("%s", err.Message)
	}
	env := L.CreateTable(0, 0)
	env.Metatable = st.envMeta
	fn := L.NewFunctionFromProto(proto)
	fn.Env = env
	return fn
}
