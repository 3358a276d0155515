package chat

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jido-run/jido/termsafe"
)

// Markdown renders a model's answer for the terminal as it streams: each line once it is
// complete, never re-printed, with the state that spans lines (an open code fence) carried
// from one to the next.
//
// In colour, fenced code is kept verbatim and indented between dim fence lines that show
// its language; **bold**, *italic* and _italic_ become bold and italic, `code` cyan,
// headings bold, bullets •, quotes a dim bar, and a link its text and (url). Without
// colour (NO_COLOR, TERM=dumb, not a terminal) the text is plain: the inline markers are
// removed where that loses nothing (emphasis, code spans, link syntax); fences, headings,
// list and quote markers, which read well as they are, and code blocks are kept.
//
// Markers follow CommonMark's flanking rules closely enough that prose with stars and
// underscores in it (2 * 3, snake_case, __init__, **/*.go) is left alone; __bold__ and
// runs of three (***both***) are not taken as emphasis.
//
// Every piece of text is made safe (termsafe) after it is parsed and before the renderer's
// own colours are added: a model's escape sequences never reach the terminal. The zero
// Markdown renders plain text; one goroutine at a time.
type Markdown struct {
	st      style
	partial string // the raw text of the line not yet complete
	fence   string // the marker of the open code fence (``` or ~~~, as long as it was), "" outside
}

// NewMarkdown returns a renderer in colour or not.
func NewMarkdown(color bool) *Markdown { return &Markdown{st: style{color}} }

// Write takes a piece of the answer and returns the rendered lines it completes, each
// ending in a newline; "" while no line is complete.
func (m *Markdown) Write(chunk string) string {
	s := m.partial + chunk
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		m.partial = s
		return ""
	}
	m.partial = s[i+1:]
	var b strings.Builder
	for _, l := range strings.Split(s[:i], "\n") {
		b.WriteString(m.line(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// Pending reports whether a line was begun and not yet rendered.
func (m *Markdown) Pending() bool { return m.partial != "" }

// Flush renders the line begun, without a newline, and ends the answer (a fence left open
// is closed).
func (m *Markdown) Flush() string {
	s := ""
	if m.partial != "" {
		s = m.line(m.partial)
		m.partial = ""
	}
	m.fence = ""
	return s
}

// The block patterns, compiled on first use: package init runs on every start of jido.
var (
	fenceRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(`{3,}|~{3,})[ \t]*([^ \t]*)") })
	headingRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`) })
	ruleRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}([-*_])(?:[ \t]*([-*_]))+[ \t]*$`) })
	bulletRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([ \t]*)([-*+])[ \t]+(.*)$`) })
	numberRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([ \t]*)([0-9]{1,9}[.)])[ \t]+(.*)$`) })
	quoteRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}>[ \t]?(.*)$`) })
)

// line renders one complete line (without its newline).
func (m *Markdown) line(l string) string {
	l = strings.TrimSuffix(l, "\r") // CRLF: the carriage return would overwrite nothing
	st := m.st
	if m.fence != "" {
		if closesFence(l, m.fence) {
			m.fence = ""
			return st.paint(dim, termsafe.String(l))
		}
		if st.color {
			return "  " + termsafe.String(l)
		}
		return termsafe.String(l)
	}
	if f := fenceRe().FindStringSubmatch(l); f != nil && !(f[1][0] == '`' && strings.Contains(f[2], "`")) {
		m.fence = f[1]
		return st.paint(dim, termsafe.String(l))
	}
	if !st.color {
		return m.plain(l)
	}
	if h := headingRe().FindStringSubmatch(l); h != nil {
		codes := []string{bold}
		if len(h[1]) == 1 {
			codes = append(codes, underline)
		}
		return m.inline(h[2], codes)
	}
	if r := ruleRe().FindStringSubmatch(l); r != nil && sameRule(l) {
		return st.paint(dim, strings.Repeat("─", 40))
	}
	if b := bulletRe().FindStringSubmatch(l); b != nil {
		return termsafe.String(b[1]) + st.paint(cyan, "•") + " " + m.inline(b[3], nil)
	}
	if n := numberRe().FindStringSubmatch(l); n != nil {
		return termsafe.String(n[1]) + st.paint(cyan, n[2]) + " " + m.inline(n[3], nil)
	}
	if q := quoteRe().FindStringSubmatch(l); q != nil {
		return st.paint(dim, "│") + " " + m.inline(q[1], []string{italic})
	}
	return m.inline(l, nil)
}

// plain renders a line without colour: the block markers stay, the inline ones go.
func (m *Markdown) plain(l string) string {
	if ruleRe().MatchString(l) && sameRule(l) {
		return termsafe.String(l)
	}
	for _, re := range []*regexp.Regexp{bulletRe(), numberRe()} {
		if p := re.FindStringSubmatch(l); p != nil {
			return termsafe.String(l[:len(l)-len(p[3])]) + m.inline(p[3], nil)
		}
	}
	if h := headingRe().FindStringSubmatchIndex(l); h != nil {
		return termsafe.String(l[:h[4]]) + m.inline(l[h[4]:h[5]], nil) + termsafe.String(l[h[5]:])
	}
	if q := quoteRe().FindStringSubmatchIndex(l); q != nil {
		return termsafe.String(l[:q[2]]) + m.inline(l[q[2]:], nil)
	}
	return m.inline(l, nil)
}

// sameRule reports whether a thematic break is made of one character (- - -, ***).
func sameRule(l string) bool {
	l = strings.Join(strings.Fields(l), "")
	return len(l) >= 3 && strings.Count(l, l[:1]) == len(l)
}

