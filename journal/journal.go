// Package journal records, for every change set jido makes to a project (one mutating
// tool call, or one plan apply touching several files), the exact before-state of every
// file it touched, so that Undo can put the files back: edits, creations (undo deletes)
// and deletions (undo recreates), content and mode.
//
// The journal of a project lives outside the project root (Dir: the user's state
// directory), so plain os calls are used for it; every access to project files goes
// through security.Root. Layout of a journal directory:
//
//	lock                 flock(2) target serializing jido processes
//	entries/<id>.json    one change set (Entry), written by temp file + rename
//	blobs/<sha256 hex>   content-addressed before-contents, shared by all entries
//
// Every operation holds an in-process mutex and an exclusive flock on lock, so that two
// jido processes working on the same project do not corrupt the journal. Files whose
// name starts with ".tmp-" are leftovers of a crash mid-write: List ignores them and
// Prune removes them.
package journal

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Default limits, applied by Open to zero (or negative) fields of Limits.
const (
	DefaultMaxEntries = 200
	DefaultMaxBytes   = 256 << 20
	DefaultMaxAge     = 30 * 24 * time.Hour
)

// blobGrace protects fresh blobs from Prune: a blob written (or reused) by Capture is not
// referenced by any entry until Commit, possibly in another process, so unreferenced
// blobs younger than this are kept.
const blobGrace = time.Hour

// tempPrefix starts the names of the journal's temporary files.
const tempPrefix = ".tmp-"

// idFormat is the time part of an entry ID: fixed width, so IDs sort by time.
const idFormat = "20060102T150405.000000000Z"

// idPattern matches a complete entry ID: the time and 8 random hex digits.
var idPattern = regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z-[0-9a-f]{8}$`)

// Limits bound what Prune keeps.
type Limits struct {
	MaxEntries int           // number of entries; default 200
	MaxBytes   int64         // entry files plus the blobs they reference; default 256 MiB
	MaxAge     time.Duration // age of an entry; default 30 days
}

// Before is the state of one file before a change: captured with Capture.
type Before struct {
	Path   string      `json:"path"` // canonical root-relative
	Exists bool        `json:"exists"`
	Mode   fs.FileMode `json:"mode,omitempty"` // permission bits, when Exists
	Blob   string      `json:"blob,omitempty"` // content-addressed blob (sha256 hex) in the journal, when Exists
}

// After is the state of one file right after a change, kept to detect later changes
// before an undo. Mode holds the permission bits of a regular file; for anything else
// that exists (a directory, a symlink) it holds the type bits too and SHA256 is empty.
type After struct {
	Path   string      `json:"path"`
	Exists bool        `json:"exists"`
	SHA256 string      `json:"sha256,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
}

// Origin says who made a change set: the manager session that ran the tool, and the
// conversation it belongs to (a chat's transcript id, which outlives the sessions a chat
// opens as it enters and leaves plan mode; the session id when the chat names none).
// Entries journaled before origins were recorded have neither.
type Origin struct {
	Session      string `json:"session,omitempty"`
	Conversation string `json:"conversation,omitempty"`
}

// Entry is one journaled change set.
type Entry struct {
	ID      string    `json:"id"` // sortable: time-based, unique
	Time    time.Time `json:"time"`
	Tool    string    `json:"tool"`    // e.g. "edit_file", "plan_apply", "undo"
	Summary string    `json:"summary"` // e.g. "edit_file src/a.go"
	Origin            // the session (and conversation) that made the change
	Before  []Before  `json:"before,omitempty"`
	After   []After   `json:"after,omitempty"` // the state right after the change, for the conflict check
	// Undoes is, for an entry of tool "undo", the ID of the entry it undid.
	Undoes string `json:"undoes,omitempty"`
	// Undone and UndoneBy mark an entry whose change was undone, by the undo entry UndoneBy.
	// Undoing that undo entry (a redo) clears them again.
	Undone   bool   `json:"undone,omitempty"`
	UndoneBy string `json:"undone_by,omitempty"`
}

// Journal stores the change sets of one project in a directory outside its root.
// It is safe for concurrent use; separate processes (or separate Journals on the same
// directory) are serialized by an flock on dir/lock.
//
// A Journal made by WithOrigin is a view of the one Open returned: it shares its store and
// lock, records its Origin in every change set it commits, and its Undo("") undoes only
// the change sets of its conversation.
type Journal struct {
	*store
	origin Origin
	view   bool // made by WithOrigin: Close leaves the store open
}

// store is the state a journal shares with its views.
type store struct {
	dir    string
	limits Limits
	mu     sync.Mutex
	lock   *os.File

	now   func() time.Time // the clock; replaced by tests
	grace time.Duration    // blobGrace; replaced by tests
}

// Dir returns the default journal directory for a project root:
// $XDG_STATE_HOME/jido/journal/<first 16 hex digits of sha256(root)>, with
// ~/.local/state when XDG_STATE_HOME is unset or relative. root is made absolute and,
// when it exists, symlink-free, so that every spelling of a project shares one journal.
func Dir(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	state := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(state) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("journal: no state directory: %w", err)
		}
		state = filepath.Join(home, ".local", "state")
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(state, "jido", "journal", hex.EncodeToString(sum[:])[:16]), nil
}

