package gitops

import (
	"errors"
	"io/fs"
	"os"

	"github.com/jido-run/jido/tools/definitions"
)

// Prepared is a task attempt's branch, ready for its agent (prepare_branch's result).
type Prepared struct {
	Branch     string   // forge/<taskId>/<attempt>
	BaseRef    string   // the ref the branch started from
	MergedDeps []string // dependency branches the branch contains, in the order given
	Dir        string   // the worktree checked out on Branch
	Conflicts  []string // files of the dependency whose merge conflicted (then aborted)
}

// PrepareBranch makes the branch forge/<taskId>/<attempt> from baseRef (the main work
// tree's current branch when ""), checks it out in a new worktree at
// WorktreePath(worktreeBase, taskID, attempt), and merges each dependency branch of deps
// into it in order (git merge --no-ff, as jido).
//
// A dependency that conflicts is not merged: the merge is aborted, so no conflict markers
// are left, and PrepareBranch returns the Prepared so far, with the conflicting files in
// Conflicts, and a ConflictError.
//
// PrepareBranch is idempotent, for resuming after a crash: when the branch and its
// worktree exist already, it neither fails nor recreates them; it aborts a merge left in
// progress, merges the dependencies the branch does not contain yet, and returns the
// same Prepared. When only the branch exists, it checks it out in the worktree. A path
// that exists and is not this attempt's worktree is refused with a ConflictError.
func (r *Repo) PrepareBranch(taskID string, attempt int, baseRef string, deps []string, worktreeBase string) (*Prepared, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	branch, err := BranchName(taskID, attempt)
	if err != nil {
		return nil, err
	}
	dir, err := WorktreePath(worktreeBase, taskID, attempt)
	if err != nil {
		return nil, err
	}
	if baseRef == "" {
		if baseRef, err = r.CurrentBranch(); err != nil {
			return nil, err
		}
	}
	base, err := r.resolveRef(baseRef)
	if err != nil {
		return nil, err
	}
	depCommits := make([]string, len(deps))
	for i, dep := range deps {
		if dep == branch {
			return nil, definitions.NewError(definitions.ValidationError, "branch %s cannot depend on itself", branch).With("dependency", dep)
		}
		if depCommits[i], err = r.resolveBranch(dep); err != nil {
			return nil, err
		}
	}
	l, err := r.checkoutWorktree(branch, dir, base)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Branch: branch, BaseRef: baseRef, Dir: l.workTree, MergedDeps: []string{}}
	for i, dep := range deps {
		conflicts, err := r.mergeDependency(l, dep, depCommits[i], branch)
		if err != nil {
			p.Conflicts = conflicts
			return p, err
		}
		p.MergedDeps = append(p.MergedDeps, dep)
	}
	return p, nil
}

// checkoutWorktree returns the worktree at dir checked out on branch, making what is
// missing of the two (the branch from base) and aborting a merge left in progress.
func (r *Repo) checkoutWorktree(branch, dir, base string) (loc, error) {
	if _, err := r.git.run(r.main(), "worktree", "prune"); err != nil {
		return loc{}, err
	}
	_, statErr := os.Lstat(dir)
	switch {
	case statErr == nil:
		l, err := r.worktreeLoc(dir)
		if err != nil {
			return loc{}, definitions.NewError(definitions.ConflictError, "%s exists and is not a worktree of the repository", dir).
				With("dir", dir).Hint("Remove it, or pass another worktree base directory")
		}
		if on, err := r.branchAt(l); err != nil || on != branch {
			return loc{}, definitions.NewError(definitions.ConflictError, "worktree %s is not on branch %s", dir, branch).
				With("dir", dir).With("branch", branch)
		}
		return l, r.abortIfMerging(l)
	case !errors.Is(statErr, fs.ErrNotExist):
		return loc{}, definitions.NewError(definitions.ProcessError, "checking %s: %v", dir, statErr).With("dir", dir)
	case r.BranchExists(branch):
		_, err := r.git.run(r.main(), "worktree", "add", "--", dir, branch)
		if err != nil {
			return loc{}, err
		}
	default:
		if _, err := r.git.run(r.main(), "worktree", "add", "-b", branch, "--", dir, base); err != nil {
			return loc{}, err
		}
	}
	return r.worktreeLoc(dir)
}

// mergeDependency merges dep (whose commit is commit) into the worktree at l unless the
// branch contains it already. On a conflict it aborts the merge and returns the
// conflicting files with a ConflictError.
func (r *Repo) mergeDependency(l loc, dep, commit, branch string) ([]string, error) {
	if in, err := r.isAncestor(l, commit); err != nil || in {
		return nil, err
	}
	conflicts, err := r.merge(l, dep, commit, branch)
	if err != nil || len(conflicts) == 0 {
		return nil, err
	}
	if err := r.abortIfMerging(l); err != nil {
		return conflicts, err
	}
	return conflicts, definitions.NewError(definitions.ConflictError, "dependency %s conflicts with %s in %d file(s); its merge was aborted", dep, branch, len(conflicts)).
		With("dependency", dep).With("branch", branch).With("conflicts", conflicts).
		Hint("Merge the dependencies in the Refinery (merge_branches) and resolve the conflict there (fix_conflict), then prepare the branch again")
}