// closesFence reports whether l closes a fence opened with marker: the same character, at
// least as many, nothing after but blanks.
func closesFence(l, marker string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == marker[0] {
		n++
	}
	return n >= len(marker) && strings.TrimSpace(t[n:]) == ""
}

// inline renders the inline Markdown of s, every piece made safe, painted with the codes
// of what encloses it and its own.
func (m *Markdown) inline(s string, codes []string) string {
	var b strings.Builder
	text := strings.Builder{} // literal text not yet written
	emit := func(s string, extra ...string) {
		all := append(append([]string(nil), codes...), extra...)
		b.WriteString(m.st.paintCodes(all, termsafe.String(s)))
	}
	flush := func() {
		if text.Len() > 0 {
			emit(text.String())
			text.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			text.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := run(s, i)
			if end := closingTicks(s, i+n, n); end >= 0 {
				flush()
				code := s[i+n : end]
				if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				emit(code, cyan)
				i = end + n
				continue
			}
			text.WriteString(s[i : i+n])
			i += n
			continue
		case c == '*' || c == '_':
			n := run(s, i)
			if (n == 1 || n == 2 && c == '*') && canOpen(s, i, n) { // no __bold__: __init__ stays
				if end := closingDelim(s, i, n); end >= 0 {
					flush()
					code := italic
					if n == 2 {
						code = bold
					}
					b.WriteString(m.inline(s[i+n:end], append(append([]string(nil), codes...), code)))
					i = end + n
					continue
				}
			}
			text.WriteString(s[i : i+n])
			i += n
			continue
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			start := i
			if c == '!' {
				start++
			}
			if label, url, end, ok := link(s, start); ok {
				flush()
				if label != "" && label != url {
					b.WriteString(m.inline(label, codes))
					b.WriteString(m.st.paintCodes(codes, " "))
				}
				b.WriteString(m.st.paintCodes(codes, "("))
				b.WriteString(m.st.paintCodes(append(append([]string(nil), codes...), underline), termsafe.String(url)))
				b.WriteString(m.st.paintCodes(codes, ")"))
				i = end
				continue
			}
		case c == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 {
				inner := s[i+1 : i+end]
				if (strings.HasPrefix(inner, "http://") || strings.HasPrefix(inner, "https://")) && !strings.ContainsAny(inner, " <") {
					flush()
					emit(inner, underline)
					i += end + 1
					continue
				}
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		text.WriteString(s[i : i+size])
		i += size
	}
	flush()
	return b.String()
}

// run is the length of the run of s[i]'s character starting at i.
func run(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

// closingTicks finds the backtick run of exactly n that closes a code span, from from on.
func closingTicks(s string, from, n int) int {
	for j := from; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		k := run(s, j)
		if k == n {
			return j
		}
		j += k
	}
	return -1
}

// closingDelim finds the delimiter run of exactly n of s[i]'s character that can close the
// emphasis opened at i, skipping code spans; the emphasis must not be empty.
func closingDelim(s string, i, n int) int {
	for j := i + n; j < len(s); {
		switch s[j] {
		case '`':
			k := run(s, j)
			if end := closingTicks(s, j+k, k); end >= 0 {
				j = end + k
			} else {
				j += k
			}
			continue
		case '\\':
			j += 2
			continue
		case s[i]:
			k := run(s, j)
			if k == n && j > i+n && canClose(s, j, n) {
				return j
			}
			j += k
			continue
		}
		j++
	}
	return -1
}

// before and after are the characters around the run s[i:i+n]; a line's edges count as
// white space.
func before(s string, i int) rune {
	if i == 0 {
		return ' '
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

func after(s string, i, n int) rune {
	if i+n >= len(s) {
		return ' '
	}
	r, _ := utf8.DecodeRuneInString(s[i+n:])
	return r
}

func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// leftFlanking and rightFlanking are CommonMark's delimiter runs that may open or close.
func leftFlanking(s string, i, n int) bool {
	a, b := after(s, i, n), before(s, i)
	return !unicode.IsSpace(a) && (!isPunct(a) || unicode.IsSpace(b) || isPunct(b))
}

func rightFlanking(s string, i, n int) bool {
	a, b := after(s, i, n), before(s, i)
	return !unicode.IsSpace(b) && (!isPunct(b) || unicode.IsSpace(a) || isPunct(a))
}

// canOpen and canClose: a * run by its flanking; an _ run also not inside a word
// (snake_case stays as it is).
func canOpen(s string, i, n int) bool {
	if s[i] == '*' {
		return leftFlanking(s, i, n)
	}
	return leftFlanking(s, i, n) && (!rightFlanking(s, i, n) || isPunct(before(s, i)))
}

func canClose(s string, i, n int) bool {
	if s[i] == '*' {
		return rightFlanking(s, i, n)
	}
	return rightFlanking(s, i, n) && (!leftFlanking(s, i, n) || isPunct(after(s, i, n)))
}

// link parses [label](url) or [label](url "title") at s[i] == '['; end is past it.
func link(s string, i int) (label, url string, end int, ok bool) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(s)-1 || s[j+1] != '(' {
		return "", "", 0, false
	}
	label = s[i+1 : j]
	k := strings.IndexByte(s[j+2:], ')')
	if k < 0 {
		return "", "", 0, false
	}
	target := strings.TrimSpace(s[j+2 : j+2+k])
	if sp := strings.IndexAny(target, " \t"); sp >= 0 {
		target = target[:sp] // a title after the url
	}
	target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
	if target == "" {
		return "", "", 0, false
	}
	return label, target, j + 3 + k, true
}

func isASCIIPunct(c byte) bool {
	return c < utf8.RuneSelf && c > ' ' && c != 0x7f && !('0' <= c && c <= '9') && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z')
}
