package edit

import (
	"sort"
	"strings"
)

// bom is the UTF-8 byte order mark, kept at the head of a file that has it.
const bom = "\ufeff"

// file is a file's content split into the text the strategies match against and what is
// needed to give the edited text back in the file's own form.
type file struct {
	bom      string // the byte order mark, or ""
	raw      string // the content without its byte order mark
	body     string // raw with each CRLF made LF: what the strategies see
	crlf     []int  // offsets in body of the LFs that are CRLF in raw, ascending
	inserted string // the text the request inserts, as given
	eol      string // the line break of inserted text, once known
}

// parseFile splits content; inserted is the text the request inserts.
func parseFile(content, inserted string) *file {
	f := &file{raw: content, inserted: inserted}
	if rest, ok := strings.CutPrefix(content, bom); ok {
		f.bom, f.raw = bom, rest
	}
	f.body = f.raw
	if !strings.Contains(f.raw, "\r\n") {
		return f
	}
	var b strings.Builder
	b.Grow(len(f.raw))
	rest := f.raw
	for {
		i := strings.Index(rest, "\r\n")
		if i < 0 {
			break
		}
		b.WriteString(rest[:i])
		f.crlf = append(f.crlf, b.Len())
		b.WriteByte('\n')
		rest = rest[i+2:]
	}
	b.WriteString(rest)
	f.body = b.String()
	return f
}

// lineBreak returns the line break of inserted text: the one most of the file's lines end
// with (LF on a tie), or for a file without line breaks the one most of the inserted text's
// lines end with, so that filling an empty file gives the text as it was given.
func (f *file) lineBreak() string {
	if f.eol == "" {
		f.eol = "\n"
		switch {
		case len(f.crlf) > 0 && 2*len(f.crlf) > strings.Count(f.body, "\n"):
			f.eol = "\r\n"
		case !strings.Contains(f.body, "\n") && 2*strings.Count(f.inserted, "\r\n") > strings.Count(f.inserted, "\n"):
			f.eol = "\r\n"
		}
	}
	return f.eol
}

// toLF makes every CRLF of s an LF.
func toLF(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// orig maps an offset of the body to the offset of raw. An offset at an LF that was CRLF maps
// to its CR, so a range of the body maps to a range of raw with whole line breaks.
func (f *file) orig(p int) int {
	return p + sort.SearchInts(f.crlf, p)
}

// piece is a part of the edited body: text copied from the body at offset src, or, when src
// is negative, inserted text.
type piece struct {
	text string
	src  int
}

// apply replaces the matches (in order, not overlapping) and returns the result in the
// file's form, with the lines of each replacement.
func (f *file) apply(ms []match, strategy string) Result {
	n := len(ms)
	ms = f.wholeLines(ms)
	pieces, at := f.splice(ms)
	f.keepFinalNewline(pieces, ms)
	return Result{Content: f.render(pieces), Strategy: strategy, Replacements: n, Edits: spans(pieces, at)}
}

// wholeLines makes the deletion of whole lines take their line breaks too, so that it
// leaves no blank line and does not join the neighbouring lines. old_string may or may not
// end with the line's break; adjacent deletions become one.
func (f *file) wholeLines(ms []match) []match {
	b := f.body
	out := make([]match, 0, len(ms))
	for i, m := range ms {
		deletesLines := m.repl == "" && m.end > m.start && (m.start == 0 || b[m.start-1] == '\n')
		nextStart := len(b) + 1
		if i+1 < len(ms) {
			nextStart = ms[i+1].start
		}
		if deletesLines && b[m.end-1] != '\n' && m.end < len(b) && b[m.end] == '\n' && nextStart > m.end {
			m.end++
		}
		if k := len(out) - 1; k >= 0 && m.repl == "" && out[k].repl == "" && out[k].end == m.start {
			out[k].end = m.end
			continue
		}
		out = append(out, m)
	}
	// The last line of a file without a final newline has no break of its own: take the one before.
	if k := len(out) - 1; k >= 0 {
		m, prevEnd := &out[k], 0
		if k > 0 {
			prevEnd = out[k-1].end
		}
		if m.repl == "" && m.end == len(b) && m.end > m.start && m.start > prevEnd && b[m.start-1] == '\n' && b[m.end-1] != '\n' {
			m.start--
		}
	}
	return out
}

// splice cuts the body around the matches. at[i] is the index of match i's piece.
func (f *file) splice(ms []match) (pieces []piece, at []int) {
	pieces = make([]piece, 0, 2*len(ms)+1)
	at = make([]int, len(ms))
	last := 0
	for i, m := range ms {
		if m.start > last {
			pieces = append(pieces, piece{text: f.body[last:m.start], src: last})
		}
		at[i] = len(pieces)
		pieces = append(pieces, piece{text: m.repl, src: -1})
		last = m.end
	}
	if last < len(f.body) {
		pieces = append(pieces, piece{text: f.body[last:], src: last})
	}
	return pieces, at
}

// keepFinalNewline gives the result the file's final newline, or its lack of one, when the
// last replacement reached the end of the file: a model's new_string often adds or drops it.
// An emptied file stays empty.
func (f *file) keepFinalNewline(pieces []piece, ms []match) {
	if f.body == "" || len(ms) == 0 || ms[len(ms)-1].end != len(f.body) {
		return
	}
	k := len(pieces) - 1
	for k >= 0 && pieces[k].text == "" {
		k--
	}
	if k < 0 {
		return
	}
	want, has := strings.HasSuffix(f.body, "\n"), strings.HasSuffix(pieces[k].text, "\n")
	switch {
	case want && !has:
		// The last match reached the end, so the last piece is its replacement.
		last := &pieces[len(pieces)-1]
		last.text += "\n"
	case !want && has:
		pieces[k].text = pieces[k].text[:len(pieces[k].text)-1]
	}
}

// render writes the pieces back in the file's form: its byte order mark, its own bytes for
// copied text and its line break for inserted text.
func (f *file) render(pieces []piece) string {
	var b strings.Builder
	b.Grow(len(f.bom) + len(f.raw) + 64)
	b.WriteString(f.bom)
	for _, p := range pieces {
		switch {
		case p.src >= 0:
			b.WriteString(f.raw[f.orig(p.src):f.orig(p.src+len(p.text))])
		case strings.Contains(p.text, "\n") && f.lineBreak() == "\r\n":
			b.WriteString(strings.ReplaceAll(p.text, "\n", "\r\n"))
		default:
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// spans returns the lines that the pieces at the given indexes occupy in the edited text,
// ascending; replacements that share a line share a span. An empty piece at the start of a
// line is the empty range before that line; one inside a line (the rest of the line was
// joined to it) is that line.
func spans(pieces []piece, at []int) []Span {
	out := make([]Span, 0, len(at))
	if len(at) == 0 {
		return out
	}
	line, lineStart, next := 1, true, 0
	for i, p := range pieces[:at[len(at)-1]+1] { // the lines after the last one need no count
		if at[next] == i {
			next++
			s := Span{line, line}
			switch {
			case p.text != "":
				s.EndLine += strings.Count(p.text[:len(p.text)-1], "\n")
			case lineStart:
				s.EndLine--
			}
			if k := len(out) - 1; k >= 0 && out[k].EndLine >= s.StartLine {
				out[k].EndLine = max(out[k].EndLine, s.EndLine)
			} else {
				out = append(out, s)
			}
		}
		if p.text != "" {
			line += strings.Count(p.text, "\n")
			lineStart = p.text[len(p.text)-1] == '\n'
		}
	}
	return out
}
