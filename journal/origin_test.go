package journal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// changeIn journals fn as one change set of the given paths through the view j.
func (f *fixture) changeIn(j *Journal, tool string, paths []string, fn func()) Entry {
	f.t.Helper()
	before, err := j.Capture(f.root, paths...)
	require.NoError(f.t, err)
	fn()
	e, err := j.Commit(f.root, tool, tool+" "+paths[0], before)
	require.NoError(f.t, err)
	return e
}

func TestOriginIsRecorded(t *testing.T) {
	f := newFixture(t, Limits{})
	chat := f.j.WithOrigin(Origin{Session: "s1", Conversation: "conv"})
	call := f.j.WithOrigin(Origin{Session: "s2"})
	assert.Equal(t, Origin{Session: "s2", Conversation: "s2"}, call.Origin(), "a session is its own conversation")

	a := f.changeIn(chat, "write_file", []string{"a.txt"}, func() { f.write("a.txt", "a") })
	assert.Equal(t, Origin{Session: "s1", Conversation: "conv"}, a.Origin)

	p, err := call.Begin(f.root, "plan_apply", "plan_apply b.txt", "b.txt")
	require.NoError(t, err)
	f.write("b.txt", "b")
	b, err := p.Commit(f.root)
	require.NoError(t, err)
	assert.Equal(t, Origin{Session: "s2", Conversation: "s2"}, b.Origin, "a pending change set keeps its origin")

	res, err := chat.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, a.ID, res.ID, "the chat's undo takes back its own change, not the newer one of another session")
	entries, err := f.j.List()
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, res.UndoID, entries[0].ID)
	assert.Equal(t, "s1", entries[0].Session, "the undo is the chat's change too")
	_, _, ok := f.get("a.txt")
	assert.False(t, ok)
	_, _, ok = f.get("b.txt")
	assert.True(t, ok, "the other session's file stays")

	_, err = chat.Undo(f.root, "", false)
	assert.ErrorIs(t, err, ErrNothingToUndo, "nothing else of the conversation")
	assert.ErrorContains(t, err, "conv")

	res, err = f.j.Undo(f.root, "", false)
	require.NoError(t, err)
	assert.Equal(t, b.ID, res.ID, "the journal itself (no origin) undoes the newest change of anyone")
}

func TestViewCloseKeepsTheStore(t *testing.T) {
	f := newFixture(t, Limits{})
	v := f.j.WithOrigin(Origin{Session: "s"})
	require.NoError(t, v.Close())
	f.changeIn(f.j, "write_file", []string{"a.txt"}, func() { f.write("a.txt", "a") })
	var nilJournal *Journal
	assert.Nil(t, nilJournal.WithOrigin(Origin{Session: "s"}))
}

func TestLastOfLatestSession(t *testing.T) {
	e := func(id, session string, undone bool, undoes string) Entry {
		return Entry{ID: id, Origin: Origin{Session: session}, Undone: undone, Undoes: undoes}
	}
	for _, tc := range []struct {
		name    string
		entries []Entry // newest first
		want    string  // "" for none
	}{
		{"empty", nil, ""},
		{"the newest", []Entry{e("3", "A", false, ""), e("2", "B", false, ""), e("1", "A", false, "")}, "3"},
		{"the last session's older change before another session's newer one",
			[]Entry{e("4", "U", false, "3"), e("3", "A", true, ""), e("2", "B", false, ""), e("1", "A", false, "")}, "1"},
		{"then the session before", []Entry{e("3", "A", true, ""), e("2", "B", false, ""), e("1", "A", true, "")}, "2"},
		{"undo entries are no session's change", []Entry{e("2", "U", false, "1"), e("1", "A", true, "")}, ""},
		{"entries without origin are one session", []Entry{e("2", "", false, ""), e("1", "", false, "")}, "2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := LastOfLatestSession(tc.entries)
			assert.Equal(t, tc.want != "", ok)
			assert.Equal(t, tc.want, got.ID)
		})
	}
}

func TestDescribeUndo(t *testing.T) {
	e := Entry{ID: "X", Summary: "apply_patch a.go and 1 more", Before: []Before{{Path: "a.go", Exists: true}, {Path: "new.txt"}}}
	assert.Equal(t, "undo change X (apply_patch a.go and 1 more): restores a.go; deletes new.txt", e.DescribeUndo())
	assert.Equal(t, []string{"a.go", "new.txt"}, e.Files())
	restores, deletes := e.Effect()
	assert.Equal(t, []string{"a.go"}, restores)
	assert.Equal(t, []string{"new.txt"}, deletes)
}
