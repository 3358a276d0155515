package plan

import (
	"bytes"
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"math"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/walk"
	"github.com/spf13/afero"
)

// View is the plan seen as the tools' store (builtin.Store): the same methods as a
// security.Root, answered from the merged view, so that every file, listing and search
// tool acts on the plan unchanged. Files the plan has not touched are read through the
// Root (same checks, same Version); planned files get a Version from their content and
// modification time in memory, so the read-before-write and compare-and-swap rules of
// the tools hold inside the plan too.
type View struct{ o *Overlay }

// View returns the store view of the plan.
func (o *Overlay) View() *View { return &View{o} }

// planDev marks the Version of a planned file: no disk device has this number.
const planDev = math.MaxUint64

// Clean is Root.Clean.
func (v *View) Clean(name string) (string, error) { return v.o.root.Clean(name) }

// IsSecret is Root.IsSecret.
func (v *View) IsSecret(canonical string) bool { return v.o.root.IsSecret(canonical) }

// IsProtected is Root.IsProtected.
func (v *View) IsProtected(canonical string) bool { return v.o.root.IsProtected(canonical) }

// CheckWrite is Root.CheckWrite in the plan: the canonical path a write of name would
// change, or why the plan refuses it (a secret or protected path, the root).
func (v *View) CheckWrite(name string) (string, error) {
	v.o.mu.Lock()
	defer v.o.mu.Unlock()
	return v.o.writableName("write", name)
}

// Resolve returns the canonical path of name in the plan (following a last symlink).
func (v *View) Resolve(name string) (string, error) {
	v.o.mu.Lock()
	defer v.o.mu.Unlock()
	return v.o.canon("resolve", name, true)
}

// Stat is Overlay.Stat.
func (v *View) Stat(name string) (fs.FileInfo, error) { return v.o.Stat(name) }

// Lstat returns the planned FileInfo of name without following a last symlink.
func (v *View) Lstat(name string) (fs.FileInfo, error) {
	v.o.mu.Lock()
	defer v.o.mu.Unlock()
	c, err := v.o.canon("lstat", name, false)
	if err != nil {
		return nil, err
	}
	info, _, err := v.o.lookup("lstat", c)
	return info, err
}

// ReadFile returns the planned content of a file with its canonical path and Version.
func (v *View) ReadFile(name string) (*security.File, error) {
	v.o.mu.Lock()
	defer v.o.mu.Unlock()
	c, err := v.o.canon("read", name, true)
	if err != nil {
		return nil, err
	}
	return v.o.fileLocked("read", c)
}

// OpenReader is ReadFile as a stream.
func (v *View) OpenReader(name string) (io.ReadCloser, string, security.Version, error) {
	f, err := v.ReadFile(name)
	if err != nil {
		return nil, "", security.Version{}, err
	}
	return io.NopCloser(bytes.NewReader(f.Data)), f.Path, f.Version, nil
}

// ReadTreeFile reads a file for a walk (an ignore file, a searched file) into buf.
func (v *View) ReadTreeFile(name string, buf []byte) ([]byte, error) {
	f, err := v.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return append(buf[:0], f.Data...), nil
}

// ReadDir lists a directory of the plan, sorted by name.
func (v *View) ReadDir(name string) ([]fs.DirEntry, error) {
	infos, err := v.o.ReadDir(name)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, 0, len(infos))
	for _, fi := range infos {
		if security.ValidName(fi.Name()) && !security.IsTempName(fi.Name()) {
			out = append(out, fs.FileInfoToDirEntry(fi))
		}
	}
	return out, nil
}

// OpenDir opens a directory of the plan for a walk.
func (v *View) OpenDir(dir string) (walk.Dir, error) {
	entries, err := v.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return &viewDir{entries: entries}, nil
}

// FS returns the plan as an fs.FS.
func (v *View) FS() fs.FS { return afero.NewIOFS(v.o.Fs()) }

// WriteFile plans writing data to name with the Root's options: MustNotExist fails with
// fs.ErrExist when the file exists in the plan, Expect with security.ErrChanged when the
// planned file is no longer that version. It returns the canonical path and new Version.
func (v *View) WriteFile(name string, data []byte, opts security.WriteOptions) (string, security.Version, error) {
	const op = "write"
	o := v.o
	o.mu.Lock()
	defer o.mu.Unlock()
	c, err := o.writableName(op, name)
	if err != nil {
		return "", security.Version{}, err
	}
	if opts.MustNotExist || opts.Expect != nil {
		cur, err := o.fileLocked(op, c)
		switch {
		case err == nil && opts.MustNotExist:
			return c, security.Version{}, pathErr(op, c, fs.ErrExist)
		case err == nil && !cur.Version.Equal(*opts.Expect):
			return c, security.Version{}, pathErr(op, c, security.ErrChanged)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return c, security.Version{}, err
		case err != nil && opts.Expect != nil:
			return c, security.Version{}, pathErr(op, c, security.ErrChanged)
		}
	}
	if err := o.writeLocked(op, c, bytes.Clone(data), opts.Perm); err != nil {
		return c, security.Version{}, err
	}
	f, err := o.fileLocked(op, c)
	if err != nil {
		return c, security.Version{}, err
	}
	return c, f.Version, nil
}

// Remove is Overlay.Remove.
func (v *View) Remove(name string, recursive bool) error { return v.o.Remove(name, recursive) }

// Rename is Overlay.Rename.
func (v *View) Rename(oldName, newName string, overwrite bool) error {
	return v.o.Rename(oldName, newName, overwrite)
}

// fileLocked reads the canonical file c of the plan with its Version.
func (o *Overlay) fileLocked(op, c string) (*security.File, error) {
	info, inLayer, err := o.lookup(op, c)
	switch {
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, pathErr(op, c, security.ErrIsDir)
	case !inLayer:
		return o.base.read(c)
	}
	data, err := afero.ReadFile(o.layer, key(c))
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write(data)
	ver := security.Version{Dev: planDev, Ino: h.Sum64(), Size: int64(len(data)), ModTime: info.ModTime(), Mode: info.Mode()}
	return &security.File{Path: c, Data: data, Version: ver}, nil
}

// viewDir is a listed directory of the plan.
type viewDir struct {
	entries []fs.DirEntry
	byName  map[string]fs.DirEntry // built by the first Lstat
}

func (d *viewDir) Entries(buf []security.TreeEntry) ([]security.TreeEntry, error) {
	for _, e := range d.entries {
		buf = append(buf, security.TreeEntry{Name: e.Name(), Type: e.Type()})
	}
	return buf, nil
}

func (d *viewDir) Lstat(name string) (security.TreeInfo, error) {
	if d.byName == nil {
		d.byName = make(map[string]fs.DirEntry, len(d.entries))
		for _, e := range d.entries {
			d.byName[e.Name()] = e
		}
	}
	e, ok := d.byName[name]
	if !ok {
		return security.TreeInfo{}, pathErr("lstat", name, fs.ErrNotExist)
	}
	info, err := e.Info()
	if err != nil {
		return security.TreeInfo{}, err
	}
	return security.TreeInfo{Size: info.Size(), ModTime: info.ModTime(), Mode: info.Mode()}, nil
}

func (d *viewDir) Close() error { return nil }
