package gitops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Worktree is a work tree of the repository, as git worktree list reports it.
type Worktree struct {
	Path     string // absolute path
	Head     string // commit id checked out ("" in a new repository)
	Branch   string // branch checked out, without refs/heads/; "" when detached
	Main     bool   // the repository's main work tree
	Prunable bool   // its directory is gone; git worktree prune forgets it
}

// Worktrees lists the repository's work trees, the main one first.
func (r *Repo) Worktrees() ([]Worktree, error) {
	out, err := r.git.run(r.main(), "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, err
	}
	var list []Worktree
	for _, field := range splitZ(out) {
		key, value, _ := strings.Cut(field, " ")
		if key == "worktree" {
			list = append(list, Worktree{Path: value, Main: len(list) == 0})
			continue
		}
		if len(list) == 0 {
			continue
		}
		w := &list[len(list)-1]
		switch key {
		case "HEAD":
			w.Head = value
		case "branch":
			w.Branch = strings.TrimPrefix(value, "refs/heads/")
		case "prunable":
			w.Prunable = true
		}
	}
	return list, nil
}

// WorktreePath returns the directory of a task attempt's worktree under base:
// <base>/<taskId>-<attempt>. base must be absolute; the ids are validated, so the path
// stays directly under base.
func WorktreePath(base, taskID string, attempt int) (string, error) {
	if err := checkTaskID(taskID); err != nil {
		return "", err
	}
	if err := checkAttempt(attempt); err != nil {
		return "", err
	}
	if !filepath.IsAbs(base) {
		return "", definitions.NewError(definitions.ValidationError, "worktree base directory %q is not absolute", base).
			With("base", base)
	}
	return filepath.Join(filepath.Clean(base), taskID+"-"+strconv.Itoa(attempt)), nil
}

// realPath returns dir absolute and symlink-free, as git records worktree paths.
func realPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// worktreeLoc returns where git calls on the worktree at dir run: dir as the work tree
// and, as the git directory, its administrative directory under the repository's
// .git/worktrees, found by reading the gitdir files there (which agents cannot write),
// never dir's .git file (which they can). The main work tree is allowed too. A directory
// that is not a work tree of this repository is a ValidationError.
func (r *Repo) worktreeLoc(dir string) (loc, error) {
	real, err := realPath(dir)
	if err != nil {
		return loc{}, notWorktree(dir, err.Error())
	}
	if real == r.top {
		return r.main(), nil
	}
	admins, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return loc{}, notWorktree(dir, err.Error())
	}
	for _, a := range admins {
		admin := filepath.Join(r.commonDir, "worktrees", a.Name())
		data, err := os.ReadFile(filepath.Join(admin, "gitdir"))
		if err == nil && strings.TrimSpace(string(data)) == filepath.Join(real, ".git") {
			return loc{gitDir: admin, workTree: real}, nil
		}
	}
	return loc{}, notWorktree(dir, "no worktree of the repository is there")
}

// GitDirs returns the git directories of the linked worktree at dir, for reading its
// repository from the host: its own (HEAD, index) and the repository's common one. They
// are found from the main repository, never from the worktree's .git file.
func (r *Repo) GitDirs(dir string) (own, common string, err error) {
	l, err := r.worktreeLoc(dir)
	if err != nil {
		return "", "", err
	}
	return l.gitDir, r.commonDir, nil
}

// notWorktree is the ValidationError of a directory that is not a worktree of the
// repository.
func notWorktree(dir, why string) error {
	return definitions.NewError(definitions.ValidationError, "%s is not a worktree of the repository: %s", dir, why).
		With("dir", dir).Hint("Pass the Dir that PrepareBranch returned, or see Worktrees")
}

// RemoveWorktree deletes the worktree at dir and forgets it, discarding whatever it holds
// that is not committed; the branch stays. The main work tree is refused.
func (r *Repo) RemoveWorktree(dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.worktreeLoc(dir)
	if err != nil {
		return err
	}
	if l.workTree == r.top {
		return definitions.NewError(definitions.PermissionError, "%s is the repository's main work tree, which is never removed", dir).
			With("dir", dir)
	}
	if _, err := r.git.run(r.main(), "worktree", "remove", "--force", "--force", "--", l.workTree); err != nil {
		return err
	}
	_, err = r.git.run(r.main(), "worktree", "prune")
	return err
}

// commonReads are the entries of the repository's common git directory that git reads in a
// linked worktree to show its state (status, diff, log, show, the current branch): the
// repository's format and settings, the main work tree's HEAD, the object store, the refs,
// the excludes and attributes of info, and a shallow clone's boundary. Not hooks, logs,
// modules, the other worktrees' administrative directories nor their work trees.
var commonReads = []string{"config", "HEAD", "objects", "refs", "packed-refs", "info", "shallow"}

// SandboxReads returns the host paths that a sandboxed command in the linked worktree at
// dir needs to read for git to work there: the worktree's administrative directory (its
// HEAD, index and the commondir and gitdir files that lead git to the repository) and
// commonReads. They are to be granted read-only: nothing of the repository, this
// worktree's own state included, is the command's to change (gitops commits the
// worktree's files itself, on the host). Entries that are missing or symbolic links are
// left out; the main work tree is refused (its git directory is the whole repository).
func (r *Repo) SandboxReads(dir string) ([]string, error) {
	l, err := r.worktreeLoc(dir)
	if err != nil {
		return nil, err
	}
	if l.workTree == r.top {
		return nil, definitions.NewError(definitions.ValidationError, "%s is the repository's main work tree, not a linked worktree", dir).
			With("dir", dir).Hint("Pass the Dir that PrepareBranch returned")
	}
	paths := []string{l.gitDir}
	for _, name := range commonReads {
		paths = append(paths, filepath.Join(r.commonDir, name))
	}
	return slices.DeleteFunc(paths, func(p string) bool {
		info, err := os.Lstat(p)
		return err != nil || info.Mode()&fs.ModeSymlink != 0
	}), nil
}
