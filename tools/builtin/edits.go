package builtin

import (
	"context"
	"fmt"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/tools/definitions"
)

// EditFile replaces old_string with new_string in a file the session has read, with the
// matching strategies of package edit; an empty old_string creates a missing file.
func (f *Files) EditFile(ctx context.Context, p definitions.EditFileParams) (*definitions.EditFileResult, error) {
	cs := newChangeSet(f, p.Force)
	fc, err := cs.file(p.Path)
	if err != nil {
		return nil, err
	}
	res, err := applyText(fc, definitions.EditOp{OldString: &p.OldString, NewString: &p.NewString, ReplaceAll: p.ReplaceAll})
	if err != nil {
		return nil, err
	}
	if !p.DryRun {
		if err := cs.commit(ctx); err != nil {
			return nil, err
		}
	}
	return &definitions.EditFileResult{FileDiff: fc.diff(), Strategy: res.Strategy, Replacements: res.Replacements, DryRun: p.DryRun}, nil
}

// EditRegion replaces a line range of a file the session has read.
func (f *Files) EditRegion(ctx context.Context, p definitions.EditRegionParams) (*definitions.EditRegionResult, error) {
	cs := newChangeSet(f, p.Force)
	fc, err := cs.file(p.Path)
	if err != nil {
		return nil, err
	}
	op := definitions.EditOp{StartLine: p.StartLine, EndLine: p.EndLine, NewContent: &p.NewContent, Expected: p.Expected}
	if err := applyRange(fc, op); err != nil {
		return nil, err
	}
	if !p.DryRun {
		if err := cs.commit(ctx); err != nil {
			return nil, err
		}
	}
	return &definitions.EditRegionResult{FileDiff: fc.diff(), StartLine: p.StartLine, EndLine: p.EndLine, Changed: fc.after != fc.before, DryRun: p.DryRun}, nil
}

// MultiEdit applies edits in order, to one file or several, all or nothing unless
// stop_on_error is false, in which case a failing edit is skipped and reported.
func (f *Files) MultiEdit(ctx context.Context, p definitions.MultiEditParams) (*definitions.MultiEditResult, error) {
	if len(p.Edits) == 0 {
		return nil, definitions.NewError(definitions.ValidationError, "multi_edit: edits is empty").
			With("field", "edits").Hint("Pass at least one edit")
	}
	cs := newChangeSet(f, p.Force)
	res := &definitions.MultiEditResult{DryRun: p.DryRun, Files: []definitions.FileDiff{}, Details: make([]definitions.EditOutcome, 0, len(p.Edits))}
	for i, op := range p.Edits {
		if err := ctx.Err(); err != nil {
			return nil, err // a long list of edits must not outlive the call's deadline
		}
		out, err := applyOp(cs, p.Path, op)
		out.Index = i
		if err != nil {
			terr := toolError(err)
			if p.StopOnError {
				terr.Message = fmt.Sprintf("edit %d%s: %s; no edit was applied", i, inFile(out.Path), terr.Message)
				return nil, terr.With("edit_index", i)
			}
			out.Error = terr
			res.Skipped++
		} else {
			out.OK = true
			res.Applied++
		}
		res.Details = append(res.Details, out)
	}
	if !p.DryRun && res.Applied > 0 {
		if err := cs.commit(ctx); err != nil {
			return nil, err
		}
	}
	for _, fc := range cs.order {
		if fc.after != fc.before {
			res.Files = append(res.Files, fc.diff())
		}
	}
	return res, nil
}

// inFile names a file in a message, if there is one.
func inFile(path string) string {
	if path == "" {
		return ""
	}
	return " (" + path + ")"
}

