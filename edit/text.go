package edit

import (
	"sort"
	"strings"
)

// text is the body a request is matched against, with views of it built on first use and
// shared by all strategies (and by the passes of unescape).
type text struct {
	body       string
	starts     []int               // offset of each line; a final line break starts no line
	lineList   []string            // the lines, without their breaks
	norm       map[string][]string // lines normalized by each line strategy
	folded     *folded             // the body with typography folded
	foldedList []string            // the lines with typography folded
	style      *indentStyle        // how the file indents
	ascii      int8                // whether the body is all ASCII: 0 unknown, 1 yes, -1 no
}

// lines returns the body's lines without their line breaks.
func (t *text) lines() []string {
	if t.lineList == nil {
		t.starts = []int{}
		for i := 0; i < len(t.body); {
			t.starts = append(t.starts, i)
			k := strings.IndexByte(t.body[i:], '\n')
			if k < 0 {
				break
			}
			i += k + 1
		}
		t.lineList = make([]string, len(t.starts))
		for i := range t.starts {
			t.lineList[i] = t.body[t.starts[i]:t.lineEnd(i)]
		}
	}
	return t.lineList
}

// lineStart returns the offset of line i (0-based), or the body's length for i = line count.
func (t *text) lineStart(i int) int {
	t.lines()
	if i < len(t.starts) {
		return t.starts[i]
	}
	return len(t.body)
}

// lineEnd returns the offset of the end of line i (0-based), before its line break.
func (t *text) lineEnd(i int) int {
	if i+1 < len(t.starts) {
		return t.starts[i+1] - 1
	}
	return len(strings.TrimSuffix(t.body, "\n"))
}

// lineNumbers returns the distinct 1-based lines where the matches start, ascending.
func (t *text) lineNumbers(ms []match) []int {
	t.lines()
	var out []int
	for _, m := range ms {
		n := sort.SearchInts(t.starts, m.start+1)
		if len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return out
}

// normLines returns the lines normalized by the named line strategy, their typography
// folded first when folded is set.
func (t *text) normLines(name string, norm func(string) string, folded bool) []string {
	if got, ok := t.norm[name]; ok {
		return got
	}
	lines := t.lines()
	if folded {
		lines = t.foldedLines()
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = norm(l)
	}
	if t.norm == nil {
		t.norm = map[string][]string{}
	}
	t.norm[name] = out
	return out
}

// foldedLines returns the lines with their typography folded.
func (t *text) foldedLines() []string {
	if t.foldedList == nil {
		// Folding keeps line breaks, so the folded body's lines are the folded lines.
		body := t.foldedBody().text
		t.foldedList = strings.SplitAfterN(body, "\n", len(t.lines()))
		for i, l := range t.foldedList {
			t.foldedList[i] = strings.TrimSuffix(l, "\n")
		}
	}
	return t.foldedList
}

// foldedBody returns the body with its typography folded.
func (t *text) foldedBody() *folded {
	if t.folded == nil {
		f := foldTypography(t.body)
		t.folded = &f
	}
	return t.folded
}

// bodyASCII reports whether the body is all ASCII.
func (t *text) bodyASCII() bool {
	if t.ascii == 0 {
		t.ascii = -1
		if isASCII(t.body) {
			t.ascii = 1
		}
	}
	return t.ascii > 0
}

// indentStyle returns how the whole file indents.
func (t *text) indentStyle() indentStyle {
	if t.style == nil {
		s := detectIndent(t.lines())
		t.style = &s
	}
	return *t.style
}
