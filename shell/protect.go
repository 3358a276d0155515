package shell

import (
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
)

// maxScanDirs bounds the directories one scan visits, so that a huge tree costs a bounded
// time before each command; what lies beyond is not refined (its secrets stay readable
// inside the sandbox, its nested repositories writable) and Scan says so.
const maxScanDirs = 50_000

// gitProtected are the parts of a repository's git directory that make git run programs
// or trust settings: a command sees them read-only (worktrees too: a worktree's commondir
// file could point git at a planted repository). The rest of the directory (objects,
// refs, index, HEAD, logs) stays writable, so that add, commit, branch and stash work.
var gitProtected = []string{"config", "config.worktree", "hooks", "info", "modules", "worktrees"}

// Scan is the result of one look over the project before a command.
type Scan struct {
	Paths    sandbox.Paths
	Complete bool // false: the tree was larger than maxScanDirs
	// ids are the protected paths' files (device and inode): one replaced during a
	// command (renamed over, or its directory moved and made anew) is audited as new.
	ids map[string]fileID
}

// fileID is what tells one file from another at the same path.
type fileID struct{ dev, ino uint64 }

// idOf returns the file at p's identity (zero when it cannot be read).
func idOf(p string) fileID {
	info, err := os.Lstat(p)
	if err != nil {
		return fileID{}
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// scanProject finds, under the root, what a command must see read-only (the root's
// protected paths, and in every repository, nested ones and submodules included, its git
// directory's config, hooks, info and modules; jido's own directory but for its output)
// and what it must not see (secret files).
// A repository's .git file (a worktree's or submodule's pointer) is read-only too. A
// repository's missing hooks and info directories are made first, empty, so that a
// command cannot create them. Symbolic links are never followed.
func scanProject(root *security.Root) Scan {
	host := root.Path()
	sc := Scan{Complete: true}
	dirs := 0
	var visit func(rel string)
	visit = func(rel string) {
		if dirs++; dirs > maxScanDirs {
			sc.Complete = false
			return
		}
		entries, err := os.ReadDir(filepath.Join(host, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		for _, e := range entries {
			name := path.Join(rel, e.Name())
			abs := filepath.Join(host, filepath.FromSlash(name))
			switch {
			case name == ".jido" && e.IsDir():
				sc.Paths.Protected = append(sc.Paths.Protected, abs)
				if out := filepath.Join(host, filepath.FromSlash(OutputDir)); isRealDir(out) {
					sc.Paths.Writable = append(sc.Paths.Writable, out)
				}
			case e.Name() == ".git":
				sc.Paths.Protected = append(sc.Paths.Protected, gitDirPaths(abs, e)...)
			case root.IsSecret(name) && e.Type()&os.ModeSymlink == 0:
				sc.Paths.Hidden = append(sc.Paths.Hidden, abs) // hidden is read-only too
				if root.IsProtected(name) {
					sc.Paths.Protected = append(sc.Paths.Protected, abs) // .envrc: its creation is audited
				}
			case root.IsProtected(name):
				sc.Paths.Protected = append(sc.Paths.Protected, abs)
			case e.IsDir() && e.Name() != "node_modules":
				visit(name)
			}
		}
	}
	visit(".")
	sc.ids = make(map[string]fileID, len(sc.Paths.Protected))
	for _, p := range sc.Paths.Protected {
		sc.ids[p] = idOf(p)
	}
	return sc
}

// isRealDir reports whether p is a directory and not a symbolic link.
func isRealDir(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.IsDir()
}

// gitDirPaths returns the protected parts of the .git entry at abs: the entry itself when
// it is a file (a pointer to the git directory, which would redirect git elsewhere), else
// its gitProtected parts, with hooks and info made when missing.
func gitDirPaths(abs string, e os.DirEntry) []string {
	if !e.IsDir() {
		if e.Type()&os.ModeSymlink != 0 {
			return nil
		}
		return []string{abs}
	}
	var out []string
	for _, name := range gitProtected {
		p := filepath.Join(abs, name)
		if name == "hooks" || name == "info" {
			os.Mkdir(p, 0o755) // an empty directory, as git init makes it; an error leaves it as it was
		}
		if info, err := os.Lstat(p); err == nil && info.Mode()&os.ModeSymlink == 0 {
			out = append(out, p)
		}
	}
	return out
}
