package forge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/jido-run/jido/forge/gitops"
	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/tools/definitions"
)

// captainPrompt asks the Captain for the run's plan.
const captainPrompt = `Plan this goal for a team of coding agents:

%s

Write the plan into the run's artifact store: one or more specs (create_spec), one task per piece of work (create_task: YAML front matter with id, type (1 for a focused change, 2 or 3 for larger work that splits, refinery for merging), dependencies, title and, when the task's result can be checked by a command, tests (a shell command that must pass in the task's copy of the project once it is done), then what to do), and the graph of their dependencies (set_dag). Tasks that do not depend on each other run in parallel, each in its own copy of the project. Then answer with a one-line summary.`

// Plan runs the Captain on goal in the repository: it writes the run's specs, tasks and
// DAG, which must then be valid (a DAG is read back).
func (f *Forge) Plan(ctx context.Context, goal string) error {
	if err := f.openAgentEvents(); err != nil {
		return err
	}
	if err := f.excludeArtifacts(); err != nil {
		return err
	}
	sc := &scope{f: f, role: "captain", dir: f.repo.Dir()}
	if _, err := f.runAgent(ctx, sc, fmt.Sprintf(captainPrompt, goal)); err != nil {
		return err
	}
	if _, err := f.run.ReadDAG(); err != nil {
		return fmt.Errorf("the Captain ended without a valid plan: %w", err)
	}
	return nil
}

// ErrHalted ends Execute when a change request halted the run.
var ErrHalted = errors.New("forge: the run is halted by a change request: revise the plan")

// ErrFailed ends Execute when a task failed its last attempt: nothing was merged.
var ErrFailed = errors.New("forge: the run failed")

// maxAttempts is how many attempts a task gets: a failed one is retried once.
const maxAttempts = 2

// maxReason bounds the reason of a failed attempt kept in the run's state (a model's
// error can quote a whole response); the log gets all of it.
const maxReason = 1000

