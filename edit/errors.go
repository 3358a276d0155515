package edit

import (
	"fmt"
	"strconv"
	"strings"
)

// ErrorKind says why an edit was refused.
type ErrorKind int

// The kinds of refusal.
const (
	// NotFound: no strategy found old_string (or a line range no longer holds its expected
	// text). Error.Closest shows the text that looks most like it.
	NotFound ErrorKind = iota + 1
	// Ambiguous: old_string matches more than one place. Error.Lines lists them.
	Ambiguous
	// NoChange: the edit would leave the file as it is.
	NoChange
	// Invalid: the request cannot be carried out on this file, whatever it holds.
	Invalid
)

// String returns the kind in snake_case, as tool results name it.
func (k ErrorKind) String() string {
	switch k {
	case NotFound:
		return "not_found"
	case Ambiguous:
		return "ambiguous"
	case NoChange:
		return "no_change"
	case Invalid:
		return "invalid"
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// Error is a refused edit. Message is written for the model: what went wrong and how to
// recover.
type Error struct {
	Kind    ErrorKind
	Message string
	// Lines are the 1-based lines concerned: where an ambiguous old_string matches, or the
	// range of a stale line edit.
	Lines []int
	// Closest are the places that look most like a not-found old_string, best first.
	Closest []Candidate
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Candidate is a place in the file that looks like a not-found old_string.
type Candidate struct {
	// Line is where the candidate block starts, 1-based.
	Line int `json:"line"`
	// Diff is a unified diff from old_string (-) to the file's text (+).
	Diff string `json:"diff"`
}

// errIdentical refuses an edit whose old_string and new_string are the same.
func errIdentical() error {
	return &Error{Kind: NoChange, Message: "old_string and new_string are identical, so the edit changes nothing: put the new text in new_string"}
}

// errEmptyOld refuses an empty old_string on a file with content.
func errEmptyOld() error {
	return &Error{Kind: Invalid, Message: "old_string is empty but the file is not: an empty old_string only fills an empty file; give the text to replace (copied from the file), or overwrite the file with write_file"}
}

// errUnchanged refuses an edit that matched but changes no byte of the file.
func errUnchanged(strategy string) error {
	return &Error{Kind: NoChange, Message: fmt.Sprintf("old_string was found (strategy %q) but replacing it with new_string leaves the file as it is: new_string must differ from the text in the file", strategy)}
}

// errAmbiguous reports count places (more than maxListed: the search stopped) on lines.
func errAmbiguous(strategy string, lines []int, count int) error {
	places, where := strconv.Itoa(count), joinLines(lines)
	if count > maxListed {
		places, where = "more than "+strconv.Itoa(maxListed), where+" and more"
	}
	return &Error{Kind: Ambiguous, Lines: lines, Message: fmt.Sprintf(
		"old_string matches %s places (strategy %q), at lines %s: add surrounding lines to old_string to make it unique, or set replace_all to replace every one", places, strategy, where)}
}

// errNotFound reports an old_string that no strategy found, with the closest places.
func errNotFound(old string, closest []Candidate) error {
	var b strings.Builder
	b.WriteString("old_string was not found in the file, even ignoring typography, trailing whitespace, indentation, runs of whitespace, Unicode normalization and over-escaping")
	if elides(old) {
		b.WriteString(". old_string seems to leave lines out with \"...\": old_string must hold every line of the text to replace, copied from the file")
	}
	if len(closest) > 0 {
		lines := make([]int, len(closest))
		for i, c := range closest {
			lines[i] = c.Line
		}
		where := "The closest text starts at line"
		if len(lines) > 1 {
			where = "The closest texts start at lines"
		}
		fmt.Fprintf(&b, ". %s %s; each diff goes from old_string (-) to what the file holds (+):", where, joinLines(lines))
		for _, c := range closest {
			b.WriteString("\n")
			b.WriteString(c.Diff)
		}
		b.WriteString("\nRead those lines again and copy old_string from the file exactly; no line of old_string may differ.")
	} else {
		b.WriteString(". Nothing in the file looks like it: read the file again and copy old_string from it exactly.")
	}
	return &Error{Kind: NotFound, Message: b.String(), Closest: closest}
}

// joinLines writes line numbers as "3, 12, 40".
func joinLines(lines []int) string {
	s := make([]string, len(lines))
	for i, n := range lines {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// elides reports whether old_string has a line that stands for omitted code, such as "...",
// "// ..." or "# ... existing code ...": a model that abbreviates old_string cannot have
// its edit matched.
func elides(old string) bool {
	for _, l := range strings.Split(old, "\n") {
		l = strings.TrimLeft(strings.TrimSpace(l), "/#*-;<!{ ")
		rest, ok := strings.CutPrefix(l, "...")
		if !ok {
			rest, ok = strings.CutPrefix(l, "…")
		}
		if ok && (rest == "" || rest[0] == ' ') { // not a spread like ...args
			return true
		}
	}
	return false
}

// errStale refuses a line edit whose lines no longer hold the expected text.
func errStale(start, end int, expected, got string) error {
	lines := []int{start}
	var olds, have []string
	if expected != "" {
		olds = strings.Split(expected, "\n")
	}
	if got != "" {
		have = strings.Split(got, "\n")
	}
	d := candidateDiff(olds, have, start-1)
	return &Error{Kind: NotFound, Lines: lines, Closest: []Candidate{{Line: start, Diff: d}}, Message: fmt.Sprintf(
		"lines %d-%d no longer hold the expected text; the diff goes from expected (-) to what the file holds (+):\n%s\nRead the lines again and retry with what they hold now.", start, end, d)}
}

// errElided refuses a new_string whose line n is a placeholder for code left out.
func errElided(n int, line string) error {
	return &Error{Kind: Invalid, Message: fmt.Sprintf(
		"new_string line %d is the placeholder %q where old_string has real lines: an edit writes new_string literally, so the code it stands for would be deleted. Give the full text of new_string, or make old_string smaller so that new_string holds only what changes", n, line)}
}
