// Package patch parses the patch format of Codex's apply_patch tool, which models trained
// for Codex write: a "*** Begin Patch" envelope around file operations, each an added,
// deleted or updated (and possibly moved) file, an update made of hunks of context,
// removed and added lines:
//
//	Patch      := "*** Begin Patch" { FileOp } "*** End Patch"
//	FileOp     := AddFile | DeleteFile | UpdateFile
//	AddFile    := "*** Add File: " path { "+" line }
//	DeleteFile := "*** Delete File: " path
//	UpdateFile := "*** Update File: " path [ "*** Move to: " path ] { Hunk }
//	Hunk       := { "@@" [ " " header ] } { (" " | "-" | "+") line } [ "*** End of File" ]
//
// Parsing is strict: anything else is an error naming its line and what was expected.
// It accepts exactly what Codex's own parser forgives beyond that grammar:
//
//   - the patch wrapped in a shell heredoc, a first line <<EOF, <<'EOF' or <<"EOF" and a
//     last line EOF (a model that writes the shell command apply_patch <<'EOF' … EOF);
//   - an empty line inside a hunk, read as an empty context line whose leading space was
//     lost (editors and models trim it);
//   - blank lines around the envelope and where a hunk may start (after the file's header
//     or after "*** End of File"), blanks around the envelope's markers and
//     "*** End of File", CRLF line breaks;
//   - a first hunk without its "@@" line.
//
// Each file is named by one operation only: two operations on the same path, or a move
// onto a path another operation names, are errors (paths compared lexically; the caller
// compares what they resolve to). Package patch knows nothing of files: applying the hunks
// is the caller's work (jido's edit engine).
package patch

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Kind is what a file operation does.
type Kind int

// The kinds of file operation.
const (
	Add Kind = iota + 1
	Delete
	Update
)

// File is one file operation of a patch.
type File struct {
	Kind   Kind
	Path   string
	MoveTo string   // Update: the file's new path, or ""
	Lines  []string // Add: the new file's lines
	Hunks  []Hunk   // Update
}

// Hunk is one change of an updated file: the lines it replaces (context and removed lines,
// in order) and their replacement (context and added lines). Anchors are the headers of
// its "@@ header" lines, in order: the hunk lies after the first line holding the first
// anchor, after that the first line holding the second, and so on.
type Hunk struct {
	Anchors  []string
	Old, New []string
	AtEnd    bool // "*** End of File": the old lines end the file
}

// Markers of the format.
const (
	begin     = "*** Begin Patch"
	end       = "*** End Patch"
	addFile   = "*** Add File: "
	delFile   = "*** Delete File: "
	updFile   = "*** Update File: "
	moveTo    = "*** Move to: "
	endOfFile = "*** End of File"
	hunkStart = "@@"
)

// unifiedRange is the "@@ -1,3 +1,4 @@" line of a unified diff, which is not this format.
var unifiedRange = regexp.MustCompile(`^@@ -\d+(,\d+)? \+\d+(,\d+)? @@`)

// Parse reads a patch.
func Parse(text string) ([]File, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := 0, len(lines)-1
	trim := func() {
		for first <= last && strings.TrimSpace(lines[first]) == "" {
			first++
		}
		for last >= first && strings.TrimSpace(lines[last]) == "" {
			last--
		}
	}
	trim()
	if first > last {
		return nil, fmt.Errorf("the patch is empty: expected %q, file operations and %q", begin, end)
	}
	if heredoc(lines[first]) {
		if last == first || strings.TrimSpace(lines[last]) != "EOF" {
			return nil, fmt.Errorf("patch line %d: expected EOF closing the heredoc of line %d, got %q", last+1, first+1, lines[last])
		}
		first, last = first+1, last-1
		trim()
	}
	if first > last || strings.TrimSpace(lines[first]) != begin {
		got := ""
		if first <= last {
			got = lines[first]
		}
		return nil, fmt.Errorf("patch line %d: expected %q (a patch starts with it), got %q", first+1, begin, got)
	}
	if last == first || strings.TrimSpace(lines[last]) != end {
		return nil, fmt.Errorf("patch line %d: expected %q (a patch ends with it), got %q", last+1, end, lines[last])
	}
	p := &parser{lines: lines[first+1 : last], n: first + 1, named: map[string]int{}}
	var files []File
	for p.more() {
		f, err := p.file()
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("patch line %d: the patch changes no file: expected %q, %q or %q before %q", last+1, addFile, delFile, updFile, end)
	}
	return files, nil
}

