package security

import "io/fs"

// Remove deletes the file or directory name denotes; the last component is never
// followed, so removing a symlink removes the link. The root itself is refused by any
// spelling (ErrIsRoot), as are protected and secret paths; a directory needs recursive,
// and then everything under it is checked first: the whole removal is refused if it holds
// a protected or secret path or a directory that cannot be listed (another device, ...).
func (r *Root) Remove(name string, recursive bool) error {
	const op = "remove"
	t, err := r.resolveEntry(op, name, 0)
	if err != nil {
		return err
	}
	if !t.info.IsDir() {
		return wrapOp(op, t.name, r.root.Remove(t.name))
	}
	if !recursive {
		return pathError(op, t.name, detail(ErrIsDir, "set recursive to remove a directory"))
	}
	if err := r.checkTree(op, t.name); err != nil {
		return err
	}
	return wrapOp(op, t.name, r.root.RemoveAll(t.name))
}

// resolveEntry resolves name without following its last component, for operations on
// the directory entry itself (remove, rename): the root, protected and secret paths are
// refused and, unless mode has createParents, the entry must exist.
func (r *Root) resolveEntry(op, name string, mode resolveMode) (target, error) {
	t, err := r.resolve(op, name, mode)
	switch {
	case err != nil:
		return target{}, err
	case t.name == ".":
		return target{}, pathError(op, name, ErrIsRoot)
	case t.info == nil && mode&createParents == 0:
		return target{}, pathError(op, t.name, fs.ErrNotExist)
	}
	if err := r.checkPolicy(op, t.name, true); err != nil {
		return target{}, err
	}
	return t, nil
}

// checkTree walks the directory dir (never following links) and refuses the operation if
// anything under it is protected or secret, or cannot be listed.
func (r *Root) checkTree(op, dir string) error {
	return fs.WalkDir(r.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return r.checkPolicy(op, p, true)
	})
}

// RemoveEmptyDir deletes the directory name denotes only if it is empty (rmdir(2)), as
// when undoing a change that created it: a directory that holds anything fails and
// nothing in it is touched, whoever added it meanwhile.
func (r *Root) RemoveEmptyDir(name string) error {
	const op = "rmdir"
	t, err := r.resolveEntry(op, name, 0)
	if err != nil {
		return err
	}
	if !t.info.IsDir() {
		return pathError(op, t.name, ErrNotDir)
	}
	return wrapOp(op, t.name, r.root.Remove(t.name))
}
