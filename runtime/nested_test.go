package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// nestLib has run(src, ...): it runs src as a nested chunk with the remaining arguments, as
// jido.call runs a user's tool inside the snippet that called it.
func nestLib() Library {
	return Library{Name: "nest", Funcs: map[string]lua.LGFunction{"run": func(L *lua.LState) int {
		fn := Chunk(L, "nested.lua", L.CheckString(1))
		L.Remove(1)
		L.Insert(fn, 1)
		L.Call(L.GetTop()-1, lua.MultRet)
		return L.GetTop()
	}}}
}

func TestChunk(t *testing.T) {
	vm := newVM(t, Limits{Instructions: 100_000}, nestLib())
	cases := []struct {
		name, src string
		want      []any
		kind      Kind
		msg       string
	}{
		{name: "values and arguments", src: `return nest.run("return ... + 1, 'x'", 41)`, want: []any{int64(42), "x"}},
		{name: "fresh environment", src: `secret = 1 return nest.run("leak = 2 return secret"), leak`, want: []any{nil, nil}},
		{name: "same sandbox", src: `return nest.run("return os, io, load, require, debug")`, want: []any{nil, nil, nil, nil, nil}},
		{name: "errors reach the caller", src: `return pcall(nest.run, "error('boom')")`, want: []any{false, "nested.lua:1: boom"}},
		{name: "a syntax error names the chunk", src: `return nest.run("return +")`, kind: KindRuntime, msg: "nested.lua"},
		{name: "the call's budget", src: `return nest.run("while true do end")`, kind: KindBudget},
		{name: "read-only libraries", src: `return nest.run("string.rep = nil")`, kind: KindRuntime, msg: "read-only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := run(t, vm, tc.src)
			if tc.kind != "" {
				require.NotNil(t, err, "values: %v", vals)
				assert.Equal(t, tc.kind, err.Kind, err.Message)
				assert.Contains(t, err.Message, tc.msg)
				return
			}
			require.Nil(t, err)
			assert.Equal(t, tc.want, vals)
		})
	}
}
