package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/jido-run/jido/security"
)

// Capture reads the current state of the given paths through root, just before a change,
// and stores the contents of the existing files as blobs. Each path is resolved to its
// canonical form (duplicates are captured once); a missing file is recorded as absent.
// Only regular files are journaled: a directory or other non-regular file is an error, as
// is a secret path, even a missing one (security.ErrSecret). Errors of root (outside the
// root, invalid path, too large, ...) are returned unchanged.
func (j *Journal) Capture(root *security.Root, paths ...string) ([]Before, error) {
	var out []Before
	err := j.locked(func() error {
		var err error
		out, err = j.capture(root, paths)
		return err
	})
	return out, err
}

// capture is Capture with the lock held.
func (j *Journal) capture(root *security.Root, paths []string) ([]Before, error) {
	seen := make(map[string]bool, len(paths))
	out := make([]Before, 0, len(paths))
	for _, p := range paths {
		canon, err := canonical(root, p)
		if err != nil {
			return nil, err
		}
		if seen[canon] {
			continue
		}
		seen[canon] = true
		b, err := j.captureOne(root, canon)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// canonical returns the canonical path of name through root. Unlike root.Resolve it
// accepts missing parent directories (a file the change will create in a new directory):
// the deepest existing ancestor is resolved and the missing components appended.
func canonical(root *security.Root, name string) (string, error) {
	canon, err := root.Resolve(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return canon, err
	}
	clean, cerr := root.Clean(name)
	if cerr != nil {
		return "", cerr
	}
	dir, base := path.Split(strings.TrimSuffix(clean, "/"))
	if dir == "" || base == ".." {
		return "", err
	}
	parent, perr := canonical(root, dir)
	if perr != nil {
		return "", perr
	}
	if parent == "." {
		return base, nil
	}
	return parent + "/" + base, nil
}

// captureOne records the state of one canonical path.
func (j *Journal) captureOne(root *security.Root, canon string) (Before, error) {
	const op = "capture"
	if canon == "." {
		return Before{}, &fs.PathError{Op: op, Path: canon, Err: security.ErrIsDir}
	}
	if root.IsSecret(canon) {
		return Before{}, &fs.PathError{Op: op, Path: canon, Err: security.ErrSecret}
	}
	st, data, err := observe(root, canon)
	if err != nil {
		return Before{}, err
	}
	if !st.Exists {
		return Before{Path: canon}, nil
	}
	if data == nil {
		kind := security.ErrNotRegular
		if st.Mode.IsDir() {
			kind = security.ErrIsDir
		}
		return Before{}, &fs.PathError{Op: op, Path: canon, Err: kind}
	}
	if err := j.storeBlob(st.SHA256, data); err != nil {
		return Before{}, fmt.Errorf("journal: store %s: %w", canon, err)
	}
	return Before{Path: canon, Exists: true, Mode: st.Mode, Blob: st.SHA256}, nil
}

// state is the observed state of one file: its After record, and for a regular file its
// Version (for compare-and-swap writes).
type state struct {
	After
	version security.Version
}

// observe reads the state of the canonical path through root. For a regular file it
// returns its content too; for anything else that exists (directory, symlink, FIFO, ...)
// data is nil and the state's Mode holds the type bits.
func observe(root *security.Root, canon string) (state, []byte, error) {
	info, err := root.Lstat(canon)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return state{After: After{Path: canon}}, nil, nil
	case err != nil:
		return state{}, nil, err
	case !info.Mode().IsRegular():
		return state{After: After{Path: canon, Exists: true, Mode: info.Mode().Type() | info.Mode().Perm()}}, nil, nil
	}
	f, err := root.ReadFile(canon)
	if err != nil {
		return state{}, nil, err
	}
	st := state{
		After:   After{Path: canon, Exists: true, SHA256: hashOf(f.Data), Mode: f.Version.Mode.Perm()},
		version: f.Version,
	}
	return st, f.Data, nil
}

// hashOf returns the lowercase hex sha256 of data: the blob name of that content.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// storeBlob stores data under its hash unless it is already there; a reused blob's
// modification time is refreshed so that Prune's grace period protects it until Commit.
func (j *Journal) storeBlob(sum string, data []byte) error {
	p := j.blobPath(sum)
	if info, err := os.Stat(p); err == nil && info.Size() == int64(len(data)) {
		now := j.now()
		return os.Chtimes(p, now, now)
	}
	return writeAtomic(j.blobsDir(), sum, data)
}

// loadBlob reads a blob and checks it against its name.
func (j *Journal) loadBlob(sum string) ([]byte, error) {
	data, err := os.ReadFile(j.blobPath(sum))
	if err != nil {
		return nil, err
	}
	if hashOf(data) != sum {
		return nil, fmt.Errorf("blob %s is corrupt", sum)
	}
	return data, nil
}

// Commit records a change set once it is done: it reads the after-state of the paths of
// before through root and writes the entry (atomically: temp file + rename). The returned
// entry's ID is the key results carry (with BackupPath) to undo the change later. Commit
// fails, recording nothing, when a blob of before is missing from the journal.
func (j *Journal) Commit(root *security.Root, tool, summary string, before []Before) (Entry, error) {
	var e Entry
	err := j.locked(func() error {
		var err error
		e, err = j.commit(root, Entry{Tool: tool, Summary: summary, Before: before})
		return err
	})
	return e, err
}

// commit completes e (ID unless set, time, After, the journal's origin unless set) and
// writes it, with the lock held.
func (j *Journal) commit(root *security.Root, e Entry) (Entry, error) {
	if len(e.Before) == 0 {
		return Entry{}, errors.New("journal: commit: no files captured")
	}
	if e.Origin == (Origin{}) {
		e.Origin = j.origin
	}
	e.After = make([]After, 0, len(e.Before))
	for _, b := range e.Before {
		if b.Exists {
			if !validBlob(b.Blob) {
				return Entry{}, fmt.Errorf("journal: commit: %s: invalid blob name %q", b.Path, b.Blob)
			}
			if _, err := os.Stat(j.blobPath(b.Blob)); err != nil {
				return Entry{}, fmt.Errorf("journal: commit: blob of %s missing (capture it with Capture): %w", b.Path, fs.ErrNotExist)
			}
		}
		st, _, err := observe(root, b.Path)
		if err != nil {
			return Entry{}, fmt.Errorf("journal: commit: %w", err)
		}
		e.After = append(e.After, st.After)
	}
	if e.ID == "" {
		id, t, err := j.newID(j.now())
		if err != nil {
			return Entry{}, fmt.Errorf("journal: commit: %w", err)
		}
		e.ID, e.Time = id, t
	} else {
		e.Time = j.now().UTC() // a pending change set keeps the ID Begin gave it
	}
	if err := j.writeEntry(e); err != nil {
		return Entry{}, fmt.Errorf("journal: commit: %w", err)
	}
	return e, nil
}

// validBlob reports whether s is a blob name: 64 lowercase hex digits.
func validBlob(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
