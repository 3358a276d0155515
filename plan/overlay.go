package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/jido-run/jido/security"
	"github.com/spf13/afero"
)

// Overlay is a session's plan: afero.NewCopyOnWriteFs(RootFs, afero.NewMemMapFs()) plus
// what copy-on-write lacks for a plan: whiteouts (afero refuses to remove or rename base
// files), the disk state of every file when the plan first touched it (for the diff and
// for Apply's conflict check), and the Root's write policy. Safe for concurrent use: one
// mutex serializes every operation, which is plenty for one agent session.
//
// Names are root-relative (a leading "/" is the root). The part of a name that exists on
// disk is canonicalized by Root.Resolve (so in-root symlinks are followed and a link to a
// secret is refused); the rest, which only exists in the plan, is lexical.
type Overlay struct {
	mu      sync.Mutex
	root    *security.Root
	base    *RootFs
	layer   afero.Fs        // planned files and directories, keyed "/"+canonical
	cow     afero.Fs        // base + layer; serves reads of paths not hidden by a whiteout
	deleted map[string]bool // whiteouts: canonical paths removed from the base
	orig    map[string]origin
	fs      *planFs
	// beforeWrite, if set, runs in Apply between the conflict check and the first
	// write; tests use it to simulate a concurrent change of the disk.
	beforeWrite func()
}

// origin is the disk state of a path when the plan first touched it.
type origin struct {
	kind    originKind
	data    []byte
	version security.Version
	mode    fs.FileMode
}

type originKind uint8

const (
	absent  originKind = iota
	regular            // a regular file: data, version and mode are set
	dir
	other // symlink, FIFO, ...: never a Change, but Apply checks it did not change kind
)

// New returns an empty plan over root.
func New(root *security.Root) *Overlay {
	o := &Overlay{root: root, base: NewRootFs(root)}
	o.fs = &planFs{o}
	o.reset()
	return o
}

// reset empties the plan; o.mu is held (or o is new).
func (o *Overlay) reset() {
	o.layer = afero.NewMemMapFs()
	o.cow = afero.NewCopyOnWriteFs(o.base, o.layer)
	o.deleted = map[string]bool{}
	o.orig = map[string]origin{}
}

// Fs returns the merged view: reads see planned changes, writes land in memory only.
func (o *Overlay) Fs() afero.Fs { return o.fs }

// Discard drops every planned change.
func (o *Overlay) Discard() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reset()
}

// key is the layer's name of a canonical path.
func key(c string) string {
	if c == "." {
		return "/"
	}
	return "/" + c
}

// join joins a canonical directory and a name.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// pathErr builds the *fs.PathError every method returns.
func pathErr(op, p string, err error) error { return &fs.PathError{Op: op, Path: p, Err: err} }

// canon checks name and returns its canonical path. With followLast a symlink in the last
// component is followed (reads, writes); without, the entry itself is meant (remove,
// rename). ".." is applied lexically and refused when it climbs out of the root.
func (o *Overlay) canon(op, name string, followLast bool) (string, error) {
	c, err := o.root.Clean(rel(name))
	if err != nil {
		return "", pathErr(op, name, errors.Unwrap(err))
	}
	c = strings.TrimSuffix(c, "/")
	if strings.Contains("/"+c+"/", "/../") {
		c = path.Clean(c)
		if c == ".." || strings.HasPrefix(c, "../") {
			return "", pathErr(op, name, security.ErrOutsideRoot)
		}
	}
	return o.resolve(op, c, followLast)
}

// resolve canonicalizes the longest prefix of the clean name c that exists on disk.
func (o *Overlay) resolve(op, c string, followLast bool) (string, error) {
	if c == "." {
		return c, nil
	}
	if !followLast {
		parent, err := o.resolve(op, path.Dir(c), true)
		if err != nil {
			return "", err
		}
		return join(parent, path.Base(c)), nil
	}
	r, err := o.root.Resolve(c)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, security.ErrNotDir) {
		return "", err
	}
	// A parent is missing on disk (or is a file): it can only exist in the plan.
	parent, err := o.resolve(op, path.Dir(c), true)
	if err != nil {
		return "", err
	}
	return join(parent, path.Base(c)), nil
}

// writableName canonicalizes name (following a last symlink) and checks the plan may
// write it.
func (o *Overlay) writableName(op, name string) (string, error) {
	c, err := o.canon(op, name, true)
	if err != nil {
		return "", err
	}
	return c, o.checkWrite(op, c)
}

// checkWrite refuses to modify the root, secret and protected paths, as the Root does.
func (o *Overlay) checkWrite(op, c string) error {
	switch {
	case c == ".":
		return pathErr(op, c, security.ErrIsRoot)
	case o.root.IsSecret(c):
		return pathErr(op, c, security.ErrSecret)
	case o.root.IsProtected(c):
		return pathErr(op, c, security.ErrProtected)
	}
	return nil
}

