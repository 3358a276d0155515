package builtin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newFiles returns the files module over a fresh root holding a.txt, which the session has read.
func newFiles(t *testing.T) (*Files, string) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	f := &Files{Deps{Root: root, Store: Disk(root), Reads: NewReadLog()}}
	_, err = f.ReadFile(t.Context(), definitions.ReadFileParams{Path: "a.txt", Limit: 10, MaxBytes: 1000})
	require.NoError(t, err)
	return f, dir
}

// TestNoChangeAfterTheCallerGaveUp checks that a mutating tool whose call context has ended
// changes nothing: the caller has already been told that the call timed out.
func TestNoChangeAfterTheCallerGaveUp(t *testing.T) {
	f, dir := newFiles(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	mutations := map[string]func() error{
		"write": func() error {
			_, err := f.WriteFile(ctx, definitions.WriteFileParams{Path: "a.txt", Content: "new\n"})
			return err
		},
		"create": func() error {
			_, err := f.WriteFile(ctx, definitions.WriteFileParams{Path: "b.txt", Content: "b", CreateIfMissing: true})
			return err
		},
		"edit": func() error {
			_, err := f.EditFile(ctx, definitions.EditFileParams{Path: "a.txt", OldString: "old", NewString: "new"})
			return err
		},
		"edit-new": func() error {
			_, err := f.EditFile(ctx, definitions.EditFileParams{Path: "c.txt", NewString: "c"})
			return err
		},
		"multiedit": func() error {
			_, err := f.MultiEdit(ctx, definitions.MultiEditParams{Path: "a.txt", Edits: []definitions.EditOp{{OldString: new("old"), NewString: new("x")}}})
			return err
		},
		"delete": func() error { _, err := f.DeleteFile(ctx, definitions.DeleteFileParams{Path: "a.txt"}); return err },
		"move": func() error {
			_, err := f.MoveFile(ctx, definitions.MoveFileParams{Source: "a.txt", Destination: "d.txt"})
			return err
		},
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			err := mutate()
			require.Error(t, err)
			assert.Equal(t, definitions.TimeoutError, toolError(err).Type)
			data, rerr := os.ReadFile(filepath.Join(dir, "a.txt"))
			require.NoError(t, rerr)
			assert.Equal(t, "old\n", string(data))
			entries, rerr := os.ReadDir(dir)
			require.NoError(t, rerr)
			assert.Len(t, entries, 1, "nothing created")
		})
	}
}
