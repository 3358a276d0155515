package builtin

import (
	"strings"
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

// TestUnfinishedCommandsAreErrors: a command killed at its timeout is a timeout-error and
// one whose program cannot start a process-error, each with what it printed (redacted) in
// its details; a command that ends by itself is a result, whatever its exit status.
func TestUnfinishedCommandsAreErrors(t *testing.T) {
	e := testExec(t, map[string]string{"notes.txt": "text\n"}, shell.Options{})
	token := "ghp_" + strings.Repeat("a1B2", 9)
	for _, tc := range []struct {
		name   string
		params definitions.RunShellParams
		typ    string // "" for a result
		stdout string
		limit  string
	}{
		{"killed at its timeout", definitions.RunShellParams{Command: "echo partial " + token + "; sleep 30", Timeout: 0.5}, definitions.TimeoutError, "partial [REDACTED", "timeout"},
		{"a missing program", definitions.RunShellParams{Cmd: []string{"no-such-program-jido"}}, definitions.ProcessError, "", ""},
		{"a missing program on a command line", definitions.RunShellParams{Command: "echo before; no-such-program-jido"}, definitions.ProcessError, "before", ""},
		{"a file that is no program", definitions.RunShellParams{Cmd: []string{"./notes.txt"}}, definitions.ProcessError, "", ""},
		{"a failing command", definitions.RunShellParams{Command: "echo out; exit 3"}, "", "out", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.RunShell(t.Context(), tc.params)
			if tc.typ == "" {
				require.NoError(t, err)
				assert.Equal(t, 3, res.ExitCode)
				assert.Equal(t, tc.stdout+"\n", res.Stdout)
				return
			}
			var te *definitions.ToolError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tc.typ, te.Type, te.Message)
			assert.Contains(t, te.Details["stdout"], tc.stdout)
			assert.NotContains(t, te.Details["stdout"], token)
			assert.Contains(t, te.Details, "exit_code")
			if tc.limit != "" {
				assert.Equal(t, tc.limit, te.Details["limit"])
				assert.Equal(t, true, te.Details["timed_out"])
			}
			assert.NotEmpty(t, te.Recovery)
		})
	}
}
