package builtin

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/shellclass"
	"github.com/jido-run/jido/testrun"
	"github.com/jido-run/jido/tools/definitions"
)

// Exec is the bridge module of the tools that run commands.
type Exec struct{ Deps }

// ShellResult is the result of run_shell: the command's outcome (or, for a background
// command, its job id) with its classification.
type ShellResult struct {
	Class   string   `json:"class"`
	Reasons []string `json:"class_reasons,omitempty"`
	JobID   string   `json:"job_id,omitempty"`
	DryRun  bool     `json:"dry_run,omitempty"` // classified, not run
	*shell.Result
	Redacted map[string]int `json:"redacted,omitempty"`
}

// runner returns the session's shell runner.
func (e *Exec) runner() (*shell.Runner, error) {
	if e.Shell == nil {
		return nil, definitions.NewError(definitions.PermissionError, "this session cannot run commands").
			Hint("Open the session with a shell (manager.Config) to use run_shell and run_tests")
	}
	r, err := e.Shell.Get()
	if err != nil {
		return nil, definitions.NewError(definitions.ProcessError, "starting the session's shell: %v", err)
	}
	return r, nil
}

// RunShell runs a command line or an argv in the sandbox.
func (e *Exec) RunShell(ctx context.Context, p definitions.RunShellParams) (*ShellResult, error) {
	if (p.Command == "") == (len(p.Cmd) == 0) {
		return nil, definitions.NewError(definitions.ValidationError, "run_shell: give exactly one of `command` (a shell line) or `cmd` (an argv)").
			With("field", "command").Hint(`Pass {"command": "go test ./..."} or {"cmd": ["go", "test", "./..."]}`)
	}
	class := shellclass.Classify(p.Command)
	if len(p.Cmd) > 0 {
		class = shellclass.ClassifyArgv(p.Cmd)
	}
	res := &ShellResult{Class: class.Class.String(), Reasons: class.Reasons}
	if p.DryRun {
		res.DryRun = true
		return res, nil
	}
	if e.Plan != nil {
		return e.planShell(ctx, p, res)
	}
	r, err := e.runner()
	if err != nil {
		return nil, err
	}
	req := shell.Request{
		Command: p.Command, Argv: p.Cmd, Cwd: p.Cwd, Env: p.Env, Stdin: p.Stdin,
		Timeout: seconds(p.Timeout), Output: p.MaxOutput,
	}
	if p.Background {
		job, err := r.Start(req)
		if err != nil {
			return nil, shellError(err)
		}
		res.JobID = job.ID
		return res, nil
	}
	out, err := r.Run(ctx, req)
	if err != nil {
		return nil, shellError(err)
	}
	res.Result = out
	res.Redacted = e.redactStreams(&out.Stdout, &out.Stderr)
	if terr := unfinished(out, req.Timeout); terr != nil {
		return nil, terr.With("class", res.Class).With("stdout", out.Stdout).With("stderr", out.Stderr).With("truncated", out.Truncated)
	}
	return res, nil
}

// unfinished is the error of a command that did not run to its own end: killed when its
// timeout struck (timeout-error), killed by the kernel for the session's memory, or whose
// program could not be started (process-error), with its exit status and output files in
// the details (the caller adds what it printed, redacted). A command that ended by itself
// is no error, whatever its exit status: the result says it.
func unfinished(out *shell.Result, timeout time.Duration) *definitions.ToolError {
	var te *definitions.ToolError
	if out.TimedOut {
		timeout = min(cmp.Or(timeout, shell.DefaultTimeout), shell.MaxTimeout)
		te = definitions.NewError(definitions.TimeoutError, "the command was killed when its timeout of %gs struck", timeout.Seconds()).
			With("limit", "timeout").With("timeout_s", timeout.Seconds()).
			Hint(fmt.Sprintf("If the command needs longer, raise `timeout` (the most is %d seconds)", int(shell.MaxTimeout.Seconds())))
	} else if out.OutOfMemory {
		te = definitions.NewError(definitions.ProcessError, "the kernel killed the command: the session's commands used all the memory the sandbox allows").
			With("limit", "memory").Hint("Use less memory: smaller inputs, fewer parallel jobs, or end other background commands")
	} else if why, ok := out.NotStarted(); ok {
		te = definitions.NewError(definitions.ProcessError, "the command's program could not be started: %s", why).
			Hint("Check the program's name and that it is installed: commands see the system's programs and the project's, without the network")
	} else {
		return nil
	}
	te.With("exit_code", out.ExitCode).With("duration_ms", out.DurationMS).With("timed_out", out.TimedOut)
	if len(out.Files) > 0 {
		te.With("output_files", out.Files)
	}
	if len(out.Notes) > 0 {
		te.With("sandbox_notes", out.Notes)
	}
	return te
}

