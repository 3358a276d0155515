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

// Outcome counts the tests passed and failed, the builds that failed ("8 packages failed
// to build") and the other errors; a run that found no test says so, and a run of
// another command than the detected one (pytest not installed) says which ran.
func (r *RunTestsResult) Outcome() string {
	switch {
	case r.DryRun:
		return "would run " + strings.Join(r.Command, " ")
	case r.Summary == nil:
		return "done"
	}
	var out string
	ran := r.Passed + r.Failed + r.Skipped
	switch {
	case ran == 0 && r.Errors == 0 && !r.Parsed:
		out = "exit 0, no test counts (output not understood)"
	case ran == 0 && r.Errors == 0:
		out = "no tests found"
	default:
		out = fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
		if r.BuildErrors > 0 {
			out += ", " + r.BuildCount() + " failed to build"
		}
		if n := r.Errors - r.BuildErrors; n > 0 {
			out += ", " + definitions.Count(n, "error")
		}
	}
	if r.Fallback != "" {
		what, _, _ := strings.Cut(r.Fallback, " is not installed")
		out += " (" + string(r.Runner) + ": " + what + " not installed)"
	}
	return out
}

// Outcome counts the files restored, or the change sets listed.
func (r *UndoResult) Outcome() string {
	if r.UndoResult == nil {
		return definitions.Count(len(r.Changes), "change set")
	}
	return "restored " + definitions.Count(len(r.Restored)+len(r.Deleted), "file")
}
