package bridge

import (
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// maxListedLines caps how many candidate line numbers an ambiguity error lists.
const maxListedLines = 20

// applyEdit replaces op.OldString in content with op.NewString, literally: exactly one
// occurrence, or every one with ReplaceAll. It returns the new content and the count.
func applyEdit(content string, op definitions.EditOp) (string, int, *definitions.ToolError) {
	if op.OldString == op.NewString {
		return "", 0, definitions.NewError(definitions.ValidationError, "old_string and new_string are identical: the edit would change nothing").
			Hint("Give the new text in new_string")
	}
	if op.OldString == "" {
		if content == "" {
			return op.NewString, 1, nil // filling an empty file
		}
		return "", 0, definitions.NewError(definitions.ValidationError, "old_string is empty, but the file is not").
			Hint("Quote the exact text to replace, with enough surrounding lines to make it unique", "To replace the whole file, use write_file")
	}
	starts := occurrences(content, op.OldString)
	switch {
	case len(starts) == 0:
		return "", 0, definitions.NewError(definitions.ConflictError, "old_string was not found in the file").
			Hint("Read the file again and copy the text exactly, including whitespace and indentation")
	case len(starts) > 1 && !op.ReplaceAll:
		lines := lineNumbers(content, starts)
		return "", 0, definitions.NewError(definitions.ConflictError, "old_string occurs %d times; the edit is ambiguous", len(starts)).
			With("occurrences", len(starts)).With("lines", lines).
			Hint("Add surrounding lines to old_string so that it matches once", "Or set replace_all: true to replace every occurrence")
	}
	if op.ReplaceAll {
		n := strings.Count(content, op.OldString)
		return strings.ReplaceAll(content, op.OldString, op.NewString), n, nil
	}
	at := starts[0]
	return content[:at] + op.NewString + content[at+len(op.OldString):], 1, nil
}

// occurrences returns the start of every occurrence of sub in s, overlapping ones included,
// so that "aa" in "aaa" counts as ambiguous.
func occurrences(s, sub string) []int {
	var starts []int
	for off := 0; ; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return starts
		}
		starts = append(starts, off+i)
		off += i + 1
	}
}

// lineNumbers maps byte offsets (ascending) to 1-based line numbers, at most maxListedLines.
func lineNumbers(s string, offsets []int) []int {
	lines := make([]int, 0, min(len(offsets), maxListedLines))
	line, pos := 1, 0
	for _, off := range offsets[:min(len(offsets), maxListedLines)] {
		line += strings.Count(s[pos:off], "\n")
		pos = off
		lines = append(lines, line)
	}
	return lines
}
