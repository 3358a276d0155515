package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saveConversation writes msgs through a new transcript in dir and returns its path.
func saveConversation(t *testing.T, dir string, msgs []agent.Message) string {
	t.Helper()
	tr, fresh, closeFile, err := OpenTranscript(dir, "", "")
	require.NoError(t, err)
	assert.Empty(t, fresh.History)
	require.NoError(t, tr.Sync(msgs))
	require.NoError(t, closeFile())
	names, _ := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	require.NotEmpty(t, names)
	return names[len(names)-1]
}

// TestOpenTranscript checks where a chat saves and what it resumes: a new private file,
// the newest one for "last" (appended to, not rewritten), and a resumed conversation
// written whole to another file.
func TestOpenTranscript(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "transcripts")
	_, _, _, err := OpenTranscript(dir, "", "last")
	assert.ErrorContains(t, err, "no saved conversation")

	first := []agent.Message{{Role: agent.User, Text: "hello"}, {Role: agent.Assistant, Text: "hi"}}
	saved := saveConversation(t, dir, first)
	info, err := os.Stat(saved)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	info, err = os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())

	tr, resumed, closeFile, err := OpenTranscript(dir, "", "last")
	require.NoError(t, err)
	assert.Equal(t, first, resumed.History)
	more := append(resumed.History, agent.Message{Role: agent.User, Text: "again"})
	require.NoError(t, tr.Sync(more))
	require.NoError(t, closeFile())
	f, err := os.Open(saved)
	require.NoError(t, err)
	again, err := LoadTranscript(f)
	f.Close()
	require.NoError(t, err)
	assert.Equal(t, more, again, "resuming the last appends to it, without writing it twice")

	other := filepath.Join(t.TempDir(), "copy.ndjson")
	tr, _, closeFile, err = OpenTranscript(dir, other, saved)
	require.NoError(t, err)
	require.NoError(t, tr.Sync(more))
	require.NoError(t, closeFile())
	f, err = os.Open(other)
	require.NoError(t, err)
	copied, err := LoadTranscript(f)
	f.Close()
	require.NoError(t, err)
	assert.Equal(t, more, copied, "another file gets the whole conversation")
}

// TestTranscriptKeepsTheBoard checks that a chat's todos and tasks are saved with its
// conversation when they change, and come back on resume.
func TestTranscriptKeepsTheBoard(t *testing.T) {
	dir := t.TempDir()
	tr, _, closeFile, err := OpenTranscript(dir, "", "")
	require.NoError(t, err)
	b := tasks.New()
	require.NoError(t, tr.SyncBoard(b))
	_, terr := b.Todo(definitions.TodoWriteParams{Action: "create", Title: "write the tests"})
	require.Nil(t, terr)
	require.NoError(t, tr.Sync([]agent.Message{{Role: agent.User, Text: "hi"}}))
	require.NoError(t, tr.SyncBoard(b))
	require.NoError(t, tr.SyncBoard(b), "unchanged: nothing more written")
	require.NoError(t, closeFile())

	_, resumed, closeFile, err := OpenTranscript(dir, "", "last")
	require.NoError(t, err)
	require.NoError(t, closeFile())
	require.Len(t, resumed.Board.Todos, 1)
	assert.Equal(t, "todo-1", resumed.Board.Todos[0].ID)
	again := tasks.New()
	again.Restore(resumed.Board)
	res, terr := again.Todo(definitions.TodoWriteParams{Action: "create", Title: "next"})
	require.Nil(t, terr)
	assert.Equal(t, "todo-2", res.Todo.ID, "ids go on after a resume")
	names, _ := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	data, err := os.ReadFile(names[0])
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(data), `"board"`), "the board is written when it changes")
}
