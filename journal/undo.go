package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jido-run/jido/security"
)

// Errors of Undo; each is returned wrapped, with the entry and paths concerned.
var (
	// ErrConflict: a file differs from the entry's After state and force is false;
	// nothing was changed.
	ErrConflict = errors.New("files changed since the change")
	// ErrNothingToUndo: Undo("") found no entry that is not undone yet.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrAlreadyUndone: the entry was undone already; undo its undo entry to redo it.
	ErrAlreadyUndone = errors.New("change already undone")
)

// UndoResult says what undo did.
type UndoResult struct {
	ID        string   `json:"id"`                  // the entry undone
	UndoID    string   `json:"undo_id,omitempty"`   // the entry journaling the undo (undo it to redo)
	Restored  []string `json:"restored"`            // files written back
	Deleted   []string `json:"deleted"`             // files the change had created, removed
	Conflicts []string `json:"conflicts,omitempty"` // files changed since the change (only when refused, or listed when forced)
}

// Undo restores the files of entry id ("" = the newest entry not yet undone) through root
// to their Before state: content and mode, deleted if they did not exist, recreated
// (with missing parent directories) if they were deleted.
//
// Every file is first compared with the entry's After state; if any differs and force
// is false, Undo changes nothing and returns the conflicting paths in the result and in an
// error wrapping ErrConflict. Otherwise the current state of the files is captured and the
// files are restored one by one; if one fails, those already restored are put back to the
// captured state (all-or-nothing as far as the file system allows).
//
// The undo is itself journaled as a new entry of tool "undo" (UndoResult.UndoID), so it
// can be undone in turn (a redo), and the undone entry is marked Undone. Undo("") thus
// alternates between undoing and redoing the newest change; an explicit id reaches older
// ones. Undoing an undo entry clears the Undone mark of the entry it had undone.
func (j *Journal) Undo(root *security.Root, id string, force bool) (*UndoResult, error) {
	var res *UndoResult
	err := j.locked(func() error {
		var err error
		res, err = j.undo(root, id, force)
		return err
	})
	return res, err
}

// Pick returns the change set Undo(root, id, ...) would undo now, or Undo's error for it
// (ErrNothingToUndo, ErrAlreadyUndone, a missing entry): for showing it before the undo.
func (j *Journal) Pick(id string) (Entry, error) {
	var e Entry
	err := j.locked(func() error {
		var err error
		e, err = j.pick(id)
		return err
	})
	return e, err
}

// undo is Undo with the lock held.
func (j *Journal) undo(root *security.Root, id string, force bool) (*UndoResult, error) {
	e, err := j.pick(id)
	if err != nil {
		return nil, err
	}
	fail := func(err error) error { return fmt.Errorf("journal: undo %s: %w", e.ID, err) }
	res := &UndoResult{ID: e.ID, Restored: []string{}, Deleted: []string{}}

	wants, err := j.loadBefore(e.Before)
	if err != nil {
		return nil, fail(err)
	}
	conflicts, err := conflictsOf(root, e)
	if err != nil {
		return nil, fail(err)
	}
	res.Conflicts = conflicts
	if len(conflicts) > 0 && !force {
		return res, fail(fmt.Errorf("%w: %s", ErrConflict, strings.Join(conflicts, ", ")))
	}

	paths := make([]string, len(e.Before))
	for i, b := range e.Before {
		paths[i] = b.Path
	}
	current, err := j.capture(root, paths)
	if err != nil {
		return nil, fail(fmt.Errorf("capture the current state: %w", err))
	}
	for i, b := range e.Before {
		did, err := restore(root, b, wants[i])
		if err != nil {
			return nil, fail(errors.Join(err, j.rollback(root, current)))
		}
		switch did {
		case restored:
			res.Restored = append(res.Restored, b.Path)
		case deleted:
			res.Deleted = append(res.Deleted, b.Path)
		}
	}

	u, err := j.commit(root, Entry{Tool: "undo", Summary: "undo " + e.ID + ": " + e.Summary, Before: current, Undoes: e.ID})
	if err != nil {
		return res, fail(fmt.Errorf("files restored, but the undo was not journaled: %w", err))
	}
	res.UndoID = u.ID
	e.Undone, e.UndoneBy = true, u.ID
	if err := j.writeEntry(e); err != nil {
		return res, fail(fmt.Errorf("files restored, but the entry was not marked undone: %w", err))
	}
	if e.Undoes != "" {
		// A redo: the change e had undone is in effect again.
		if x, err := j.readEntry(e.Undoes); err == nil && x.UndoneBy == e.ID {
			x.Undone, x.UndoneBy = false, ""
			if err := j.writeEntry(x); err != nil {
				return res, fail(err)
			}
		}
	}
	return res, nil
}

