package security

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openRootDir opens real, an absolute path that EvalSymlinks returned, as an os.Root, and
// makes sure that what it opened is that path with no symbolic link on the way: a
// component swapped for a link after the check (a client root of an MCP server, made to
// point outside the server's root between the check and the open) is refused. openat2
// with RESOLVE_NO_SYMLINKS opens the directory first; the Root opened by name must be
// that same directory (device and inode). Where openat2 is not available it opens real
// by name only.
func openRootDir(real string) (*os.Root, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, real, &unix.OpenHow{
		Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	switch {
	case errors.Is(err, unix.ELOOP):
		return nil, detail(ErrChanged, "a directory on the way to the root became a symbolic link while it was opened")
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM), errors.Is(err, unix.EINVAL):
		return os.OpenRoot(real) // no openat2 here (an old kernel, a seccomp filter)
	case err != nil:
		return nil, &os.PathError{Op: "openat2", Path: real, Err: err}
	}
	defer unix.Close(fd)
	var want unix.Stat_t
	if err := unix.Fstat(fd, &want); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	info, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	if got := sysStat(info); got.dev != uint64(want.Dev) || got.ino != uint64(want.Ino) {
		root.Close()
		return nil, detail(ErrChanged, "the root was replaced while it was opened")
	}
	return root, nil
}
