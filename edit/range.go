package edit

import (
	"fmt"
	"strings"
)

// strategyRange names the result of ApplyRange.
const strategyRange = "line-range"

// RangeRequest replaces lines StartLine to EndLine (1-based, inclusive) with NewContent, a
// text of whole lines (a final line break is added if it lacks one; empty deletes the
// lines). EndLine = StartLine-1 inserts before StartLine. Expected, when set, is the text the
// lines must still hold: a guard against a file that changed since the model read it.
type RangeRequest struct {
	StartLine, EndLine int
	NewContent         string
	Expected           *string
}

// ApplyRange performs req on content, keeping the file's line endings, byte order mark and
// final newline as Apply does. The result's Strategy is "line-range". An edit that changes
// nothing is not an error here: the lines were given, not searched. It returns an *Error:
// Invalid for lines out of range, NotFound when the lines no longer hold Expected.
func ApplyRange(content string, req RangeRequest) (Result, error) {
	f := parseFile(content, req.NewContent)
	t := &text{body: f.body}
	n := len(t.lines())
	if req.StartLine < 1 || req.StartLine > n+1 || req.EndLine < req.StartLine-1 || req.EndLine > n {
		return Result{}, &Error{Kind: Invalid, Message: fmt.Sprintf(
			"lines %d-%d are not a range of the file, which has %d lines: give 1 <= start_line <= end_line+1 and end_line <= %d", req.StartLine, req.EndLine, n, n)}
	}
	m := match{start: t.lineStart(req.StartLine - 1), end: t.lineStart(req.EndLine)}
	if req.Expected != nil {
		got, want := strings.TrimSuffix(f.body[m.start:m.end], "\n"), strings.TrimSuffix(cleanInput(*req.Expected), "\n")
		if got != want {
			return Result{}, errStale(req.StartLine, req.EndLine, want, got)
		}
	}
	if m.repl = cleanInput(req.NewContent); m.repl != "" {
		if !strings.HasSuffix(m.repl, "\n") {
			m.repl += "\n"
		}
		if m.start == len(f.body) && f.body != "" && !strings.HasSuffix(f.body, "\n") {
			m.repl = "\n" + m.repl // after a last line that has no line break
		}
	}
	return f.apply([]match{m}, strategyRange), nil
}
