package forge

import (
	"errors"
	"strings"
	"testing"

	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// addTask files task id (type 1, no dependency) in f's run.
func addTask(t *testing.T, f *Forge, id string) {
	t.Helper()
	_, err := f.run.CreateTask(id, "---\nid: "+id+"\ntype: 1\n---\nDo "+id+".\n")
	require.NoError(t, err)
}

// TestFinish: a failed attempt is FAILED with its reason (cut when long), then PENDING
// while an attempt is left; the last one stays FAILED and fails the run.
func TestFinish(t *testing.T) {
	f := newForge(t)
	addTask(t, f, "A")
	long := errors.New("x" + strings.Repeat("é", maxReason)) // the cut falls inside a character
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		_, err := f.start("A")
		require.NoError(t, err)
		require.NoError(t, f.finish("A", long))
	}
	st, err := f.run.Status("A")
	require.NoError(t, err)
	assert.Equal(t, store.Failed, st)
	why := f.run.Reason("A")
	assert.LessOrEqual(t, len(why), maxReason+3)
	assert.True(t, strings.HasSuffix(why, "é..."), "cut on a character: %q", why[len(why)-8:])
	states, err := f.run.States()
	require.NoError(t, err)
	assert.Equal(t, []string{"task A failed after 2 attempts: " + why}, f.failed(states))
	events, err := f.run.Events()
	require.NoError(t, err)
	var moves []string
	for _, e := range events {
		if e.Type == store.EventTaskStatus {
			moves = append(moves, string(e.From)+">"+string(e.To))
		}
	}
	assert.Equal(t, []string{"PENDING>RUNNING", "RUNNING>FAILED", "FAILED>PENDING", "PENDING>RUNNING", "RUNNING>FAILED"}, moves)
}

// TestMergeable: merge_branches takes only the branch of a task's current attempt once it
// is DONE (or further): not a failed or earlier attempt's, not a running one's, not a
// branch of the user's, not a made-up one.
func TestMergeable(t *testing.T) {
	f := newForge(t)
	for _, id := range []string{"A", "B", "R"} {
		addTask(t, f, id)
	}
	_, err := f.start("A")
	require.NoError(t, err)
	require.NoError(t, f.finish("A", errors.New("gave up")))
	_, err = f.start("A")
	require.NoError(t, err)
	require.NoError(t, f.finish("A", nil))
	_, err = f.start("R")
	require.NoError(t, err)
	cases := []struct {
		branch string
		ok     bool
	}{
		{"forge/A/2", true},
		{"forge/A/1", false}, // its failed attempt
		{"forge/A/3", false},
		{"forge/B/1", false}, // never ran
		{"forge/R/1", false}, // still running
		{"forge/Q/1", false}, // no such task
		{"forge/A/2/x", false},
		{"forge/../A/2", false},
		{"main", false},
		{"", false},
	}
	for _, c := range cases {
		t.Run(c.branch, func(t *testing.T) {
			err := f.mergeable(c.branch)
			if c.ok {
				assert.NoError(t, err)
				return
			}
			var te *definitions.ToolError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, definitions.PermissionError, te.Type)
		})
	}
}
