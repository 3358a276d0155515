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

// recordingGate refuses the tools in deny and records every call and its preview.
type recordingGate struct {
	deny     map[string]bool
	calls    []string
	previews []any
}

func (g *recordingGate) Check(ctx context.Context, c builtin.Call) *definitions.ToolError {
	g.calls = append(g.calls, c.Tool.Name)
	if c.Preview != nil {
		res, err := c.Preview(ctx)
		if err == nil {
			g.previews = append(g.previews, res)
		}
	}
	if g.deny[c.Tool.Name] {
		return definitions.NewError(definitions.PermissionError, "%s is denied", c.Tool.Name)
	}
	return nil
}

// TestEveryRouteGoesThroughTheGate calls a mutating tool directly and through jido.call
// under a gate that denies it: the file never changes, and the gate saw a dry-run preview.
func TestEveryRouteGoesThroughTheGate(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	defer root.Close()
	gate := &recordingGate{deny: map[string]bool{"edit_file": true, "delete_file": true}}
	vm, err := runtime.New(runtime.Options{Libraries: Libraries(Deps{Tools: builtin.Deps{Root: root, Reads: builtin.NewReadLog(), Gate: gate}})})
	require.NoError(t, err)
	defer vm.Close()

	for _, src := range []string{
		`assert(jido.read_file{path="a.txt"}) return jido.edit_file{path="a.txt", old_string="old", new_string="new"}`,
		`return jido.call("edit_file", {path="a.txt", old_string="old", new_string="new"})`,
		`return jido.call("delete_file", {path="a.txt"})`,
		`return pcall(jido.delete_file, {path="a.txt"})`,
	} {
		vals, err := vm.Call(t.Context(), "test", src)
		require.NoError(t, err, src)
		terr, ok := vals[len(vals)-1].(map[string]any)
		require.True(t, ok, "%s: %v", src, vals)
		assert.Equal(t, "permission-error", terr["type"], src)
	}
	data, err := os.ReadFile(filepath.Join(dir, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(data), "a denied call changes nothing")
	assert.Equal(t, []string{"read_file", "edit_file", "edit_file", "delete_file", "delete_file"}, gate.calls, "read-only tools pass the gate too")
	require.NotEmpty(t, gate.previews)
	assert.Contains(t, gate.previews[0].(*definitions.EditFileResult).Diff, "+new", "the gate sees the diff before deciding")
}
