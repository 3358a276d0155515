package journal

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/security"
)

// binary is content whose exact bytes must survive: NUL, CR, invalid UTF-8, no final newline.
const binary = "line1\r\nline2\x00\xff\xfe tail"

func TestUndoCreate(t *testing.T) {
	f := newFixture(t, Limits{})
	e := f.change("write_file", []string{"src/new.go"}, func() { f.write("src/new.go", "package src\n") })
	res, err := f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
	assert.Equal(t, &UndoResult{ID: e.ID, UndoID: res.UndoID, Restored: []string{}, Deleted: []string{"src/new.go"}}, res)
	_, _, ok := f.get("src/new.go")
	assert.False(t, ok)
}

func TestUndoEditRestoresExactBytes(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.bin", binary, 0o600)
	e := f.change("edit_file", []string{"a.bin"}, func() { f.write("a.bin", "edited\n") })
	res, err := f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, e.ID, res.ID)
	assert.Equal(t, []string{"a.bin"}, res.Restored)
	assert.Empty(t, res.Deleted)
	content, mode, ok := f.get("a.bin")
	require.True(t, ok)
	assert.Equal(t, binary, content)
	assert.Equal(t, os.FileMode(0o600), mode)
}

func TestUndoModeChange(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("run.sh", "echo hi\n", 0o644)
	f.change("write_file", []string{"run.sh"}, func() {
		f.write("run.sh", "#!/bin/sh\necho hi\n")
		require.NoError(t, os.Chmod(filepath.Join(f.rootDir, "run.sh"), 0o755))
	})
	// A change of the mode alone is undone too.
	f.change("chmod", []string{"run.sh"}, func() {
		require.NoError(t, os.Chmod(filepath.Join(f.rootDir, "run.sh"), 0o700))
	})
	_, err := f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	content, mode, _ := f.get("run.sh")
	assert.Equal(t, "#!/bin/sh\necho hi\n", content)
	assert.Equal(t, os.FileMode(0o755), mode)

	entries := f.list()
	require.Len(t, entries, 3)
	_, err = f.j.Undo(f.root, entries[2].ID, false) // the first change
	require.NoError(t, err)
	content, mode, _ = f.get("run.sh")
	assert.Equal(t, "echo hi\n", content)
	assert.Equal(t, os.FileMode(0o644), mode)
	assert.Empty(t, tempFiles(t, f.rootDir), "no temporary file is left in the project")
}

func TestUndoDeleteRecreates(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("d/e/gone.bin", binary, 0o640)
	f.change("delete_file", []string{"d/e/gone.bin"}, func() {
		require.NoError(t, f.root.Remove("d", true))
	})
	res, err := f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"d/e/gone.bin"}, res.Restored)
	content, mode, ok := f.get("d/e/gone.bin")
	require.True(t, ok, "recreated with its parent directories")
	assert.Equal(t, binary, content)
	assert.Equal(t, os.FileMode(0o640), mode)
}

func TestUndoMultiFileChangeSet(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("edit.txt", "before edit", 0o644)
	f.put("del.txt", "to be deleted", 0o600)
	initial := f.treeHash()
	e := f.change("plan_apply", []string{"new.txt", "edit.txt", "del.txt"}, func() {
		f.write("new.txt", "created")
		f.write("edit.txt", "after edit")
		require.NoError(t, f.root.Remove("del.txt", false))
	})
	changed := f.treeHash()
	require.NotEqual(t, initial, changed)

	res, err := f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"edit.txt", "del.txt"}, res.Restored)
	assert.Equal(t, []string{"new.txt"}, res.Deleted)
	assert.Empty(t, res.Conflicts)
	assert.Equal(t, initial, f.treeHash(), "the tree is exactly as before the change")

	// The undo of the undo (a redo) brings the change back.
	redo, err := f.j.Undo(f.root, res.UndoID, false)
	require.NoError(t, err)
	assert.Equal(t, res.UndoID, redo.ID)
	assert.ElementsMatch(t, []string{"new.txt", "edit.txt"}, redo.Restored)
	assert.Equal(t, []string{"del.txt"}, redo.Deleted)
	assert.Equal(t, changed, f.treeHash())
}

func TestUndoOfUndo(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "v1", 0o644)
	e := f.change("edit_file", []string{"a.txt"}, func() { f.write("a.txt", "v2") })

	u1, err := f.j.Undo(f.root, "", false) // undo
	require.NoError(t, err)
	content, _, _ := f.get("a.txt")
	assert.Equal(t, "v1", content)
	entries := f.list()
	require.Len(t, entries, 2)
	assert.Equal(t, u1.UndoID, entries[0].ID)
	assert.Equal(t, "undo", entries[0].Tool)
	assert.Equal(t, e.ID, entries[0].Undoes)
	assert.True(t, entries[1].Undone)
	assert.Equal(t, u1.UndoID, entries[1].UndoneBy)

	_, err = f.j.Undo(f.root, "", false) // undo entries are skipped: nothing older is left
	require.ErrorIs(t, err, ErrNothingToUndo)
	u2, err := f.j.Undo(f.root, u1.UndoID, false) // a redo is the undo of the undo, by id
	require.NoError(t, err)
	assert.Equal(t, u1.UndoID, u2.ID)
	content, _, _ = f.get("a.txt")
	assert.Equal(t, "v2", content)
	entries = f.list()
	require.Len(t, entries, 3)
	assert.True(t, entries[1].Undone, "the undo entry is undone")
	assert.False(t, entries[2].Undone, "the original change is in effect again")
	assert.Empty(t, entries[2].UndoneBy)

	// Which makes the original change undoable by its ID again.
	_, err = f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
	content, _, _ = f.get("a.txt")
	assert.Equal(t, "v1", content)
}