// Open opens (creating it if needed, mode 0700) the journal directory dir. Zero fields
// of limits take their defaults. Close releases the lock file.
func Open(dir string, limits Limits) (*Journal, error) {
	if limits.MaxEntries <= 0 {
		limits.MaxEntries = DefaultMaxEntries
	}
	if limits.MaxBytes <= 0 {
		limits.MaxBytes = DefaultMaxBytes
	}
	if limits.MaxAge <= 0 {
		limits.MaxAge = DefaultMaxAge
	}
	for _, d := range []string{dir, filepath.Join(dir, "entries"), filepath.Join(dir, "blobs")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{store: &store{dir: dir, limits: limits, lock: lock, now: time.Now, grace: blobGrace}}, nil
}

// WithOrigin returns a view of j that records o as the origin of the change sets it
// commits (Capture+Commit, Begin+Commit, Undo) and whose Undo("") picks among the change
// sets of o.Conversation only (of o.Session when o names no conversation). A nil j gives
// nil. Closing a view does nothing; close the Journal Open returned.
func (j *Journal) WithOrigin(o Origin) *Journal {
	if j == nil {
		return nil
	}
	if o.Conversation == "" {
		o.Conversation = o.Session
	}
	return &Journal{store: j.store, origin: o, view: true}
}

// Origin returns the origin j records (zero for the Journal Open returned).
func (j *Journal) Origin() Origin { return j.origin }

// Close releases the journal's lock file; the Journal (and its views) must not be used
// afterwards. Closing a view (WithOrigin) does nothing.
func (j *Journal) Close() error {
	if j.view {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lock.Close()
}

// Dir returns the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// locked runs fn holding the in-process mutex and the cross-process flock.
func (j *Journal) locked(fn func() error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for {
		err := syscall.Flock(int(j.lock.Fd()), syscall.LOCK_EX)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EINTR) {
			return fmt.Errorf("journal: lock: %w", err)
		}
	}
	defer syscall.Flock(int(j.lock.Fd()), syscall.LOCK_UN)
	return fn()
}

// BackupPath returns the host path of the blob holding the before-content of path in e,
// for results' backup_path; "" when the file did not exist before the change (or is not
// part of e).
func (j *Journal) BackupPath(e Entry, path string) string {
	for _, b := range e.Before {
		if b.Path == path && b.Exists {
			return j.blobPath(b.Blob)
		}
	}
	return ""
}

// List returns the entries, newest first. Temporary and unreadable entry files (left by
// a crash) are skipped.
func (j *Journal) List() ([]Entry, error) {
	var entries []Entry
	err := j.locked(func() error {
		var err error
		entries, _, err = j.loadEntries()
		return err
	})
	return entries, err
}

// entriesDir and blobsDir are the journal's two stores.
func (j *Journal) entriesDir() string { return filepath.Join(j.dir, "entries") }
func (j *Journal) blobsDir() string   { return filepath.Join(j.dir, "blobs") }

func (j *Journal) entryPath(id string) string {
	return filepath.Join(j.entriesDir(), id+".json")
}

func (j *Journal) blobPath(sum string) string {
	return filepath.Join(j.blobsDir(), sum)
}

// loadEntries reads every entry, newest first; it also returns the names of entry files
// that could not be parsed (for Prune). The caller holds the lock.
func (j *Journal) loadEntries() ([]Entry, []string, error) {
	des, err := os.ReadDir(j.entriesDir())
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	var entries []Entry
	var bad []string
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || !idPattern.MatchString(id) || !de.Type().IsRegular() {
			continue
		}
		e, err := j.readEntry(id)
		if err != nil {
			bad = append(bad, de.Name())
			continue
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b Entry) int { return cmp.Compare(b.ID, a.ID) })
	return entries, bad, nil
}

// readEntry reads and parses one entry file.
func (j *Journal) readEntry(id string) (Entry, error) {
	data, err := os.ReadFile(j.entryPath(id))
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return Entry{}, fmt.Errorf("entry %s: %w", id, err)
	}
	if e.ID != id {
		return Entry{}, fmt.Errorf("entry %s: holds id %q", id, e.ID)
	}
	return e, nil
}

// writeEntry stores e atomically (new or replacing its previous version).
func (j *Journal) writeEntry(e Entry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(j.entriesDir(), e.ID+".json", data)
}

// newID returns a fresh entry ID for time t, greater than every existing ID (so that
// List's order is the order of the commits even if the clock steps back). The caller
// holds the lock.
func (j *Journal) newID(t time.Time) (string, time.Time, error) {
	des, err := os.ReadDir(j.entriesDir())
	if err != nil {
		return "", time.Time{}, err
	}
	t = t.UTC()
	for i := len(des) - 1; i >= 0; i-- {
		id, ok := strings.CutSuffix(des[i].Name(), ".json")
		if !ok || !idPattern.MatchString(id) {
			continue
		}
		last, err := time.Parse(idFormat, id[:len(idFormat)])
		if err == nil && !t.After(last) {
			t = last.Add(time.Nanosecond)
		}
		break
	}
	return t.Format(idFormat) + "-" + randomHex(4), t, nil
}

// randomHex returns 2n random lowercase hex digits.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// writeAtomic writes data to dir/name through a synced temporary file renamed over it,
// then syncs dir, so a crash leaves the old file, the new one, or a stray temporary file.
func writeAtomic(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// validID reports whether id has the form of an entry ID (and so is a safe file name).
func validID(id string) bool { return idPattern.MatchString(id) }

// BeforeContent returns the content b recorded (nil for a file that did not exist).
func (j *Journal) BeforeContent(b Before) ([]byte, error) {
	if !b.Exists {
		return nil, nil
	}
	if !validBlob(b.Blob) {
		return nil, fmt.Errorf("journal: %s: invalid blob name %q", b.Path, b.Blob)
	}
	return j.loadBlob(b.Blob)
}