// hidden reports whether c or one of its parents was removed from the base by the plan.
func (o *Overlay) hidden(c string) bool {
	for q := c; q != "."; q = path.Dir(q) {
		if o.deleted[q] {
			return true
		}
	}
	return false
}

// lookup returns the merged view's FileInfo of the canonical path c (without following
// a last symlink) and whether it lives in the layer.
func (o *Overlay) lookup(op, c string) (fs.FileInfo, bool, error) {
	if info, err := o.layer.Stat(key(c)); err == nil {
		return info, true, nil
	}
	if o.hidden(c) {
		return nil, false, pathErr(op, c, fs.ErrNotExist)
	}
	info, err := o.root.Lstat(c)
	if errors.Is(err, security.ErrNotDir) {
		err = pathErr(op, c, fs.ErrNotExist)
	}
	return info, false, err
}

// list returns the merged entries of directory c, sorted by name, deletions hidden.
func (o *Overlay) list(op, c string) ([]fs.FileInfo, error) {
	info, inLayer, err := o.lookup(op, c)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, pathErr(op, c, security.ErrNotDir)
	}
	byName := map[string]fs.FileInfo{}
	if !o.hidden(c) {
		entries, err := o.root.ReadDir(c)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, security.ErrNotDir) {
			return nil, err
		}
		for _, e := range entries {
			if o.hidden(join(c, e.Name())) {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			byName[e.Name()] = fi
		}
	}
	if inLayer {
		fis, err := afero.ReadDir(o.layer, key(c))
		if err != nil {
			return nil, err
		}
		for _, fi := range fis {
			byName[fi.Name()] = fi
		}
	}
	out := make([]fs.FileInfo, 0, len(byName))
	for _, fi := range byName {
		out = append(out, fi)
	}
	slices.SortFunc(out, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// tree returns the directories and files under c (c included if a directory) in the
// merged view. Anything else (symlinks, FIFOs) fails with ErrNotRegular: the plan only
// tracks files.
func (o *Overlay) tree(op, c string) (dirs, files []string, err error) {
	info, _, err := o.lookup(op, c)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case info.Mode().IsRegular():
		return nil, []string{c}, nil
	case !info.IsDir():
		return nil, nil, pathErr(op, c, security.ErrNotRegular)
	}
	dirs = []string{c}
	entries, err := o.list(op, c)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		d, f, err := o.tree(op, join(c, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		dirs, files = append(dirs, d...), append(files, f...)
	}
	return dirs, files, nil
}

// diskState reads the state of c on disk through RootFs.
func (o *Overlay) diskState(c string) (origin, error) {
	info, err := o.root.Lstat(c)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, security.ErrNotDir):
		return origin{kind: absent}, nil
	case err != nil:
		return origin{}, err
	case info.IsDir():
		return origin{kind: dir}, nil
	case !info.Mode().IsRegular():
		return origin{kind: other}, nil
	}
	f, err := o.base.read(c)
	if err != nil {
		return origin{}, err
	}
	return origin{kind: regular, data: f.Data, version: f.Version, mode: f.Version.Mode}, nil
}

// touch records the disk state of c the first time the plan modifies it.
func (o *Overlay) touch(c string) error {
	if _, ok := o.orig[c]; ok {
		return nil
	}
	st, err := o.diskState(c)
	if err != nil {
		return err
	}
	o.orig[c] = st
	return nil
}

// readLocked returns the planned content of the canonical file c.
func (o *Overlay) readLocked(op, c string) ([]byte, error) {
	f, err := o.fileLocked(op, c)
	if err != nil {
		return nil, err
	}
	return f.Data, nil
}

