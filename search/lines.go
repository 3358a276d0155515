package search

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Lines are found around a hit on demand; the buffer is never split.

// lineStart returns the start of the line holding data[i], looking back no further than lo,
// a line start at or before i (so repeated calls read each byte once).
func lineStart(data []byte, lo, i int) int {
	return lo + bytes.LastIndexByte(data[lo:i], '\n') + 1
}

// lineEnd returns the index of the '\n' ending the line holding data[i], or len(data).
func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

// display is the line [ls, le) without its terminator: a '\r' before '\n' goes too.
func display(data []byte, ls, le int) []byte {
	line := data[ls:le]
	if le < len(data) && len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line
}

// build makes the Match for the match [s, e) whose first line starts at ls and is number line,
// and whose last byte data[last] lies on line endLine.
func (m *Matcher) build(data []byte, s, e, ls, line, last, endLine int) Match {
	text := display(data, ls, lineEnd(data, s))
	mt := Match{
		Line:    line,
		EndLine: endLine,
		Column:  s - ls + 1,
		Before:  m.before(data, ls),
		After:   m.after(data, lineEnd(data, last)+1),
	}
	if len(text) <= m.maxLine && utf8.Valid(text) {
		mt.Text = string(text)
		if e-ls <= len(text) { // the match is a part of the text: share it
			mt.MatchText = mt.Text[s-ls : e-ls]
			return mt
		}
	} else {
		ms := min(s-ls, len(text))
		mt.Text = cut(text, ms, min(max(e-ls, ms), len(text)), m.maxLine)
	}
	mt.MatchText = capped(data[s:e], m.maxLine)
	return mt
}

// before returns up to Before lines ending just before the line starting at ls.
func (m *Matcher) before(data []byte, ls int) []string {
	n := 0
	p := ls
	for n < m.opts.Before && p > 0 {
		p = lineStart(data, 0, p-1)
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for p < ls {
		le := lineEnd(data, p)
		out = append(out, cut(display(data, p, le), 0, 0, m.maxLine))
		p = le + 1
	}
	return out
}

// after returns up to After lines starting at p, the start of the line after a match.
func (m *Matcher) after(data []byte, p int) []string {
	var out []string
	for len(out) < m.opts.After && p < len(data) {
		le := lineEnd(data, p)
		if out == nil {
			out = make([]string, 0, m.opts.After)
		}
		out = append(out, cut(display(data, p, le), 0, 0, m.maxLine))
		p = le + 1
	}
	return out
}

// cut returns line as valid UTF-8, or when it is longer than limit a window of limit bytes
// around the match [ms, me) (centered, or its start when the match is longer), cut at rune
// starts and marked with the bytes left out: "[…1234 bytes] kept [2345 bytes…]".
func cut(line []byte, ms, me, limit int) string {
	if len(line) <= limit {
		return valid(line)
	}
	a := ms
	if me-ms < limit {
		a = ms - (limit-(me-ms))/2
	}
	a = max(min(a, len(line)-limit), 0)
	b := a + limit
	a, b = runeStartAfter(line, a), runeStartBefore(line, b)
	var sb strings.Builder
	sb.Grow(b - a + 40)
	if a > 0 {
		sb.WriteString("[…")
		sb.WriteString(strconv.Itoa(a))
		sb.WriteString(" bytes] ")
	}
	sb.WriteString(valid(line[a:b]))
	if b < len(line) {
		sb.WriteString(" [")
		sb.WriteString(strconv.Itoa(len(line) - b))
		sb.WriteString(" bytes…]")
	}
	return sb.String()
}

// capped returns b as valid UTF-8, cut to at most limit bytes at a rune start.
func capped(b []byte, limit int) string {
	if len(b) > limit {
		b = b[:runeStartBefore(b, limit)]
	}
	return valid(b)
}

// runeStartAfter moves i forward to a rune start, so a cut does not split a character
// (at most a character's length: in invalid UTF-8 there may be none).
func runeStartAfter(b []byte, i int) int {
	for j := i; j < len(b) && j < i+utf8.UTFMax; j++ {
		if utf8.RuneStart(b[j]) {
			return j
		}
	}
	return i
}

// runeStartBefore moves i back to a rune start, like runeStartAfter.
func runeStartBefore(b []byte, i int) int {
	for j := i; j >= 0 && j > i-utf8.UTFMax; j-- {
		if j == 0 || j == len(b) || utf8.RuneStart(b[j]) {
			return j
		}
	}
	return i
}

// valid converts b to a string, replacing invalid UTF-8 with U+FFFD so JSON shows it faithfully.
func valid(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

var newline = []byte{'\n'}

// countLines counts the '\n' in b (SIMD in Go's runtime).
func countLines(b []byte) int { return bytes.Count(b, newline) }
