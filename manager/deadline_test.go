package manager

import (
	"testing"
	"time"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolTimeIsTheTools: a command longer than the session's Lua time limit finishes
// (the VM's clock stops while a tool waits), in process and in a worker; a snippet whose
// own Lua runs past it fails with limit=lua_time.
func TestToolTimeIsTheTools(t *testing.T) {
	for _, isolation := range []string{IsolationProcess, IsolationWorker} {
		t.Run(isolation, func(t *testing.T) {
			s := testSession(t, Config{Root: t.TempDir(), Isolation: isolation, Limits: runtime.Limits{Timeout: 300 * time.Millisecond, Instructions: 1 << 50}})
			res := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "sleep 1.2; echo done"}})
			require.True(t, res.OK, "%+v", res.Error)
			var out struct {
				Stdout string `json:"stdout"`
			}
			require.NoError(t, res.Decode(&out))
			assert.Equal(t, "done\n", out.Stdout)

			vals, terr := s.Eval(t.Context(), `local r = jido.run_shell{command = "sleep 1.2; echo again"} return r.stdout`)
			require.Nil(t, terr, "an eval waiting for a command")
			assert.Equal(t, []any{"again\n"}, vals)

			_, terr = s.Eval(t.Context(), `jido.run_shell{command = "true"} while true do end`)
			require.NotNil(t, terr)
			assert.Equal(t, definitions.TimeoutError, terr.Type)
			assert.Equal(t, "lua_time", terr.Details["limit"], "%+v", terr)
		})
	}
}

// TestCallTimeout: a call's own timeout (meta.timeout) cuts a command short with a
// timeout-error naming it, lengthens the Lua time limit, and is refused past
// MaxCallTimeout.
func TestCallTimeout(t *testing.T) {
	s := testSession(t, Config{Root: t.TempDir(), Limits: runtime.Limits{Timeout: time.Millisecond, Instructions: 1 << 50}})

	res := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "sleep 30", "timeout": 60}, Meta: CallMeta{Timeout: 0.5}})
	require.False(t, res.OK)
	assert.Equal(t, definitions.TimeoutError, res.Error.Type)
	assert.Equal(t, "the call ran past its deadline of 500ms", res.Error.Message)
	assert.Equal(t, "call", res.Error.Details["limit"])
	assert.Contains(t, res.Error.Recovery[0], "longer timeout (at most 1h)")

	for _, bad := range []float64{-1, 2 * 3600} {
		res = s.Call(t.Context(), ToolCall{Name: "list_dir", Meta: CallMeta{Timeout: bad}})
		require.False(t, res.OK)
		assert.Equal(t, definitions.ValidationError, res.Error.Type)
		assert.Equal(t, "meta.timeout", res.Error.Details["field"])
	}

	const loop = "local n = 0 for i = 1, 2000000 do n = n + 1 end return n"
	_, terr := s.Eval(t.Context(), loop)
	require.NotNil(t, terr, "the loop takes more than the session's 1 ms of Lua time")
	ctx, cancel := WithTimeout(t.Context(), time.Hour)
	defer cancel()
	vals, terr := s.Eval(ctx, loop)
	require.Nil(t, terr, "a call's own timeout lengthens it")
	assert.Equal(t, []any{int64(2000000)}, vals)
}
