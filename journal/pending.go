package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/jido-run/jido/security"
)

// Pending is a change set in progress. Its before-state is stored and recorded in
// pending/<id>.json before the first write, and the record stays flock'ed by this
// process until Commit or Abort; if the process dies in between, Recover (run when the
// next session opens the journal) puts every file back, so a change set of several files
// (a plan apply) lands whole or not at all.
type Pending struct {
	j      *Journal
	rec    pendingRecord
	record *os.File // the record, flock'ed while the change is in progress
}

// pendingRecord is the content of a pending file.
type pendingRecord struct {
	ID      string   `json:"id"`
	Tool    string   `json:"tool"`
	Summary string   `json:"summary"`
	Before  []Before `json:"before"`
	Origin  Origin   `json:"origin,omitzero"`
	// NewDirs are the missing parent directories of absent files, deepest first: the
	// change may create them, and Recover removes those left empty.
	NewDirs []string `json:"new_dirs,omitempty"`
}

func (j *Journal) pendingDir() string { return filepath.Join(j.dir, "pending") }

// Begin captures the before-state of paths through root (as Capture) and records the
// change set as pending. The caller makes the change, then calls Commit, or Abort if it
// undid the change itself.
func (j *Journal) Begin(root *security.Root, tool, summary string, paths ...string) (*Pending, error) {
	var p *Pending
	err := j.locked(func() error {
		before, err := j.capture(root, paths)
		if err != nil {
			return err
		}
		id, _, err := j.newID(j.now())
		if err != nil {
			return err
		}
		p = &Pending{j: j, rec: pendingRecord{ID: id, Tool: tool, Summary: summary, Before: before, Origin: j.origin, NewDirs: missingDirs(root, before)}}
		return p.write()
	})
	if err != nil {
		return nil, fmt.Errorf("journal: begin: %w", err)
	}
	return p, nil
}

// write stores the record atomically and holds an flock on it; the journal lock is held.
func (p *Pending) write() error {
	dir := p.j.pendingDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(p.rec)
	if err != nil {
		return err
	}
	if err := writeAtomic(dir, p.rec.ID+".json", data); err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(dir, p.rec.ID+".json"))
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return err
	}
	p.record = f
	return nil
}

// Before returns the captured before-state.
func (p *Pending) Before() []Before { return p.rec.Before }

// Commit journals the change set as an Entry (with the ID Begin chose) and drops the
// pending record.
func (p *Pending) Commit(root *security.Root) (Entry, error) {
	var e Entry
	err := p.j.locked(func() error {
		var err error
		if e, err = p.j.commitAs(root, p.rec); err != nil {
			return err
		}
		return p.drop()
	})
	return e, err
}

// Abort drops the pending record of a change the caller has undone itself.
func (p *Pending) Abort() error { return p.j.locked(p.drop) }

// drop removes and unlocks the record; the journal lock is held.
func (p *Pending) drop() error {
	if p.record == nil {
		return nil
	}
	err := os.Remove(p.record.Name())
	p.record.Close()
	p.record = nil
	return err
}

// commitAs writes the entry of a pending change set with its own ID; the lock is held.
func (j *Journal) commitAs(root *security.Root, rec pendingRecord) (Entry, error) {
	e := Entry{ID: rec.ID, Tool: rec.Tool, Summary: rec.Summary, Before: rec.Before, Origin: rec.Origin}
	return j.commit(root, e)
}

// Recover puts back the files of every change set left pending by a process that died
// (its record is not flock'ed any more) and returns their IDs. A record whose entry was
// committed before the crash is only removed.
func (j *Journal) Recover(root *security.Root) ([]string, error) {
	var ids []string
	err := j.locked(func() error {
		des, err := os.ReadDir(j.pendingDir())
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		var errs []error
		for _, de := range des {
			id, ok := strings.CutSuffix(de.Name(), ".json")
			if !ok || !idPattern.MatchString(id) {
				continue // a temporary file: Prune removes it
			}
			done, err := j.recoverOne(root, filepath.Join(j.pendingDir(), de.Name()))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", id, err))
			} else if done {
				ids = append(ids, id)
			}
		}
		return errors.Join(errs...)
	})
	if err != nil {
		return ids, fmt.Errorf("journal: recover: %w", err)
	}
	return ids, nil
}

// recoverOne restores one pending change set unless its process still runs; it reports
// whether files were restored.
func (j *Journal) recoverOne(root *security.Root, name string) (bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false, nil // in progress in a live process
	}
	var rec pendingRecord
	if err := json.NewDecoder(f).Decode(&rec); err != nil {
		return false, os.Remove(name) // torn before the rename: no write had started
	}
	if _, err := os.Stat(j.entryPath(rec.ID)); err == nil {
		return false, os.Remove(name) // committed; the crash came before the record was dropped
	}
	var errs []error
	for _, b := range rec.Before {
		errs = append(errs, root.RemoveTempsOf(b.Path)) // of the writes that died
	}
	if err := errors.Join(append(errs, j.rollback(root, rec.Before))...); err != nil {
		return false, err
	}
	for _, d := range rec.NewDirs {
		root.RemoveEmptyDir(d) // best effort: a directory someone filled stays
	}
	return true, os.Remove(name)
}

// missingDirs lists the parent directories of the absent files of before that do not
// exist, deepest first.
func missingDirs(root *security.Root, before []Before) []string {
	var out []string
	for _, b := range before {
		if b.Exists {
			continue
		}
		for d := path.Dir(b.Path); d != "."; d = path.Dir(d) {
			if _, err := root.Lstat(d); !errors.Is(err, fs.ErrNotExist) || slices.Contains(out, d) {
				break
			}
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	return out
}

// pendingBlobs lists the blobs pending change sets reference; the lock is held.
func (j *Journal) pendingBlobs() []string {
	des, _ := os.ReadDir(j.pendingDir())
	var out []string
	for _, de := range des {
		data, err := os.ReadFile(filepath.Join(j.pendingDir(), de.Name()))
		var rec pendingRecord
		if err != nil || json.Unmarshal(data, &rec) != nil {
			continue
		}
		for _, b := range rec.Before {
			if b.Exists {
				out = append(out, b.Blob)
			}
		}
	}
	return out
}
