package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jido-run/jido/manager"
)

// A named session (jido call --session NAME, jido eval --session NAME) keeps what a
// session holds between processes: the files it read (at the versions it read them), the
// approvals given for the session, its todos and tasks, its buffers. Its state is one file
// per name in the project's state directory, outside the root, beside the journal:
//
//	$XDG_STATE_HOME/jido/sessions/<root hash>/<name>.json   (0600, written atomically)
//	$XDG_STATE_HOME/jido/sessions/<root hash>/<name>.lock   (flock: one process at a time)
//
// The file is {"version": 1, "name": ..., "saved": ..., "state": manager.SessionState}.
// A process using a session holds its lock from before it reads the state until after it
// writes it back, so two processes with the same name serialise: the second waits (saying
// so on stderr) for the first to finish, up to sessionLockWait. A session unused for
// sessionTTL expires: its state is not restored, and the files of expired sessions (of
// any root) are removed by the next process that uses a named session.

// sessionFlagUsage is the help of --session.
const sessionFlagUsage = "keep the session's state (files read, session approvals, todos, buffers) under this name between calls; [A-Za-z0-9._-], up to 64 characters; expires after a day unused"

const (
	sessionFileVersion = 1
	sessionTTL         = 24 * time.Hour
	maxSessionFile     = 1 << 30 // bytes: 64 buffers of 8 MiB each, and room for the rest
)

// sessionLockWait is how long a process waits for another one using the same session
// (a variable for tests).
var sessionLockWait = 15 * time.Minute