// JobStatus is the result of job_output and job_kill.
type JobStatus struct {
	*shell.JobStatus
	Redacted map[string]int `json:"redacted,omitempty"`
}

// JobOutput returns a background job's new output.
func (e *Exec) JobOutput(ctx context.Context, p definitions.JobOutputParams) (*JobStatus, error) {
	r, err := e.runner()
	if err != nil {
		return nil, err
	}
	st, err := r.Output(ctx, p.JobID, seconds(p.Wait))
	if err != nil {
		return nil, jobError(err, p.JobID)
	}
	return &JobStatus{JobStatus: st, Redacted: e.redactStreams(&st.Stdout, &st.Stderr)}, nil
}

// JobKill kills a background job.
func (e *Exec) JobKill(_ context.Context, p definitions.JobKillParams) (*JobStatus, error) {
	r, err := e.runner()
	if err != nil {
		return nil, err
	}
	st, err := r.Kill(p.JobID)
	if err != nil {
		return nil, jobError(err, p.JobID)
	}
	return &JobStatus{JobStatus: st, Redacted: e.redactStreams(&st.Stdout, &st.Stderr)}, nil
}

// redactStreams redacts secrets from command output in place and counts them by rule.
func (e *Exec) redactStreams(streams ...*string) map[string]int {
	var total map[string]int
	for _, s := range streams {
		var n map[string]int
		*s, n = e.redactor().String(*s)
		for rule, k := range n {
			if total == nil {
				total = map[string]int{}
			}
			total[rule] += k
		}
	}
	return total
}

// seconds converts a tool's seconds argument.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// shellError maps the errors of starting a command.
func shellError(err error) error {
	if errors.Is(err, shell.ErrInvalid) {
		return definitions.NewError(definitions.ValidationError, "run_shell: %v", err).
			Hint("Check the request: command or cmd, and env names made of letters, digits and _ (not starting with a digit)")
	}
	if errors.Is(err, shell.ErrClosed) {
		return definitions.NewError(definitions.ProcessError, "%v", err).Hint("Open a new session")
	}
	if errors.Is(err, shell.ErrUncheckable) {
		return definitions.NewError(definitions.ProcessError, "%v", err).
			Hint("Ask the user to run the command outside jido, or to open jido on a smaller part of the project")
	}
	if errors.Is(err, shell.ErrTooManyJobs) {
		return definitions.NewError(definitions.ProcessError, "run_shell: %v", err).
			Hint("Wait for a running job with job_output (its wait argument), or end one with job_kill, then start this one again")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) { // the cwd: toolError explains it
		return err
	}
	return definitions.NewError(definitions.ProcessError, "the command could not start: %v", err).
		Hint("Check the command and cwd; programs must be installed on the machine")
}

// jobError maps an unknown job id.
func jobError(err error, id string) error {
	return definitions.NewError(definitions.ValidationError, "%v", err).With("job_id", id).
		Hint("Use the job_id that run_shell with background: true returned, in the same session")
}

// testOutputLimit is how much of a test run's output is kept in memory for parsing
// (go test -json of a large project prints megabytes); the rest is in the output files.
const testOutputLimit = 16 << 20

// RunTestsResult is the result of run_tests: the parsed summary and how the run ended.
type RunTestsResult struct {
	*testrun.Summary
	DryRun   bool                 `json:"dry_run,omitempty"` // the command that would run, not run
	Runner   testrun.Runner       `json:"runner"`
	Command  []string             `json:"command"`
	ExitCode *int                 `json:"exit_code,omitempty"` // nil for a dry run
	Sandbox  *sandbox.Confinement `json:"sandbox,omitempty"`
	Files    map[string]string    `json:"output_files,omitempty"`
	Notes    []string             `json:"sandbox_notes,omitempty"` // what the sandbox refused or undid
	// Fallback says why another command ran than the detected one, e.g. "pytest is not
	// installed: ran python3 -m unittest discover instead".
	Fallback string `json:"fallback,omitempty"`
}

