package security

import "io/fs"

// FS returns a read-only fs.FS over the root, for fs.WalkDir and glob. It applies the
// Root's checks: Open and ReadFile refuse secrets and anything OpenFile refuses (FIFOs,
// devices, hard links, other devices); ReadDir, Stat and Lstat behave as the Root's
// methods (fs.WalkDir never follows links). Names must satisfy fs.ValidPath.
func (r *Root) FS() fs.FS { return rootFS{r} }

// rootFS implements fs.FS, fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and fs.ReadLinkFS over
// a Root.
type rootFS struct{ r *Root }

// Open opens a directory (as an fs.ReadDirFile) or a file for reading.
func (f rootFS) Open(name string) (fs.File, error) {
	const op = "open"
	if err := validFSPath(op, name); err != nil {
		return nil, err
	}
	t, err := f.r.resolve(op, name, followLast)
	if err != nil {
		return nil, err
	}
	if t.info == nil || !t.info.IsDir() {
		file, _, _, err := f.r.OpenFile(name)
		if err != nil {
			return nil, err // not a nil *os.File in a non-nil fs.File
		}
		return file, nil
	}
	file, err := f.r.openDir(t)
	if err != nil {
		return nil, pathError(op, t.name, err)
	}
	return file, nil
}

// Stat is Root.Stat.
func (f rootFS) Stat(name string) (fs.FileInfo, error) {
	if err := validFSPath("stat", name); err != nil {
		return nil, err
	}
	return f.r.Stat(name)
}

// ReadDir is Root.ReadDir.
func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := validFSPath("readdir", name); err != nil {
		return nil, err
	}
	return f.r.ReadDir(name)
}

// ReadFile is Root.ReadFile.
func (f rootFS) ReadFile(name string) ([]byte, error) {
	if err := validFSPath("read", name); err != nil {
		return nil, err
	}
	file, err := f.r.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return file.Data, nil
}

// Lstat is Root.Lstat.
func (f rootFS) Lstat(name string) (fs.FileInfo, error) {
	if err := validFSPath("lstat", name); err != nil {
		return nil, err
	}
	return f.r.Lstat(name)
}

// ReadLink returns the target of the symlink name, as stored.
func (f rootFS) ReadLink(name string) (string, error) {
	const op = "readlink"
	if err := validFSPath(op, name); err != nil {
		return "", err
	}
	t, err := f.r.resolve(op, name, 0)
	if err != nil {
		return "", err
	}
	link, err := f.r.root.Readlink(t.name)
	if err != nil {
		return "", pathError(op, t.name, err)
	}
	return link, nil
}

// validFSPath enforces the fs.FS naming rules (unrooted, no "..", no trailing slash).
func validFSPath(op, name string) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return nil
}
