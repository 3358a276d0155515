package journal

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crash simulates the death of the process that began p: its record stays, unlocked.
func crash(p *Pending) { p.record.Close() }

// pendingFiles lists the journal's pending records.
func (f *fixture) pendingFiles() []string {
	des, err := os.ReadDir(f.j.pendingDir())
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(f.t, err)
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// applyChange makes the test's multi-file change: an edit, a creation in new
// directories, and a deletion.
func (f *fixture) applyChange() {
	f.write("a.txt", "A2")
	f.write("new/deep/c.txt", "C")
	require.NoError(f.t, f.root.Remove("b.txt", false))
}

func TestRecoverRollsBackADeadChangeSet(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "A1", 0o640)
	f.put("b.txt", "B1", 0o755)
	before := f.treeHash()

	p, err := f.j.Begin(f.root, "plan_apply", "plan_apply 3 files", "a.txt", "b.txt", "new/deep/c.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"new/deep", "new"}, p.rec.NewDirs)
	f.applyChange()
	crash(p)

	ids, err := f.open(Limits{}).Recover(f.root)
	require.NoError(t, err)
	assert.Equal(t, []string{p.rec.ID}, ids)
	assert.Equal(t, before, f.treeHash(), "the files, their modes and the new directories are back")
	assert.Empty(t, f.pendingFiles())
	assert.Empty(t, f.list(), "a rolled-back change set is not journaled")
}

func TestRecoverLeavesALiveChangeSet(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "A1", 0o644)
	f.put("b.txt", "B1", 0o644)
	p, err := f.j.Begin(f.root, "plan_apply", "plan_apply", "a.txt", "b.txt", "new/deep/c.txt")
	require.NoError(t, err)
	f.applyChange()
	after := f.treeHash()

	ids, err := f.open(Limits{}).Recover(f.root)
	require.NoError(t, err)
	assert.Empty(t, ids, "the record is locked by a live change")
	assert.Equal(t, after, f.treeHash())

	e, err := p.Commit(f.root)
	require.NoError(t, err)
	assert.Equal(t, p.rec.ID, e.ID)
	assert.Empty(t, f.pendingFiles())
	entries := f.list()
	require.Len(t, entries, 1)
	assert.Equal(t, "plan_apply", entries[0].Tool)

	_, err = f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
	content, _, ok := f.get("a.txt")
	assert.True(t, ok)
	assert.Equal(t, "A1", content)
}

func TestRecoverDropsTheRecordOfACommittedChange(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "A1", 0o644)
	f.put("b.txt", "B1", 0o644)
	p, err := f.j.Begin(f.root, "plan_apply", "plan_apply", "a.txt", "b.txt", "new/deep/c.txt")
	require.NoError(t, err)
	f.applyChange()
	after := f.treeHash()
	require.NoError(t, f.j.locked(func() error { _, err := f.j.commitAs(f.root, p.rec); return err }))
	crash(p) // died between the entry and the record's removal

	ids, err := f.open(Limits{}).Recover(f.root)
	require.NoError(t, err)
	assert.Empty(t, ids)
	assert.Equal(t, after, f.treeHash(), "a committed change is kept")
	assert.Empty(t, f.pendingFiles())
}

func TestAbortDropsTheRecord(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "A1", 0o644)
	p, err := f.j.Begin(f.root, "plan_apply", "plan_apply", "a.txt")
	require.NoError(t, err)
	require.NoError(t, p.Abort())
	assert.Empty(t, f.pendingFiles())
	ids, err := f.j.Recover(f.root)
	require.NoError(t, err)
	assert.Empty(t, ids)
}

func TestPruneKeepsTheBlobsOfPendingChanges(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "A1", 0o644)
	p, err := f.j.Begin(f.root, "plan_apply", "plan_apply", "a.txt")
	require.NoError(t, err)
	f.j.grace = 0
	require.NoError(t, f.j.Prune())
	f.write("a.txt", "A2")
	crash(p)
	_, err = f.j.Recover(f.root)
	require.NoError(t, err)
	content, _, _ := f.get("a.txt")
	assert.Equal(t, "A1", content)
}

func TestBeginRefusesWhatCaptureRefuses(t *testing.T) {
	f := newFixture(t, Limits{})
	require.NoError(t, os.Mkdir(f.rootDir+"/dir", 0o755))
	_, err := f.j.Begin(f.root, "plan_apply", "plan_apply", "dir")
	require.Error(t, err)
	assert.Empty(t, f.pendingFiles())
}
