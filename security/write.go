package security

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// Modes of what WriteFile and MkdirAll create.
const (
	defaultFilePerm fs.FileMode = 0o644
	dirPerm         fs.FileMode = 0o755
)

// WriteOptions tune WriteFile.
type WriteOptions struct {
	Perm         fs.FileMode // mode of a new file (0: 0o644); an existing file keeps its mode
	Expect       *Version    // if non-nil, the target must still be this version just before the rename
	MustNotExist bool        // fail with fs.ErrExist when the target exists
}

// WriteFile atomically replaces the file name denotes with data: a temporary file in the
// same directory is written, fsynced and renamed over the target, then the directory is
// fsynced, so a crash leaves the old or the new content. Through an in-root symlink the
// link's target is replaced and the link kept; a hard-linked target is detached, never
// written through. Missing parent directories are created. It returns the canonical path
// (also with an error, once resolved) and the Version of the new file.
func (r *Root) WriteFile(name string, data []byte, opts WriteOptions) (string, Version, error) {
	const op = "write"
	t, err := r.resolve(op, name, followLast|createParents)
	if err != nil {
		return "", Version{}, err
	}
	if err := r.checkPolicy(op, t.name, true); err != nil {
		return t.name, Version{}, err
	}
	if err := r.writeConflict(t, int64(len(data)), opts); err != nil {
		return t.name, Version{}, pathError(op, t.name, err)
	}
	perm := opts.Perm.Perm()
	if perm == 0 {
		perm = defaultFilePerm
	}
	if t.info != nil {
		perm = t.info.Mode().Perm()
	} else if err := r.mkdirParent(op, t.name); err != nil {
		return t.name, Version{}, err
	}
	v, err := r.replace(t.name, data, perm, opts)
	if err != nil {
		return t.name, Version{}, pathError(op, t.name, err)
	}
	return t.name, v, nil
}

// writeConflict reports why data of the given size cannot replace the target t.
func (r *Root) writeConflict(t target, size int64, opts WriteOptions) error {
	switch {
	case t.dir || t.name == ".":
		return ErrIsDir
	case size > r.maxSize:
		return detail(ErrTooLarge, "%d bytes, the limit is %d", size, r.maxSize)
	case t.info != nil && opts.MustNotExist:
		return fs.ErrExist
	case t.info != nil && !t.info.Mode().IsRegular():
		return checkRegular(t.info)
	}
	return expectVersion(opts.Expect, t.info)
}

// expectVersion checks the compare-and-swap condition of WriteOptions.Expect against the
// current state of the target (info nil: it does not exist).
func expectVersion(expect *Version, info fs.FileInfo) error {
	switch {
	case expect == nil:
		return nil
	case info == nil:
		return detail(ErrChanged, "the file was removed")
	case !expect.Equal(versionOf(info)):
		return ErrChanged
	}
	return nil
}

// replace writes data to a fresh temporary file beside the canonical target and moves it
// over the target; the temporary file never survives a failure.
func (r *Root) replace(canonical string, data []byte, perm fs.FileMode, opts WriteOptions) (Version, error) {
	dir, base := path.Split(canonical)
	tmp := dir + tempName(base)
	f, err := r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return Version{}, err
	}
	moved := false
	defer func() {
		if !moved {
			r.root.Remove(tmp)
		}
	}()
	info, err := writeSync(f, data, perm, !r.noSync)
	if err != nil {
		return Version{}, err
	}
	if opts.Expect != nil {
		current, err := r.root.Lstat(canonical)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Version{}, err
		}
		if err := expectVersion(opts.Expect, current); err != nil {
			return Version{}, err
		}
	}
	if opts.MustNotExist {
		err = r.moveNoClobber(tmp, canonical, false)
	} else {
		err = r.root.Rename(tmp, canonical)
	}
	if err != nil {
		return Version{}, err
	}
	moved = true
	if r.noSync {
		return versionOf(info), nil
	}
	return versionOf(info), r.syncDir(path.Clean("./" + dir))
}

// writeSync sets the exact mode (independent of the umask), writes data, fsyncs (if sync)
// and closes f, and returns its final fstat.
func writeSync(f *os.File, data []byte, perm fs.FileMode, sync bool) (fs.FileInfo, error) {
	err := f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return info, err
}

// syncDir fsyncs a directory so that a rename in it is durable.
func (r *Root) syncDir(dir string) error {
	d, err := r.root.OpenFile(dir, readFlags|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// CheckWrite returns the error WriteFile(name) would end with for the root's policy
// (ErrSecret, ErrProtected) or for a name it cannot resolve, and the canonical path it
// would write; nothing is read or written. Callers that check the content first (a parse
// guard, a preview) ask it before, so that a refused path is the first thing said.
func (r *Root) CheckWrite(name string) (string, error) {
	const op = "write"
	t, err := r.resolve(op, name, followLast|createParents)
	if err != nil {
		return "", err
	}
	return t.name, r.checkPolicy(op, t.name, true)
}

// mkdirParent creates the missing parent directories of a canonical path.
func (r *Root) mkdirParent(op, canonical string) error {
	dir := path.Dir(canonical)
	if dir == "." {
		return nil
	}
	return wrapOp(op, dir, r.root.MkdirAll(dir, dirPerm))
}

// MkdirAll creates the directory name denotes and its missing parents (mode 0o755);
// protected paths are refused.
func (r *Root) MkdirAll(name string) error {
	const op = "mkdir"
	t, err := r.resolve(op, name, followLast|createParents)
	if err != nil {
		return err
	}
	if r.IsProtected(t.name) {
		return pathError(op, t.name, ErrProtected)
	}
	switch {
	case t.info != nil && t.info.IsDir():
		return nil
	case t.info != nil:
		return pathError(op, t.name, ErrNotDir)
	}
	return wrapOp(op, t.name, r.root.MkdirAll(t.name, dirPerm))
}

// CreateLog creates the new file name for streaming output into it (a command's full
// output, which a model may page with read_file later): name must not exist (O_EXCL, so
// a planted symlink is refused too), missing parents are created, secrets and protected
// paths are refused. It returns the open file and its canonical path; the caller closes it.
// Unlike WriteFile this is not atomic: a reader may see the output while it grows.
func (r *Root) CreateLog(name string) (*os.File, string, error) {
	const op = "create"
	t, err := r.resolve(op, name, createParents)
	if err != nil {
		return nil, "", err
	}
	if err := r.checkPolicy(op, t.name, true); err != nil {
		return nil, "", err
	}
	if t.info != nil {
		return nil, "", pathError(op, t.name, fs.ErrExist)
	}
	if dir := path.Dir(t.name); dir != "." {
		if err := r.MkdirAll(dir); err != nil {
			return nil, "", err
		}
	}
	f, err := r.root.OpenFile(t.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, "", wrapOp(op, t.name, err)
	}
	return f, t.name, nil
}
