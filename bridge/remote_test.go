package bridge

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRemoteForwardsThroughTheHost: a Remote library converts its arguments as the
// in-process one does (named, positional, jido.call) and its Host runs them through the
// session's gate.
func TestRemoteForwardsThroughTheHost(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	defer root.Close()
	gate := &recordingGate{deny: map[string]bool{"delete_file": true}}
	host := NewHost(Deps{Tools: builtin.Deps{Root: root, Reads: builtin.NewReadLog(), Gate: gate}})
	var forwarded []string
	fwd := func(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
		forwarded = append(forwarded, tool)
		return host.Run(ctx, tool, args)
	}
	vm, err := runtime.New(runtime.Options{Libraries: Remote(nil, runtime.Limits{}, fwd)})
	require.NoError(t, err)
	defer vm.Close()

	vals, err := vm.Call(t.Context(), "test", `return jido.read_file("a.txt").content, jido.call("read_file", {path = "a.txt"}).path`)
	require.NoError(t, err)
	assert.Equal(t, []any{"     1\told\n", "a.txt"}, vals)
	vals, err = vm.Call(t.Context(), "test", `local r, e = jido.delete_file{path = "a.txt"} return r, e.type`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil, "permission-error"}, vals)
	vals, err = vm.Call(t.Context(), "test", `local r, e = jido.call("no_such_tool", {}) return r, e.type`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil, "validation-error"}, vals, "no fallback: an unknown name")
	assert.Equal(t, []string{"read_file", CallTool, "delete_file", UserToolBegin}, forwarded)
	assert.Equal(t, []string{"read_file", "read_file", "delete_file"}, gate.calls)
	vals, err = vm.Call(t.Context(), "test", `local r, e = jido.read_file("a.txt", 43) return r, e.type`)
	require.NoError(t, err)
	assert.Equal(t, []any{nil, "validation-error"}, vals, "checked here, as in process: nothing forwarded")
	assert.Len(t, forwarded, 4)
}

// TestHostRefusesAStrayEnd: a worker that ends a user tool it never began, or begins an
// unknown one, gets an error, not a panic.
func TestHostRefusesAStrayEnd(t *testing.T) {
	root, err := security.Open(t.TempDir(), security.Options{})
	require.NoError(t, err)
	defer root.Close()
	host := NewHost(Deps{Tools: builtin.Deps{Root: root, Reads: builtin.NewReadLog()}})
	_, terr := host.Run(t.Context(), UserToolEnd, map[string]any{"result": 1})
	require.NotNil(t, terr)
	assert.Equal(t, definitions.InternalError, terr.Type)
	_, terr = host.Run(t.Context(), UserToolBegin, map[string]any{"tool": "no_such_tool"})
	require.NotNil(t, terr)
	assert.Equal(t, definitions.ValidationError, terr.Type)
	host.Settle(func() *definitions.ToolError { t.Fatal("nothing was left open"); return nil })
}
