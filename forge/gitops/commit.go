package gitops

import (
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// CommitAll stages everything in the worktree at worktreeDir (git add -A) and commits it
// as jido with message: an agent's finished work. It returns the worktree's HEAD commit
// and whether a commit was made; nothing is committed when nothing changed. A worktree
// with a merge in progress is refused (ConcludeMerge commits that).
func (r *Repo) CommitAll(worktreeDir, message string) (commit string, changed bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.worktreeLoc(worktreeDir)
	if err != nil {
		return "", false, err
	}
	if strings.TrimSpace(message) == "" {
		return "", false, definitions.NewError(definitions.ValidationError, "the commit message is empty")
	}
	if m, err := r.merging(l); err != nil || m {
		if err == nil {
			err = definitions.NewError(definitions.ConflictError, "a merge is in progress in %s", worktreeDir).
				With("dir", worktreeDir).Hint("Conclude it with ConcludeMerge, or abort it with AbortMerge")
		}
		return "", false, err
	}
	if _, err := r.git.run(l, "add", "-A"); err != nil {
		return "", false, err
	}
	tree, err := r.git.run(l, "write-tree")
	if err != nil {
		return "", false, err
	}
	head, err := r.git.run(l, "rev-parse", "--verify", "-q", "HEAD^{tree}")
	if err != nil {
		return "", false, err
	}
	if strings.TrimSpace(tree) != strings.TrimSpace(head) {
		if _, err := r.git.run(l, "commit", "-q", "--no-verify", "--cleanup=verbatim", "-m", message); err != nil {
			return "", false, err
		}
		changed = true
	}
	commit, err = r.headAt(l)
	return commit, changed, err
}
