package edit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names of the strategies that other code refers to.
const (
	strategyExact    = "exact"
	strategyUnescape = "unescape"
)

// maxListed is how many places an ambiguity error lists: a search without replace_all stops
// one place after it.
const maxListed = 50

// match is one place old_string was found: bytes [start, end) of the body, and their
// replacement.
type match struct {
	start, end int
	repl       string
}

// strategy is one way of finding old_string, with the replacement text for each place.
type strategy struct {
	name string
	find func(*search) []match
}

// strategies are tried in this order, strictest first; unescape, the last resort, runs them
// again on the unescaped strings.
var strategies = []strategy{
	{strategyExact, (*search).exact},
	{"typography", (*search).typography},
	lineStrategy("trailing-whitespace", trimTrailing, false),
	lineStrategy("indentation", strings.TrimSpace, true),
	lineStrategy("inner-whitespace", collapseSpace, true),
	nonASCII(lineStrategy("unicode-nfc", nfcLine, true)),
	// Typography and whitespace differences in the same old_string, each safe alone.
	nonASCII(foldedLines(lineStrategy("typography+trailing-whitespace", trimTrailing, false))),
	nonASCII(foldedLines(lineStrategy("typography+indentation", strings.TrimSpace, true))),
	nonASCII(foldedLines(lineStrategy("typography+inner-whitespace", collapseSpace, true))),
	{"single-line-whitespace", (*search).singleLine},
}

// foldedLines makes a line strategy compare lines with their typography folded first
// (the file's lines are folded once for all such strategies).
func foldedLines(st strategy) strategy {
	find := st.find
	st.find = func(s *search) []match {
		s.folded = true
		defer func() { s.folded = false }()
		return find(s)
	}
	return st
}

// find returns the name of the first strategy that finds old in body and its matches, or an
// *Error: not found, or found more than once without all.
func find(body, old, repl string, all bool) (string, []match, error) {
	t := &text{body: body}
	name, ms := t.run(old, repl, all)
	for _, u := range unescapings(body, old, repl) {
		if ms != nil {
			break
		}
		if name, ms = t.run(u.old, u.repl, all); ms != nil {
			name = prefixed(strategyUnescape, name)
		}
	}
	for _, n := range normalizations {
		if ms != nil {
			break
		}
		if o, r, ok := n.apply(old, repl); ok && o != r && strings.TrimSpace(o) != "" {
			if name, ms = t.run(o, r, all); ms != nil {
				name = prefixed(n.name, name)
			}
		}
	}
	switch {
	case ms == nil:
		return "", nil, errNotFound(old, closest(t, old))
	case all:
		return name, nonOverlapping(ms), nil
	case len(ms) > 1:
		return "", nil, errAmbiguous(name, t.lineNumbers(ms), len(ms))
	}
	return name, ms, nil
}

// prefixed names a match found by strategy inner once the strings were changed by the
// step named step (unescape, a normalization): "step", or "step+inner" when inner is not
// exact.
func prefixed(step, inner string) string {
	if inner == strategyExact {
		return step
	}
	return step + "+" + inner
}

// run tries the strategies in order and returns the first that finds something. A blank
// old_string is only ever matched exactly: loosened, it would match any blank line.
func (t *text) run(old, repl string, all bool) (string, []match) {
	s := &search{text: t, old: old, repl: repl, all: all}
	for i, st := range strategies {
		if i > 0 && strings.TrimSpace(old) == "" {
			break
		}
		if ms := st.find(s); len(ms) > 0 {
			return st.name, ms
		}
	}
	return "", nil
}

// nonOverlapping keeps, left to right, the matches that do not overlap a kept one, as
// strings.ReplaceAll does.
func nonOverlapping(ms []match) []match {
	out := ms[:0]
	for _, m := range ms {
		if len(out) == 0 || m.start >= out[len(out)-1].end {
			out = append(out, m)
		}
	}
	return out
}

// search is one old_string and new_string looked up in a text.
type search struct {
	*text
	old, repl string
	all       bool
	folded    bool // line strategies compare lines with typography folded
}

