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
// time before each command. A tree larger than that cannot be checked: commands are then
// refused (ErrUncheckable) rather than run with what lies beyond unprotected (its secrets
// readable, its nested repositories writable), which a command could otherwise bring
// about by making directories.
const maxScanDirs = 50_000

// Scan is the result of one look over the project before a command.
type Scan struct {
	Paths    sandbox.Paths
	Complete bool // false: the tree was larger than maxScanDirs, or could not be looked at
	// ids are the protected paths' files (device and inode): one replaced during a
	// command (renamed over, or its directory moved and made anew) is audited as new.
	ids map[string]fileID
	// gitDirs are the repositories' git directories (root-relative), with what they held;
	// gitLinks the .git entries that are symbolic links, with their targets.
	gitDirs  map[string]gitState
	gitLinks map[string]string
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
// protected paths; in every repository, nested ones and submodules included, its git
// directory's entries outside the allow-list of gitdir.go, and its hooksPath directory
// inside the project; jido's own directory but for its output) and what it must not see
// (secret files), and saves what the audit after the command compares with. A
// repository's .git file (a worktree's or submodule's pointer) is read-only too; a .git
// that is a link is noted with its target, and the directory it names inside the project
// is a git directory like the others. Symbolic links are never followed when acting on
// the host; a tree jido cannot look at whole leaves Complete false.
func scanProject(root *security.Root) Scan {
	host := root.Path()
	sc := Scan{Complete: true, gitDirs: map[string]gitState{}, gitLinks: map[string]string{}}
	h, err := openHostFS(host)
	if err != nil {
		sc.Complete = false
		return sc
	}
	defer h.Close()
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
				sc.scanGitEntry(h, root, host, name, e)
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

// scanGitEntry looks at a .git entry: a directory is a git directory; a file (a pointer to
// the git directory elsewhere, which would redirect git) is read-only; a link is noted with
// its target, which is scanned as a git directory when it is one inside the project.
func (sc *Scan) scanGitEntry(h *hostFS, root *security.Root, host, rel string, e os.DirEntry) {
	switch {
	case e.IsDir():
		sc.scanGitDir(h, host, rel)
	case e.Type()&os.ModeSymlink != 0:
		target, err := os.Readlink(filepath.Join(host, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		sc.gitLinks[rel] = target
		if resolved, err := root.Resolve(rel); err == nil && resolved != rel {
			if info, err := root.Lstat(resolved); err == nil && info.IsDir() {
				if _, seen := sc.gitDirs[resolved]; !seen {
					sc.scanGitDir(h, host, resolved)
				}
			}
		}
	default:
		sc.Paths.Protected = append(sc.Paths.Protected, filepath.Join(host, filepath.FromSlash(rel)))
	}
}

// isRealDir reports whether p is a directory and not a symbolic link.
func isRealDir(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.IsDir()
}