// pick returns the entry to undo: id, or when id is "" the newest entry not undone (of
// the view's conversation, for a view made by WithOrigin).
func (j *Journal) pick(id string) (Entry, error) {
	if id == "" {
		entries, _, err := j.loadEntries()
		if err != nil {
			return Entry{}, err
		}
		mine := func(Entry) bool { return true }
		if j.view {
			mine = func(e Entry) bool { return e.Conversation == j.origin.Conversation }
		}
		if e, ok := Last(entries, mine); ok {
			return e, nil
		}
		if j.view {
			return Entry{}, fmt.Errorf("journal: %w of this conversation (%s)", ErrNothingToUndo, j.origin.Conversation)
		}
		return Entry{}, fmt.Errorf("journal: %w", ErrNothingToUndo)
	}
	if !validID(id) {
		return Entry{}, fmt.Errorf("journal: no entry %q: %w", id, fs.ErrNotExist)
	}
	e, err := j.readEntry(id)
	if err != nil {
		return Entry{}, fmt.Errorf("journal: entry %s: %w", id, err)
	}
	if e.Undone {
		return Entry{}, fmt.Errorf("journal: entry %s was undone by %s: %w", id, e.UndoneBy, ErrAlreadyUndone)
	}
	return e, nil
}

// Last returns the change set Undo("") undoes among entries (newest first, as List returns
// them) that keep holds for: the newest one not undone yet, skipping undo entries, so that
// repeated undos walk back through the history (redo is undoing an undo entry by its id).
func Last(entries []Entry, keep func(Entry) bool) (Entry, bool) {
	for _, e := range entries {
		if !e.Undone && e.Undoes == "" && keep(e) {
			return e, true
		}
	}
	return Entry{}, false
}

// LastOfLatestSession returns the change set an undo that names neither a change nor a
// conversation undoes (`jido undo`): the newest one not undone of the most recent session
// that changed anything and still has something to undo. Sessions are ordered by their
// newest change set (undo entries aside), so repeated undos take back what the last
// session did, newest first, before they reach an older session's changes, even when
// sessions interleaved. Change sets journaled before origins were recorded count as one
// session, "".
func LastOfLatestSession(entries []Entry) (Entry, bool) {
	var sessions []string
	for _, e := range entries {
		if e.Undoes == "" && !slices.Contains(sessions, e.Session) {
			sessions = append(sessions, e.Session)
		}
	}
	for _, s := range sessions {
		if e, ok := Last(entries, func(e Entry) bool { return e.Session == s }); ok {
			return e, true
		}
	}
	return Entry{}, false
}

// Effect is what undoing e does to its files: those it writes back (edited or deleted by
// the change) and those it deletes (created by the change), in e's order.
func (e Entry) Effect() (restores, deletes []string) {
	for _, b := range e.Before {
		if b.Exists {
			restores = append(restores, b.Path)
		} else {
			deletes = append(deletes, b.Path)
		}
	}
	return restores, deletes
}

// Files lists the files of e, in its order.
func (e Entry) Files() []string {
	out := make([]string, len(e.Before))
	for i, b := range e.Before {
		out[i] = b.Path
	}
	return out
}

