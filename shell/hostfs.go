package shell

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// hostFS is how jido acts on the project on the host after a command (the audit's
// restores, removals and quarantines): every path is opened from the root's directory one
// component at a time, refusing a symbolic link at every step (O_NOFOLLOW), and the last
// component is acted on relative to its directory's descriptor. A command that swaps a
// directory for a link while jido works makes the operation fail, never act elsewhere: the
// descriptors jido holds are the directories it checked.
type hostFS struct{ root *os.File }

// errLink is the refusal of a path through a symbolic link.
var errLink = errors.New("a symbolic link is in the way")

// openHostFS opens the project's root directory for the audit.
func openHostFS(rootPath string) (*hostFS, error) {
	fd, err := unix.Open(rootPath, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	return &hostFS{root: os.NewFile(uintptr(fd), rootPath)}, nil
}

// Close releases the root's descriptor.
func (h *hostFS) Close() error { return h.root.Close() }

// dir opens the directory rel (slash-separated, relative to the root; "" or "." is the root)
// without following a link; with create, missing directories are made (0700).
func (h *hostFS) dir(rel string, create bool) (*os.File, error) {
	fd, err := unix.Dup(int(h.root.Fd()))
	if err != nil {
		return nil, err
	}
	unix.CloseOnExec(fd)
	for part := range strings.SplitSeq(path.Clean("/" + rel)[1:], "/") {
		if part == "" {
			continue
		}
		next, err := unix.Openat(fd, part, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_RDONLY, 0)
		if errors.Is(err, unix.ENOENT) && create {
			if err = unix.Mkdirat(fd, part, 0o700); err == nil || errors.Is(err, unix.EEXIST) {
				next, err = unix.Openat(fd, part, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_RDONLY, 0)
			}
		}
		unix.Close(fd)
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil, fmt.Errorf("%s: %w", rel, errLink)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), rel), nil
}

// split returns rel's parent directory, opened without following a link, and its name.
func (h *hostFS) split(rel string) (*os.File, string, error) {
	dir, name := path.Split(path.Clean(rel))
	if name == "" || name == "." || name == ".." {
		return nil, "", fmt.Errorf("%s: not an entry", rel)
	}
	d, err := h.dir(dir, false)
	return d, name, err
}

// move renames the entry rel (a link is moved as the link, never followed) to dst, making
// dst's directories; it refuses to replace anything at dst.
func (h *hostFS) move(rel, dst string) error {
	from, name, err := h.split(rel)
	if err != nil {
		return err
	}
	defer from.Close()
	toDir, toName := path.Split(path.Clean(dst))
	to, err := h.dir(toDir, true)
	if err != nil {
		return err
	}
	defer to.Close()
	return renameNoReplace(int(from.Fd()), name, int(to.Fd()), toName)
}

// readFile reads the regular file rel, at most limit bytes (more is an error), without
// following a link; ok is false when there is no such regular file.
func (h *hostFS) readFile(rel string, limit int64) (data []byte, ok bool, err error) {
	d, name, err := h.split(rel)
	if err != nil {
		return nil, false, err
	}
	defer d.Close()
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, false, err
	}
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: larger than %d bytes", rel, limit)
	}
	return data, err == nil, err
}

// writeFile replaces rel with data (mode perm) atomically: a new file beside it, renamed
// over it, never written through a link or a hard link.
func (h *hostFS) writeFile(rel string, data []byte, perm os.FileMode) error {
	d, name, err := h.split(rel)
	if err != nil {
		return err
	}
	defer d.Close()
	tmp := ".jido-restore-" + name
	fd, err := unix.Openat(int(d.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(int(d.Fd()), tmp, int(d.Fd()), name)
	}
	if err != nil {
		unix.Unlinkat(int(d.Fd()), tmp, 0)
	}
	return err
}

// readDir lists the directory rel without following a link (its entries' Info does not
// work: use stamp).
func (h *hostFS) readDir(rel string) ([]os.DirEntry, error) {
	d, err := h.dir(rel, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// stamp tells an entry reached without following a link from another, or from itself
// changed: ok is false when there is none.
func (h *hostFS) stamp(rel string) (st fileStamp, ok bool) {
	d, name, err := h.split(rel)
	if err != nil {
		return fileStamp{}, false
	}
	defer d.Close()
	var s unix.Stat_t
	if unix.Fstatat(int(d.Fd()), name, &s, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return fileStamp{}, false
	}
	return fileStamp{id: fileID{uint64(s.Dev), s.Ino}, size: s.Size, mtime: s.Mtim.Nano(), mode: os.FileMode(s.Mode & 0o7777)}, true
}
