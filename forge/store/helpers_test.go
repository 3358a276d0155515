package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/require"
)

// newRoot opens a fresh temporary project root.
func newRoot(t *testing.T) *security.Root {
	t.Helper()
	root, err := security.Open(t.TempDir(), security.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return root
}

// newRun creates the run "run1" in a fresh root.
func newRun(t *testing.T) (*Run, *security.Root) {
	t.Helper()
	root := newRoot(t)
	r, err := New(root, "run1")
	require.NoError(t, err)
	return r, root
}

// taskDoc renders a task document of type 1 with the given dependencies.
func taskDoc(id string, deps ...string) string {
	return fmt.Sprintf("---\nid: %s\ntype: 1\ntitle: Task %s\ndependencies: [%s]\n---\n\nDo %s.\n", id, id, strings.Join(deps, ", "), id)
}

// addTasks creates tasks from a map of id to dependencies.
func addTasks(t *testing.T, r *Run, tasks map[string][]string) {
	t.Helper()
	for id, deps := range tasks {
		_, err := r.CreateTask(id, taskDoc(id, deps...))
		require.NoError(t, err)
	}
}

// toolError requires err to be a ToolError of type typ and returns it.
func toolError(t *testing.T, err error, typ string) *definitions.ToolError {
	t.Helper()
	require.Error(t, err)
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	require.Equal(t, typ, te.Type, "message: %s", te.Message)
	return te
}
