package chat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saveConversation writes msgs through a new transcript in dir and returns its path.
func saveConversation(t *testing.T, dir string, msgs []agent.Message) string {
	t.Helper()
	tr, history, closeFile, err := OpenTranscript(dir, "", "")
	require.NoError(t, err)
	assert.Empty(t, history)
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

	tr, history, closeFile, err := OpenTranscript(dir, "", "last")
	require.NoError(t, err)
	assert.Equal(t, first, history)
	more := append(history, agent.Message{Role: agent.User, Text: "again"})
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
