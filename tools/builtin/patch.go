package builtin

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
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
	cs.unread = true
	named := map[*fileChange]string{}
	for _, op := range ops {
		if err := cs.patchFile(op, named); err != nil {
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

// patchFile plans one file operation of a patch. named holds the files earlier operations
// named, and the path they used: the parser refuses a path named twice, this refuses two
// paths that are one file (through a symlink, say).
func (cs *changeSet) patchFile(op patch.File, named map[*fileChange]string) error {
	fc, err := cs.name(op.Path, named)
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
				return fmt.Errorf("hunk %d of %s: %w", i+1, op.Path, editError(op.Path, err, hunkHints))
			}
		}
		if op.MoveTo == "" {
			fc.after, fc.edits = content, fc.edits+1
			return nil
		}
		dst, err := cs.name(op.MoveTo, named)
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

// name returns the planned state of the file a patch names, refusing a file another
// operation of the patch already named.
func (cs *changeSet) name(path string, named map[*fileChange]string) (*fileChange, error) {
	fc, err := cs.file(path)
	if err != nil {
		return nil, err
	}
	if prev, ok := named[fc]; ok {
		return nil, patchError(definitions.ValidationError, path, fmt.Sprintf("this is the file %s that another operation of the patch names", prev),
			"Give each file one operation (a move names its new path too)")
	}
	named[fc] = path
	return fc, nil
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

// applyHunk applies one hunk to content with edit's matching: the hunk's old lines are
// replaced by its new ones.
//
// Its anchors narrow where: the old lines are looked for after the first line that holds
// the first anchor, after that after the first line holding the second, and so on; where
// they then match more than once, the first match after the anchors is the hunk's (that
// is what the anchors said). Without anchors a hunk must match once in the whole file.
// A hunk marked *** End of File must match the file's last lines. A hunk without old lines
// inserts its lines just after its last anchor, or at the end of the file when it has
// none or is marked *** End of File.
func applyHunk(content string, h patch.Hunk) (string, error) {
	at := 0
	for i, a := range h.Anchors {
		n := anchorEnd(content[at:], a)
		if n < 0 {
			where := ""
			if i > 0 {
				where = fmt.Sprintf(" after the line holding %q", h.Anchors[i-1])
			}
			return "", &edit.Error{Kind: edit.NotFound, Message: fmt.Sprintf("the hunk's @@ line %q is not a line of the file%s", a, where)}
		}
		at += n
	}
	head, tail := content[:at], content[at:]
	if len(h.Old) == 0 {
		if len(h.Anchors) == 0 || h.AtEnd {
			head, tail = content, ""
		}
		eol := lineBreak(content)
		if head != "" && !strings.HasSuffix(head, "\n") {
			head += eol
		}
		return head + strings.ReplaceAll(linesText(h.New), "\n", eol) + tail, nil
	}
	req := edit.Request{OldString: linesText(h.Old), NewString: linesText(h.New)}
	if h.AtEnd {
		return applyAtEnd(head, tail, h, req)
	}
	r, err := edit.Apply(tail, req)
	var ee *edit.Error
	if len(h.Anchors) > 0 && errors.As(err, &ee) && ee.Kind == edit.Ambiguous && len(ee.Lines) > 1 && ee.Lines[1] > ee.Lines[0] {
		// The first match after the anchors: the text before the second one holds it alone.
		region, rest := cutLines(tail, ee.Lines[1]-1)
		if r2, err2 := edit.Apply(region, req); err2 == nil {
			return head + r2.Content + rest, nil
		}
	}
	if err != nil {
		return "", shiftLines(err, lineCount(head))
	}
	return head + r.Content, nil
}

// shiftLines moves the line numbers of edit's error on a part of a file that starts after
// n lines, so that they count from the file's start.
func shiftLines(err error, n int) error {
	var ee *edit.Error
	if n == 0 || !errors.As(err, &ee) {
		return err
	}
	for i := range ee.Lines {
		ee.Lines[i] += n
	}
	for i := range ee.Closest {
		ee.Closest[i].Line += n
	}
	if loc := atLines.FindStringIndex(ee.Message); loc != nil { // the first only: diffs follow
		m := ee.Message[loc[0]:loc[1]]
		m = number.ReplaceAllStringFunc(m, func(d string) string {
			v, _ := strconv.Atoi(d)
			return strconv.Itoa(v + n)
		})
		ee.Message = ee.Message[:loc[0]] + m + ee.Message[loc[1]:]
	}
	return err
}

// atLines and number find the line numbers in edit's messages.
var (
	atLines = regexp.MustCompile(`\bat lines? \d+(?:, \d+)*`)
	number  = regexp.MustCompile(`\d+`)
)

// applyAtEnd applies a hunk marked *** End of File to tail (the text after its anchors):
// its old lines must be the last lines of the file, whatever else they match.
func applyAtEnd(head, tail string, h patch.Hunk, req edit.Request) (string, error) {
	pre, last := cutLines(tail, max(0, lineCount(tail)-len(h.Old)))
	r, err := edit.Apply(last, req)
	if err == nil && endsContent(r) {
		return head + pre + r.Content, nil
	}
	var ee *edit.Error
	if err != nil && (!errors.As(err, &ee) || ee.Kind != edit.NotFound) {
		return "", shiftLines(err, lineCount(head+pre))
	}
	return "", &edit.Error{Kind: edit.NotFound, Message: fmt.Sprintf("the hunk is marked *** End of File but its %d old line(s) are not the last lines of the file: "+
		"take *** End of File out if the lines are elsewhere, or copy the file's last lines exactly", len(h.Old))}
}

// endsContent reports whether the last edit of r reaches the end of its content.
func endsContent(r edit.Result) bool {
	if len(r.Edits) == 0 {
		return false
	}
	return r.Edits[len(r.Edits)-1].EndLine >= lineCount(r.Content)
}

// lineCount is the number of lines of s, a last one without line break included.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// cutLines splits s after its first n lines.
func cutLines(s string, n int) (string, string) {
	off := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return s, ""
		}
		off += i + 1
	}
	return s[:off], s[off:]
}

// lineBreak is the line break of content: CRLF if its first line ends with one, else LF.
func lineBreak(content string) string {
	if i := strings.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
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

// hunkHints tell the model how to recover from each kind of refused hunk.
var hunkHints = map[edit.ErrorKind][]string{
	edit.NotFound:  {"Read the file again and copy the hunk's context and - lines from it exactly", "details.closest shows the nearest text in the file"},
	edit.Ambiguous: {"Add context lines around the change so that it matches once", "Or put the line of its function or class before it with @@ (several @@ lines narrow in turn)"},
	edit.NoChange:  {"The hunk changes nothing: give the new lines with +"},
	edit.Invalid:   {"Check the hunk against the format in the tool's description"},
}
