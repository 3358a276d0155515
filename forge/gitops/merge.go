package gitops

import (
	"sort"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// MergeResult is the outcome of MergeBranches (merge_branches's result).
type MergeResult struct {
	Success   bool     // every source was merged
	Merged    []string // sources merged, in order
	Source    string   // the source whose merge conflicted ("" on success)
	Conflicts []string // its conflicting files, left with markers in the worktree
}

// MergeBranches merges each branch of sources, in order, into target in the worktree at
// worktreeDir (a worktree PrepareBranch made, or the main work tree), first checking
// target out there when the worktree is on another branch. The worktree must be clean.
//
// On the first conflict it stops and leaves that merge in progress, with the markers in
// the files, so that a conflict agent can fix them; ConcludeMerge then commits it, or
// AbortMerge drops it. The result says which sources were merged before, which one
// conflicted and where. A failure that is not a conflict (a source that does not exist, a
// dirty worktree) is an error.
func (r *Repo) MergeBranches(worktreeDir string, sources []string, target string) (*MergeResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.worktreeLoc(worktreeDir)
	if err != nil {
		return nil, err
	}
	if err := r.checkBranch(target); err != nil {
		return nil, err
	}
	if len(sources) == 0 {
		return nil, definitions.NewError(definitions.ValidationError, "no source branch to merge into %s", target)
	}
	commits := make([]string, len(sources))
	for i, s := range sources {
		if commits[i], err = r.resolveBranch(s); err != nil {
			return nil, err
		}
	}
	if err := r.requireClean(l); err != nil {
		return nil, err
	}
	if on, _ := r.branchAt(l); on != target {
		if !r.BranchExists(target) {
			return nil, definitions.NewError(definitions.ValidationError, "target branch %q does not exist", target).With("target", target)
		}
		if _, err := r.git.run(l, "switch", "-q", "--no-guess", target); err != nil {
			return nil, err
		}
	}
	res := &MergeResult{Merged: []string{}}
	for i, s := range sources {
		conflicts, err := r.merge(l, s, commits[i], target)
		if err != nil {
			return res, err
		}
		if len(conflicts) > 0 {
			res.Source, res.Conflicts = s, conflicts
			return res, nil
		}
		res.Merged = append(res.Merged, s)
	}
	res.Success = true
	return res, nil
}

// merge merges commit (of branch source) into the worktree at l, whose branch is target,
// with a merge commit. It returns the conflicting files when the merge stopped on
// conflicts, leaving it in progress; any other failure is aborted and returned.
func (r *Repo) merge(l loc, source, commit, target string) ([]string, error) {
	args := []string{"merge", "-q", "--no-edit", "--no-ff", "--no-stat", "--no-log",
		"-m", "Merge branch '" + source + "' into " + target, commit}
	res, err := r.git.exec(l, args...)
	if err != nil || res.code == 0 {
		return nil, err
	}
	conflicts, err := r.unmerged(l)
	if err != nil || len(conflicts) > 0 {
		return conflicts, err
	}
	if err := r.abortIfMerging(l); err != nil {
		return nil, err
	}
	return nil, gitFailed(args, res).With("source", source)
}

// unmerged returns the paths with unmerged entries in the index at l, sorted. git ls-files
// -u reads only the index: unlike git diff --diff-filter=U it looks at no file and asks
// no submodule.
func (r *Repo) unmerged(l loc) ([]string, error) {
	out, err := r.git.run(l, "ls-files", "-u", "-z")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var paths []string
	for _, entry := range splitZ(out) {
		_, path, ok := strings.Cut(entry, "\t")
		if ok && !seen[path] {
			seen[path] = true
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// merging reports whether a merge is in progress at l.
func (r *Repo) merging(l loc) (bool, error) {
	res, err := r.git.exec(l, "rev-parse", "-q", "--verify", "MERGE_HEAD")
	return err == nil && res.code == 0, err
}

// abortIfMerging aborts the merge in progress at l, if any.
func (r *Repo) abortIfMerging(l loc) error {
	if m, err := r.merging(l); err != nil || !m {
		return err
	}
	_, err := r.git.run(l, "merge", "--abort")
	return err
}

// AbortMerge aborts the merge in progress in the worktree at worktreeDir, restoring it
// as it was before; it does nothing when no merge is in progress.
func (r *Repo) AbortMerge(worktreeDir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.worktreeLoc(worktreeDir)
	if err != nil {
		return err
	}
	return r.abortIfMerging(l)
}

// requireClean refuses a worktree with a merge in progress or changes not committed
// (tracked or not, ignored files aside).
func (r *Repo) requireClean(l loc) error {
	if m, err := r.merging(l); err != nil || m {
		if err == nil {
			err = definitions.NewError(definitions.ConflictError, "a merge is in progress in %s", l.workTree).
				With("dir", l.workTree).Hint("Conclude it (ConcludeMerge) or abort it (AbortMerge) first")
		}
		return err
	}
	// Untracked files do not count (the main work tree holds the run's artifacts): git
	// refuses a merge that would overwrite one.
	out, err := r.git.run(l, "status", "--porcelain", "-z", "--ignore-submodules=all", "--untracked-files=no")
	if err != nil {
		return err
	}
	if out != "" {
		return definitions.NewError(definitions.ConflictError, "worktree %s has uncommitted changes", l.workTree).
			With("dir", l.workTree).With("changes", splitZ(out)).
			Hint("Commit them (CommitAll) or remove the worktree first")
	}
	return nil
}
