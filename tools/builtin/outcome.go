package builtin

import (
	"fmt"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Outcome is the command's exit, or its job.
func (r *ShellResult) Outcome() string {
	switch {
	case r.JobID != "":
		return "started " + r.JobID
	case r.DryRun:
		return "would run (" + r.Class + ")"
	case r.Result == nil:
		return "done"
	case r.TimedOut:
		return "timed out"
	}
	return fmt.Sprintf("exit %d", r.ExitCode)
}

// Outcome says whether the job still runs, or how it ended.
func (r *JobStatus) Outcome() string {
	switch {
	case r.JobStatus == nil:
		return "done"
	case r.Running:
		return r.ID + " running"
	case r.JobStatus.ExitCode != nil:
		return fmt.Sprintf("%s exit %d", r.ID, *r.JobStatus.ExitCode)
	}
	return r.ID + " ended"
}

// Outcome counts the tests passed and failed, and the errors outside tests.
func (r *RunTestsResult) Outcome() string {
	switch {
	case r.DryRun:
		return "would run " + strings.Join(r.Command, " ")
	case r.Summary == nil:
		return "done"
	case r.Errors > 0:
		return fmt.Sprintf("%d passed, %d failed, %s", r.Passed, r.Failed, definitions.Count(r.Errors, "error"))
	}
	return fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
}

// Outcome counts the files restored, or the change sets listed.
func (r *UndoResult) Outcome() string {
	if r.UndoResult == nil {
		return definitions.Count(len(r.Changes), "change set")
	}
	return "restored " + definitions.Count(len(r.Restored)+len(r.Deleted), "file")
}
