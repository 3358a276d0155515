package builtin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/tools/definitions"
)

// backedUp is a result that reports its backup (every mutating file tool's).
type backedUp interface{ SetBackup(definitions.Backup) }

// maxJournaledFiles bounds the files one change set captures (a recursive delete or move
// of a large tree is not journaled beyond it, and says so).
const maxJournaledFiles = 2000

// journaled runs fn for a mutating file tool with the before-state of the files it touches
// captured in the session's journal and the change committed after it succeeds.
func journaled[P, R any](ctx context.Context, d Deps, t *definitions.Tool, p P, fn func(context.Context, P) (R, error)) (R, error) {
	if d.Journal == nil || d.Plan != nil || !t.Mutating || t.IsDryRun(p) {
		return fn(ctx, p) // in plan mode, changes reach the disk only through plan_apply
	}
	files, note := d.changedFiles(t, p)
	if files == nil && note == "" {
		return fn(ctx, p)
	}
	var before []journal.Before
	if note == "" {
		var err error
		if before, err = d.Journal.Capture(d.Root, files...); err != nil {
			note = "not journaled: " + err.Error()
		}
	}
	res, err := fn(ctx, p)
	if err != nil {
		return res, err
	}
	b := definitions.Backup{BackupNote: note}
	if note == "" {
		entry, err := d.Journal.Commit(d.Root, t.Name, summary(t.Name, files), before)
		if err != nil {
			b.BackupNote = "not journaled: " + err.Error()
		} else {
			b.ChangeID = entry.ID
			if len(files) > 0 {
				b.BackupPath = d.Journal.BackupPath(entry, before[0].Path)
			}
		}
	}
	if r, ok := any(res).(backedUp); ok {
		r.SetBackup(b)
	}
	return res, nil
}

// summary describes a change set in the journal's listing.
func summary(tool string, files []string) string {
	switch len(files) {
	case 0:
		return tool
	case 1:
		return tool + " " + files[0]
	}
	return fmt.Sprintf("%s %s and %d more", tool, files[0], len(files)-1)
}

// changedFiles lists the canonical files a mutating file tool may change (directories
// expanded to their files; a move's destinations too), or a note saying why the change
// cannot be journaled. Tools that change no file list nothing.
func (d Deps) changedFiles(t *definitions.Tool, p any) ([]string, string) {
	var names []string
	var moves [][2]string
	if m, ok := p.(definitions.MoveFileParams); ok {
		moves = [][2]string{{m.Source, m.Destination}}
	} else {
		names = t.ActedOn(p)
	}
	var files []string
	add := func(name string) string {
		canon, err := d.Root.Resolve(name)
		if errors.Is(err, fs.ErrNotExist) {
			// A file to create under missing directories: Capture canonicalizes it.
			canon, err = d.Root.Clean(name)
		}
		if err != nil {
			return "" // the tool reports the error itself
		}
		if info, err := d.Root.Lstat(canon); err == nil && info.IsDir() {
			_ = fs.WalkDir(d.Root.FS(), canon, func(q string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					files = append(files, q)
				}
				return nil
			})
			return canon
		}
		files = append(files, canon)
		return canon
	}
	for _, n := range names {
		add(n)
	}
	for _, m := range moves {
		n := len(files)
		src := add(m[0])
		dst, err := d.Root.Clean(m[1])
		if err != nil || src == "" {
			continue
		}
		for _, f := range files[n:] {
			files = append(files, path.Join(dst, strings.TrimPrefix(strings.TrimPrefix(f, src), "/")))
		}
		if len(files) == n { // a file: its destination
			files = append(files, dst)
		}
	}
	if len(files) > maxJournaledFiles {
		return nil, fmt.Sprintf("not journaled: the change touches %d files, more than %d", len(files), maxJournaledFiles)
	}
	return dedupe(files), ""
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Changes is the bridge module of undo.
type Changes struct{ Deps }

// UndoResult is the result of undo: what was restored, or the list of change sets.
type UndoResult struct {
	*journal.UndoResult
	Changes []journal.Entry `json:"changes,omitempty"`
}

// Undo restores a change set (by default the last one of the session's conversation:
// journal.Journal.WithOrigin), or lists them all, each with its session and files.
func (c *Changes) Undo(_ context.Context, p definitions.UndoParams) (*UndoResult, error) {
	if c.Journal == nil {
		return nil, definitions.NewError(definitions.PermissionError, "this session keeps no journal of changes, so nothing can be undone").
			Hint("Changes are journaled when the session is opened with a journal (jido does by default)")
	}
	if p.List {
		entries, err := c.Journal.List()
		if err != nil {
			return nil, definitions.NewError(definitions.InternalError, "listing changes: %v", err)
		}
		for i := range entries {
			// The files and whether each existed (what undo restores or deletes), without the
			// journal's internals.
			for k, b := range entries[i].Before {
				entries[i].Before[k] = journal.Before{Path: b.Path, Exists: b.Exists}
			}
			entries[i].After = nil
		}
		return &UndoResult{Changes: entries}, nil
	}
	res, err := c.Journal.Undo(c.Root, p.ChangeID, p.Force)
	switch {
	case errors.Is(err, journal.ErrConflict):
		e := definitions.NewError(definitions.ConflictError, "%v", err).Hint("Files changed since that change: look at them, then pass force: true to undo anyway")
		if res != nil {
			e.With("conflicts", res.Conflicts)
		}
		return nil, e
	case errors.Is(err, journal.ErrNothingToUndo):
		return nil, definitions.NewError(definitions.ValidationError, "%v", err).Hint("list: true shows the change sets")
	case err != nil:
		return nil, definitions.NewError(definitions.FileError, "undo: %v", err).Hint("list: true shows the change sets and their ids")
	}
	return &UndoResult{UndoResult: res}, nil
}

// DescribeUndo names what an undo call would do, for its approval: the files, and one line
// ("undo change <id> (<summary>): restores a.go; deletes new.txt"); for a listing, or when
// j is nil or the change cannot be found, no files and a line that says so.
func DescribeUndo(j *journal.Journal, p definitions.UndoParams) (files []string, text string) {
	switch {
	case p.List:
		return nil, "list the change sets"
	case j == nil:
		return nil, "undo: this session keeps no journal"
	}
	e, err := j.Pick(p.ChangeID)
	if err != nil {
		return nil, fmt.Sprintf("undo %s: %v", cmp.Or(p.ChangeID, "the last change"), err)
	}
	text = e.DescribeUndo()
	if p.Force {
		text += " (forced: even if the files changed since)"
	}
	return e.Files(), text
}
