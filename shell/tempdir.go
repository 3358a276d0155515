package shell

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"syscall"
)

// sessionTemp makes a session's private temp dir (the commands' HOME and TMPDIR) and
// returns it with what releases it once it has been removed. It is at a path stable for
// the project, os.TempDir()/jido-session-<hash of root>, while no other session of the
// project holds that path (a lock file beside it, jido-<hash>.lock, says who does): go test
// reuses a cached test result only while the environment variables the test read keep
// their values, and with a new random TMPDIR each session re-ran every test that looks at
// it. When the path is held, or is not a directory of this user's own, the dir is a random
// one as before.
func sessionTemp(root string) (string, func(), error) {
	sum := shortHash(root)
	stable := filepath.Join(os.TempDir(), "jido-session-"+sum)
	if lock := lockFile(filepath.Join(os.TempDir(), "jido-"+sum+".lock")); lock != nil {
		if renew(stable) == nil {
			return stable, func() { lock.Close() }, nil
		}
		lock.Close()
	}
	dir, err := os.MkdirTemp("", "jido-session-")
	return dir, func() {}, err
}

// shortHash names a path by a hash of it (16 hex digits).
func shortHash(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:8])
}

// lockFile opens path, a regular file of this user's own (made if missing, never through
// a link), and locks it for the process; nil when another holds it or it is not ours.
func lockFile(path string) *os.File {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || !ownedByMe(info) ||
		syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil
	}
	return f
}

// renew makes dir a new empty directory private to this user: what a session that ended
// without removing it left there goes first, provided it is a directory of this user's
// own (a link or another user's file there is left alone, and renew fails).
func renew(dir string) error {
	if info, err := os.Lstat(dir); err == nil {
		if !info.IsDir() || !ownedByMe(info) {
			return os.ErrExist
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	return os.Mkdir(dir, 0o700)
}

// ownedByMe reports whether the file is this user's.
func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
