package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blobNames lists the blobs of the fixture's journal.
func (f *fixture) blobNames() []string {
	f.t.Helper()
	des, err := os.ReadDir(filepath.Join(f.jdir, "blobs"))
	require.NoError(f.t, err)
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// edits journals n edits of a.txt; edit i replaces content(i) by content(i+1).
func (f *fixture) edits(n int, content func(int) string) []Entry {
	f.t.Helper()
	f.put("a.txt", content(0), 0o644)
	var out []Entry
	for i := range n {
		out = append(out, f.change("edit_file", []string{"a.txt"}, func() { f.write("a.txt", content(i+1)) }))
	}
	return out
}

func ids(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.ID
	}
	return out
}

func TestPruneByCount(t *testing.T) {
	f := newFixture(t, Limits{MaxEntries: 3})
	f.j.grace = 0
	es := f.edits(5, func(i int) string { return fmt.Sprint("version ", i) })
	require.Len(t, f.blobNames(), 5)
	require.NoError(t, f.j.Prune())
	assert.Equal(t, ids([]Entry{es[4], es[3], es[2]}), ids(f.list()))
	assert.ElementsMatch(t, []string{es[2].Before[0].Blob, es[3].Before[0].Blob, es[4].Before[0].Blob}, f.blobNames(),
		"the blobs of the removed entries are collected")
	_, err := f.j.Undo(f.root, es[2].ID, true)
	require.NoError(t, err, "the kept entries still undo")
}

func TestPruneByBytes(t *testing.T) {
	f := newFixture(t, Limits{MaxBytes: 25_000})
	f.j.grace = 0
	es := f.edits(4, func(i int) string { return strings.Repeat(fmt.Sprint(i), 10_000) })
	require.NoError(t, f.j.Prune())
	assert.Equal(t, ids([]Entry{es[3], es[2]}), ids(f.list()), "two 10 kB blobs fit in 25 kB, three do not")
	assert.Len(t, f.blobNames(), 2)

	// The newest entry is kept even when it alone is over the limit.
	tiny := f.open(Limits{MaxBytes: 1})
	tiny.grace = 0
	require.NoError(t, tiny.Prune())
	assert.Equal(t, []string{es[3].ID}, ids(f.list()))
	assert.Equal(t, []string{es[3].Before[0].Blob}, f.blobNames())
}

func TestPruneByAge(t *testing.T) {
	f := newFixture(t, Limits{MaxAge: 24 * time.Hour})
	f.j.grace = 0
	now := time.Now().Add(time.Hour) // later than the blobs' modification times
	f.j.now = func() time.Time { return now.Add(-48 * time.Hour) }
	old := f.edits(2, func(i int) string { return fmt.Sprint("old ", i) })
	f.j.now = func() time.Time { return now }
	recent := f.change("edit_file", []string{"a.txt"}, func() { f.write("a.txt", "recent") })
	require.NoError(t, f.j.Prune())
	assert.Equal(t, []string{recent.ID}, ids(f.list()))
	assert.Equal(t, []string{recent.Before[0].Blob}, f.blobNames())
	assert.Len(t, old, 2)

	// A day later the last entry has expired too.
	f.j.now = func() time.Time { return now.Add(25 * time.Hour) }
	require.NoError(t, f.j.Prune())
	assert.Empty(t, f.list())
	assert.Empty(t, f.blobNames())
}

func TestBlobDedupAndGrace(t *testing.T) {
	f := newFixture(t, Limits{MaxEntries: 1})
	f.put("a.txt", "same", 0o644)
	f.put("b.txt", "same", 0o644)
	e1 := f.change("plan_apply", []string{"a.txt", "b.txt"}, func() { f.write("a.txt", "x") })
	require.Equal(t, e1.Before[0].Blob, e1.Before[1].Blob)
	assert.Len(t, f.blobNames(), 1, "same content stored once")

	f.put("a.txt", "same", 0o644)
	e2 := f.change("edit_file", []string{"a.txt"}, func() { f.write("a.txt", "y") })
	assert.Len(t, f.blobNames(), 1, "shared across entries")

	// A captured but not yet committed blob survives Prune (the grace period).
	f.put("c.txt", "pending", 0o644)
	pending, err := f.j.Capture(f.root, "c.txt")
	require.NoError(t, err)
	require.NoError(t, f.j.Prune())
	assert.Equal(t, []string{e2.ID}, ids(f.list()))
	assert.ElementsMatch(t, []string{e2.Before[0].Blob, pending[0].Blob}, f.blobNames(),
		"the shared blob stays referenced by e2; the pending one is young")
	_, err = f.j.Commit(f.root, "edit_file", "c.txt", pending)
	require.NoError(t, err)

	// Without the grace period, unreferenced blobs go at once.
	f.j.grace = 0
	require.NoError(t, f.j.Prune())
	assert.Equal(t, []string{pending[0].Blob}, f.blobNames())
}