func TestUndoPicksNewestNotUndone(t *testing.T) {
	f := newFixture(t, Limits{})
	_, err := f.j.Undo(f.root, "", false)
	require.ErrorIs(t, err, ErrNothingToUndo)

	e1 := f.change("write_file", []string{"a.txt"}, func() { f.write("a.txt", "a") })
	e2 := f.change("write_file", []string{"b.txt"}, func() { f.write("b.txt", "b") })
	res, err := f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, e2.ID, res.ID)

	_, err = f.j.Undo(f.root, e2.ID, false)
	require.ErrorIs(t, err, ErrAlreadyUndone)
	assert.Contains(t, err.Error(), res.UndoID, "the error names the undo to undo for a redo")

	// Repeated undos walk back through the history: the undo entry is skipped, and so is e2.
	res, err = f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, e1.ID, res.ID)
	_, _, ok := f.get("a.txt")
	assert.False(t, ok)

	_, err = f.j.Undo(f.root, "../../etc/passwd", false)
	require.Error(t, err)
	_, err = f.j.Undo(f.root, "20200101T000000.000000000Z-00000000", false)
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestUndoConflict(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "original", 0o644)
	f.put("b.txt", "b original", 0o644)
	e := f.change("plan_apply", []string{"a.txt", "b.txt", "c.txt"}, func() {
		f.write("a.txt", "by the change")
		f.write("b.txt", "b by the change")
		f.write("c.txt", "created")
	})
	f.put("a.txt", "edited by the user", 0o644)                            // content changed
	require.NoError(t, os.Chmod(filepath.Join(f.rootDir, "c.txt"), 0o600)) // mode changed
	before := f.treeHash()

	res, err := f.j.Undo(f.root, e.ID, false)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "a.txt")
	assert.Contains(t, err.Error(), "c.txt")
	assert.NotContains(t, err.Error(), "b.txt")
	require.NotNil(t, res)
	assert.Equal(t, []string{"a.txt", "c.txt"}, res.Conflicts)
	assert.Empty(t, res.Restored)
	assert.Empty(t, res.Deleted)
	assert.Equal(t, before, f.treeHash(), "a refused undo changes nothing")
	entries := f.list()
	require.Len(t, entries, 1, "a refused undo is not journaled")
	assert.False(t, entries[0].Undone)

	res, err = f.j.Undo(f.root, e.ID, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt", "c.txt"}, res.Conflicts, "forced: the conflicts are listed")
	assert.Equal(t, []string{"a.txt", "b.txt"}, res.Restored)
	assert.Equal(t, []string{"c.txt"}, res.Deleted)
	content, _, _ := f.get("a.txt")
	assert.Equal(t, "original", content)

	// The forced undo can be undone: the user's edit comes back.
	_, err = f.j.Undo(f.root, res.UndoID, false)
	require.NoError(t, err)
	content, _, _ = f.get("a.txt")
	assert.Equal(t, "edited by the user", content)
	_, mode, _ := f.get("c.txt")
	assert.Equal(t, os.FileMode(0o600), mode)
}

func TestUndoConflictFileDeletedOrCreated(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "a", 0o644)
	e := f.change("plan_apply", []string{"a.txt", "b.txt"}, func() {
		f.write("a.txt", "a2")
	})
	require.NoError(t, os.Remove(filepath.Join(f.rootDir, "a.txt")))
	f.put("b.txt", "appeared", 0o644)
	res, err := f.j.Undo(f.root, e.ID, false)
	require.ErrorIs(t, err, ErrConflict)
	assert.Equal(t, []string{"a.txt", "b.txt"}, res.Conflicts)

	res, err = f.j.Undo(f.root, e.ID, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, res.Restored)
	assert.Equal(t, []string{"b.txt"}, res.Deleted)
	content, _, _ := f.get("a.txt")
	assert.Equal(t, "a", content)
}

func TestUndoRollsBackOnFailure(t *testing.T) {
	f := newFixture(t, Limits{})
	big := string(make([]byte, 4096))
	f.put("a.txt", "a before", 0o644)
	f.put("b.txt", big, 0o644)
	e := f.change("plan_apply", []string{"a.txt", "b.txt"}, func() {
		f.write("a.txt", "a after")
		f.write("b.txt", "b after")
	})
	after := f.treeHash()

	// A root with a smaller size cap cannot write b.txt back: a.txt, restored first, must
	// be rolled back.
	small, err := security.Open(f.rootDir, security.Options{NoSync: true, MaxFileSize: 1024})
	require.NoError(t, err)
	defer small.Close()
	_, err = f.j.Undo(small, e.ID, false)
	require.ErrorIs(t, err, security.ErrTooLarge)
	assert.Equal(t, after, f.treeHash(), "the files restored before the failure are rolled back")
	entries := f.list()
	require.Len(t, entries, 1)
	assert.False(t, entries[0].Undone)

	_, err = f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
	content, _, _ := f.get("b.txt")
	assert.Equal(t, big, content)
}

func TestUndoMissingBlob(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "a", 0o644)
	e := f.change("edit_file", []string{"a.txt"}, func() { f.write("a.txt", "b") })
	require.NoError(t, os.Remove(f.j.BackupPath(e, "a.txt")))
	before := f.treeHash()
	_, err := f.j.Undo(f.root, e.ID, true)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Equal(t, before, f.treeHash())
}

// tempFiles lists the temporary files (security.IsTempName) under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && security.IsTempName(d.Name()) {
			out = append(out, p)
		}
		return err
	}))
	return out
}
