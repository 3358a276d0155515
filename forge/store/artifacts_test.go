package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWalkthrough(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	w := Walkthrough{Summary: "Added the parser.", Decisions: []string{"YAML nodes keep text"}, FilesTouched: []string{"a.go"}, Notes: "none"}
	toolError(t, must(r.EmitWalkthrough("A", 1, w)), definitions.ValidationError)
	toolError(t, must(r.ReadWalkthrough("A", 0)), definitions.FileError)

	for range 2 {
		_, err := r.NextAttempt("A")
		require.NoError(t, err)
	}
	p, err := r.EmitWalkthrough("A", 1, w)
	require.NoError(t, err)
	assert.Equal(t, "artifacts/run1/A/1/walkthrough.md", p)
	assert.FileExists(t, filepath.Join(root.Path(), p))
	want := "# Walkthrough: task A, attempt 1\n\n## Summary\n\nAdded the parser.\n\n## Decisions\n\n- YAML nodes keep text\n\n## Files touched\n\n- `a.go`\n\n## Notes\n\nnone\n"
	got, err := r.ReadWalkthrough("A", 1)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = r.EmitWalkthrough("A", 2, Walkthrough{Summary: "Retry."})
	require.NoError(t, err)
	got, err = r.ReadWalkthrough("A", 0)
	require.NoError(t, err)
	assert.Equal(t, "# Walkthrough: task A, attempt 2\n\n## Summary\n\nRetry.\n", got, "0 is the latest")
	_, err = r.EmitWalkthrough("A", 2, Walkthrough{Summary: "Already there.", NothingToChange: true})
	require.NoError(t, err)
	got, err = r.ReadWalkthrough("A", 2)
	require.NoError(t, err)
	assert.Equal(t, "# Walkthrough: task A, attempt 2\n\n## Summary\n\nAlready there.\n\n## Outcome\n\nNothing to change.\n", got)

	toolError(t, must(r.EmitWalkthrough("A", 3, w)), definitions.ValidationError)
	toolError(t, must(r.EmitWalkthrough("A", 0, w)), definitions.ValidationError)
	te := toolError(t, must(r.EmitWalkthrough("A", 1, Walkthrough{Summary: "  "})), definitions.ValidationError)
	assert.Equal(t, "summary", te.Details["field"])
	toolError(t, must(r.EmitWalkthrough("Q", 1, w)), definitions.FileError)
	toolError(t, must(r.ReadWalkthrough("A", -1)), definitions.ValidationError)
	toolError(t, must(r.ReadWalkthrough("A", 7)), definitions.FileError)
}

func TestSubtasks(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	got, err := r.Subtasks("A")
	require.NoError(t, err)
	assert.Empty(t, got)

	var ids []string
	for i := range 11 {
		id, err := r.AddSubtask("A", "title", "desc", i%3)
		require.NoError(t, err)
		ids = append(ids, id)
	}
	assert.Equal(t, "A-s1", ids[0])
	assert.FileExists(t, filepath.Join(root.Path(), "artifacts", "run1", "A", "subtasks", "A-s1.json"))
	got, err = r.Subtasks("A")
	require.NoError(t, err)
	require.Len(t, got, 11)
	assert.Equal(t, Subtask{SubtaskID: "A-s1", Title: "title", Description: "desc", Type: 1, Status: Pending}, got[0])
	assert.Equal(t, "A-s10", got[9].SubtaskID, "numeric order: s10 after s9")
	assert.Equal(t, "A-s11", ids[10])
	assert.Equal(t, 1, got[1].Type)
	assert.Equal(t, 2, got[2].Type)

	te := toolError(t, must(r.AddSubtask("A", "t", "d", 3)), definitions.ValidationError)
	assert.Equal(t, "type", te.Details["field"])
	toolError(t, must(r.AddSubtask("A", " ", "d", 1)), definitions.ValidationError)
	toolError(t, must(r.AddSubtask("Q", "t", "d", 1)), definitions.FileError)

	require.NoError(t, os.WriteFile(filepath.Join(root.Path(), "artifacts", "run1", "A", "subtasks", "A-s12.json"), []byte("{"), 0o644))
	toolError(t, must(r.Subtasks("A")), definitions.FileError)
}

func TestEmitCR(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil})
	_, err := r.MarkStatus("B", Running)
	require.NoError(t, err)
	halted, err := r.Halted()
	require.NoError(t, err)
	assert.False(t, halted)

	id, err := r.EmitCR("Split the store", "The store is too big.", "Tests time out.", "Split it in two.")
	require.NoError(t, err)
	assert.Equal(t, "cr-1", id)
	cr, err := r.ReadCR(id)
	require.NoError(t, err)
	assert.Equal(t, "# Change request cr-1: Split the store\n\n## Description\n\nThe store is too big.\n\n## Reason\n\nTests time out.\n\n## Suggested changes\n\nSplit it in two.\n", cr)

	halted, err = r.Halted()
	require.NoError(t, err)
	assert.True(t, halted)
	te := toolError(t, must(r.MarkStatus("A", Running)), definitions.ConflictError)
	assert.Equal(t, "cr-1", te.Details["cr"])
	_, err = r.MarkStatus("B", Done)
	require.NoError(t, err, "running tasks may complete")

	other, err := Open(root, "run1")
	require.NoError(t, err)
	halted, err = other.Halted()
	require.NoError(t, err)
	assert.True(t, halted, "the halt persists")
	id, err = other.EmitCR("t", "d", "r", "")
	require.NoError(t, err)
	assert.Equal(t, "cr-2", id)

	events, err := r.Events()
	require.NoError(t, err)
	assert.Equal(t, EventRunHalted, events[len(events)-1].Type)
	assert.Equal(t, "cr-2", events[len(events)-1].CR)

	for _, args := range [][3]string{{"", "d", "r"}, {"t", "", "r"}, {"t", "d", " "}} {
		toolError(t, must(r.EmitCR(args[0], args[1], args[2], "")), definitions.ValidationError)
	}
	toolError(t, must(r.ReadCR("cr-9")), definitions.FileError)
	toolError(t, must(r.ReadCR("../cr-1")), definitions.ValidationError)
}
