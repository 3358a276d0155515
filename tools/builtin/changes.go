package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/validate"
)

// fileChange is one file of a change set: the version the session read and what it becomes.
type fileChange struct {
	path    string // canonical
	version security.Version
	exists  bool
	before  string
	after   string
	spans   []edit.Span // edited lines of after, as the only edit applied reported them
	edits   int         // edits applied to the file
	// uncommitted: the file held changes git's index does not have before this one
	uncommitted bool
	deleted     bool // the change removes the file (after is then empty)
}

// changeSet plans edits on files in memory and writes them all or nothing. Each file is read
// once, must have been read before in the session and be unchanged since; the writes expect
// that version (compare-and-swap just before each rename).
type changeSet struct {
	f     *Files
	force bool
	// unread lets it change files the session has not read: every change of an
	// apply_patch names the lines it replaces and the lines around them, which must match
	// the file as it is, so a stale view of the file fails to apply (as in Codex, whose
	// models read files through the shell).
	unread bool
	files  map[string]*fileChange
	order  []*fileChange
}

func newChangeSet(f *Files, force bool) *changeSet {
	return &changeSet{f: f, force: force, files: map[string]*fileChange{}}
}

// file returns the planned state of the named file, loading it on first use.
func (cs *changeSet) file(name string) (*fileChange, error) {
	canon, err := cs.f.Store.Resolve(name)
	if errors.Is(err, fs.ErrNotExist) {
		canon, err = cs.f.Store.Clean(name) // a file to create, in directories to create too
	}
	if err != nil {
		return nil, err
	}
	if fc, ok := cs.files[canon]; ok {
		return fc, nil
	}
	fc, err := cs.load(canon)
	if err != nil {
		return nil, err
	}
	cs.files[canon] = fc
	cs.order = append(cs.order, fc)
	return fc, nil
}

// load reads a file for editing: it must have been read in the session and be unchanged.
// A missing file is allowed (an edit may create it); its before is empty.
func (cs *changeSet) load(canon string) (*fileChange, error) {
	file, err := cs.f.Store.ReadFile(canon)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := cs.f.Store.CheckWrite(canon); err != nil {
			return nil, err // a protected or secret path: said before any parse guard or diff
		}
		return &fileChange{path: canon}, nil
	}
	if err != nil {
		return nil, err
	}
	seen, err := cs.f.seen(file.Path, "edit")
	if err != nil {
		if te, ok := errors.AsType[*definitions.ToolError](err); !ok || te.Type != definitions.ConflictError || !cs.unread {
			return nil, err
		}
		seen = file.Version // not read: the change's own lines are checked against this version
	}
	if info, err := cs.f.Store.Stat(file.Path); err == nil {
		if err := checkWritable(file.Path, info, cs.force); err != nil {
			return nil, err
		}
	}
	if !seen.Equal(file.Version) {
		return nil, changedError(file.Path)
	}
	content := string(file.Data)
	return &fileChange{path: file.Path, version: file.Version, exists: true, before: content, after: content,
		uncommitted: cs.f.uncommitted(file.Path, file.Data)}, nil
}

// check refuses, unless forced, a change that makes a file that parsed stop parsing.
func (cs *changeSet) check(fc *fileChange) error {
	if cs.force {
		return nil
	}
	return parseGuard(fc.path, fc.exists, fc.before, fc.after)
}

// commit validates every changed file, then writes them in order. If a write fails, the
// files written before it are restored to what the session read.
func (cs *changeSet) commit(ctx context.Context) error {
	var changed []*fileChange
	for _, fc := range cs.order {
		if !fc.changes() {
			continue
		}
		if !fc.deleted {
			if err := cs.check(fc); err != nil {
				return err
			}
		}
		changed = append(changed, fc)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	written := make([]security.Version, 0, len(changed))
	for i, fc := range changed {
		var v security.Version
		var err error
		if fc.deleted {
			err = cs.f.Store.Remove(fc.path, false)
		} else {
			opts := security.WriteOptions{MustNotExist: !fc.exists}
			if fc.exists {
				opts.Expect = &fc.version
			}
			_, v, err = cs.f.Store.WriteFile(fc.path, []byte(fc.after), opts)
		}
		if err != nil {
			if rerr := cs.rollback(changed[:i], written); rerr != nil {
				return fmt.Errorf("%w (and restoring the files written before it failed: %v)", err, rerr)
			}
			return err
		}
		written = append(written, v)
	}
	for i, fc := range changed {
		if !fc.deleted {
			cs.f.Reads.Record(fc.path, written[i])
		}
	}
	return nil
}

// rollback restores files written by a commit that failed later: each gets back the content
// the session read, if it is still the version the commit wrote (created files are removed,
// deleted ones written back with their mode).
func (cs *changeSet) rollback(files []*fileChange, versions []security.Version) error {
	var errs []error
	for i, fc := range files {
		switch {
		case fc.deleted:
			_, _, err := cs.f.Store.WriteFile(fc.path, []byte(fc.before), security.WriteOptions{MustNotExist: true, Perm: fc.version.Mode.Perm()})
			errs = append(errs, err)
			continue
		case !fc.exists:
			errs = append(errs, cs.f.Store.Remove(fc.path, false))
			continue
		}
		v := versions[i]
		_, _, err := cs.f.Store.WriteFile(fc.path, []byte(fc.before), security.WriteOptions{Expect: &v})
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// changes reports whether the change set does something to fc: deletes it, creates it,
// or changes its content (a file created and deleted by the same change is left alone).
func (fc *fileChange) changes() bool {
	if fc.deleted {
		return fc.exists
	}
	return !fc.exists || fc.after != fc.before
}

// diff describes what the change does to fc.
func (fc *fileChange) diff() definitions.FileDiff {
	d, added, removed := edit.Diff(fc.path, fc.before, fc.after)
	spans := fc.spans
	if fc.edits > 1 {
		// A later edit moves the lines an earlier one reported: show all that changed instead.
		spans = nil
		if s, ok := edit.Changed(fc.before, fc.after); ok {
			spans = []edit.Span{s}
		}
	}
	return definitions.FileDiff{Path: fc.path, Diff: d, LinesAdded: added, LinesRemoved: removed, Region: edit.Region(fc.after, spans, regionContext),
		UncommittedChanges: fc.uncommitted}
}

// regionContext is how many lines around an edit the result's region shows.
const regionContext = 3

func changedError(path string) error {
	return &fs.PathError{Op: "edit", Path: path, Err: security.ErrChanged}
}

// parseGuard refuses new content that does not parse (Go, JSON, Lua, Lisp, YAML, TOML) where
// the file parsed before (or did not exist); a file that was already broken may stay broken,
// and content the validator declines to parse (over its size or nesting limits) passes.
func parseGuard(path string, existed bool, before, after string) error {
	if validate.Kind(path) == "" {
		return nil
	}
	p := validate.Check(path, []byte(after))
	if p == nil || p.Unchecked || (existed && validate.Check(path, []byte(before)) != nil) {
		return nil // parses, could not be checked (too large or deep), or was broken already
	}
	return definitions.NewError(definitions.ValidationError, "the change would make %s stop parsing: %v", path, p).
		With("path", path).With("line", p.Line).With("column", p.Column).With("kind", p.Kind).
		Hint("Fix the content so that the file still parses", "Pass force: true if the broken state is intended")
}
