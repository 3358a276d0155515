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

// readAll makes the session read every named file of f's root.
func readAll(t *testing.T, f *Files, names ...string) {
	t.Helper()
	for _, n := range names {
		_, err := f.ReadFile(t.Context(), definitions.ReadFileParams{Path: n, Limit: 100, MaxBytes: 10000, LineNumbers: true})
		require.NoError(t, err, n)
	}
}

// TestMultiFileCommitRollsBack makes the second write of a two-file multi_edit fail (the file
// changed behind the session's back after it was planned): the first file must be restored.
func TestMultiFileCommitRollsBack(t *testing.T) {
	f, dir := newFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.txt"), []byte("bee\n"), 0o644))
	readAll(t, f, "b.txt")

	cs := newChangeSet(f, false)
	for _, e := range []struct{ path, old, new string }{{"a.txt", "old", "NEW"}, {"b.txt", "bee", "BEE"}} {
		fc, err := cs.file(e.path)
		require.NoError(t, err)
		_, err = applyText(fc, definitions.EditOp{OldString: &e.old, NewString: &e.new})
		require.NoError(t, err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.txt"), []byte("changed\n"), 0o644))

	err := cs.commit(t.Context())
	require.ErrorIs(t, err, security.ErrChanged)
	a, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.txt"))
	assert.Equal(t, "old\n", string(a), "the file written first is restored")
	assert.Equal(t, "changed\n", string(b), "the other writer's change is kept")
}

func TestCommitRemovesCreatedFilesOnRollback(t *testing.T) {
	f, dir := newFiles(t)
	cs := newChangeSet(f, false)
	created, err := cs.file("new.txt")
	require.NoError(t, err)
	empty, text := "", "hello\n"
	_, err = applyText(created, definitions.EditOp{OldString: &empty, NewString: &text})
	require.NoError(t, err)
	existing, err := cs.file("a.txt")
	require.NoError(t, err)
	existing.after = "planned\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644))

	require.Error(t, cs.commit(t.Context()))
	_, err = os.Stat(filepath.Join(dir, "new.txt"))
	assert.True(t, os.IsNotExist(err), "a file the failed commit created is removed again")
}

func TestParseGuard(t *testing.T) {
	cases := []struct {
		name, path    string
		existed       bool
		before, after string
		refused       bool
	}{
		{"valid stays valid", "a.json", true, `{"a":1}`, `{"a":2}`, false},
		{"valid becomes invalid", "a.json", true, `{"a":1}`, `{"a":}`, true},
		{"broken stays broken", "a.json", true, `{"a":`, `{"a":}`, false},
		{"new invalid file", "new.go", false, "", "package", true},
		{"unchecked kind", "a.txt", true, "x", "((", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := parseGuard(c.path, c.existed, c.before, c.after)
			if !c.refused {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			te := toolError(err)
			assert.Equal(t, definitions.ValidationError, te.Type)
			assert.Contains(t, te.Details, "line")
			assert.Contains(t, te.Recovery[1], "force")
		})
	}
}

func TestMultiEditStopsAtTheDeadline(t *testing.T) {
	f, dir := newFiles(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	edits := make([]definitions.EditOp, 10_000)
	for i := range edits {
		edits[i] = definitions.EditOp{OldString: new("old"), NewString: new("new")}
	}
	_, err := f.MultiEdit(ctx, definitions.MultiEditParams{Path: "a.txt", Edits: edits, StopOnError: false})
	require.Error(t, err)
	assert.Equal(t, definitions.TimeoutError, toolError(err).Type)
	data, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	assert.Equal(t, "old\n", string(data))
}