// Execute runs the plan to its end: it dispatches every ready task (its dependencies
// DONE) to an agent, at most Parallel at once, retries a failed attempt once as a new
// attempt, stops dispatching when a change request halts the run (ErrHalted) or a task
// failed its last attempt (ErrFailed: the running agents finish, the Refinery is not
// run), and when every task is DONE has the Refinery merge their branches into the target
// branch, marking each task MERGE_READY, then MERGED when its branch is in the target.
// It resumes a run a crash cut: DONE tasks are not run again, and a task left RUNNING
// counts as a failed attempt. Stopped (ctx), it lets the running agents end and leaves
// their tasks RUNNING, as a crash would.
func (f *Forge) Execute(ctx context.Context) error {
	if err := f.openAgentEvents(); err != nil {
		return err
	}
	if err := f.excludeArtifacts(); err != nil {
		return err
	}
	dag, err := f.run.ReadDAG()
	if err != nil {
		return err
	}
	if err := f.recover(); err != nil {
		return err
	}
	type outcome struct {
		id  string
		err error
	}
	// An early return stops the agents still running; their sends never block.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan outcome, f.cfg.Parallel)
	running := map[string]bool{}
	for {
		states, err := f.run.States()
		if err != nil {
			return err
		}
		halted, err := f.run.Halted()
		if err != nil {
			return err
		}
		if !halted && len(f.failed(states)) == 0 && ctx.Err() == nil {
			for _, id := range dag.Ready(states) {
				if len(running) >= f.cfg.Parallel || running[id] {
					continue
				}
				attempt, err := f.start(id)
				if err != nil {
					return err
				}
				running[id] = true
				go func() { done <- outcome{id, f.runTaskByID(ctx, id, attempt)} }()
			}
		}
		if len(running) == 0 {
			break
		}
		o := <-done
		delete(running, o.id)
		if ctx.Err() != nil {
			continue // stopped (SIGINT): the attempt stays RUNNING, cut as by a crash
		}
		if err := f.finish(o.id, o.err); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	states, err := f.run.States()
	if err != nil {
		return err
	}
	if halted, _ := f.run.Halted(); halted {
		return ErrHalted
	}
	if failed := f.failed(states); len(failed) > 0 {
		return fmt.Errorf("%w: %s", ErrFailed, strings.Join(failed, "; "))
	}
	if pending := notDone(dag, states); len(pending) > 0 {
		return fmt.Errorf("forge: tasks not done: %s", strings.Join(pending, ", "))
	}
	return f.refine(ctx, dag)
}

// recover turns the tasks a crash left RUNNING into failed attempts, and those it left
// FAILED with an attempt left PENDING, so that they run again.
func (f *Forge) recover() error {
	states, err := f.run.States()
	if err != nil {
		return err
	}
	for id, st := range states {
		switch {
		case st == store.Running:
			f.logf("%s: its attempt %d was cut by a crash", id, f.run.Attempt(id))
			err = f.finish(id, errors.New("the run stopped while it ran"))
		case st == store.Failed && f.run.Attempt(id) < maxAttempts:
			_, err = f.run.MarkStatus(id, store.Pending)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// failed lists the tasks that failed their last attempt, each with why.
func (f *Forge) failed(states map[string]store.Status) []string {
	var out []string
	for id, st := range states {
		if n := f.run.Attempt(id); st == store.Failed && n >= maxAttempts {
			out = append(out, fmt.Sprintf("task %s failed after %d attempts: %s", id, n, f.run.Reason(id)))
		}
	}
	slices.Sort(out)
	return out
}

// start marks a task RUNNING in a new attempt.
func (f *Forge) start(id string) (int, error) {
	attempt, err := f.run.NextAttempt(id)
	if err != nil {
		return 0, err
	}
	if _, err := f.run.MarkStatus(id, store.Running); err != nil {
		return 0, err
	}
	f.logf("%s: attempt %d", id, attempt)
	return attempt, nil
}

// runTaskByID runs attempt of the task id.
func (f *Forge) runTaskByID(ctx context.Context, id string, attempt int) error {
	task, err := f.run.Task(id)
	if err != nil {
		return err
	}
	return f.runTask(ctx, task, attempt)
}

// finish marks a task's attempt DONE, or FAILED and, while attempts are left, PENDING
// again for a new attempt.
func (f *Forge) finish(id string, runErr error) error {
	if runErr == nil {
		_, err := f.run.MarkStatus(id, store.Done)
		return err
	}
	f.logf("%s: attempt %d failed: %v", id, f.run.Attempt(id), runErr)
	reason := runErr.Error()
	if len(reason) > maxReason {
		reason = strings.ToValidUTF8(reason[:maxReason], "") + "..."
	}
	if _, err := f.run.Fail(id, reason); err != nil {
		return err
	}
	if f.run.Attempt(id) < maxAttempts {
		_, err := f.run.MarkStatus(id, store.Pending)
		return err
	}
	return nil
}

// notDone lists the tasks of dag that are not DONE (nor further).
func notDone(dag *store.DAG, states map[string]store.Status) []string {
	var out []string
	for _, id := range dag.Order() {
		if st := states[id]; st != store.Done && st != store.MergeReady && st != store.Merged {
			out = append(out, fmt.Sprintf("%s (%s)", id, cmp.Or(st, store.Pending)))
		}
	}
	return out
}

// refinePrompt asks the Refinery to merge the branches.
const refinePrompt = `Every task of the run is done. Merge their branches into %s with merge_branches, in this order: %s.
If a merge stops on conflicts, call fix_conflict with the files it lists, then merge the branches that are left. Run the tests (run_tests) when everything is merged. Answer with a one-line summary.`

// refine marks the DONE tasks MERGE_READY, runs the Refinery on the target branch in the
// repository's work tree, and marks MERGED the tasks whose branch the target then holds.
func (f *Forge) refine(ctx context.Context, dag *store.DAG) error {
	var branches []string
	for _, id := range dag.Order() {
		st, err := f.run.Status(id)
		if err != nil {
			return err
		}
		if st == store.Merged {
			continue
		}
		if st == store.Done {
			if _, err := f.run.MarkStatus(id, store.MergeReady); err != nil {
				return err
			}
		}
		b, err := gitops.BranchName(id, f.run.Attempt(id))
		if err != nil {
			return err
		}
		branches = append(branches, b)
	}
	if len(branches) == 0 {
		return nil
	}
	earlier := f.earlierBranches(dag)
	sc := &scope{f: f, role: "refinery", taskID: "", dir: f.repo.Dir()}
	if _, err := f.runAgent(ctx, sc, fmt.Sprintf(refinePrompt, f.base, strings.Join(branches, ", "))); err != nil {
		return err
	}
	if merged := slices.DeleteFunc(earlier, func(b string) bool { return !f.contains(b) }); len(merged) > 0 {
		return fmt.Errorf("%w: the Refinery merged %s into %s: the work of attempts that failed", ErrFailed, strings.Join(merged, ", "), f.base)
	}
	var left []string
	for _, id := range dag.Order() {
		b, _ := gitops.BranchName(id, f.run.Attempt(id))
		if st, _ := f.run.Status(id); st != store.MergeReady {
			continue
		}
		if !f.contains(b) {
			left = append(left, id)
			continue
		}
		if _, err := f.run.MarkStatus(id, store.Merged); err != nil {
			return err
		}
		f.removeWorktrees(id)
	}
	if len(left) > 0 {
		return fmt.Errorf("forge: the Refinery did not merge %s into %s", strings.Join(left, ", "), f.base)
	}
	return nil
}

// earlierBranches lists the branches of the tasks' attempts before their current one
// (failed, or cut by a crash) that the target branch does not hold: none may be merged.
func (f *Forge) earlierBranches(dag *store.DAG) []string {
	var out []string
	for _, id := range dag.Order() {
		for attempt := 1; attempt < f.run.Attempt(id); attempt++ {
			if b, err := gitops.BranchName(id, attempt); err == nil && f.repo.BranchExists(b) && !f.contains(b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// mergeable refuses a branch that is not the work of a finished attempt of the run: the
// current attempt of a task DONE, MERGE_READY or MERGED. merge_branches merges nothing
// else: no failed attempt, no branch of the user's.
func (f *Forge) mergeable(branch string) error {
	id, _, _ := strings.Cut(strings.TrimPrefix(branch, gitops.BranchPrefix), "/")
	if st, err := f.run.Status(id); err == nil && (st == store.Done || st == store.MergeReady || st == store.Merged) {
		if want, err := gitops.BranchName(id, f.run.Attempt(id)); err == nil && want == branch {
			return nil
		}
	}
	return definitions.NewError(definitions.PermissionError, "%s is not the finished work of a task of this run: merge_branches merges only the branch of a task's current attempt once it is DONE", branch).
		With("branch", branch).Hint("Merge only the branches you were given")
}

// contains reports whether the target branch holds branch (merged through another task's
// branch, as C's holds A's).
func (f *Forge) contains(branch string) bool {
	ok, err := f.repo.Contains(f.base, branch)
	return err == nil && ok
}

// removeWorktrees removes the worktrees of every attempt of a merged task (its branches
// stay); one that cannot be removed is reported, not fatal.
func (f *Forge) removeWorktrees(id string) {
	for attempt := 1; attempt <= f.run.Attempt(id); attempt++ {
		dir, err := gitops.WorktreePath(f.cfg.WorktreeDir, id, attempt)
		if err != nil {
			continue
		}
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if err := f.repo.RemoveWorktree(dir); err != nil {
			f.logf("%s: worktree %s not removed: %v", id, dir, err)
		}
	}
}
