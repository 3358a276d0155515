package manager

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiffSince(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "gone.txt"), []byte("bye\n"), 0o644))
	s := testSession(t, Config{Root: root, JournalDir: t.TempDir()})
	ctx := t.Context()
	start := time.Now()

	diff, files, err := s.m.DiffSince(start)
	require.NoError(t, err)
	assert.Empty(t, diff)
	assert.Zero(t, files)

	for _, c := range []ToolCall{
		{Name: "read_file", Args: map[string]any{"path": "a.txt"}},
		{Name: "edit_file", Args: map[string]any{"path": "a.txt", "old_string": "two", "new_string": "TWO"}},
		{Name: "edit_file", Args: map[string]any{"path": "a.txt", "old_string": "one", "new_string": "ONE"}},
		{Name: "write_file", Args: map[string]any{"path": "new/b.txt", "content": "fresh\n"}},
		{Name: "delete_file", Args: map[string]any{"path": "gone.txt"}},
	} {
		r := s.Call(ctx, c)
		require.True(t, r.OK, "%s: %+v", c.Name, r.Error)
	}
	diff, files, err = s.m.DiffSince(start)
	require.NoError(t, err)
	assert.Equal(t, 3, files)
	assert.Equal(t, "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n-one\n-two\n+ONE\n+TWO\n"+
		"--- gone.txt\n+++ gone.txt\n@@ -1 +0,0 @@\n-bye\n"+
		"--- new/b.txt\n+++ new/b.txt\n@@ -0,0 +1 @@\n+fresh\n", diff, "from before the first change to now")

	diff, _, err = s.m.DiffSince(time.Now())
	require.NoError(t, err)
	assert.Empty(t, diff, "nothing changed since")

	_, _, err = testSession(t, Config{Root: root}).m.DiffSince(start)
	assert.ErrorContains(t, err, "no journal")
}