// DescribeUndo says in one line what undoing e does, naming every file:
// "undo change <id> (edit_file a.go): restores a.go; deletes new.txt".
func (e Entry) DescribeUndo() string {
	restores, deletes := e.Effect()
	var parts []string
	if len(restores) > 0 {
		parts = append(parts, "restores "+strings.Join(restores, ", "))
	}
	if len(deletes) > 0 {
		parts = append(parts, "deletes "+strings.Join(deletes, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "no files")
	}
	return fmt.Sprintf("undo change %s (%s): %s", e.ID, e.Summary, strings.Join(parts, "; "))
}

// loadBefore reads the before-contents of bs (nil for absent files), checking every blob.
func (j *Journal) loadBefore(bs []Before) ([][]byte, error) {
	out := make([][]byte, len(bs))
	for i, b := range bs {
		data, err := j.BeforeContent(b)
		if err != nil {
			return nil, fmt.Errorf("before-content of %s: %w", b.Path, err)
		}
		out[i] = data
	}
	return out, nil
}

// conflictsOf lists the files of e whose current state differs from e's After state.
func conflictsOf(root *security.Root, e Entry) ([]string, error) {
	after := make(map[string]After, len(e.After))
	for _, a := range e.After {
		after[a.Path] = a
	}
	var conflicts []string
	for _, b := range e.Before {
		cur, _, err := observe(root, b.Path)
		if err != nil {
			return nil, err
		}
		if cur.After != after[b.Path] {
			conflicts = append(conflicts, b.Path)
		}
	}
	return conflicts, nil
}

// rollback puts the files of states (captured just before the undo) back after a failed
// undo; files the undo did not reach are already in that state and left alone. It returns the errors of the files it could not restore.
func (j *Journal) rollback(root *security.Root, states []Before) error {
	var errs []error
	for _, s := range states {
		var data []byte
		if s.Exists {
			var err error
			if data, err = j.loadBlob(s.Blob); err != nil {
				errs = append(errs, fmt.Errorf("rollback %s: %w", s.Path, err))
				continue
			}
		}
		if _, err := restore(root, s, data); err != nil {
			errs = append(errs, fmt.Errorf("rollback %s: %w", s.Path, err))
		}
	}
	return errors.Join(errs...)
}

// What restore did to a file.
type action int

const (
	unchanged action = iota
	restored
	deleted
)

// restore puts the file of b back to b's state (data: its content) through root.
// Content changes of a file that keeps its mode are compare-and-swap writes against the
// state just read; a file whose mode (or type) must change is replaced by a fresh
// temporary file of the right mode renamed over it, since root has no chmod.
func restore(root *security.Root, b Before, data []byte) (action, error) {
	cur, _, err := observe(root, b.Path)
	if err != nil {
		return unchanged, err
	}
	if !b.Exists {
		if !cur.Exists {
			return unchanged, nil
		}
		return deleted, root.Remove(b.Path, false)
	}
	switch {
	case cur.Exists && cur.SHA256 == b.Blob && cur.Mode == b.Mode:
		return unchanged, nil
	case !cur.Exists:
		_, _, err = root.WriteFile(b.Path, data, security.WriteOptions{Perm: b.Mode, MustNotExist: true})
	case cur.SHA256 != "" && cur.Mode == b.Mode:
		_, _, err = root.WriteFile(b.Path, data, security.WriteOptions{Expect: &cur.version})
	default:
		err = replaceWithMode(root, b.Path, data, b.Mode)
	}
	return restored, err
}

// replaceWithMode atomically replaces the canonical path with a new file of the given
// mode and content: written under a temporary sibling name (one security.SweepTemps
// recognizes) and renamed over the target.
func replaceWithMode(root *security.Root, canon string, data []byte, mode fs.FileMode) error {
	dir, base := path.Split(canon)
	tmp := dir + tempSibling(base)
	if _, _, err := root.WriteFile(tmp, data, security.WriteOptions{Perm: mode, MustNotExist: true}); err != nil {
		return err
	}
	if err := root.Rename(tmp, canon, true); err != nil {
		root.Remove(tmp, false)
		return err
	}
	return nil
}

// tempSibling returns a fresh temporary name for base in the form of security's
// temporary files ("." + base + ".tmp-" + 16 hex digits, within 255 bytes).
func tempSibling(base string) string {
	const suffix = ".tmp-"
	keep := 255 - 1 - len(suffix) - 16
	for len(base) > keep {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return "." + base + suffix + randomHex(8)
}
