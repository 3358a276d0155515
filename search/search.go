// Package search is the in-memory text searcher behind jido's search tool: it finds the lines
// of one file buffer that match a literal or RE2 query, with ripgrep's line-oriented semantics
// (what `rg -n --column` reports), at memory speed and without I/O.
//
// Speed comes from never running a regexp over text that cannot match. The literals a match
// must contain are found over the whole buffer by their rarest byte with bytes.IndexByte (SIMD
// in Go's runtime) and an aligned compare, switching to a SWAR scan of two bytes when that byte
// proves common; case-insensitive literals the same way, without a lowered copy. The regexp
// then runs only on a candidate's line; a literal query needs no regexp at all, nor does one
// whose other parts are each one ASCII byte of a set (a date: `\d{4}-\d{2}-\d{2}`), checked
// byte by byte around the literal's hits. Line numbers and context are computed lazily around
// hits. A buffer without a match costs no allocation.
// Only a regexp with no required literal (`[A-Z]\w+`) runs Go's regexp over the whole buffer.
//
// Semantics, as rg without --crlf: lines end at '\n'; a '\r' before it is an ordinary
// character to the query (so `x$` does not match "x\r\n") but is left out of Match.Text.
// Without Multiline a match never contains '\n': the query is rewritten so that character
// classes and `.` exclude it, like rg does, and a query that asks for a line break is an
// error. Text is matched as Go's regexp reads it: an invalid UTF-8 byte reads as U+FFFD.
package search

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Options describe a query.
type Options struct {
	Query        string // literal text, or a Go RE2 regexp when Regex
	Regex        bool
	IgnoreCase   bool // Unicode simple case folding, like Go's (?i) and rg -i
	Multiline    bool // a match may span lines (rg -U); otherwise matches never contain '\n'
	Before       int  // context lines before each matching line
	After        int  // context lines after
	MaxLineBytes int  // longer line texts are cut around the match; 0 means 500
}

// defaultMaxLineBytes is the cut applied to line texts when Options.MaxLineBytes is 0 (or less).
const defaultMaxLineBytes = 500

// Error is a query that cannot be searched for.
type Error struct {
	Query, Reason string
	cause         error // the regexp/syntax error, if any
}

func (e *Error) Error() string { return fmt.Sprintf("invalid search query %q: %s", e.Query, e.Reason) }

// Unwrap returns the underlying *syntax.Error for a bad regexp.
func (e *Error) Unwrap() error { return e.cause }

// reasonLineBreak is rg's advice when a query without multiline asks for a '\n'.
const reasonLineBreak = "the query matches a line break; use multiline"

// Match is one matching line (one per line, like grep -n; a line with several matches is
// reported once, at its first match). With Multiline, matches that overlap a reported match's
// lines extend it (EndLine) instead of being reported, so the lines covered are rg -U's.
// Context is per match: Before[i] is line Line-len(Before)+i and After[i] is line EndLine+1+i,
// which may be matching lines themselves or another match's context.
type Match struct {
	Line      int      // 1-based line of the match start
	EndLine   int      // last line the match touches (== Line unless Multiline)
	Column    int      // 1-based byte column of the first match within Line (like rg --column)
	MatchText string   // the matched text (capped at MaxLineBytes, valid UTF-8 kept valid)
	Text      string   // the whole line without its terminator; when longer than MaxLineBytes, cut around the match and marked, e.g. "[…1234 bytes] ... [2345 bytes…]"
	Before    []string // up to Before lines preceding Line (cut like Text), nil when none
	After     []string // up to After lines following EndLine, nil when none
}

// Matcher is a compiled query; immutable and safe for concurrent use.
type Matcher struct {
	opts    Options
	maxLine int
	finders []finder       // required literals: every match contains a hit of one (none known: empty)
	exact   bool           // finders[0]'s hits (their span) are the matches themselves: no regexp runs
	re      *regexp.Regexp // the query, ^ and $ at line ends; without Multiline it cannot match '\n'
	cont    *regexp.Regexp // Multiline: `(?s:.)(query)`, to resume mid-buffer with the right context
}

// Compile checks and compiles a query.
func Compile(o Options) (*Matcher, error) {
	switch {
	case o.Query == "":
		return nil, &Error{Query: o.Query, Reason: "empty query"}
	case !utf8.ValidString(o.Query):
		return nil, &Error{Query: o.Query, Reason: "the query is not valid UTF-8"}
	}
	pattern, prefix, flags := o.Query, "(?m)", syntax.Perl&^syntax.OneLine
	if !o.Regex {
		pattern = regexp.QuoteMeta(o.Query)
	}
	if o.IgnoreCase {
		prefix, flags = "(?mi)", flags|syntax.FoldCase
	}
	tree, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, syntaxError(o.Query, err)
	}
	source := prefix + pattern
	if !o.Multiline {
		changed, ok := lineOnly(tree)
		if !ok {
			return nil, &Error{Query: o.Query, Reason: reasonLineBreak}
		}
		if changed {
			source = tree.String()
		}
	}
	m := &Matcher{opts: o, maxLine: o.MaxLineBytes}
	if m.maxLine <= 0 {
		m.maxLine = defaultMaxLineBytes
	}
	if m.re, err = regexp.Compile(source); err != nil {
		return nil, syntaxError(o.Query, err)
	}
	if o.Multiline {
		if m.cont, err = regexp.Compile(`(?s:.)(` + tree.String() + `)`); err != nil {
			return nil, syntaxError(o.Query, err)
		}
	}
	simple := tree.Simplify()
	m.finders = required(simple)
	m.exact = len(m.finders) == 1 && exactHits(simple, &m.finders[0])
	return m, nil
}