// heredoc reports whether a line opens a shell heredoc of the patch, as Codex forgives.
func heredoc(l string) bool {
	switch strings.TrimSpace(l) {
	case "<<EOF", "<<'EOF'", `<<"EOF"`:
		return true
	}
	return false
}

// Paths returns the paths a patch names (moves' destinations too), without parsing its
// hunks: what path rules and the undo journal need of it. A malformed patch names what
// its headers name.
func Paths(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		for _, h := range []string{addFile, delFile, updFile, moveTo} {
			if p, ok := strings.CutPrefix(l, h); ok && strings.TrimSpace(p) != "" {
				out = append(out, strings.TrimSpace(p))
			}
		}
	}
	return out
}

// parser walks a patch's lines between its envelope; n is the 1-based number of the line
// last taken (the Begin line at first), in the text as it was given.
type parser struct {
	lines []string
	n     int
	named map[string]int // the line of the operation that names each path (cleaned)
}

func (p *parser) more() bool { return len(p.lines) > 0 }

// next takes a line.
func (p *parser) next() string {
	l := p.lines[0]
	p.lines, p.n = p.lines[1:], p.n+1
	return l
}

// errorf is an error at the line last taken.
func (p *parser) errorf(format string, args ...any) error {
	return p.errorAt(p.n, format, args...)
}

// errorAt is an error at line n.
func (p *parser) errorAt(n int, format string, args ...any) error {
	return fmt.Errorf("patch line %d: %s", n, fmt.Sprintf(format, args...))
}

// header reports whether a line starts a file operation.
func header(l string) bool {
	return strings.HasPrefix(l, addFile) || strings.HasPrefix(l, delFile) || strings.HasPrefix(l, updFile)
}

// file reads one file operation.
func (p *parser) file() (File, error) {
	l := p.next()
	at := p.n
	path := func(prefix string) string { return strings.TrimSpace(strings.TrimPrefix(l, prefix)) }
	switch {
	case strings.HasPrefix(l, addFile):
		f := File{Kind: Add, Path: path(addFile)}
		if err := p.claim(f.Path, at, addFile); err != nil {
			return File{}, err
		}
		for p.more() && !header(p.lines[0]) {
			line := p.next()
			body, ok := strings.CutPrefix(line, "+")
			if !ok {
				return File{}, p.errorf("expected a line of the added file (starting with +) or the next file operation, got %q", line)
			}
			f.Lines = append(f.Lines, body)
		}
		return f, nil
	case strings.HasPrefix(l, delFile):
		f := File{Kind: Delete, Path: path(delFile)}
		return f, p.claim(f.Path, at, delFile)
	case strings.HasPrefix(l, updFile):
		f := File{Kind: Update, Path: path(updFile)}
		if err := p.claim(f.Path, at, updFile); err != nil {
			return File{}, err
		}
		if p.more() && strings.HasPrefix(strings.TrimSpace(p.lines[0]), strings.TrimSpace(moveTo)) {
			l = p.next()
			if !strings.HasPrefix(l, moveTo) || path(moveTo) == "" {
				return File{}, p.errorf("expected %q followed by the file's new path, got %q", moveTo, l)
			}
			f.MoveTo = path(moveTo)
			if clean(f.MoveTo) == clean(f.Path) {
				return File{}, p.errorf("%q moves %s onto itself: leave the line out", moveTo, f.Path)
			}
			if err := p.claim(f.MoveTo, p.n, moveTo); err != nil {
				return File{}, err
			}
		}
		hunks, err := p.hunks()
		if err != nil {
			return File{}, err
		}
		if len(hunks) == 0 && f.MoveTo == "" {
			return File{}, p.errorAt(at, "%s has no hunk: expected %q or hunk lines after %q", f.Path, hunkStart, strings.TrimSpace(l))
		}
		f.Hunks = hunks
		return f, nil
	}
	return File{}, p.errorf("expected %q, %q or %q, got %q", addFile, delFile, updFile, l)
}

