package security

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// readFlags open without blocking on a FIFO and without acquiring a controlling terminal.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// File is the content of a file read through the Root.
type File struct {
	Path    string // canonical root-relative slash path
	Data    []byte
	Version Version
}

// OpenFile opens name for reading after resolving it and refusing secrets. The open file
// is checked to be the file that was resolved: a regular file on the root's device with a
// single link (a hard link may alias a file outside the root). It returns the file, its
// canonical path and its Version; the caller closes the file. The file's Name is a host
// path: show the canonical path instead.
func (r *Root) OpenFile(name string) (*os.File, string, Version, error) {
	f, canonical, info, err := r.openRead(name)
	if errors.Is(err, ErrChanged) {
		// Replaced between the walk and the open: resolve once more.
		f, canonical, info, err = r.openRead(name)
	}
	if err != nil {
		return nil, "", Version{}, err
	}
	return f, canonical, versionOf(info), nil
}

// openRead is one attempt of OpenFile.
func (r *Root) openRead(name string) (*os.File, string, fs.FileInfo, error) {
	const op = "open"
	t, err := r.resolve(op, name, followLast)
	if err != nil {
		return nil, "", nil, err
	}
	if err := r.checkPolicy(op, t.name, false); err != nil {
		return nil, "", nil, err
	}
	if err := checkRegular(t.info); err != nil {
		return nil, "", nil, pathError(op, t.name, err)
	}
	f, info, err := r.openVerified(t, 0)
	if err != nil {
		return nil, "", nil, pathError(op, t.name, err)
	}
	return f, t.name, info, nil
}

// openVerified opens the resolved target without blocking (flag adds to readFlags), with
// openat2 if it can (fastOpen) or else through os.Root, and checks with fstat that the
// opened file is the inode the resolution saw, on the root's device, and, unless a
// directory, has a single link. Since the resolution's lstat fixed the type, a FIFO or
// device swapped in later fails the inode comparison.
func (r *Root) openVerified(t target, flag int) (*os.File, fs.FileInfo, error) {
	f, ok := r.fastOpen(t.name, readFlags|flag)
	if !ok {
		var err error
		if f, err = r.root.OpenFile(t.name, readFlags|flag, 0); err != nil {
			return nil, nil, err
		}
	}
	info, err := f.Stat()
	if err == nil {
		id := sysStat(info)
		switch {
		case !sameFile(info, t.info):
			err = ErrChanged
		case id.dev != r.dev:
			err = ErrOtherDevice
		case !info.IsDir() && id.nlink != 1 && !sharedLinkAllowed(t.name):
			err = ErrHardLink
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// sharedLinkAllowed reports whether a file with several hard links may still be read: one
// under a node_modules directory, where pnpm links every package file to its store outside
// the project. Elsewhere a second name may alias a file outside the root (the user's key
// linked in by some host tool), so it is refused. Neither a command (Landlock refuses a
// link that would widen a file's rights, and the private root holds nothing outside) nor a
// file tool can make such a link, and writes replace a file rather than write through it,
// so reading pnpm's packages opens no path to the store's other files. The same holds for
// the object store of the root's git repository (.git/objects/): a local `git clone`
// hard-links every object and pack to the source repository's, and they are
// content-addressed and never written in place (the git tools read them as git objects).
func sharedLinkAllowed(canonical string) bool {
	return canonical == "node_modules" || strings.HasPrefix(canonical, "node_modules/") || strings.Contains(canonical, "/node_modules/") ||
		strings.HasPrefix(canonical, gitObjectsDir)
}

// gitObjectsDir is the object store of the root's git repository.
const gitObjectsDir = ".git/objects/"

// checkRegular requires an existing regular file.
func checkRegular(info fs.FileInfo) error {
	switch {
	case info == nil:
		return fs.ErrNotExist
	case info.IsDir():
		return ErrIsDir
	case !info.Mode().IsRegular():
		return detail(ErrNotRegular, "%s", fileType(info.Mode()))
	}
	return nil
}

// fileType names the type of a non-regular file for error messages.
func fileType(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	case t&fs.ModeSymlink != 0:
		return "symbolic link"
	default:
		return "irregular file"
	}
}

// ReadFile reads a whole file through OpenFile's checks, up to MaxFileSize bytes
// (ErrTooLarge beyond, also when the file grows while being read).
func (r *Root) ReadFile(name string) (*File, error) {
	f, canonical, v, err := r.OpenFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if v.Size > r.maxSize {
		return nil, pathError("read", canonical, detail(ErrTooLarge, "%d bytes, the limit is %d", v.Size, r.maxSize))
	}
	data := make([]byte, 0, v.Size+1)
	data, err = readAtMost(f, data, r.maxSize+1)
	if err != nil {
		return nil, pathError("read", canonical, err)
	}
	if int64(len(data)) > r.maxSize {
		return nil, pathError("read", canonical, detail(ErrTooLarge, "the file grew over the limit of %d bytes", r.maxSize))
	}
	return &File{Path: canonical, Data: data, Version: v}, nil
}

// readAtMost appends to buf what rd holds, stopping after limit bytes.
func readAtMost(rd io.Reader, buf []byte, limit int64) ([]byte, error) {
	lr := &io.LimitedReader{R: rd, N: limit}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 512)
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// Stat returns the FileInfo of the file name denotes, following in-root symlinks.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	return r.stat("stat", name, followLast)
}

// Lstat returns the FileInfo of name without following a symlink in its last component.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	return r.stat("lstat", name, 0)
}