// full reports whether a strategy may stop collecting matches.
func (s *search) full(ms []match) bool {
	return !s.all && len(ms) > maxListed
}

// occurrences calls fn with the start of each occurrence of needle in hay, overlapping ones
// included unless s.all (where a match is followed by the next one after it), until s.full.
// fn returns the matches so far.
func (s *search) occurrences(hay, needle string, fn func(start int, ms []match) []match) []match {
	var ms []match
	for i := 0; i <= len(hay) && !s.full(ms); {
		k := strings.Index(hay[i:], needle)
		if k < 0 {
			break
		}
		n := len(ms)
		ms = fn(i+k, ms)
		i += k + 1
		if s.all && len(ms) > n {
			i += len(needle) - 1
		}
	}
	return ms
}

// exact finds old_string as it is.
func (s *search) exact() []match {
	return s.occurrences(s.body, s.old, func(start int, ms []match) []match {
		return append(ms, match{start, start + len(s.old), s.repl})
	})
}

// typography finds old_string with curly quotes, dashes, odd spaces and ellipses folded to
// ASCII on both sides. The replacement keeps the file's characters where new_string keeps
// old_string's.
func (s *search) typography() []match {
	old, body := foldTypography(s.old), s.foldedBody()
	if old.src == nil && body.src == nil {
		return nil // nothing to fold: exact has looked already
	}
	return s.occurrences(body.text, old.text, func(start int, ms []match) []match {
		a, b := body.orig(start), body.orig(start+len(old.text))
		if a < 0 || b < 0 || !s.onWordBoundaries(a, b) {
			return ms // inside an expanded ellipsis, or inside a word
		}
		return append(ms, match{a, b, keepFileChars(s.old, s.body[a:b], s.repl)})
	})
}

// lineStrategy compares whole lines, every line of old_string with a line of the file, after
// normalizing both with norm. A strategy that ignores indentation re-indents new_string to
// the file, and refuses a block whose nesting differs from old_string's.
//
// The final line break of old_string is optional: the match ends at the end of its last
// line, and new_string loses its final line break too if old_string had one.
func lineStrategy(name string, norm func(string) string, ignoresIndent bool) strategy {
	return strategy{name, func(s *search) []match {
		oldText, hadBreak := strings.CutSuffix(s.old, "\n")
		repl := s.repl
		if hadBreak {
			repl = strings.TrimSuffix(repl, "\n")
		}
		olds := strings.Split(oldText, "\n")
		want := make([]string, len(olds))
		for i, l := range olds {
			if s.folded {
				l = foldTypography(l).text
			}
			want[i] = norm(l)
		}
		lines, have := s.lines(), s.normLines(name, norm, s.folded)
		var ms []match
		for i := 0; i+len(want) <= len(have) && !s.full(ms); i++ {
			if !equalFrom(have[i:], want) {
				continue
			}
			r := repl
			if ignoresIndent {
				var ok bool
				if r, ok = reindent(olds, lines[i:i+len(olds)], repl, s.indentStyle); !ok {
					continue
				}
			}
			r = keepFileLines(olds, lines[i:i+len(olds)], repl, r)
			ms = append(ms, match{s.lineStart(i), s.lineEnd(i + len(olds) - 1), r})
		}
		return ms
	}}
}

// keepFileLines returns r, the replacement of the file's lines matched (which old_string's
// lines olds stand for) by new_string repl as a line strategy wrote it, with the leading
// and trailing lines that repl leaves as olds has them written as the file's own: a
// loose match must not change a line the model did not (its trailing spaces, which are a
// line break in Markdown, its tabs or its curly quotes).
func keepFileLines(olds, matched []string, repl, r string) string {
	news, out := strings.Split(repl, "\n"), strings.Split(r, "\n")
	if len(news) != len(out) {
		return r
	}
	most := min(len(olds), len(news))
	p := 0
	for p < most && olds[p] == news[p] {
		out[p] = matched[p]
		p++
	}
	for q := 1; p+q <= most && olds[len(olds)-q] == news[len(news)-q]; q++ {
		out[len(out)-q] = matched[len(matched)-q]
	}
	return strings.Join(out, "\n")
}

