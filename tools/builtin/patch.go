package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/patch"
	"github.com/jido-run/jido/tools/definitions"
)

// ApplyPatch applies a patch in Codex's format as one change set: every hunk is found by
// package edit (the same matching and refusals as edit_file), and all files are written,
// or none.
func (f *Files) ApplyPatch(ctx context.Context, p definitions.ApplyPatchParams) (*definitions.ApplyPatchResult, error) {
	ops, err := patch.Parse(p.Input)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "apply_patch: %v", err).
			Hint("Write the patch in Codex's format: *** Begin Patch, file operations, *** End Patch")
	}
	cs := newChangeSet(f, false)
	for _, op := range ops {
		if err := cs.patchFile(op); err != nil {
			return nil, err
		}
	}
	res := &definitions.ApplyPatchResult{DryRun: p.DryRun}
	for _, fc := range cs.order {
		if fc.changes() {
			res.Files = append(res.Files, fc.diff())
		}
	}
	if p.DryRun {
		return res, nil
	}
	if err := cs.commit(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// patchFile plans one file operation of a patch.
func (cs *changeSet) patchFile(op patch.File) error {
	fc, err := cs.file(op.Path)
	if err != nil {
		return err
	}
	present := fc.exists && !fc.deleted || !fc.exists && fc.edits > 0
	switch op.Kind {
	case patch.Add:
		if present {
			return patchError(definitions.ConflictError, op.Path, "*** Add File names a file that exists", "Update it with *** Update File instead")
		}
		fc.after, fc.deleted, fc.edits = linesText(op.Lines), false, fc.edits+1
	case patch.Delete:
		if !present {
			return patchError(definitions.FileError, op.Path, "*** Delete File names a file that does not exist", "Check the path with list_dir or glob")
		}
		fc.after, fc.deleted = "", true
	case patch.Update:
		if !present {
			return patchError(definitions.FileError, op.Path, "*** Update File names a file that does not exist", "Create it with *** Add File")
		}
		content := fc.after
		for i, h := range op.Hunks {
			if content, err = applyHunk(content, h); err != nil {
				return fmt.Errorf("hunk %d of %s: %w", i+1, op.Path, editError(op.Path, err, textHints))
			}
		}
		if op.MoveTo == "" {
			fc.after, fc.edits = content, fc.edits+1
			return nil
		}
		dst, err := cs.file(op.MoveTo)
		if err != nil {
			return err
		}
		if dst.exists && !dst.deleted {
			return patchError(definitions.ConflictError, op.MoveTo, "*** Move to names a file that exists", "Move the file somewhere free, or delete the other first")
		}
		dst.after, dst.deleted, dst.edits = content, false, dst.edits+1
		fc.after, fc.deleted = "", true
	}
	return nil
}

// patchError is a refused file operation of a patch.
func patchError(typ, path, msg, hint string) error {
	return definitions.NewError(typ, "apply_patch: %s: %s", path, msg).With("path", path).Hint(hint)
}

// linesText joins a patch's lines into file text, each ended by a line break.
func linesText(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// applyHunk applies one hunk to content: after the line its anchor names (when it has
// one), old lines replaced by new ones with edit's matching; a hunk without old lines
// inserts its lines after the anchor, or at the end of the file.
func applyHunk(content string, h patch.Hunk) (string, error) {
	head, tail := "", content
	if h.Anchor != "" {
		at := anchorEnd(content, h.Anchor)
		if at < 0 {
			return "", &edit.Error{Kind: edit.NotFound, Message: fmt.Sprintf("the hunk's @@ line %q is not a line of the file", h.Anchor)}
		}
		head, tail = content[:at], content[at:]
	}
	if len(h.Old) == 0 {
		if h.Anchor == "" {
			head, tail = content, ""
		}
		if head != "" && !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
		return head + linesText(h.New) + tail, nil
	}
	r, err := edit.Apply(tail, edit.Request{OldString: linesText(h.Old), NewString: linesText(h.New)})
	if err != nil {
		return "", err
	}
	return head + r.Content, nil
}

// anchorEnd returns the offset just after the first line of content that holds anchor
// (blanks around either ignored), or -1.
func anchorEnd(content, anchor string) int {
	anchor = strings.TrimSpace(anchor)
	off := 0
	for line := range strings.SplitAfterSeq(content, "\n") {
		off += len(line)
		if strings.Contains(line, anchor) {
			return off
		}
	}
	return -1
}
