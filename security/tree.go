package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// A tree walk (list_files, glob, search) visits thousands of entries per call, so it gets
// its own primitives: a directory is opened once and its entries are listed and stat'ed
// relative to it, and files are read into a caller's buffer. Names given to them are
// canonical paths built by the walk from listed entries (no symlinks, no ".."). On Linux
// they are opened with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_XDEV), so
// a component swapped for a symlink or a mount point between listing and opening is
// refused by the kernel; elsewhere, or when openat2 is unavailable, through os.Root.

// errFastPathOff is returned by the openat2 paths when the fast path is disabled.
var errFastPathOff = errors.New("openat2 fast path disabled")

// TreeEntry is one entry of a directory listed for a walk: its name and type bits
// (fs.ModeDir, fs.ModeSymlink, ... zero for a regular file); nothing is stat'ed.
type TreeEntry struct {
	Name string
	Type fs.FileMode
}

// TreeInfo is what a walk reports of an entry it stats.
type TreeInfo struct {
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode
}

// TreeDir is a directory opened for a walk; one goroutine uses it, then closes it.
type TreeDir struct {
	r    *Root
	path string   // canonical path of the directory
	fd   int      // openat2 descriptor (Linux), or -1 when f is used
	f    *os.File // the os.Root fallback
}

// OpenTreeDir opens the canonical directory dir (as built by a walk) for listing. A
// symlink or another device anywhere in dir is refused.
func (r *Root) OpenTreeDir(dir string) (*TreeDir, error) {
	const op = "opendir"
	if !walkedName(dir) {
		return nil, pathError(op, dir, detail(ErrInvalidPath, "not a canonical path from a walk"))
	}
	if fd, err := r.fastOpenTree(dir, true); err == nil {
		return &TreeDir{r: r, path: dir, fd: fd}, nil
	} else if err != errFastPathOff {
		return nil, pathError(op, dir, treeError(err))
	}
	t, err := r.resolve(op, dir, 0)
	if err != nil {
		return nil, err
	}
	if t.name != path.Clean(dir) {
		return nil, pathError(op, dir, ErrChanged)
	}
	f, err := r.openDir(t)
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	return &TreeDir{r: r, path: t.name, fd: -1, f: f}, nil
}

// Entries lists the directory, unsorted, appending to buf. Entries whose names no tool
// could address (ValidName) and WriteFile's temporary files are left out.
func (d *TreeDir) Entries(buf []TreeEntry) ([]TreeEntry, error) {
	var err error
	if d.f == nil {
		buf, err = d.fdEntries(buf)
	} else {
		var des []fs.DirEntry
		des, err = d.f.ReadDir(-1)
		for _, e := range des {
			if ValidName(e.Name()) && !IsTempName(e.Name()) {
				buf = append(buf, TreeEntry{Name: e.Name(), Type: e.Type()})
			}
		}
	}
	if err != nil {
		return buf, pathError("readdir", d.path, mapError(err))
	}
	return buf, nil
}

// Lstat stats the entry name of the directory without following a symlink.
func (d *TreeDir) Lstat(name string) (TreeInfo, error) {
	if d.f == nil {
		info, err := d.fdLstat(name)
		if err != nil {
			return TreeInfo{}, pathError("lstat", joinPath(d.path, name), mapError(err))
		}
		return info, nil
	}
	info, err := d.r.root.Lstat(joinPath(d.path, name))
	if err != nil {
		return TreeInfo{}, pathError("lstat", joinPath(d.path, name), mapError(err))
	}
	return TreeInfo{Size: info.Size(), ModTime: info.ModTime(), Mode: info.Mode()}, nil
}

// Close releases the directory.
func (d *TreeDir) Close() error {
	if d.f != nil {
		return d.f.Close()
	}
	return closeFD(d.fd)
}

// ReadTreeFile reads the canonical file name (as built by a walk) into buf[:0], growing it
// as needed, with ReadFile's checks: not a secret, a regular file with one link on the
// root's device, at most MaxFileSize bytes (ErrTooLarge), and no symlink on the way.
func (r *Root) ReadTreeFile(name string, buf []byte) ([]byte, error) {
	const op = "read"
	if !walkedName(name) || name == "." {
		return buf[:0], pathError(op, name, detail(ErrInvalidPath, "not a canonical path from a walk"))
	}
	if r.IsSecret(name) {
		return buf[:0], pathError(op, name, ErrSecret)
	}
	data, err := r.fastReadTree(name, buf[:0])
	if err == nil {
		return data, nil
	}
	if err != errFastPathOff {
		return buf[:0], pathError(op, name, treeError(err))
	}
	f, canonical, v, err := r.OpenFile(name)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	if v.Size > r.maxSize {
		return buf[:0], pathError(op, canonical, detail(ErrTooLarge, "%d bytes, the limit is %d", v.Size, r.maxSize))
	}
	data, err = readAtMost(f, buf[:0], r.maxSize+1)
	if err == nil && int64(len(data)) > r.maxSize {
		err = detail(ErrTooLarge, "the file grew over the limit of %d bytes", r.maxSize)
	}
	if err != nil {
		return buf[:0], pathError(op, canonical, err)
	}
	return data, nil
}

// walkedName reports whether name has the shape of a canonical path built by a walk:
// "." or components joined by single slashes, none of them "." or "..". (The components
// themselves passed ValidName when they were listed; the kernel or os.Root checks the rest.)
func walkedName(name string) bool {
	if name == "." {
		return true
	}
	if name == "" || name[0] == '/' || name[len(name)-1] == '/' || strings.Contains(name, "//") {
		return false
	}
	for p := range strings.SplitSeq(name, "/") {
		if p == "." || p == ".." {
			return false
		}
	}
	return true
}

// treeError maps the kernel's refusals of openat2 on a walked name: a symlink (ELOOP) or
// a mount point (EXDEV) found where the listing saw a plain entry.
func treeError(err error) error {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return detail(ErrChanged, "a symbolic link appeared on the path")
	case errors.Is(err, syscall.EXDEV):
		return ErrOtherDevice
	}
	return mapError(err)
}

// ValidName reports whether a directory entry's name passes the lexical checks of every
// path, so that a walk only reports names that tools can address and that cannot
// disguise themselves in output (control or bidi characters, look-alike dots, ...).
func ValidName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > maxComponentBytes {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f || c == '\\' || c >= utf8.RuneSelf {
			return slowValidName(name)
		}
	}
	return checkComponent(name) == nil
}

// slowValidName is ValidName for names with non-ASCII or refused characters.
func slowValidName(name string) bool {
	if !utf8.ValidString(name) || strings.ContainsRune(name, '/') {
		return false
	}
	for _, c := range name {
		if checkRune(c) != nil {
			return false
		}
	}
	return checkComponent(name) == nil
}