// claim records that the operation at line n names path, refusing an empty path and a
// path another operation already names.
func (p *parser) claim(name string, n int, marker string) error {
	if name == "" {
		return p.errorAt(n, "expected a path after %q", strings.TrimSpace(marker))
	}
	c := clean(name)
	if prev, ok := p.named[c]; ok {
		return p.errorAt(n, "%s is already named by the operation at line %d: give each file one operation (a move names its new path too)", name, prev)
	}
	p.named[c] = n
	return nil
}

// clean is a path as the parser compares it: lexically cleaned, slashes either way.
func clean(name string) string {
	return path.Clean(strings.ReplaceAll(name, `\`, "/"))
}

// hunks reads the hunks of an updated file, up to the next file operation.
func (p *parser) hunks() ([]Hunk, error) {
	var hunks []Hunk
	var h *Hunk // the hunk being read
	at := 0     // the line where h starts
	flush := func() error {
		if h == nil {
			return nil
		}
		if len(h.Old) == 0 && len(h.New) == 0 {
			return p.errorAt(at, "the hunk has no line: expected lines starting with ' ', '-' or '+' after %q", hunkStart)
		}
		if slices.Equal(h.Old, h.New) {
			return p.errorAt(at, "the hunk changes nothing: expected at least one line starting with '-' or '+'")
		}
		hunks = append(hunks, *h)
		h = nil
		return nil
	}
	for p.more() && !header(p.lines[0]) {
		l := p.next()
		empty := h == nil || len(h.Old) == 0 && len(h.New) == 0
		switch {
		case strings.HasPrefix(l, hunkStart):
			anchor, err := p.anchor(l)
			if err != nil {
				return nil, err
			}
			if h == nil || !empty {
				if err := flush(); err != nil {
					return nil, err
				}
				h, at = &Hunk{}, p.n
			}
			// "@@" lines in a row narrow where the hunk is, one after the other.
			if anchor != "" {
				h.Anchors = append(h.Anchors, anchor)
			}
			continue
		case strings.TrimSpace(l) == endOfFile:
			switch {
			case h == nil || empty:
				return nil, p.errorf("%q ends a hunk: expected it after the hunk's lines", endOfFile)
			case h.AtEnd:
				return nil, p.errorf("a second %q in the same hunk", endOfFile)
			}
			h.AtEnd = true
			continue
		case h == nil || h.AtEnd: // where a hunk may start
			if l == "" {
				continue
			}
			if h != nil {
				return nil, p.errorf("expected %q (a new hunk) or the next file operation after %q, got %q", hunkStart, endOfFile, l)
			}
			h, at = &Hunk{}, p.n // a first hunk without its @@ line
		}
		switch {
		case l == "": // an empty context line whose blank was trimmed
			h.Old, h.New = append(h.Old, ""), append(h.New, "")
		case l[0] == ' ':
			h.Old, h.New = append(h.Old, l[1:]), append(h.New, l[1:])
		case l[0] == '-':
			h.Old = append(h.Old, l[1:])
		case l[0] == '+':
			h.New = append(h.New, l[1:])
		case strings.HasPrefix(l, strings.TrimSpace(moveTo)):
			return nil, p.errorf("%q comes right after %q, before the hunks: got it at line %d", strings.TrimSpace(moveTo), strings.TrimSpace(updFile), p.n)
		default:
			return nil, p.errorf("expected a hunk line starting with ' ' (context), '-' (removed) or '+' (added), %q, %q or the next file operation, got %q", hunkStart, endOfFile, l)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return hunks, nil
}

// anchor reads the header of a "@@" line: "" for a bare "@@".
func (p *parser) anchor(l string) (string, error) {
	if unifiedRange.MatchString(l) {
		return "", p.errorf("%q is a unified diff's line range: expected %q alone or followed by a line of the file (such as its function's header)", l, hunkStart)
	}
	rest := strings.TrimPrefix(l, hunkStart)
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", p.errorf("expected %q alone or followed by a space and a line of the file, got %q", hunkStart, l)
	}
	return strings.TrimSpace(rest), nil
}