// syntaxError explains a bad regexp: what is wrong and where.
func syntaxError(query string, err error) error {
	reason := err.Error()
	if se := (*syntax.Error)(nil); errors.As(err, &se) {
		reason = se.Code.String()
		if se.Expr != "" {
			reason += ": `" + se.Expr + "`"
			if i := strings.Index(query, se.Expr); i >= 0 && se.Expr != query {
				reason += fmt.Sprintf(" at byte %d", i)
			}
		}
	}
	return &Error{Query: query, Reason: reason, cause: err}
}

// Search reports the matching lines of data in order, calling emit for each; emit returns
// false to stop. It returns the number of matches reported.
func (m *Matcher) Search(data []byte, emit func(Match) bool) int {
	if len(data) == 0 {
		return 0
	}
	n, line, counted := 0, 1, 0 // line is the number of the line starting at counted
	at := func(ls int) int {
		line += countLines(data[counted:ls])
		counted = ls
		return line
	}
	if m.opts.Multiline {
		ms := m.newMultiScan(data)
		for {
			s, e, last, ok := ms.next()
			if !ok {
				return n
			}
			ls := lineStart(data, counted, s)
			l := at(ls)
			n++
			if !emit(m.build(data, s, e, ls, l, last, l+countLines(data[ls:last]))) {
				return n
			}
		}
	}
	sc := m.newLineScan(data)
	for {
		s, e, ls, ok := sc.next(true)
		if !ok {
			return n
		}
		l := at(ls)
		n++
		if !emit(m.build(data, s, e, ls, l, s, l)) {
			return n
		}
	}
}

// Count returns the number of matching lines (with Multiline: of Matches Search would report),
// stopping at limit when limit > 0. It allocates nothing, except a small index per matching
// line for a regexp without a required literal.
func (m *Matcher) Count(data []byte, limit int) int {
	if len(data) == 0 {
		return 0
	}
	n := 0
	if m.opts.Multiline {
		ms := m.newMultiScan(data)
		for _, _, _, ok := ms.next(); ok; _, _, _, ok = ms.next() {
			if n++; n == limit {
				break
			}
		}
		return n
	}
	sc := m.newLineScan(data)
	for _, _, _, ok := sc.next(false); ok; _, _, _, ok = sc.next(false) {
		if n++; n == limit {
			break
		}
	}
	return n
}

// Matches reports whether data has at least one matching line (for files_with_matches).
func (m *Matcher) Matches(data []byte) bool {
	switch {
	case len(data) == 0:
		return false
	case m.opts.Multiline:
		ms := m.newMultiScan(data)
		_, _, ok := ms.find()
		return ok
	case len(m.finders) == 0:
		return m.re.Match(body(data))
	}
	sc := m.newLineScan(data)
	_, _, _, ok := sc.next(false)
	return ok
}

// Binary reports whether data looks binary: a NUL byte in its first 8 KiB.
func Binary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0
}

// body is data without the terminator of its last line, so that a regexp run over it cannot
// match at the non-line after a final '\n'.
func body(data []byte) []byte {
	if n := len(data); n > 0 && data[n-1] == '\n' {
		return data[:n-1]
	}
	return data
}

// candidate returns the first position at or after from that some finder hits, or -1.
func (m *Matcher) candidate(data []byte, from int, cur *[maxFinders]cursor) int {
	best := -1
	for i := range m.finders {
		if c := m.finders[i].next(data, from, &cur[i]); c >= 0 && (best < 0 || c < best) {
			best = c
		}
	}
	return best
}

func newCursors() (c [maxFinders]cursor) {
	for i := range c {
		c[i] = newCursor()
	}
	return c
}

// lineScan walks the matching lines of a buffer, one line at a time (without Multiline).
type lineScan struct {
	m       *Matcher
	data    []byte
	pos     int // start of the next line to search
	cur     [maxFinders]cursor
	checked bool // the no-literal path has checked the whole buffer once
}

func (m *Matcher) newLineScan(data []byte) lineScan {
	return lineScan{m: m, data: data, cur: newCursors()}
}

