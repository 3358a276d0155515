package security

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// Rename moves oldname to newname. Neither last component is followed (a symlink is
// moved as a link). Both must be inside the root, neither the root, protected or secret.
// A directory is checked whole first, as Remove does: the move is refused if anything
// under it is protected or secret where it is or would be once moved (a pattern such as
// "deploy/*.yml" protects no directory, only the files it would receive), or cannot be
// listed. Without overwrite an existing newname fails with fs.ErrExist, atomically for
// non-directories; with overwrite, a file never replaces a directory nor the reverse.
// Missing parents of newname are created.
func (r *Root) Rename(oldname, newname string, overwrite bool) error {
	const op = "rename"
	src, err := r.resolveEntry(op, oldname, 0)
	if err != nil {
		return err
	}
	dst, err := r.resolveEntry(op, newname, createParents)
	if err != nil {
		return err
	}
	if err := renameConflict(src, dst, overwrite); err != nil {
		return pathError(op, dst.name, err)
	}
	if src.info.IsDir() {
		if err := r.checkMovedTree(op, src.name, dst.name); err != nil {
			return err
		}
	}
	if dst.info == nil {
		if err := r.mkdirParent(op, dst.name); err != nil {
			return err
		}
	}
	if overwrite {
		return wrapOp(op, src.name, r.root.Rename(src.name, dst.name))
	}
	return wrapOp(op, dst.name, r.moveNoClobber(src.name, dst.name, src.info.IsDir()))
}

// checkMovedTree walks the directory src (never following links) and refuses its move
// to dst if an entry under it is protected or secret at its path or at the path it would
// have under dst, or if a directory cannot be listed.
func (r *Root) checkMovedTree(op, src, dst string) error {
	return fs.WalkDir(r.FS(), src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return err
		}
		if err := r.checkPolicy(op, p, true); err != nil {
			return err
		}
		return r.checkPolicy(op, dst+strings.TrimPrefix(p, src), true)
	})
}

// renameConflict reports why src cannot be moved to dst.
func renameConflict(src, dst target, overwrite bool) error {
	switch {
	case dst.info == nil:
		return nil
	case !overwrite:
		return fs.ErrExist
	case dst.info.IsDir() && !src.info.IsDir():
		return ErrIsDir
	case !dst.info.IsDir() && src.info.IsDir():
		return ErrNotDir
	}
	return nil
}

// moveNoClobber renames src to dst unless dst exists (fs.ErrExist). For non-directories
// it is atomic: link(2) fails if dst exists, then src is unlinked. Directories, and file
// systems without hard links, fall back to a check before the rename (a small race).
func (r *Root) moveNoClobber(src, dst string, isDir bool) error {
	if !isDir {
		err := r.root.Link(src, dst)
		if err == nil {
			return r.root.Remove(src)
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.ENOTSUP) {
			return err
		}
	}
	if _, err := r.root.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			err = fs.ErrExist
		}
		return err
	}
	return r.root.Rename(src, dst)
}
