package gitops

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
	"golang.org/x/sys/unix"
)

// maxExclude bounds the size of the repository's info/exclude that Exclude reads.
const maxExclude = 1 << 20

// Exclude makes git ignore pattern in every work tree of the repository, without a change
// git status would show: it adds the line, after a comment line when comment is not "",
// to the common git directory's info/exclude (made when missing) unless a line already
// says it, and reports whether it added it. The file is replaced atomically, keeping its
// mode; every step is relative to a directory opened without following a symbolic link,
// and a link, a non-regular file or one larger than 1 MiB is refused.
func (r *Repo) Exclude(pattern, comment string) (bool, error) {
	if pattern == "" || strings.ContainsAny(pattern+comment, "\n\r") {
		return false, definitions.NewError(definitions.ValidationError, "invalid exclude pattern %q", pattern)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	common, err := unix.Open(r.commonDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, excludeError("opening the git directory", err)
	}
	defer unix.Close(common)
	if err := unix.Mkdirat(common, "info", 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
		return false, excludeError("making info", err)
	}
	info, err := unix.Openat(common, "info", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, excludeError("opening info", err)
	}
	defer unix.Close(info)
	old, mode, err := readExclude(info)
	if err != nil {
		return false, err
	}
	for line := range strings.Lines(string(old)) {
		if strings.TrimRight(strings.TrimSuffix(line, "\n"), " ") == pattern { // git drops trailing spaces, not leading ones
			return false, nil
		}
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	if comment != "" {
		old = append(old, "# "+comment+"\n"...)
	}
	return true, replaceAt(info, "exclude", append(old, pattern+"\n"...), mode)
}

// readExclude reads info/exclude through the directory info: its content and mode
// (nothing and 0644 when it is missing).
func readExclude(info int) ([]byte, uint32, error) {
	fd, err := unix.Openat(info, "exclude", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, excludeError("opening info/exclude", err)
	}
	f := os.NewFile(uintptr(fd), "info/exclude")
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, 0, excludeError("reading info/exclude", err)
	case !st.Mode().IsRegular():
		return nil, 0, excludeError("reading info/exclude", errors.New("not a regular file"))
	case st.Size() > maxExclude:
		return nil, 0, excludeError("reading info/exclude", errors.New("larger than 1 MiB"))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxExclude+1))
	if err != nil {
		return nil, 0, excludeError("reading info/exclude", err)
	}
	return data, uint32(st.Mode().Perm()), nil
}

// replaceAt replaces the file name in the directory dir with data atomically: a new
// temporary file beside it, synced, renamed over it, the directory synced.
func replaceAt(dir int, name string, data []byte, mode uint32) error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	tmp := "." + name + ".jido-" + hex.EncodeToString(b[:])
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
	if err != nil {
		return excludeError("writing info/exclude", err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(os.FileMode(mode)) // the umask may have narrowed it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(dir, tmp, dir, name)
	}
	if err != nil {
		unix.Unlinkat(dir, tmp, 0)
		return excludeError("writing info/exclude", err)
	}
	if err := unix.Fsync(dir); err != nil {
		return excludeError("syncing info", err)
	}
	return nil
}

// excludeError is the FileError of a step of Exclude.
func excludeError(step string, err error) error {
	return definitions.NewError(definitions.FileError, "%s of the repository: %v", step, err).
		Hint("Check the permissions of the repository's .git/info directory")
}
