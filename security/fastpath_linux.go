package security

import (
	"errors"
	"os"
	"path"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// fastPath resolves and opens names with one openat2(2) call relative to the root's
// directory, instead of the walk's one Root.Lstat per component (each of which os.Root
// walks again from the root, so the walk costs depth squared).
//
// The kernel is asked to refuse every symlink, magic link, mount crossing and ".." above
// the root (resolveFlags). A name it accepts therefore names real directories of the
// root's mount down to its last component, where ".." means the parent directory: the
// lexical clean of the (already lexically checked) name is the canonical path the walk
// would compute. Whenever the kernel refuses or fails (a symlink, a mount point, a
// missing directory, ENOSYS, seccomp's EPERM, EAGAIN after a concurrent rename, ...) the
// caller falls back to the walk, which follows in-root symlinks and produces the
// package's errors; the fast path only ever answers what the walk would answer. (One
// difference: os.Root opens intermediate directories for reading, so the walk fails with
// EACCES on a directory with search but no read permission, which openat2 traverses.)
//
// The zero value is disabled (the walk only).
type fastPath struct {
	dir  *os.File        // the root directory, opened through the os.Root: the same directory
	conn syscall.RawConn // dir's descriptor, which Control keeps from being closed while in use
}

// resolveFlags make openat2 refuse what the walk would have to look at: symlinks
// (followed or refused by the walk), magic links, mount crossings (which the walk follows
// and the device check may refuse) and anything outside the root.
const resolveFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS |
	unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV

// openFastPath opens the root directory of root for openat2 and checks once that openat2
// works (kernels before 5.6 return ENOSYS, seccomp filters often EPERM); if anything
// fails it returns the disabled fast path.
func openFastPath(root *os.Root) fastPath {
	dir, err := root.OpenFile(".", unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		return fastPath{}
	}
	fp := fastPath{dir: dir}
	if fp.conn, err = dir.SyscallConn(); err == nil {
		var fd int
		if fd, err = fp.openat2(".", unix.O_PATH); err == nil {
			unix.Close(fd)
			return fp
		}
	}
	dir.Close()
	return fastPath{}
}

// close releases the root directory; later calls fail and fall back to the (closed) walk.
func (fp fastPath) close() {
	if fp.dir != nil {
		fp.dir.Close()
	}
}

// openat2 opens the root-relative name with flags (plus O_CLOEXEC) under resolveFlags.
func (fp fastPath) openat2(name string, flags uint64) (int, error) {
	if fp.conn == nil {
		return -1, errFastPathOff
	}
	how := unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: resolveFlags}
	fd, err := -1, error(nil)
	if cerr := fp.conn.Control(func(dirfd uintptr) { fd, err = unix.Openat2(int(dirfd), name, &how) }); cerr != nil {
		return -1, cerr // the Root was closed
	}
	return fd, err
}

// fastResolve is resolveClean with followLast for names that involve no symlink and no
// mount crossing: one openat2(O_PATH) and an fstat instead of the walk. The O_PATH
// descriptor only stats the file, never opens it, so a device or a FIFO is not opened
// here any more than by the walk's Lstat. A missing last component is answered as the
// walk does (canonical name, nil info) after a second openat2 shows that its parent
// directory exists. ok is false when the walk must decide; it always is for a single
// component, which costs the walk one fstatat, less than openat2, fstat and close.
func (r *Root) fastResolve(parts []string) (target, bool) {
	if r.fast.conn == nil || len(parts) < 2 {
		return target{}, false
	}
	name := strings.Join(parts, "/")
	canonical := path.Clean(name) // split refused a leading "..", not "a/../.."
	if canonical == ".." || strings.HasPrefix(canonical, "../") {
		return target{}, false // the walk explains the climb
	}
	f, err := r.fastOpenFile(name, canonical, unix.O_PATH)
	if err == nil {
		info, err := f.Stat()
		f.Close()
		return target{name: canonical, info: info}, err == nil
	}
	if n := len(parts) - 1; errors.Is(err, unix.ENOENT) && parts[n] != ".." {
		// Not path.Dir, which would clean "missing/.." away: the walk needs every
		// component before the last to exist.
		parent := joinPath(strings.Join(parts[:n], "/"), "")
		if fd, err := r.fast.openat2(parent, unix.O_PATH|unix.O_DIRECTORY); err == nil {
			unix.Close(fd)
			return target{name: canonical}, true
		}
	}
	return target{}, false
}

// fastOpen opens the canonical path of a file for reading with flag, as Root.OpenFile
// would but with one openat2; ok is false when os.Root must open it (a symlink or mount
// appeared since the resolution, an error to report, ...). Directories are always left
// to os.Root: only its *os.File lists entries with fstatat on the directory's descriptor
// (os.NewFile's would lstat host paths, the bug of CVE-2026-27139). So is a single
// component, which os.Root opens with one openat.
func (r *Root) fastOpen(canonical string, flag int) (*os.File, bool) {
	if flag&unix.O_DIRECTORY != 0 || !strings.Contains(canonical, "/") {
		return nil, false
	}
	f, err := r.fastOpenFile(canonical, canonical, uint64(flag))
	return f, err == nil
}

// fastOpenFile opens name with openat2 as an *os.File named like os.Root names its files
// (the root's host path joined with the canonical path).
func (r *Root) fastOpenFile(name, canonical string, flags uint64) (*os.File, error) {
	fd, err := r.fast.openat2(name, flags)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), r.path+"/"+canonical), nil
}