// next returns the first match [s, e) on the next matching line and that line's start. With
// loc false the match may be reported anywhere on its line (counting needs no column).
func (sc *lineScan) next(loc bool) (s, e, ls int, ok bool) {
	m, data := sc.m, sc.data
	for sc.pos < len(data) {
		if len(m.finders) == 0 {
			return sc.scan()
		}
		c := m.candidate(data, sc.pos, &sc.cur)
		if c < 0 {
			break
		}
		ls = lineStart(data, sc.pos, c)
		le := lineEnd(data, c)
		sc.pos = le + 1
		if m.exact {
			s, e = m.finders[0].span(c)
			return s, e, ls, true
		}
		line := data[ls:le]
		if !m.re.Match(line) {
			continue
		}
		if !loc {
			return ls, ls, ls, true
		}
		l := m.re.FindIndex(line)
		return ls + l[0], ls + l[1], ls, true
	}
	sc.pos = len(data)
	return 0, 0, 0, false
}

// scan finds the next match with no literal to look for: the regexp runs over the rest of the
// buffer. It cannot match '\n', so its leftmost match is the first match of its line.
func (sc *lineScan) scan() (s, e, ls int, ok bool) {
	m, data, b := sc.m, sc.data, body(sc.data)
	if !sc.checked {
		sc.checked = true
		if !m.re.Match(b) { // no allocation when there is no match
			sc.pos = len(data)
			return 0, 0, 0, false
		}
	}
	l := m.re.FindIndex(b[sc.pos:])
	if l == nil {
		sc.pos = len(data)
		return 0, 0, 0, false
	}
	s, e = sc.pos+l[0], sc.pos+l[1]
	ls = lineStart(data, sc.pos, s)
	sc.pos = lineEnd(data, s) + 1
	return s, e, ls, true
}

// multiScan walks the matches of a Multiline query as regexp.FindAllIndex would, grouping
// those that start on a line an earlier match of the group reached.
type multiScan struct {
	m             *Matcher
	data          []byte
	pos, prevEnd  int // where the next search starts; the end of the last match
	cur           [maxFinders]cursor
	started, done bool
	pending       bool // a group is open: ps, pe is its first match, data[plast] its last byte,
	ps, pe, plast int  // on the line ending at plastEnd
	plastEnd      int
}

func (m *Matcher) newMultiScan(data []byte) multiScan {
	return multiScan{m: m, data: data, prevEnd: -1, cur: newCursors()}
}

// next returns the first match [s, e) of the next group and the group's last byte.
func (ms *multiScan) next() (s, e, last int, ok bool) {
	for !ms.done {
		s2, e2, found := ms.find()
		if !found {
			ms.done = true
			break
		}
		last2 := max(s2, e2-1)
		if ms.pending && s2 <= ms.plastEnd {
			ms.plast = max(ms.plast, last2)
			if last2 > ms.plastEnd { // onto a later line (only then: a long line has many matches)
				ms.plastEnd = lineEnd(ms.data, last2)
			}
			continue
		}
		s, e, last, ok = ms.ps, ms.pe, ms.plast, ms.pending
		ms.pending, ms.ps, ms.pe, ms.plast, ms.plastEnd = true, s2, e2, last2, lineEnd(ms.data, last2)
		if ok {
			return s, e, last, true
		}
	}
	if ms.pending {
		ms.pending = false
		return ms.ps, ms.pe, ms.plast, true
	}
	return 0, 0, 0, false
}

// find returns the next match as regexp.FindAllIndex does: after the previous match's end, an
// empty match right there skipped. A match at the non-line after a final '\n' ends the search.
func (ms *multiScan) find() (s, e int, ok bool) {
	m, data := ms.m, ms.data
	if !ms.started {
		ms.started = true
		if len(m.finders) > 0 && m.candidate(data, 0, &ms.cur) < 0 || !m.exact && !m.re.Match(data) {
			ms.done = true
		}
	}
	for !ms.done && ms.pos <= len(data) {
		s, e, ok = ms.findAt(ms.pos)
		if !ok || s == len(data) && data[len(data)-1] == '\n' {
			break
		}
		accept := true
		if e == ms.pos { // empty, at pos
			accept = s != ms.prevEnd
			if _, w := utf8.DecodeRune(data[ms.pos:]); w > 0 {
				ms.pos += w
			} else {
				ms.pos = len(data) + 1
			}
		} else {
			ms.pos = e
		}
		ms.prevEnd = e
		if accept {
			return s, e, true
		}
	}
	ms.done = true
	return 0, 0, false
}

// findAt returns the leftmost match starting at or after pos, the text before pos still
// counting for ^ and \b: mid-buffer, cont matches the rune before pos, then the query.
func (ms *multiScan) findAt(pos int) (s, e int, ok bool) {
	m, data := ms.m, ms.data
	if m.exact {
		f := &m.finders[0]
		if c := m.candidate(data, pos+len(f.before), &ms.cur); c >= 0 {
			s, e = f.span(c)
			return s, e, true
		}
		return 0, 0, false
	}
	if pos == 0 {
		l := m.re.FindIndex(data)
		if l == nil {
			return 0, 0, false
		}
		return l[0], l[1], true
	}
	_, k := utf8.DecodeLastRune(data[:pos])
	l := m.cont.FindSubmatchIndex(data[pos-k:])
	if l == nil {
		return 0, 0, false
	}
	return pos - k + l[2], pos - k + l[3], true
}
