package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/validate"
)

// Files is the bridge module of the tools that read and change files.
type Files struct{ Deps }

// ReadFile reads the requested lines of a text file and records the read for later edits.
func (f *Files) ReadFile(ctx context.Context, p definitions.ReadFileParams) (*definitions.ReadFileResult, error) {
	win, terr := window(p)
	if terr != nil {
		return nil, terr
	}
	file, canon, ver, err := f.Store.OpenReader(p.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	r := newReader(file, ver.Size)
	defer releaseReader(r)
	enc, binary := sniff(r)
	if binary {
		return nil, definitions.NewError(definitions.FileError, "%s is a binary file", canon).With("path", canon).With("size", ver.Size).
			Hint("read_file reads text files only; use search or list_dir to learn about binary files")
	}
	res := &definitions.ReadFileResult{Path: canon, Encoding: enc, Size: ver.Size}
	if err := readLines(ctx, r, p, win, res); err != nil {
		return nil, &fs.PathError{Op: "read", Path: canon, Err: err}
	}
	if win.from > 1 && win.from > res.TotalLines {
		return nil, definitions.NewError(definitions.ValidationError, "line %d is past the end of %s, which has %d lines", win.from, canon, res.TotalLines).
			With("path", canon).With("total_lines", res.TotalLines).
			Hint(fmt.Sprintf("Read from a line between 1 and %d", max(1, res.TotalLines)))
	}
	f.Reads.Record(canon, ver)
	res.Content, res.Redacted = f.redactor().String(res.Content)
	return res, nil
}

// WriteFile replaces (or appends to, or creates) a file atomically. Replacing an existing
// file requires that the session read it and that it has not changed since. A new file, its
// missing parents, a trailing slash and the secret and protected rules are security.Root's.
func (f *Files) WriteFile(ctx context.Context, p definitions.WriteFileParams) (*definitions.WriteFileResult, error) {
	opts := security.WriteOptions{}
	data := []byte(p.Content)
	info, err := f.Store.Stat(p.Path)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case !exists && !p.CreateIfMissing:
		return nil, definitions.NewError(definitions.FileError, "%s does not exist and create_if_missing is false", p.Path).
			With("path", p.Path).Hint("Pass create_if_missing: true to create it")
	case !exists:
		opts.MustNotExist = true
	case info.IsDir():
		return nil, &fs.PathError{Op: "write", Path: p.Path, Err: security.ErrIsDir}
	}
	if exists {
		if err := checkWritable(p.Path, info, p.Force); err != nil {
			return nil, err
		}
	}
	var before []byte // what the file holds, for git awareness
	switch {
	case !exists:
	case p.Append:
		cur, err := f.Store.ReadFile(p.Path)
		if err != nil {
			return nil, err
		}
		before = cur.Data
		data = append(cur.Data[:len(cur.Data):len(cur.Data)], data...)
		opts.Expect = &cur.Version
	default:
		v, err := f.seen(p.Path, "overwrite")
		if err != nil {
			return nil, err
		}
		opts.Expect = &v
		if cur, err := f.Store.ReadFile(p.Path); err == nil && cur.Version.Equal(v) {
			before = cur.Data
		}
	}
	if _, err := f.Store.CheckWrite(p.Path); errors.Is(err, security.ErrSecret) || errors.Is(err, security.ErrProtected) {
		return nil, err // before the parse guard and the preview: a refused path is the first thing said
	}
	if !p.Force && validate.Kind(p.Path) != "" {
		if err := f.guardWrite(p.Path, exists, data); err != nil {
			return nil, err
		}
	}
	if p.DryRun {
		return f.previewWrite(p, exists, data)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	canon, ver, err := f.Store.WriteFile(p.Path, data, opts)
	if err != nil {
		return nil, err
	}
	f.Reads.Record(canon, ver)
	return &definitions.WriteFileResult{Path: canon, BytesWritten: len(p.Content), Created: !exists, Appended: exists && p.Append,
		UncommittedChanges: exists && f.uncommitted(canon, before)}, nil
}

// previewWrite is write_file's dry run: the diff from the current content, nothing written.
func (f *Files) previewWrite(p definitions.WriteFileParams, exists bool, data []byte) (*definitions.WriteFileResult, error) {
	canon, err := f.Store.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	before := ""
	if exists {
		cur, err := f.Store.ReadFile(canon)
		if err != nil {
			return nil, err
		}
		before = string(cur.Data)
	}
	diff, _, _ := edit.Diff(canon, before, string(data))
	diff, _ = f.redactor().String(diff)
	return &definitions.WriteFileResult{Path: canon, BytesWritten: len(p.Content), Created: !exists, Appended: exists && p.Append, DryRun: true, Diff: diff}, nil
}

// guardWrite applies parseGuard to a write of data over the named file.
func (f *Files) guardWrite(name string, exists bool, data []byte) error {
	var before []byte
	if exists {
		cur, err := f.Store.ReadFile(name)
		if err != nil {
			return err
		}
		before = cur.Data
	}
	return parseGuard(name, exists, string(before), string(data))
}

// seen returns the version of the named file the session last read, or an error: the file's
// policy error if tools may not change it at all (so that the model is not told to read a
// secret), else a conflict naming action.
func (f *Files) seen(name, action string) (security.Version, error) {
	canon, err := f.Store.Resolve(name)
	if err != nil {
		return security.Version{}, err
	}
	if f.Store.IsSecret(canon) {
		return security.Version{}, &fs.PathError{Op: action, Path: canon, Err: security.ErrSecret}
	}
	if f.Store.IsProtected(canon) {
		return security.Version{}, &fs.PathError{Op: action, Path: canon, Err: security.ErrProtected}
	}
	v, ok := f.Reads.Get(canon)
	if !ok {
		return v, definitions.NewError(definitions.ConflictError, "cannot %s %s: it has not been read in this session", action, canon).
			With("path", canon).Hint("Read it with read_file first, then retry")
	}
	return v, nil
}

// DeleteFile removes a file, a symlink, or with recursive a directory tree.
func (f *Files) DeleteFile(ctx context.Context, p definitions.DeleteFileParams) (*definitions.DeleteFileResult, error) {
	if p.DryRun {
		return f.previewDelete(p)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Store.Remove(p.Path, p.Recursive); err != nil {
		return nil, err
	}
	rel, err := f.Store.Clean(p.Path)
	if err != nil {
		return nil, err
	}
	return &definitions.DeleteFileResult{Path: rel, Deleted: true}, nil
}

// MoveFile renames a file or directory inside the root, never following the last component.
func (f *Files) MoveFile(ctx context.Context, p definitions.MoveFileParams) (*definitions.MoveFileResult, error) {
	if p.DryRun {
		return f.previewMove(p)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Store.Rename(p.Source, p.Destination, p.Overwrite); err != nil {
		return nil, err
	}
	src, dst, err := f.movePaths(p)
	if err != nil {
		return nil, err
	}
	return &definitions.MoveFileResult{Source: src, Destination: dst}, nil
}

// movePaths returns a move's source and destination as root-relative paths.
func (f *Files) movePaths(p definitions.MoveFileParams) (src, dst string, err error) {
	if src, err = f.Store.Clean(p.Source); err != nil {
		return "", "", err
	}
	dst, err = f.Store.Clean(p.Destination)
	return src, dst, err
}

// previewDelete is delete_file's dry run: what exists at the path and, for a directory,
// how many entries it holds; the same refusals as a real delete for a missing path or a
// directory without recursive. (Remove's own checks, such as a secret inside a tree, run
// only for real.)
func (f *Files) previewDelete(p definitions.DeleteFileParams) (*definitions.DeleteFileResult, error) {
	info, err := f.Store.Lstat(p.Path)
	if err != nil {
		return nil, err
	}
	rel, err := f.Store.Clean(p.Path)
	if err != nil {
		return nil, err
	}
	res := &definitions.DeleteFileResult{Path: rel, DryRun: true, Type: entryType(info.Mode())}
	if info.IsDir() {
		if !p.Recursive {
			return nil, &fs.PathError{Op: "remove", Path: rel, Err: fmt.Errorf("%w: set recursive to remove a directory", security.ErrIsDir)}
		}
		_ = fs.WalkDir(f.Store.FS(), rel, func(name string, _ fs.DirEntry, err error) error {
			if err == nil && name != rel {
				res.Entries++
			}
			return nil
		})
	}
	return res, nil
}

// previewMove is move_file's dry run: the source must exist, and a destination that exists
// is refused unless overwrite, as the real move would.
func (f *Files) previewMove(p definitions.MoveFileParams) (*definitions.MoveFileResult, error) {
	if _, err := f.Store.Lstat(p.Source); err != nil {
		return nil, err
	}
	src, dst, err := f.movePaths(p)
	if err != nil {
		return nil, err
	}
	res := &definitions.MoveFileResult{Source: src, Destination: dst, DryRun: true}
	if _, err := f.Store.Lstat(p.Destination); err == nil {
		if !p.Overwrite {
			return nil, &fs.PathError{Op: "rename", Path: dst, Err: fs.ErrExist}
		}
		res.Overwrites = true
	}
	return res, nil
}
