package plan

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// planFs is the afero.Fs of Overlay.Fs: reads are served by the copy-on-write union
// (unless a whiteout hides the path), writes are routed through the Overlay so that they
// are policy-checked, recorded and confined to the memory layer.
type planFs struct{ o *Overlay }

var _ afero.Fs = (*planFs)(nil)

const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREATE | os.O_TRUNC

func (p *planFs) Name() string { return "PlanFs" }

func (p *planFs) Create(name string) (afero.File, error) {
	return p.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// Open opens a file or directory of the merged view; a directory is a snapshot of its
// merged listing.
func (p *planFs) Open(name string) (afero.File, error) { return p.OpenFile(name, os.O_RDONLY, 0) }

func (p *planFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	o := p.o
	o.mu.Lock()
	defer o.mu.Unlock()
	const op = "open"
	c, err := o.canon(op, name, true)
	if err != nil {
		return nil, err
	}
	info, inLayer, err := o.lookup(op, c)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if flag&writeFlags == 0 {
		switch {
		case !exists:
			return nil, err
		case info.IsDir():
			entries, err := o.list(op, c)
			if err != nil {
				return nil, err
			}
			return &dirFile{name: c, info: info, entries: entries}, nil
		}
		return o.cow.Open(key(c))
	}
	if err := o.checkWrite(op, c); err != nil {
		return nil, err
	}
	switch {
	case exists && info.IsDir():
		return nil, pathErr(op, c, syscall.EISDIR)
	case exists && flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		return nil, pathErr(op, c, fs.ErrExist)
	case !exists && flag&os.O_CREATE == 0:
		return nil, pathErr(op, c, fs.ErrNotExist)
	case !exists:
		if pinfo, _, err := o.lookup(op, path.Dir(c)); err != nil || !pinfo.IsDir() {
			return nil, pathErr(op, c, fs.ErrNotExist)
		}
	}
	if err := o.touch(c); err != nil {
		return nil, err
	}
	if exists && !inLayer { // copy up the disk file before writing to it
		data, err := o.readLocked(op, c)
		if err != nil {
			return nil, err
		}
		if err := o.writeLocked(op, c, data, 0); err != nil {
			return nil, err
		}
	}
	if err := o.layer.MkdirAll(key(path.Dir(c)), 0o755); err != nil {
		return nil, err
	}
	return o.layer.OpenFile(key(c), flag, perm)
}

func (p *planFs) Stat(name string) (fs.FileInfo, error) { return p.o.Stat(name) }

func (p *planFs) Mkdir(name string, _ os.FileMode) error { return p.mkdir(name, false) }

func (p *planFs) MkdirAll(name string, _ os.FileMode) error { return p.mkdir(name, true) }

// mkdir plans a directory; it is no Change by itself (the plan tracks files only).
func (p *planFs) mkdir(name string, all bool) error {
	o := p.o
	o.mu.Lock()
	defer o.mu.Unlock()
	const op = "mkdir"
	c, err := o.writableName(op, name)
	if err != nil {
		return err
	}
	info, _, err := o.lookup(op, c)
	switch {
	case err == nil && info.IsDir() && all:
		return nil
	case err == nil:
		return pathErr(op, c, fs.ErrExist)
	case !all:
		if pinfo, _, err := o.lookup(op, path.Dir(c)); err != nil || !pinfo.IsDir() {
			return pathErr(op, c, fs.ErrNotExist)
		}
	}
	return o.mkdirLocked(op, c)
}

// Remove removes a file or an empty directory.
func (p *planFs) Remove(name string) error {
	o := p.o
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("remove", name, false)
	if err != nil {
		return err
	}
	return o.removeLocked("remove", c, false, true)
}

// RemoveAll removes a tree; a missing name is no error.
func (p *planFs) RemoveAll(name string) error {
	o := p.o
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("remove", name, false)
	if err != nil {
		return err
	}
	if _, _, err := o.lookup("remove", c); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return o.removeLocked("remove", c, true, false)
}

// Rename has os.Rename's semantics: an existing file is replaced.
func (p *planFs) Rename(oldname, newname string) error { return p.o.Rename(oldname, newname, true) }

// Chmod changes the mode in the plan only; WriteFile keeps an existing file's mode on
// disk, so a mode change alone is no Change.
func (p *planFs) Chmod(name string, mode os.FileMode) error {
	return p.attr("chmod", name, func(k string) error { return p.o.layer.Chmod(k, mode) })
}

func (p *planFs) Chown(name string, uid, gid int) error {
	return p.attr("chown", name, func(k string) error { return p.o.layer.Chown(k, uid, gid) })
}

func (p *planFs) Chtimes(name string, atime, mtime time.Time) error {
	return p.attr("chtimes", name, func(k string) error { return p.o.layer.Chtimes(k, atime, mtime) })
}

// attr copies name up into the layer and applies set to it there.
func (p *planFs) attr(op, name string, set func(key string) error) error {
	o := p.o
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.writableName(op, name)
	if err != nil {
		return err
	}
	info, inLayer, err := o.lookup(op, c)
	switch {
	case err != nil:
		return err
	case inLayer:
	case info.IsDir():
		err = o.mkdirLocked(op, c)
	default:
		var data []byte
		if data, err = o.readLocked(op, c); err == nil {
			err = o.writeLocked(op, c, data, 0)
		}
	}
	if err != nil {
		return err
	}
	return set(key(c))
}

// dirFile is an open directory of the merged view: a snapshot of its listing.
type dirFile struct {
	name    string
	info    fs.FileInfo
	entries []fs.FileInfo
	off     int
}

var _ afero.File = (*dirFile)(nil)

func (d *dirFile) Name() string               { return d.name }
func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Sync() error                { return nil }

func (d *dirFile) Readdir(count int) ([]fs.FileInfo, error) {
	rest := d.entries[d.off:]
	if count <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n := min(count, len(rest))
	d.off += n
	return rest[:n], nil
}

func (d *dirFile) Readdirnames(count int) ([]string, error) {
	fis, err := d.Readdir(count)
	names := make([]string, len(fis))
	for i, fi := range fis {
		names[i] = fi.Name()
	}
	return names, err
}

func (d *dirFile) isDir(op string) error { return pathErr(op, d.name, syscall.EISDIR) }

func (d *dirFile) Read([]byte) (int, error)           { return 0, d.isDir("read") }
func (d *dirFile) ReadAt([]byte, int64) (int, error)  { return 0, d.isDir("read") }
func (d *dirFile) Seek(int64, int) (int64, error)     { return 0, d.isDir("seek") }
func (d *dirFile) Write([]byte) (int, error)          { return 0, d.isDir("write") }
func (d *dirFile) WriteAt([]byte, int64) (int, error) { return 0, d.isDir("write") }
func (d *dirFile) WriteString(string) (int, error)    { return 0, d.isDir("write") }
func (d *dirFile) Truncate(int64) error               { return d.isDir("truncate") }
