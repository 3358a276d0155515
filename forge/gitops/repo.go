package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/jido-run/jido/tools/definitions"
)

// Repo is a git repository with a work tree on the host: the user's project, whose
// configuration and .git directory agents cannot write.
type Repo struct {
	top       string // the main work tree, symlink-free
	gitDir    string // its git directory
	commonDir string // the directory shared by all worktrees (holds worktrees/)
	git       *runner
	// mu makes the operations that change the repository one at a time: two git
	// processes adding worktrees or branches at once collide on git's lock files.
	mu sync.Mutex
}

// Open opens the repository whose work tree contains dir. It refuses a directory that is
// not in a git work tree (a bare repository, a .git directory, no repository). dir must
// be the user's repository, never an agent's worktree: Open lets git find the repository
// from dir, which reads dir's .git.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, notRepo(dir, err.Error())
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, notRepo(dir, "not a directory")
	}
	g, err := newRunner()
	if err != nil {
		return nil, err
	}
	res, err := g.exec(loc{cwd: abs}, "rev-parse", "--is-inside-work-tree", "--show-toplevel",
		"--absolute-git-dir", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if res.code != 0 || len(lines) != 4 || lines[0] != "true" {
		return nil, notRepo(dir, firstLine(strings.TrimSpace(res.stderr)))
	}
	r := &Repo{top: lines[1], gitDir: lines[2], commonDir: lines[3], git: g}
	if g.extra, err = r.driverOverrides(); err != nil {
		return nil, err
	}
	return r, nil
}

// notRepo is the ValidationError of a directory Open refuses.
func notRepo(dir, why string) error {
	return definitions.NewError(definitions.ValidationError, "%s is not a git work tree: %s", dir, why).
		With("dir", dir).
		Hint("Open the directory of a git repository with a work tree (git init; git commit)")
}

// Dir returns the repository's main work tree.
func (r *Repo) Dir() string { return r.top }

// main is where git calls on the repository itself run.
func (r *Repo) main() loc { return loc{gitDir: r.gitDir, workTree: r.top} }

// CurrentBranch returns the branch checked out in the main work tree, or a
// ValidationError when HEAD is detached.
func (r *Repo) CurrentBranch() (string, error) {
	return r.branchAt(r.main())
}

// branchAt returns the branch checked out at l.
func (r *Repo) branchAt(l loc) (string, error) {
	res, err := r.git.exec(l, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	if res.code != 0 {
		return "", definitions.NewError(definitions.ValidationError, "HEAD of %s is not on a branch (detached)", l.workTree).
			With("dir", l.workTree).Hint("Pass a base ref explicitly, or check a branch out")
	}
	return strings.TrimSpace(res.stdout), nil
}

// HeadCommit returns the commit id of HEAD in the main work tree.
func (r *Repo) HeadCommit() (string, error) {
	return r.headAt(r.main())
}

// headAt returns the commit id of HEAD at l.
func (r *Repo) headAt(l loc) (string, error) {
	out, err := r.git.run(l, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	return strings.TrimSpace(out), err
}

// BranchExists reports whether name is a valid local branch that exists.
func (r *Repo) BranchExists(name string) bool {
	_, err := r.resolveBranch(name)
	return err == nil
}

// checkBranch refuses a name that is not a valid branch name, asking git
// check-ref-format --branch after checkBranchText (which refuses a leading '-' first, so
// the name cannot be an option) and refusing a name git would expand (@{-1}).
func (r *Repo) checkBranch(name string) error {
	if err := checkBranchText(name); err != nil {
		return err
	}
	res, err := r.git.exec(r.main(), "check-ref-format", "--branch", name)
	if err != nil {
		return err
	}
	if res.code != 0 || strings.TrimSpace(res.stdout) != name {
		return invalidBranch(name)
	}
	return nil
}

// resolveBranch returns the commit id of the local branch name.
func (r *Repo) resolveBranch(name string) (string, error) {
	if err := r.checkBranch(name); err != nil {
		return "", err
	}
	return r.resolve(name, "refs/heads/"+name)
}

// resolveRef returns the commit id a ref (branch, tag or commit id) names.
func (r *Repo) resolveRef(ref string) (string, error) {
	if err := checkBranchText(ref); err != nil {
		return "", err
	}
	return r.resolve(ref, ref)
}

// resolve returns the commit id of ref (after --end-of-options, so it is never an
// option); name is what the caller passed, for the error.
func (r *Repo) resolve(name, ref string) (string, error) {
	res, err := r.git.exec(r.main(), "rev-parse", "--verify", "-q", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", err
	}
	if res.code != 0 {
		return "", definitions.NewError(definitions.ValidationError, "no commit named %q in the repository", name).
			With("ref", name).Hint("Pass an existing branch (git branch --list)")
	}
	return strings.TrimSpace(res.stdout), nil
}

// isAncestor reports whether commit is an ancestor of (or is) HEAD at l.
func (r *Repo) isAncestor(l loc, commit string) (bool, error) { return r.ancestor(l, commit, "HEAD") }

// ancestor reports whether commit is an ancestor of (or is) the commit of.
func (r *Repo) ancestor(l loc, commit, of string) (bool, error) {
	res, err := r.git.exec(l, "merge-base", "--is-ancestor", commit, of)
	if err != nil {
		return false, err
	}
	switch res.code {
	case 0:
		return true, nil
	case 1:
		return false, nil
	}
	return false, gitFailed([]string{"merge-base", "--is-ancestor", commit, of}, res)
}

// Contains reports whether the branch target holds the branch branch: whether branch's
// commit is in target's history (merged into it, directly or through another branch).
func (r *Repo) Contains(target, branch string) (bool, error) {
	tc, err := r.resolveBranch(target)
	if err != nil {
		return false, err
	}
	bc, err := r.resolveBranch(branch)
	if err != nil {
		return false, err
	}
	return r.ancestor(r.main(), bc, tc)
}