// mkdirLocked creates directory c and its missing parents in the layer; every existing
// ancestor must be a directory in the merged view.
func (o *Overlay) mkdirLocked(op, c string) error {
	for q := c; q != "."; q = path.Dir(q) {
		info, _, err := o.lookup(op, q)
		if err == nil && !info.IsDir() {
			return pathErr(op, q, security.ErrNotDir)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return o.layer.MkdirAll(key(c), 0o755)
}

// writeLocked plans the content of the file c (policy already checked). A new file gets
// perm (0: 0o644), an existing one keeps its mode.
func (o *Overlay) writeLocked(op, c string, data []byte, perm fs.FileMode) error {
	if int64(len(data)) > o.root.MaxFileSize() {
		return pathErr(op, c, security.ErrTooLarge)
	}
	info, _, err := o.lookup(op, c)
	switch {
	case err == nil && info.IsDir():
		return pathErr(op, c, security.ErrIsDir)
	case err == nil:
		perm = info.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if perm == 0 {
		perm = 0o644
	}
	if err := o.touch(c); err != nil {
		return err
	}
	if err := o.mkdirLocked(op, path.Dir(c)); err != nil {
		return err
	}
	return afero.WriteFile(o.layer, key(c), data, perm.Perm())
}

// removeLocked plans the removal of c: every file under it is touched, then c leaves the
// layer and, if on disk, is whited out. Secrets or protected paths under c refuse the
// whole removal, as Root.Remove does. A directory needs recursive unless emptyDirOK and
// it is empty.
func (o *Overlay) removeLocked(op, c string, recursive, emptyDirOK bool) error {
	if err := o.checkWrite(op, c); err != nil {
		return err
	}
	dirs, files, err := o.tree(op, c)
	if err != nil {
		return err
	}
	if len(dirs) > 0 && !recursive && (!emptyDirOK || len(dirs)+len(files) > 1) {
		return pathErr(op, c, fmt.Errorf("%w: set recursive to remove a directory", security.ErrIsDir))
	}
	for _, p := range append(dirs[min(len(dirs), 1):], files...) {
		if err := o.checkWrite(op, p); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := o.touch(f); err != nil {
			return err
		}
	}
	if err := o.layer.RemoveAll(key(c)); err != nil {
		return err
	}
	if _, err := o.root.Lstat(c); err == nil {
		o.deleted[c] = true
	}
	return nil
}

// renameLocked plans moving src to dst: files are copied to their new paths in the layer
// and src is removed, so the plan records deletes and creates.
func (o *Overlay) renameLocked(op, src, dst string, overwrite bool) error {
	if err := o.checkWrite(op, src); err != nil {
		return err
	}
	if err := o.checkWrite(op, dst); err != nil {
		return err
	}
	sinfo, _, err := o.lookup(op, src)
	if err != nil {
		return err
	}
	if src == dst {
		return nil
	}
	if sinfo.IsDir() && strings.HasPrefix(dst+"/", src+"/") {
		return pathErr(op, dst, fmt.Errorf("%w: cannot move a directory into itself", fs.ErrInvalid))
	}
	dinfo, _, err := o.lookup(op, dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case !overwrite:
		return pathErr(op, dst, fs.ErrExist)
	case dinfo.IsDir() && !sinfo.IsDir():
		return pathErr(op, dst, security.ErrIsDir)
	case !dinfo.IsDir() && sinfo.IsDir():
		return pathErr(op, dst, security.ErrNotDir)
	default:
		if err := o.removeLocked(op, dst, true, false); err != nil {
			return err
		}
	}
	dirs, files, err := o.tree(op, src)
	if err != nil {
		return err
	}
	moved := func(p string) string { return dst + strings.TrimPrefix(p, src) }
	for _, p := range append(dirs[min(len(dirs), 1):], files...) {
		if err := o.checkWrite(op, p); err != nil {
			return err
		}
		if err := o.checkWrite(op, moved(p)); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		if err := o.mkdirLocked(op, moved(d)); err != nil {
			return err
		}
	}
	for _, f := range files {
		data, err := o.readLocked(op, f)
		if err != nil {
			return err
		}
		info, _, _ := o.lookup(op, f)
		if err := o.touch(moved(f)); err != nil {
			return err
		}
		if err := o.mkdirLocked(op, path.Dir(moved(f))); err != nil {
			return err
		}
		if err := afero.WriteFile(o.layer, key(moved(f)), data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return o.removeLocked(op, src, true, false)
}

// ReadFile returns the planned content of a file.
func (o *Overlay) ReadFile(name string) ([]byte, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("read", name, true)
	if err != nil {
		return nil, err
	}
	return o.readLocked("read", c)
}

// WriteFile plans writing data to a file, creating its parents in the overlay.
func (o *Overlay) WriteFile(name string, data []byte, perm fs.FileMode) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("write", name, true)
	if err != nil {
		return err
	}
	if err := o.checkWrite("write", c); err != nil {
		return err
	}
	return o.writeLocked("write", c, bytes.Clone(data), perm)
}

// Remove plans removing a file, or a directory when recursive.
func (o *Overlay) Remove(name string, recursive bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("remove", name, false)
	if err != nil {
		return err
	}
	return o.removeLocked("remove", c, recursive, false)
}

// Rename plans moving a file or directory; without overwrite an existing newName fails
// with fs.ErrExist, and a file never replaces a directory nor the reverse.
func (o *Overlay) Rename(oldName, newName string, overwrite bool) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	src, err := o.canon("rename", oldName, false)
	if err != nil {
		return err
	}
	dst, err := o.canon("rename", newName, false)
	if err != nil {
		return err
	}
	return o.renameLocked("rename", src, dst, overwrite)
}

// Stat returns the planned FileInfo of name.
func (o *Overlay) Stat(name string) (fs.FileInfo, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("stat", name, true)
	if err != nil {
		return nil, err
	}
	info, _, err := o.lookup("stat", c)
	return info, err
}

// ReadDir lists a directory of the plan: disk entries and planned additions, sorted by
// name, planned deletions hidden.
func (o *Overlay) ReadDir(name string) ([]fs.FileInfo, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.canon("readdir", name, true)
	if err != nil {
		return nil, err
	}
	return o.list("readdir", c)
}