// sessionNamePattern is what a session name may be: a letter or digit, then letters,
// digits, '.', '_' and '-'; no path separator, no leading dot.
var sessionNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// checkSessionName refuses a name that is not a short [A-Za-z0-9._-] word.
func checkSessionName(name string) error {
	if !sessionNamePattern().MatchString(name) {
		return fmt.Errorf("bad --session name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// sessionFile is the content of a session's state file.
type sessionFile struct {
	Version int                  `json:"version"`
	Name    string               `json:"name"`
	Saved   time.Time            `json:"saved"`
	State   manager.SessionState `json:"state"`
}

// sessionStore is one named session's state file, locked by this process.
type sessionStore struct {
	name string
	dir  string // the root's sessions directory
	path string // dir/name.json
	lock *os.File
	now  func() time.Time
}

// sessionsDir is the directory of a root's named sessions.
func sessionsDir(root string) (string, error) {
	return projectState(root, "sessions")
}

// openSessionStore checks name, makes the root's sessions directory (0700), checks that it
// lies outside the root, and takes the session's lock: waiting, with a note on stderr,
// while another process holds it, up to sessionLockWait or until ctx ends.
func openSessionStore(ctx context.Context, root, name string, stderr io.Writer) (*sessionStore, error) {
	if err := checkSessionName(name); err != nil {
		return nil, err
	}
	dir, err := sessionsDir(root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("session %s: %w", name, err)
	}
	if err := checkOutsideRoot(dir, root); err != nil {
		return nil, err
	}
	s := &sessionStore{name: name, dir: dir, path: filepath.Join(dir, name+".json"), now: time.Now}
	ctx, cancel := context.WithTimeout(ctx, sessionLockWait)
	defer cancel()
	s.lock, err = lockFile(ctx, filepath.Join(dir, name+".lock"), true, func() {
		fmt.Fprintf(stderr, "jido: session %s is in use by another jido process; waiting for it to finish\n", name)
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("session %s is still in use by another jido process after %s (lock %s): wait for it, or use another --session name", name, sessionLockWait, filepath.Join(dir, name+".lock"))
	case err != nil:
		return nil, fmt.Errorf("session %s: %w", name, err)
	}
	return s, nil
}

// checkOutsideRoot refuses a state directory inside the project root, where a command the
// session runs could write it (and so forge the files read and the approvals).
func checkOutsideRoot(dir, root string) error {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	realRoot, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(realRoot); err == nil {
		realRoot = r
	}
	if rel, err := filepath.Rel(realRoot, realDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("the session state directory %s is inside the project root %s, where the session's commands could change it: set XDG_STATE_HOME to a directory outside the root", dir, realRoot)
	}
	return nil
}

// errLocked is lockFile's error when the file is locked and it may not wait.
var errLocked = errors.New("locked by another process")

// lockFile opens (creating, 0600) and flocks the lock file at path. While another process
// holds it, it returns errLocked, or with wait calls waiting once and retries until ctx
// ends. The lock is taken on the file the path names when it returns: a
// lock file removed (by the expiry sweep) while this process waited is opened again.
func lockFile(ctx context.Context, path string, wait bool, waiting func()) (*os.File, error) {
	told := false
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, err
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(err, syscall.EWOULDBLOCK) {
				break
			}
			if !wait {
				f.Close()
				return nil, errLocked
			}
			if !told && waiting != nil {
				waiting()
				told = true
			}
			select {
			case <-ctx.Done():
				f.Close()
				return nil, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		named, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close() // removed or replaced while we waited: lock the file there now
	}
}

// Close releases the session's lock.
func (s *sessionStore) Close() error { return s.lock.Close() }

// load sweeps the state files of expired sessions and returns the session's state: nil
// for a new session, or one that expired (a note on stderr says so). A file that cannot be
// read as a session's state is an error naming it and how to recover.
func (s *sessionStore) load(stderr io.Writer) (*manager.SessionState, error) {
	sweepSessions(filepath.Dir(s.dir), s.path, s.now())
	info, err := os.Lstat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.unreadable("%v", err)
	}
	if idle := s.now().Sub(info.ModTime()); idle > sessionTTL {
		fmt.Fprintf(stderr, "jido: session %s expired (unused for %s, more than %s): starting it afresh\n", s.name, idle.Round(time.Minute), sessionTTL)
		if err := os.Remove(s.path); err != nil {
			return nil, s.unreadable("removing it: %v", err)
		}
		return nil, nil
	}
	f, err := os.OpenFile(s.path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, s.unreadable("%v", err)
	}
	defer f.Close()
	if err := checkPrivate(f); err != nil {
		return nil, s.unreadable("%v", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSessionFile+1))
	switch {
	case err != nil:
		return nil, s.unreadable("%v", err)
	case len(data) > maxSessionFile:
		return nil, s.unreadable("it is larger than %d bytes", maxSessionFile)
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, s.unreadable("it is corrupt: %v", err)
	}
	if head.Version == nil || *head.Version != sessionFileVersion {
		v := "none"
		if head.Version != nil {
			v = fmt.Sprint(*head.Version)
		}
		return nil, s.unreadable("its version is %s; this jido reads version %d", v, sessionFileVersion)
	}
	var file sessionFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, s.unreadable("it is corrupt: %v", err)
	}
	if file.Name != s.name {
		return nil, s.unreadable("it is the state of session %q", file.Name)
	}
	return &file.State, nil
}

// unreadable is the error of a state file that cannot be restored: what is wrong with it,
// and the way out.
func (s *sessionStore) unreadable(format string, args ...any) error {
	return fmt.Errorf("session %s: cannot restore the state file %s: %s; delete it (rm %s) to start the session afresh, or use another --session name",
		s.name, s.path, fmt.Sprintf(format, args...), s.path)
}

// checkPrivate refuses a state file that is not a regular file of the user's, writable by
// the user alone: jido writes it so, and a file others can write could hold their forgery.
func checkPrivate(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("it is not a regular file (%s)", info.Mode().Type())
	}
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("others may write it (mode %s)", info.Mode().Perm())
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("it belongs to user %d, not to you", st.Uid)
	}
	return nil
}

