package manager

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTodoExportFollowsWriteFileRules checks todo_write and task through a session: the
// board needs no approval, a location must exist inside the root, and export is a write:
// refused headless, redacted, journaled (undo removes it), inside the root only.
func TestTodoExportFollowsWriteFileRules(t *testing.T) {
	const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	headless, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault)})
	create := ToolCall{Name: "todo_write", Args: map[string]any{"action": "create", "title": "rotate the key", "note": "it was " + token,
		"location": map[string]any{"path": "a.txt", "line": 1}}}
	r := headless.Call(t.Context(), create)
	require.True(t, r.OK, "no approval for the board: %+v", r.Error)
	r = headless.Call(t.Context(), ToolCall{Name: "todo_write", Args: map[string]any{"action": "export"}})
	assert.Equal(t, "permission-error", errType(r), "export is a write, asked about")
	r = headless.Call(t.Context(), ToolCall{Name: "todo_write", Args: map[string]any{"action": "create", "title": "x",
		"location": map[string]any{"path": "nope.go"}}})
	assert.Equal(t, "validation-error", errType(r))
	r = headless.Call(t.Context(), ToolCall{Name: "task", Args: map[string]any{"action": "create", "title": "x",
		"links": []any{map[string]any{"path": "../outside.txt"}}}})
	assert.Equal(t, "validation-error", errType(r), "links stay inside the root")

	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Yes: true, JournalDir: t.TempDir()})
	require.True(t, s.Call(t.Context(), create).OK)
	r = s.Call(t.Context(), ToolCall{Name: "todo_write", Args: map[string]any{"action": "export"}})
	require.True(t, r.OK, "%+v", r.Error)
	res, err := ResultAs[definitions.TodoWriteResult](r)
	require.NoError(t, err)
	assert.Equal(t, "docs/TODO.md", res.Path)
	assert.NotEmpty(t, res.ChangeID, "journaled")
	data, err := os.ReadFile(filepath.Join(root, "docs", "TODO.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "- [ ] rotate the key (`a.txt:1`)")
	assert.NotContains(t, string(data), token, "secrets in notes are redacted on export")
	r = s.Call(t.Context(), ToolCall{Name: "task", Args: map[string]any{"action": "export", "export_path": "../roadmap.md"}})
	assert.Equal(t, "permission-error", errType(r), "the export path stays inside the root")
	r = s.Call(t.Context(), ToolCall{Name: "task", Args: map[string]any{"action": "export", "export_path": ".env"}})
	assert.Equal(t, "permission-error", errType(r), "not a secret file")

	require.True(t, s.Call(t.Context(), ToolCall{Name: "undo"}).OK)
	assert.NoFileExists(t, filepath.Join(root, "docs", "TODO.md"), "undo removes the export")
}
