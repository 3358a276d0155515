package buffers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStateRoundTrip: a set of buffers saved with State (through JSON, as a session's
// state file holds it) and restored into another set behaves as the first: text, mode,
// point, versions and where it was saved.
func TestStateRoundTrip(t *testing.T) {
	m := New()
	create(t, m, "a.py", "one\ntwo\nthree\n")
	create(t, m, " hidden", "x")
	_, err := m.Edit(definitions.BufferEditParams{BufferName: "a.py", OldText: "two", NewText: "2"})
	require.NoError(t, err)
	_, err = m.GotoLine(definitions.GotoLineParams{BufferName: "a.py", LineNumber: 3})
	require.NoError(t, err)
	require.NoError(t, m.Saved("a.py", "src/a.py", 2))

	data, err := json.Marshal(m.State())
	require.NoError(t, err)
	var s State
	require.NoError(t, json.Unmarshal(data, &s))
	other := New()
	require.NoError(t, other.Restore(s))
	assert.Equal(t, m.State(), other.State())

	before, err := m.List(definitions.BufferListParams{IncludeHidden: true})
	require.NoError(t, err)
	after, err := other.List(definitions.BufferListParams{IncludeHidden: true})
	require.NoError(t, err)
	assert.Equal(t, before, after)
	text, version, err := other.Snapshot("a.py")
	require.NoError(t, err)
	assert.Equal(t, "one\n2\nthree\n", text)
	assert.Equal(t, 2, version)
	_, err = other.Append(definitions.BufferAppendParams{BufferName: "a.py", Text: "four\n"})
	require.NoError(t, err)
	_, version, _ = other.Snapshot("a.py")
	assert.Equal(t, 3, version, "versions go on from the restored one")
}

// TestRestoreRefusesBadState: a state no session could have made is refused, and the
// buffers stay as they were.
func TestRestoreRefusesBadState(t *testing.T) {
	ok := BufferState{Name: "a", Text: "x", Version: 1}
	for _, c := range []struct {
		name string
		bufs []BufferState
	}{
		{"blank name", []BufferState{{Name: " ", Version: 1}}},
		{"control char", []BufferState{{Name: "a\nb", Version: 1}}},
		{"duplicate", []BufferState{ok, ok}},
		{"bad mode", []BufferState{{Name: "a", Mode: "a\tb", Version: 1}}},
		{"zero version", []BufferState{{Name: "a"}}},
		{"saved after version", []BufferState{{Name: "a", Version: 1, Saved: 2}}},
		{"too large", []BufferState{{Name: "a", Text: strings.Repeat("x", 11), Version: 1}}},
		{"too many", []BufferState{{Name: "a", Version: 1}, {Name: "b", Version: 1}, {Name: "c", Version: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewWithLimits(Limits{Buffers: 2, Bytes: 10})
			create(t, m, "kept", "k")
			assert.Error(t, m.Restore(State{Buffers: c.bufs}))
			_, _, err := m.Snapshot("kept")
			assert.NoError(t, err, "unchanged")
		})
	}
}
