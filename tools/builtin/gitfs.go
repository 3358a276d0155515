package builtin

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/jido-run/jido/security"
)

// errReadOnly refuses every change go-git might try through gitFS: the git tools read.
var errReadOnly = errors.New("the git tools are read-only")

// gitFS is a read-only billy.Filesystem over a security.Root, below directory base (a
// root-relative slash path, "" for the root): how go-git reads a repository with the
// Root's confinement and checks (in-root symlinks only, secrets refused, hard links but
// in .git/objects refused, no FIFOs or devices). Names are relative to base; a leading
// "/" names base itself, never the host's root. Every change is refused.
type gitFS struct {
	root *security.Root
	base string
}

var _ billy.Filesystem = gitFS{}

// name returns the root-relative path of filename.
func (g gitFS) name(filename string) string {
	n := path.Clean("/" + strings.ReplaceAll(filename, "\\", "/"))[1:]
	switch {
	case g.base == "":
		if n == "" {
			return "."
		}
		return n
	case n == "":
		return g.base
	}
	return g.base + "/" + n
}

func (g gitFS) refuse(op, filename string) error {
	return &fs.PathError{Op: op, Path: g.name(filename), Err: errReadOnly}
}

// Create is refused.
func (g gitFS) Create(filename string) (billy.File, error) { return nil, g.refuse("create", filename) }

// Open opens a file for reading.
func (g gitFS) Open(filename string) (billy.File, error) {
	return g.OpenFile(filename, os.O_RDONLY, 0)
}

// OpenFile opens a file for reading; any other flag is refused.
func (g gitFS) OpenFile(filename string, flag int, _ fs.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, g.refuse("open", filename)
	}
	f, _, _, err := g.root.OpenFile(g.name(filename))
	if err != nil {
		return nil, err
	}
	return gitFile{File: f, name: filename}, nil
}

// Stat stats a file, following in-root symlinks.
func (g gitFS) Stat(filename string) (fs.FileInfo, error) { return g.root.Stat(g.name(filename)) }

// Lstat stats a file without following a final symlink.
func (g gitFS) Lstat(filename string) (fs.FileInfo, error) { return g.root.Lstat(g.name(filename)) }

// Rename is refused.
func (g gitFS) Rename(from, _ string) error { return g.refuse("rename", from) }

// Remove is refused.
func (g gitFS) Remove(filename string) error { return g.refuse("remove", filename) }

// Join joins path elements.
func (gitFS) Join(elem ...string) string { return path.Join(elem...) }

// TempFile is refused.
func (g gitFS) TempFile(dir, _ string) (billy.File, error) { return nil, g.refuse("create", dir) }

// ReadDir lists a directory.
func (g gitFS) ReadDir(dir string) ([]fs.FileInfo, error) {
	entries, err := g.root.ReadDir(g.name(dir))
	if err != nil {
		return nil, err
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			infos = append(infos, info)
		}
	}
	return infos, nil
}

// MkdirAll is refused.
func (g gitFS) MkdirAll(filename string, _ fs.FileMode) error { return g.refuse("mkdir", filename) }

// Symlink is refused.
func (g gitFS) Symlink(_, link string) error { return g.refuse("symlink", link) }

// Readlink returns a symlink's target as stored.
func (g gitFS) Readlink(link string) (string, error) {
	return g.root.FS().(fs.ReadLinkFS).ReadLink(g.name(link))
}

// Chroot returns the filesystem below dir, still inside the Root.
func (g gitFS) Chroot(dir string) (billy.Filesystem, error) {
	n := g.name(dir)
	if n == "." {
		n = ""
	}
	return gitFS{root: g.root, base: n}, nil
}

// Root returns the base directory, root-relative ("/" for the project root): never a
// host path, so that nothing joins names to it outside gitFS.
func (g gitFS) Root() string { return "/" + g.base }

// gitFile is a file opened for reading through the Root.
type gitFile struct {
	*os.File
	name string
}

// Name returns the name the file was opened with (os.File's is a host path).
func (f gitFile) Name() string { return f.name }

// Write is refused.
func (f gitFile) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: f.name, Err: errReadOnly}
}

// Truncate is refused.
func (f gitFile) Truncate(int64) error {
	return &fs.PathError{Op: "truncate", Path: f.name, Err: errReadOnly}
}

// Lock does nothing: a reader takes no lock.
func (gitFile) Lock() error { return nil }

// Unlock does nothing.
func (gitFile) Unlock() error { return nil }
