// Package store is Forge's artifact store: the specs, tasks, DAG, task states, events,
// walkthroughs, subtasks and change requests of one run, kept under
// artifacts/<runId>/ in a project root (seed 002, sections 4 to 8).
//
// Every file access goes through a *security.Root and every write is an atomic replace,
// so a reader never sees half an artifact. The task states live in state.json, a snapshot
// of events.ndjson, which is the record: a transition is appended to the events first and
// the snapshot written second, and Open replays the events the snapshot has not seen.
//
// A Run is safe for concurrent use by goroutines of one process; two processes must not
// write the same run at the same time (there is no file lock), with one exception that
// Halted documents.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// artifactsDir is the root-relative directory holding one subdirectory per run.
const artifactsDir = "artifacts"

// Run is the artifact store of one Forge run.
type Run struct {
	root *security.Root
	id   string

	mu    sync.Mutex // serialises the writes of events.ndjson and state.json and guards state
	state runState
}

// New creates the run runID (artifacts/<runID>/ with an empty state) and returns it;
// an existing run is a ConflictError, since two runs must not share their artifacts.
func New(root *security.Root, runID string) (*Run, error) {
	if err := checkName("runId", runID); err != nil {
		return nil, err
	}
	r := &Run{root: root, id: runID, state: newRunState()}
	dir := r.path()
	if _, err := root.Lstat(dir); err == nil {
		return nil, definitions.NewError(definitions.ConflictError, "run %s exists", runID).
			With("runId", runID).With("path", dir).Hint("open it with store.Open, or pick another run id")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, ioError(err, "run "+runID, dir, "")
	}
	if err := root.MkdirAll(dir); err != nil {
		return nil, ioError(err, "run "+runID, dir, "")
	}
	if err := r.saveState(); err != nil {
		return nil, err
	}
	return r, nil
}

// Open opens the existing run runID, loading its state and replaying the events its
// state file has not recorded (after a crash between the two writes, or when state.json
// was lost or damaged).
func Open(root *security.Root, runID string) (*Run, error) {
	if err := checkName("runId", runID); err != nil {
		return nil, err
	}
	r := &Run{root: root, id: runID}
	dir := r.path()
	info, err := root.Stat(dir)
	if err != nil {
		return nil, ioError(err, "run "+runID, dir, "create it with store.New")
	}
	if !info.IsDir() {
		return nil, definitions.NewError(definitions.FileError, "run %s is not a directory", runID).With("path", dir)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.reload(); err != nil {
		return nil, err
	}
	return r, nil
}

// Runs lists the ids of the runs under artifacts/, in name order (which NewRunID makes
// chronological); no artifacts directory means no runs.
func Runs(root *security.Root) ([]string, error) {
	entries, err := root.ReadDir(artifactsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(err, "the artifacts directory", artifactsDir, "")
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && checkName("runId", e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// NewRunID returns a fresh run id that sorts by creation time: the UTC time to the second
// and six random hex digits, e.g. "20261127-074512-a1b2c3".
func NewRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it panics if the OS cannot supply randomness)
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// ID returns the run's id.
func (r *Run) ID() string { return r.id }

// path returns the root-relative slash path of parts inside the run's directory.
func (r *Run) path(parts ...string) string {
	return path.Join(append([]string{artifactsDir, r.id}, parts...)...)
}
