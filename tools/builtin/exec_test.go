package builtin

import (
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTooManyJobsIsAToolError: a background run_shell past the session's cap of jobs is a
// process-error that says how to free a slot, and job_kill frees one.
func TestTooManyJobsIsAToolError(t *testing.T) {
	root, err := security.Open(t.TempDir(), security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	lazy := shell.NewLazy(shell.Options{Root: root, MaxJobs: 1})
	t.Cleanup(func() { lazy.Close() })
	e := &Exec{Deps{Root: root, Shell: lazy}}
	bg := definitions.RunShellParams{Command: "sleep 60", Background: true}

	first, err := e.RunShell(t.Context(), bg)
	require.NoError(t, err)
	require.NotEmpty(t, first.JobID)

	_, err = e.RunShell(t.Context(), bg)
	var terr *definitions.ToolError
	require.ErrorAs(t, err, &terr)
	assert.Equal(t, definitions.ProcessError, terr.Type)
	assert.Contains(t, terr.Message, "1 running, the most")
	require.NotEmpty(t, terr.Recovery)
	assert.Contains(t, terr.Recovery[0], "job_kill")

	_, err = e.JobKill(t.Context(), definitions.JobKillParams{JobID: first.JobID})
	require.NoError(t, err)
	_, err = e.RunShell(t.Context(), bg)
	assert.NoError(t, err, "job_kill freed a slot")
}
