package manager

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSeed001WorkedExample runs seed 001's example: buffer_create hello.py with content and
// a mode, then buffer_save to ./hello.py, which ends with the file on disk; undo takes it back.
func TestSeed001WorkedExample(t *testing.T) {
	const hello = "def hello_world():\n    print('Hello, World!')\n\nif __name__ == '__main__':\n    hello_world()\n"
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Yes: true, JournalDir: t.TempDir()})
	r := s.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "hello.py", "content": hello, "mode": "python-mode"}})
	require.True(t, r.OK, "%+v", r.Error)
	created, err := ResultAs[definitions.BufferCreateResult](r)
	require.NoError(t, err)
	assert.Equal(t, "Buffer 'hello.py' created with 5 lines", created.Message)
	assert.Equal(t, 5, created.Lines)

	r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "hello.py", "file_path": "./hello.py"}})
	require.True(t, r.OK, "%+v", r.Error)
	saved, err := ResultAs[definitions.BufferSaveResult](r)
	require.NoError(t, err)
	assert.Equal(t, "hello.py", saved.Path)
	assert.True(t, saved.Created)
	assert.NotEmpty(t, saved.ChangeID, "journaled")
	data, err := os.ReadFile(filepath.Join(root, "hello.py"))
	require.NoError(t, err)
	assert.Equal(t, hello, string(data))

	r = s.Call(t.Context(), ToolCall{Name: "buffer_list", Args: map[string]any{}})
	require.True(t, r.OK)
	list, err := ResultAs[definitions.BufferListResult](r)
	require.NoError(t, err)
	require.Len(t, list.Buffers, 1)
	assert.Equal(t, definitions.BufferInfo{Name: "hello.py", Mode: "python-mode", Lines: 5, Bytes: len(hello), Point: 1, File: "hello.py"}, list.Buffers[0])

	require.True(t, s.Call(t.Context(), ToolCall{Name: "undo"}).OK)
	assert.NoFileExists(t, filepath.Join(root, "hello.py"), "undo removes the saved file")
}

// TestBufferSaveFollowsWriteFileRules: the buffer tools need no approval (they change the
// session's buffers only) but buffer_save is a write: refused headless and in read-only
// mode, inside the root only, never a secret, and refused by the parse guard as write_file
// is (an unbalanced Lisp buffer saved to a .el file).
func TestBufferSaveFollowsWriteFileRules(t *testing.T) {
	for _, mode := range []policy.Mode{policy.ModeDefault, policy.ModeReadOnly} {
		headless, root := gatedSession(t, Config{Permissions: policy.New(mode)})
		r := headless.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "b", "content": "x\n"}})
		require.True(t, r.OK, "%s: no approval for a buffer: %+v", mode, r.Error)
		for _, c := range []ToolCall{
			{Name: "buffer_append", Args: map[string]any{"buffer_name": "b", "text": "y\n"}},
			{Name: "buffer_edit", Args: map[string]any{"buffer_name": "b", "old_text": "y", "new_text": "z"}},
			{Name: "buffer_get_content", Args: map[string]any{"buffer_name": "b"}},
			{Name: "buffer_list", Args: map[string]any{}},
			{Name: "goto_line", Args: map[string]any{"buffer_name": "b", "line_number": 2}},
			{Name: "search_in_buffer", Args: map[string]any{"buffer_name": "b", "search_text": "z"}},
			{Name: "current_directory", Args: map[string]any{}},
		} {
			r := headless.Call(t.Context(), c)
			assert.True(t, r.OK, "%s: %s needs no approval: %+v", mode, c.Name, r.Error)
		}
		r = headless.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "b", "file_path": "b.txt"}})
		assert.Equal(t, "permission-error", errType(r), "%s: buffer_save is a write, asked about", mode)
		assert.NoFileExists(t, filepath.Join(root, "b.txt"))
	}

	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Yes: true, JournalDir: t.TempDir()})
	require.True(t, s.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "init.el", "content": "(defun f ()\n  (message \"hi\")\n"}}).OK)
	r := s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "init.el", "file_path": "init.el"}})
	require.Equal(t, "validation-error", errType(r), "an unbalanced Lisp buffer is refused: %+v", r.Error)
	assert.Contains(t, r.Error.Message, "stop parsing")
	assert.NoFileExists(t, filepath.Join(root, "init.el"))
	require.True(t, s.Call(t.Context(), ToolCall{Name: "buffer_append", Args: map[string]any{"buffer_name": "init.el", "text": ")\n"}}).OK)
	r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "init.el", "file_path": "init.el"}})
	require.True(t, r.OK, "balanced now: %+v", r.Error)
	assert.FileExists(t, filepath.Join(root, "init.el"))

	for _, c := range []struct{ path, typ string }{
		{"../outside.txt", "permission-error"},
		{".env", "permission-error"},
		{filepath.Join(filepath.Dir(root), "x.txt"), "permission-error"},
	} {
		r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "init.el", "file_path": c.path}})
		assert.Equal(t, c.typ, errType(r), "%s: %+v", c.path, r.Error)
	}
	r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "nope", "file_path": "a.txt"}})
	assert.Equal(t, "validation-error", errType(r), "an unknown buffer")

	// Saving over a file replaces it, read or not; a dry run shows the diff and writes nothing.
	require.True(t, s.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "a", "content": "new\n"}}).OK)
	r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "a", "file_path": "a.txt", "dry_run": true}})
	require.True(t, r.OK, "%+v", r.Error)
	dry, err := ResultAs[definitions.BufferSaveResult](r)
	require.NoError(t, err)
	assert.Contains(t, dry.Diff, "+new")
	data, _ := os.ReadFile(filepath.Join(root, "a.txt"))
	assert.Equal(t, "old\n", string(data), "a dry run writes nothing")
	r = s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "a", "file_path": "a.txt"}})
	require.True(t, r.OK, "%+v", r.Error)
	data, _ = os.ReadFile(filepath.Join(root, "a.txt"))
	assert.Equal(t, "new\n", string(data))
}

// TestCurrentDirectoryIsTheRoot: current_directory names the project root, absolute, and
// the session's working directory in it.
func TestCurrentDirectoryIsTheRoot(t *testing.T) {
	s, root := gatedSession(t, Config{})
	r := s.Call(t.Context(), ToolCall{Name: "current_directory"})
	require.True(t, r.OK, "%+v", r.Error)
	res, err := ResultAs[definitions.CurrentDirectoryResult](r)
	require.NoError(t, err)
	want, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	got, err := filepath.EvalSymlinks(res.Root)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.True(t, filepath.IsAbs(res.Root))
	assert.Equal(t, ".", res.WorkingDirectory)
	assert.Equal(t, res.Root, res.Path)
}

// TestBuffersInPlanMode: in plan mode buffer_save writes into the plan, not
// the disk.
func TestBuffersInPlanMode(t *testing.T) {
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModePlan), Yes: true})
	require.True(t, s.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "n", "content": "planned\n"}}).OK)
	r := s.Call(t.Context(), ToolCall{Name: "buffer_save", Args: map[string]any{"buffer_name": "n", "file_path": "n.txt"}})
	require.True(t, r.OK, "%+v", r.Error)
	assert.NoFileExists(t, filepath.Join(root, "n.txt"), "the plan holds it")
	r = s.Call(t.Context(), ToolCall{Name: "plan_diff"})
	require.True(t, r.OK, "%+v", r.Error)
	diff, err := ResultAs[definitions.PlanResult](r)
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprintf("%+v", diff), "n.txt")
}