// nonASCII restricts a strategy to requests where old_string or the file has a character
// outside ASCII, for which alone it can find more than the strategies before it.
func nonASCII(st strategy) strategy {
	find := st.find
	st.find = func(s *search) []match {
		if isASCII(s.old) && s.bodyASCII() {
			return nil
		}
		return find(s)
	}
	return st
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// equalFrom reports whether have starts with want.
func equalFrom(have, want []string) bool {
	for j, w := range want {
		if have[j] != w {
			return false
		}
	}
	return true
}

// trimTrailing drops a line's trailing whitespace.
func trimTrailing(line string) string {
	return strings.TrimRightFunc(line, unicode.IsSpace)
}

// collapseSpace trims a line and makes each run of whitespace inside it one space.
func collapseSpace(line string) string {
	line = strings.TrimSpace(line)
	single := true
	for i := 0; i < len(line) && single; i++ {
		if c := line[i]; c == '\t' || c >= utf8.RuneSelf || (c == ' ' && i+1 < len(line) && isBlank(line[i+1])) {
			single = false
		}
	}
	if single {
		return line // the common case: nothing to collapse, nothing to allocate
	}
	return strings.Join(strings.Fields(line), " ")
}

// isBlank reports whether c is an ASCII space or tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// nfcLine is collapseSpace in Unicode normalization form C, so that a precomposed é matches
// e followed by a combining accent.
func nfcLine(line string) string {
	return norm.NFC.String(collapseSpace(line))
}

// singleLine finds a one-line old_string inside a line, where each run of spaces and tabs
// matches any run of at least one, and the old_string's leading and trailing whitespace
// does not count. new_string loses leading (trailing) whitespace if old_string had some.
func (s *search) singleLine() []match {
	trimmed := strings.TrimSpace(s.old)
	if strings.Contains(trimmed, "\n") {
		return nil
	}
	repl := s.repl
	if !strings.HasPrefix(s.old, trimmed) {
		repl = strings.TrimLeftFunc(repl, unicode.IsSpace)
	}
	if !strings.HasSuffix(s.old, trimmed) {
		repl = strings.TrimRightFunc(repl, unicode.IsSpace)
	}
	// A line break after old_string says it ends its line; one before it, or indentation
	// before a whole line, that it starts it.
	atLineEnd := strings.HasSuffix(strings.TrimRight(s.old, " \t"), "\n")
	atLineStart := strings.HasPrefix(strings.TrimLeft(s.old, " \t"), "\n") || atLineEnd && s.old[0] != trimmed[0]
	words := strings.Fields(trimmed)
	return s.occurrences(s.body, words[0], func(start int, ms []match) []match {
		end := start + len(words[0])
		for _, w := range words[1:] {
			gap := end
			for gap < len(s.body) && isBlank(s.body[gap]) {
				gap++
			}
			if gap == end || !strings.HasPrefix(s.body[gap:], w) {
				return ms
			}
			end = gap + len(w)
		}
		if !s.onWordBoundaries(start, end) || atLineStart && !s.blankTo(start, -1) || atLineEnd && !s.blankTo(end, 1) {
			return ms
		}
		return append(ms, match{start, end, repl})
	})
}

// onWordBoundaries reports whether body[start:end] neither starts nor ends inside a word:
// a loose match of "return foo" must not take the start of "return foobar".
func (s *search) onWordBoundaries(start, end int) bool {
	return !(start > 0 && start < len(s.body) && isWordByte(s.body[start-1]) && isWordByte(s.body[start])) &&
		!(end > 0 && end < len(s.body) && isWordByte(s.body[end-1]) && isWordByte(s.body[end]))
}

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// blankTo reports whether only blanks lie between offset p of the body and the start of
// its line (dir -1) or its end (dir 1).
func (s *search) blankTo(p, dir int) bool {
	for p += min(dir, 0); p >= 0 && p < len(s.body) && s.body[p] != '\n'; p += dir {
		if !isBlank(s.body[p]) && s.body[p] != '\r' {
			return false
		}
	}
	return true
}