func (r *Root) stat(op, name string, mode resolveMode) (fs.FileInfo, error) {
	t, err := r.resolve(op, name, mode)
	if err != nil {
		return nil, err
	}
	if t.info == nil {
		return nil, pathError(op, t.name, fs.ErrNotExist)
	}
	return t.info, nil
}

// ReadDir lists the directory name denotes, sorted by name. Entries describe the entries
// themselves (symlinks are not followed) and come from fstatat on the opened directory.
// Secret files are listed: their names are visible, their contents are not.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	const op = "readdir"
	t, err := r.resolve(op, name, followLast)
	if err != nil {
		return nil, err
	}
	f, err := r.openDir(t)
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// openDir opens the resolved directory t, checking that the opened directory is the one
// resolved and lies on the root's device.
func (r *Root) openDir(t target) (*os.File, error) {
	switch {
	case t.info == nil:
		return nil, fs.ErrNotExist
	case !t.info.IsDir():
		return nil, ErrNotDir
	}
	f, _, err := r.openVerified(t, syscall.O_DIRECTORY)
	return f, err
}

// ReadSecretFile reads the secret file name, which ReadFile refuses, for jido's own use:
// its values become redaction rules and never leave jido. It makes ReadFile's checks but
// the secret policy (a regular file with one link on the root's device, no symlink as
// the last component) and reads at most max bytes (ErrTooLarge beyond).
func (r *Root) ReadSecretFile(name string, max int64) ([]byte, error) {
	const op = "read"
	t, err := r.resolve(op, name, 0)
	if err != nil {
		return nil, err
	}
	if !r.IsSecret(t.name) {
		return nil, pathError(op, t.name, detail(ErrInvalidPath, "not a secret file: read it with ReadFile"))
	}
	if err := checkRegular(t.info); err != nil {
		return nil, pathError(op, t.name, err)
	}
	f, info, err := r.openVerified(t, 0)
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	defer f.Close()
	if info.Size() > max {
		return nil, pathError(op, t.name, detail(ErrTooLarge, "%d bytes, the limit is %d", info.Size(), max))
	}
	data, err := readAtMost(f, make([]byte, 0, info.Size()+1), max+1)
	if err == nil && int64(len(data)) > max {
		err = detail(ErrTooLarge, "the file grew over the limit of %d bytes", max)
	}
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	return data, nil
}
