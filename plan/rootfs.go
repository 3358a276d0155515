// Package plan implements "plan mode": an agent's file changes are made in memory over a
// read-only view of the project root, then shown as one diff and applied to disk at once
// (or discarded). Reads always go through security.Root, so the plan sees exactly what
// the agent may see; writes are confined to an in-memory layer until Apply.
package plan

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/spf13/afero"
)

// RootFs is a read-only afero.Fs over a security.Root: every read goes through the Root's
// checks (confinement, symlinks, secrets refused); every write method returns a
// *fs.PathError with syscall.EROFS. Names are root-relative (a leading "/" is the root).
type RootFs struct{ root *security.Root }

var (
	_ afero.Fs      = (*RootFs)(nil)
	_ afero.Lstater = (*RootFs)(nil)
)

// NewRootFs returns a read-only afero.Fs over root.
func NewRootFs(root *security.Root) *RootFs { return &RootFs{root: root} }

// rel turns an afero name into a Root name: a leading "/" denotes the root.
func rel(name string) string {
	n := strings.TrimLeft(name, "/")
	if n == "" {
		return "."
	}
	return n
}

// aferoError translates Root errors so that afero's union logic, which compares errors
// by identity, recognizes missing files: not-exist becomes fs.ErrNotExist and "not a
// directory" becomes ENOTDIR. Everything else (secrets, escapes) passes unchanged.
func aferoError(err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: fs.ErrNotExist}
	case errors.Is(err, security.ErrNotDir):
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: syscall.ENOTDIR}
	}
	return err
}

// readOnly is the error of every write method.
func readOnly(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: syscall.EROFS}
}

// rootFile is an open file or directory of the Root, named by its root-relative path
// (the *os.File's own name is a host path, which must not be shown).
type rootFile struct {
	*os.File
	name string
}

func (f rootFile) Name() string { return f.name }

// Open opens a file for reading (through Root.OpenFile: secrets, hard links, FIFOs
// refused) or a directory for listing.
func (f *RootFs) Open(name string) (afero.File, error) {
	n := rel(name)
	info, err := f.root.Stat(n)
	if err != nil {
		return nil, aferoError(err)
	}
	if !info.IsDir() {
		file, canonical, _, err := f.root.OpenFile(n)
		if err != nil {
			return nil, aferoError(err)
		}
		return rootFile{file, canonical}, nil
	}
	canonical, err := f.root.Resolve(n)
	if err != nil {
		return nil, aferoError(err)
	}
	d, err := f.root.FS().Open(canonical)
	if err != nil {
		return nil, aferoError(err)
	}
	osf, ok := d.(*os.File)
	if !ok { // cannot happen: the Root opens directories as *os.File
		d.Close()
		return nil, &fs.PathError{Op: "open", Path: canonical, Err: fs.ErrInvalid}
	}
	return rootFile{osf, canonical}, nil
}

// OpenFile is Open for read-only flags and EROFS for anything that could write.
func (f *RootFs) OpenFile(name string, flag int, _ os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		return nil, readOnly("open", name)
	}
	return f.Open(name)
}

// Stat is Root.Stat (follows in-root symlinks).
func (f *RootFs) Stat(name string) (fs.FileInfo, error) {
	info, err := f.root.Stat(rel(name))
	return info, aferoError(err)
}

// LstatIfPossible is Root.Lstat.
func (f *RootFs) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	info, err := f.root.Lstat(rel(name))
	return info, true, aferoError(err)
}

// Name names the file system.
func (f *RootFs) Name() string { return "RootFs" }

// read reads a whole file with its Version, through the Root's checks.
func (f *RootFs) read(name string) (*security.File, error) {
	return f.root.ReadFile(rel(name))
}

// The write methods all fail with EROFS.

func (f *RootFs) Create(name string) (afero.File, error)    { return nil, readOnly("create", name) }
func (f *RootFs) Mkdir(name string, _ os.FileMode) error    { return readOnly("mkdir", name) }
func (f *RootFs) MkdirAll(name string, _ os.FileMode) error { return readOnly("mkdir", name) }
func (f *RootFs) Remove(name string) error                  { return readOnly("remove", name) }
func (f *RootFs) RemoveAll(name string) error               { return readOnly("remove", name) }
func (f *RootFs) Rename(oldname, _ string) error            { return readOnly("rename", oldname) }
func (f *RootFs) Chmod(name string, _ os.FileMode) error    { return readOnly("chmod", name) }
func (f *RootFs) Chown(name string, _, _ int) error         { return readOnly("chown", name) }
func (f *RootFs) Chtimes(name string, _, _ time.Time) error { return readOnly("chtimes", name) }