// applyOp applies one edit of multi_edit to its file in the change set. In best-effort mode a
// failed edit leaves the file as it was before that edit.
func applyOp(cs *changeSet, defaultPath string, op definitions.EditOp) (definitions.EditOutcome, error) {
	path := op.Path
	if path == "" {
		path = defaultPath
	}
	out := definitions.EditOutcome{Path: path}
	if path == "" {
		return out, definitions.NewError(definitions.ValidationError, "the edit names no file").
			With("field", "path").Hint("Give path at the top level or in the edit")
	}
	fc, err := cs.file(path)
	if err != nil {
		return out, err
	}
	out.Path = fc.path
	before, spans, edits := fc.after, fc.spans, fc.edits
	switch {
	case op.StartLine > 0 && op.NewContent != nil && op.OldString == nil && op.NewString == nil:
		err = applyRange(fc, op)
	case op.OldString != nil && op.NewString != nil && op.StartLine == 0 && op.NewContent == nil && op.Expected == nil:
		var r edit.Result
		if r, err = applyText(fc, op); err == nil {
			out.Strategy, out.Replacements = r.Strategy, r.Replacements
		}
	default:
		err = definitions.NewError(definitions.ValidationError, "an edit is either old_string and new_string, or start_line, end_line and new_content (with optional expected)").
			Hint("Give exactly one of the two forms in each edit")
	}
	if err != nil {
		fc.after, fc.spans, fc.edits = before, spans, edits
	}
	return out, err
}

// applyText applies a text edit to the planned content of fc.
func applyText(fc *fileChange, op definitions.EditOp) (edit.Result, error) {
	if !fc.exists && *op.OldString != "" {
		return edit.Result{}, definitions.NewError(definitions.FileError, "%s does not exist", fc.path).With("path", fc.path).
			Hint("Check the path with list_dir or glob; to create the file, give an empty old_string")
	}
	r, err := edit.Apply(fc.after, edit.Request{OldString: *op.OldString, NewString: *op.NewString, ReplaceAll: op.ReplaceAll})
	if err != nil {
		return r, editError(fc.path, err, textHints)
	}
	fc.after, fc.spans, fc.edits = r.Content, r.Edits, fc.edits+1
	return r, nil
}

// applyRange applies a line-range edit to the planned content of fc.
func applyRange(fc *fileChange, op definitions.EditOp) error {
	if !fc.exists {
		return definitions.NewError(definitions.FileError, "%s does not exist", fc.path).With("path", fc.path).
			Hint("Create it with write_file, or with edit_file and an empty old_string")
	}
	r, err := edit.ApplyRange(fc.after, edit.RangeRequest{StartLine: op.StartLine, EndLine: op.EndLine, NewContent: *op.NewContent, Expected: op.Expected})
	if err != nil {
		return editError(fc.path, err, rangeHints)
	}
	fc.after, fc.spans, fc.edits = r.Content, r.Edits, fc.edits+1
	return nil
}

// editError is edit's tool error of a refused edit of the file at path.
func editError(path string, err error, hints map[edit.ErrorKind][]string) error {
	terr := edit.ToolError(err, hints)
	if te, ok := terr.(*definitions.ToolError); ok {
		te.With("path", path)
	}
	return terr
}

// textHints tell the model how to recover from each kind of failed text edit.
var textHints = map[edit.ErrorKind][]string{
	edit.NotFound:  {"Read the file again and copy old_string from it exactly, with enough lines to be unique", "details.closest shows the nearest text in the file"},
	edit.Ambiguous: {"Add surrounding lines to old_string so that it matches once", "Or set replace_all: true to replace every occurrence"},
	edit.NoChange:  {"The edit changes nothing: give the new text in new_string (or new_content)"},
	edit.Invalid:   {"Check the edit's arguments against the tool's description"},
}

// rangeHints tell the model how to recover from each kind of failed line-range edit.
var rangeHints = map[edit.ErrorKind][]string{
	edit.NotFound: {"The lines changed since you read them: read them again and retry with what they hold now"},
	edit.NoChange: {"The edit changes nothing: give the new lines in new_content"},
	edit.Invalid:  {"Give 1 <= start_line <= end_line + 1 and end_line <= the number of lines (read_file gives total_lines)"},
}
