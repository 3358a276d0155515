package builtin

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/planshell"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tools/definitions"
	"mvdan.cc/sh/v3/syntax"
)

var _ Store = (*plan.View)(nil)

// PlanTools is the bridge module of plan mode's own tools: see the whole planned change, write
// it to the project, or drop it.
type PlanTools struct{ Deps }

// overlay returns the session's plan, or an error outside plan mode.
func (pl *PlanTools) overlay() (*plan.Overlay, error) {
	if pl.Deps.Plan == nil {
		return nil, definitions.NewError(definitions.ValidationError, "this session is not in plan mode: there is no plan").
			Hint("Start the session with --mode plan to plan changes in memory; outside plan mode, tools change the files directly")
	}
	return pl.Deps.Plan, nil
}

// describe summarizes the plan: its changes and, withDiff, its diff (secrets redacted)
// and line counts.
func (pl *PlanTools) describe(o *plan.Overlay, withDiff bool) (*definitions.PlanResult, error) {
	changes, err := o.Changes()
	if err != nil {
		return nil, err
	}
	res := &definitions.PlanResult{Changes: make([]definitions.PlanChange, 0, len(changes)), Files: len(changes)}
	for _, c := range changes {
		res.Changes = append(res.Changes, definitions.PlanChange{Path: c.Path, Kind: c.Kind})
	}
	if withDiff {
		var diff string
		if diff, _, res.Added, res.Removed, err = o.Diff(); err != nil {
			return nil, err
		}
		res.Diff, res.Redacted = pl.redactor().String(diff)
	}
	return res, nil
}

// PlanDiff shows the whole planned change.
func (pl *PlanTools) PlanDiff(context.Context, definitions.PlanDiffParams) (*definitions.PlanResult, error) {
	o, err := pl.overlay()
	if err != nil {
		return nil, err
	}
	return pl.describe(o, true)
}

// PlanApply writes the plan to the project as one journaled change set.
func (pl *PlanTools) PlanApply(ctx context.Context, p definitions.PlanApplyParams) (*definitions.PlanResult, error) {
	o, err := pl.overlay()
	if err != nil {
		return nil, err
	}
	res, err := pl.describe(o, p.DryRun) // the approver saw the diff; the result need not repeat it
	if err != nil || p.DryRun || len(res.Changes) == 0 {
		if res != nil {
			res.DryRun = p.DryRun
		}
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	paths := make([]string, len(res.Changes))
	for i, c := range res.Changes {
		paths[i] = c.Path
	}
	var pd *journal.Pending
	if pl.Journal != nil {
		if pd, err = pl.Journal.Begin(pl.Root, definitions.PlanApply.Name, summary(definitions.PlanApply.Name, paths), paths...); err != nil {
			return nil, definitions.NewError(definitions.FileError, "plan_apply: recording the change before writing failed, nothing was written: %v", err)
		}
	}
	if _, err := o.Apply(); err != nil {
		if pd != nil {
			pd.Abort() // Apply rolled its writes back
		}
		if errors.Is(err, plan.ErrConflict) {
			return nil, definitions.NewError(definitions.ConflictError, "plan_apply: %v; nothing was written", err).
				Hint("Read the changed files again (read_file), redo the planned edits on them, then plan_apply again; or plan_discard")
		}
		return nil, err
	}
	if pd != nil {
		res.Backup = pl.committed(pd)
	}
	res.Applied = true
	return res, nil
}

// committed journals an applied plan and says where its backup is.
func (pl *PlanTools) committed(pd *journal.Pending) definitions.Backup {
	e, err := pd.Commit(pl.Root)
	if err != nil {
		return definitions.Backup{BackupNote: "not journaled: " + err.Error()}
	}
	b := definitions.Backup{ChangeID: e.ID}
	if before := pd.Before(); len(before) > 0 && before[0].Exists {
		b.BackupPath = pl.Journal.BackupPath(e, before[0].Path)
	}
	return b
}

// PlanDiscard drops the plan.
func (pl *PlanTools) PlanDiscard(context.Context, definitions.PlanDiscardParams) (*definitions.PlanResult, error) {
	o, err := pl.overlay()
	if err != nil {
		return nil, err
	}
	res, err := pl.describe(o, false)
	if err != nil {
		return nil, err
	}
	o.Discard()
	return res, nil
}

// planShell is run_shell in plan mode: the command runs in planshell's interpreter over
// the plan, with builtin commands only.
func (e *Exec) planShell(ctx context.Context, p definitions.RunShellParams, res *ShellResult) (*ShellResult, error) {
	if p.Background || p.Stdin != nil {
		return nil, definitions.NewError(definitions.ValidationError, "run_shell in plan mode runs in the foreground without stdin").
			Hint("Drop background and stdin; pipe from echo or cat instead")
	}
	command := p.Command
	if len(p.Cmd) > 0 {
		quoted := make([]string, len(p.Cmd))
		for i, a := range p.Cmd {
			q, err := syntax.Quote(a, syntax.LangBash)
			if err != nil {
				return nil, definitions.NewError(definitions.ValidationError, "run_shell: argument %d: %v", i, err)
			}
			quoted[i] = q
		}
		command = strings.Join(quoted, " ")
	}
	env := make([]string, 0, len(p.Env))
	for k, v := range p.Env {
		env = append(env, k+"="+v)
	}
	ctx, cancel := context.WithTimeout(ctx, seconds(p.Timeout))
	defer cancel()
	start := time.Now()
	out, err := planshell.Run(ctx, e.Plan.Fs(), command, planshell.Options{Dir: p.Cwd, MaxOutput: p.MaxOutput, Env: env})
	switch {
	case errors.Is(err, planshell.ErrSyntax):
		return nil, definitions.NewError(definitions.ValidationError, "run_shell: %v", err).With("field", "command").Hint("Fix the shell syntax of the command")
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded:
		out.ExitCode = -1
		res.Result = &shell.Result{ExitCode: -1, Stdout: out.Stdout, Stderr: out.Stderr, TimedOut: true, DurationMS: time.Since(start).Milliseconds()}
		return res, nil
	case err != nil:
		return nil, err
	}
	res.Result = &shell.Result{ExitCode: out.ExitCode, Stdout: out.Stdout, Stderr: out.Stderr, Truncated: out.Truncated, DurationMS: time.Since(start).Milliseconds()}
	res.Redacted = e.redactStreams(&res.Result.Stdout, &res.Result.Stderr)
	return res, nil
}