// save writes the session's state atomically (a 0600 temporary file in the same
// directory, synced, renamed over the state file, the directory synced).
func (s *sessionStore) save(st manager.SessionState) error {
	data, err := json.Marshal(sessionFile{Version: sessionFileVersion, Name: s.name, Saved: s.now().UTC(), State: st})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, "."+s.name+".json.tmp-*") // 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing there
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return err
	}
	if d, err := os.Open(s.dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// sweepSessions removes what expired sessions of every root left under base (the
// sessions directory of all roots): state files unused for sessionTTL, their lock files,
// and lock and temporary files as old. It skips keep (the running session's file, which
// load handles) and any session another process holds. Errors are ignored: the sweep is
// housekeeping, retried by the next process.
func sweepSessions(base, keep string, now time.Time) {
	roots, err := os.ReadDir(base)
	if err != nil {
		return
	}
	old := func(path string) bool {
		info, err := os.Lstat(path)
		return err == nil && now.Sub(info.ModTime()) > sessionTTL
	}
	for _, r := range roots {
		if !r.IsDir() {
			continue
		}
		dir := filepath.Join(base, r.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			switch name := e.Name(); {
			case path == keep || path == strings.TrimSuffix(keep, ".json")+".lock":
			case strings.HasPrefix(name, ".") && strings.Contains(name, ".json.tmp-"):
				if old(path) {
					os.Remove(path) // a write interrupted a day ago
				}
			case strings.HasSuffix(name, ".json"):
				if old(path) {
					removeSession(path, strings.TrimSuffix(path, ".json")+".lock", old)
				}
			case strings.HasSuffix(name, ".lock"):
				if state := strings.TrimSuffix(path, ".lock") + ".json"; old(path) && !exists(state) {
					removeSession(state, path, old)
				}
			}
		}
	}
}

// removeSession removes an expired session's state file and lock file, holding its lock,
// unless another process holds it or used the session meanwhile.
func removeSession(state, lock string, old func(string) bool) {
	f, err := lockFile(context.Background(), lock, false, nil)
	if err != nil {
		return
	}
	defer f.Close()
	if exists(state) && !old(state) {
		return // used meanwhile
	}
	os.Remove(state)
	os.Remove(lock) // while holding it: a waiter notices (lockFile) and locks a new one
}

// exists reports whether a file exists at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// withNamedSession is withSession for `--session NAME`: the session starts with the state
// saved under the name (if any, and not expired), and its state is saved back when fn
// returns, the whole under the session's lock. Without a name it is withSession.
func (f *sessionFlags) withNamedSession(cmd, name string, stderr io.Writer, fn func(context.Context, *manager.Session) int) int {
	if name == "" {
		return f.withSession(cmd, stderr, fn)
	}
	if err := checkSessionName(name); err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	var store *sessionStore
	open := func(ctx context.Context, m *manager.Manager) (*manager.Session, error) {
		var err error
		if store, err = openSessionStore(ctx, f.root.dir, name, stderr); err != nil {
			return nil, err
		}
		state, err := store.load(stderr)
		if err != nil {
			store.Close()
			return nil, err
		}
		// The processes of a named session are one conversation: its undo takes back the
		// change the process before made.
		opts := []manager.SessionOption{manager.WithConversation("session-" + name)}
		if state != nil {
			opts = append(opts, manager.WithState(*state))
		}
		s, err := m.Open(ctx, "", opts...)
		if err != nil {
			store.Close()
			if errors.Is(err, manager.ErrBadState) {
				err = store.unreadable("%v", err)
			}
			return nil, err
		}
		return s, nil
	}
	return f.runSession(cmd, stderr, open, func(ctx context.Context, s *manager.Session) int {
		defer store.Close()
		code := fn(ctx, s)
		if err := store.save(s.State()); err != nil {
			fmt.Fprintf(stderr, "jido %s: saving session %s: %v\n", cmd, name, err)
			if code == exitOK {
				code = exitToolError
			}
		}
		return code
	})
}
