// Package security confines every file operation of jido to one project root.
//
// A Root wraps one *os.Root. Every name goes through three steps: a lexical check (Clean),
// a symlink-free canonical root-relative path on which policy is decided (Resolve), and the
// operation itself through os.Root, whose openat walk from the root's file descriptor
// re-checks containment. On Linux, names of two or more components without symlinks or
// mount points are resolved and opened with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|...)
// instead (fastpath_linux.go); everything else takes the walk. Reads verify that the
// opened file is the one that was checked; writes are atomic replaces. Errors are
// *fs.PathError with root-relative paths.
package security

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// defaultMaxFileSize caps reads and writes when Options.MaxFileSize is 0.
const defaultMaxFileSize = 10 << 20

// Options configure a Root.
type Options struct {
	Policy      *Policy // nil: DefaultPolicy()
	MaxFileSize int64   // 0: 10 MiB
	// NoSync skips the two fsyncs of every write, for scratch trees and tests: writes stay
	// atomic (a reader sees old or new), but a crash of the machine may lose the new content.
	NoSync bool
}

// Root is a project root; safe for concurrent use.
// All fields are set by Open and never change; os.Root is itself safe for concurrent use.
type Root struct {
	root    *os.Root
	path    string     // absolute, symlink-free host path of the root
	prefix  [][]string // host path components under which absolute names are accepted
	dev     uint64     // st_dev of the root directory
	policy  policy
	maxSize int64
	noSync  bool
	fast    fastPath // Linux openat2 fast path of resolve and open; zero: the walk only
}

// Open opens dir as a project root. The directory is resolved (Abs + EvalSymlinks) once;
// later renames of the directory do not affect the Root, which keeps its file descriptor.
func Open(dir string, opts Options) (*Root, error) {
	const op = "open"
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: dir, Err: err}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: dir, Err: mapError(err)}
	}
	pol := DefaultPolicy()
	if opts.Policy != nil {
		pol = *opts.Policy
	}
	compiled, err := compilePolicy(pol)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: dir, Err: err}
	}
	root, err := openRootDir(real)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: dir, Err: mapError(err)}
	}
	info, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, &fs.PathError{Op: op, Path: dir, Err: mapError(err)}
	}
	r := &Root{
		root:    root,
		path:    real,
		prefix:  [][]string{hostComponents(abs), hostComponents(real)},
		dev:     sysStat(info).dev,
		policy:  compiled,
		maxSize: opts.MaxFileSize,
		noSync:  opts.NoSync,
	}
	if r.maxSize <= 0 {
		r.maxSize = defaultMaxFileSize
	}
	r.fast = openFastPath(root)
	return r, nil
}

// hostComponents splits an absolute, clean host path into its components ("/" has none).
func hostComponents(p string) []string {
	return strings.FieldsFunc(filepath.ToSlash(p), func(c rune) bool { return c == '/' })
}

// Close releases the root's file descriptors.
func (r *Root) Close() error {
	r.fast.close()
	return r.root.Close()
}

// Path returns the absolute, symlink-free host path of the root, for display and for
// starting processes in it; never join names to it to access files.
func (r *Root) Path() string { return r.path }

// MaxFileSize returns the size cap of ReadFile and WriteFile, in bytes.
func (r *Root) MaxFileSize() int64 { return r.maxSize }