// RunTests detects the project's test runner, runs it in the sandbox and parses its
// structured output.
func (e *Exec) RunTests(ctx context.Context, p definitions.RunTestsParams) (*RunTestsResult, error) {
	r, err := e.runner()
	if err != nil {
		return nil, err
	}
	reportDir := shell.OutputDir + "/tests-" + newReportID()
	plan, err := testrun.Detect(e.Root.FS(), testrun.Options{
		Path: p.Path, Selector: p.Selector, Runner: testrun.Runner(p.Runner), Command: p.Command, ReportDir: reportDir,
	})
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "run_tests: %v", err).With("path", p.Path).
			Hint("Pass runner (go, node, npm, pytest, cargo, ert, make) or command to say how to run the tests")
	}
	if p.DryRun {
		return &RunTestsResult{Runner: plan.Runner, Command: plan.Argv, DryRun: true}, nil
	}
	if err := e.Root.MkdirAll(reportDir); err != nil {
		return nil, err
	}
	var (
		out      *shell.Result
		sum      testrun.Summary
		fallback []string // what ran instead, and why
	)
	for tries := 0; ; tries++ {
		out, err = r.Run(ctx, shell.Request{Argv: plan.Argv, Cwd: plan.Dir, Env: plan.Env, Timeout: seconds(p.Timeout), Output: testOutputLimit})
		if err != nil {
			return nil, shellError(err)
		}
		var report []byte
		if plan.Report != "" {
			if f, err := e.Root.ReadFile(path.Join(plan.Dir, plan.Report)); err == nil {
				report = f.Data
			}
		}
		sum = testrun.Parse(plan, []byte(out.Stdout), []byte(out.Stderr), out.ExitCode, report)
		if sum.Total > 0 || out.TimedOut {
			break
		}
		missing, ok := testrun.Missing(plan, []byte(out.Stdout), []byte(out.Stderr), out.ExitCode)
		if !ok {
			break
		}
		// The runner did not run: not a test result. Python falls back to the pytest
		// module, then to unittest, unless the call named its runner; other runners are
		// an error saying what to install.
		next, ok := testrun.Fallback(plan, missing)
		if !ok || len(p.Command) > 0 || tries >= 2 || (p.Runner != "" && next.Runner != plan.Runner) {
			return nil, e.missingRunner(plan, missing, out, fallback)
		}
		note := missingWhat(missing) + ": ran " + strings.Join(next.Argv, " ") + " instead"
		if p.Selector != "" && next.Runner == testrun.Unittest && !slices.Contains(next.Argv, "-k") {
			note += " (the selector " + strconv.Quote(p.Selector) + " is no unittest -k pattern: every test ran)"
		}
		fallback = append(fallback, note)
		plan = next
	}
	sum.Report, _ = e.redactor().String(sum.Report)
	for i := range sum.Failures {
		sum.Failures[i].Message, _ = e.redactor().String(sum.Failures[i].Message)
	}
	res := &RunTestsResult{
		Summary: &sum, Runner: plan.Runner, Command: plan.Argv, ExitCode: &out.ExitCode,
		Sandbox: &out.Sandbox, Files: out.Files, Notes: out.Notes,
	}
	if len(fallback) > 0 {
		res.Fallback = fallback[len(fallback)-1]
		sum.Report = res.Fallback + "\n" + sum.Report
	}
	if out.TimedOut || out.OutOfMemory { // a program that did not start is a missing runner, above
		return nil, unfinished(out, seconds(p.Timeout)).With("runner", string(plan.Runner)).With("command", plan.Argv).With("summary", res.Summary)
	}
	return res, nil
}

// missingWhat says which program is missing: "pytest is not installed".
func missingWhat(m testrun.MissingProgram) string {
	if m.Module != "" {
		return m.Module + " is not installed (no " + m.Module + " module for " + strings.Fields(m.Program)[0] + ")"
	}
	return m.Program + " is not installed (or the sandbox cannot find it)"
}

// missingRunner is the error of a run whose test program could not run: what is missing,
// how to install it, and what was tried.
func (e *Exec) missingRunner(plan testrun.Invocation, m testrun.MissingProgram, out *shell.Result, tried []string) error {
	tail, _ := e.redactor().String(m.Output)
	te := definitions.NewError(definitions.ProcessError, "run_tests: %s: %s", missingWhat(m), strings.Join(plan.Argv, " ")).
		With("runner", string(plan.Runner)).With("command", plan.Argv).With("exit_code", out.ExitCode).With("output", tail)
	if len(tried) > 0 {
		te = te.With("tried", tried)
	}
	return te.Hint(m.Install,
		"If it is installed, the sandbox may not see it: check with run_shell `command -v "+strings.Fields(m.Program)[0]+"`, or pass command with its full path")
}

// newReportID names a test run's report directory.
func newReportID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
