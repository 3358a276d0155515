// Package patch parses the patch format of Codex's apply_patch tool, which models trained
// for Codex write: a "*** Begin Patch" envelope around file operations, each an added,
// deleted or updated (and possibly moved) file, an update made of hunks of context,
// removed and added lines. Parsing is strict: anything else is an error naming its line.
// Applying the hunks is the caller's work (jido's edit engine).
package patch

import (
	"fmt"
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
// in order) and their replacement (context and added lines), found after the line that
// Anchor names when it is set ("@@ def handler():").
type Hunk struct {
	Anchor   string
	Old, New []string
	AtEnd    bool // "*** End of File": the hunk ends the file
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
)

// Parse reads a patch.
func Parse(text string) ([]File, error) {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != begin || strings.TrimSpace(lines[len(lines)-1]) != end {
		return nil, fmt.Errorf("a patch starts with %q and ends with %q", begin, end)
	}
	p := &parser{lines: lines[1 : len(lines)-1], n: 1}
	var files []File
	for p.more() {
		f, err := p.file()
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the patch changes no file")
	}
	return files, nil
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
// last taken (the Begin line at first).
type parser struct {
	lines []string
	n     int
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
	return fmt.Errorf("patch line %d: %s", p.n, fmt.Sprintf(format, args...))
}

// header reports whether a line starts a file operation.
func header(l string) bool {
	return strings.HasPrefix(l, addFile) || strings.HasPrefix(l, delFile) || strings.HasPrefix(l, updFile)
}

// file reads one file operation.
func (p *parser) file() (File, error) {
	l := p.next()
	path := func(prefix string) string { return strings.TrimSpace(strings.TrimPrefix(l, prefix)) }
	switch {
	case strings.HasPrefix(l, addFile):
		f := File{Kind: Add, Path: path(addFile)}
		for p.more() && !header(p.lines[0]) {
			body, ok := strings.CutPrefix(p.next(), "+")
			if !ok {
				return File{}, p.errorf("a line of an added file starts with +")
			}
			f.Lines = append(f.Lines, body)
		}
		return f, p.checkPath(f.Path)
	case strings.HasPrefix(l, delFile):
		return File{Kind: Delete, Path: path(delFile)}, p.checkPath(path(delFile))
	case strings.HasPrefix(l, updFile):
		f := File{Kind: Update, Path: path(updFile)}
		if err := p.checkPath(f.Path); err != nil {
			return File{}, err
		}
		if p.more() && strings.HasPrefix(p.lines[0], moveTo) {
			l = p.next()
			if f.MoveTo = path(moveTo); f.MoveTo == "" {
				return File{}, p.errorf("%q names no path", moveTo)
			}
		}
		hunks, err := p.hunks()
		if err != nil {
			return File{}, err
		}
		if len(hunks) == 0 && f.MoveTo == "" {
			return File{}, p.errorf("%s has no hunk", f.Path)
		}
		f.Hunks = hunks
		return f, nil
	}
	return File{}, p.errorf("expected %q, %q or %q, got %q", addFile, delFile, updFile, l)
}

// checkPath refuses an empty path.
func (p *parser) checkPath(path string) error {
	if path == "" {
		return p.errorf("the file operation names no path")
	}
	return nil
}

// hunks reads the hunks of an updated file, up to the next file operation.
func (p *parser) hunks() ([]Hunk, error) {
	var hunks []Hunk
	var h *Hunk
	for p.more() && !header(p.lines[0]) {
		l := p.next()
		switch {
		case strings.HasPrefix(l, "@@"):
			hunks = append(hunks, Hunk{Anchor: strings.TrimSpace(strings.TrimPrefix(l, "@@"))})
			h = &hunks[len(hunks)-1]
			continue
		case strings.TrimSpace(l) == endOfFile:
			if h == nil {
				return nil, p.errorf("%q before any hunk", endOfFile)
			}
			h.AtEnd = true
			continue
		}
		if h == nil { // a first hunk without its @@ line
			hunks = append(hunks, Hunk{})
			h = &hunks[len(hunks)-1]
		}
		if h.AtEnd {
			return nil, p.errorf("a hunk line after %q", endOfFile)
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
		default:
			return nil, p.errorf("a hunk line starts with ' ', '-' or '+', got %q", l)
		}
	}
	return hunks, nil
}
