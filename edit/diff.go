package edit

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Region display limits: a replace_all over a large file, or a minified file's single line,
// must not flood the model's context.
const (
	maxRegionLines     = 200  // lines shown in all
	maxRegionLineRunes = 2000 // runes shown of one line
)

// Diff returns a unified diff of a file's content before and after an edit, labelled with
// path, and how many lines it adds and removes. Line breaks are shown as LF and a byte order
// mark is left out: the diff is for reading, and an edit keeps both anyway. Only the window
// between the common head and tail (plus context) is diffed, so a small edit of a large file
// costs little more than finding that window.
func Diff(path, before, after string) (diff string, added, removed int) {
	a, b := forDisplay(before), forDisplay(after)
	start, endA, endB := changedWindow(a, b, udiff.DefaultContextLines)
	u, err := udiff.ToUnifiedDiff(path, path, a[start:endA], udiff.Lines(a[start:endA], b[start:endB]), udiff.DefaultContextLines)
	if err != nil {
		return "", 0, 0 // cannot happen: the edits come from the same texts
	}
	skipped := strings.Count(a[:start], "\n")
	for _, h := range u.Hunks {
		h.FromLine += skipped
		h.ToLine += skipped
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				added++
			case udiff.Delete:
				removed++
			}
		}
	}
	return u.String(), added, removed
}

// changedWindow returns the byte window of a and b that holds their differences, made of
// whole lines and context more unchanged lines on each side: a[start:endA] and b[start:endB]
// differ, a[:start] == b[:start] and a[endA:] == b[endB:].
func changedWindow(a, b string, context int) (start, endA, endB int) {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	start = lineStartBefore(a, head, context)
	endA, endB = len(a)-tail, len(b)-tail
	// The common tail is the same text in both, so one distance moves both ends alike: first
	// to the end of a line cut in the middle (on either side), then over the context lines.
	common := a[endA:]
	grow := 0
	if (endA > start && a[endA-1] != '\n') || (endB > start && b[endB-1] != '\n') {
		grow = lineEnd(common, 0)
	}
	for n := 0; n < context; n++ {
		grow = lineEnd(common, grow)
	}
	return start, endA + grow, endB + grow
}

// lineStartBefore returns the start of the line holding offset i, moved back n more lines.
func lineStartBefore(s string, i, n int) int {
	i = strings.LastIndexByte(s[:i], '\n') + 1
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(s[:i-1], '\n') + 1
	}
	return i
}

// lineEnd returns the offset just after the line break that ends the line at offset i of s,
// or len(s) when the line has none.
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// Changed returns the lines of after that differ from before as one span, from the first
// changed line to the last, numbered in after (an empty span, EndLine = StartLine-1, where
// lines were only removed). ok is false when the two are equal. It gives the region of
// several edits of one file, whose own spans the later edits may have moved.
func Changed(before, after string) (span Span, ok bool) {
	a, b := forDisplay(before), forDisplay(after)
	if a == b {
		return Span{}, false
	}
	start, _, endB := changedWindow(a, b, 0)
	first := strings.Count(b[:start], "\n") + 1
	last := strings.Count(b[start:endB], "\n") + first - 1
	if endB > start && b[endB-1] != '\n' {
		last++ // the changed text ends in the last line, which has no line break
	}
	return Span{StartLine: first, EndLine: last}, true
}

// Region returns the lines of content around the spans, numbered like `cat -n` (the number
// right-aligned in 6 columns, a tab, the line), context lines on each side, so that the model
// sees what its edit did without reading the file again. Separate parts are divided by a
// "..." line. Spans out of range are clamped; spans may come in any order.
func Region(content string, spans []Span, context int) string {
	if content == "" || content == bom || len(spans) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(forDisplay(content), "\n"), "\n")
	type part struct{ from, to int }
	parts := make([]part, 0, len(spans))
	for _, s := range spans {
		from := min(max(1, s.StartLine-context), len(lines))
		to := min(len(lines), max(s.EndLine, s.StartLine-1)+max(context, 0))
		parts = append(parts, part{from, max(from, to)})
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.from, b.from) })
	var b strings.Builder
	shown, prevTo := 0, 0
	for _, p := range parts {
		p.from = max(p.from, prevTo+1)
		if p.from > p.to {
			continue
		}
		if prevTo > 0 && p.from > prevTo+1 {
			b.WriteString("...\n")
		}
		for n := p.from; n <= p.to; n++ {
			if shown == maxRegionLines {
				b.WriteString("... (more edited lines not shown)\n")
				return b.String()
			}
			writeNumbered(&b, n, lines[n-1])
			shown++
		}
		prevTo = p.to
	}
	return b.String()
}

// writeNumbered writes one line as `cat -n` does, cut at maxRegionLineRunes.
func writeNumbered(b *strings.Builder, n int, line string) {
	num := strconv.Itoa(n)
	b.WriteString(strings.Repeat(" ", max(0, 6-len(num))))
	b.WriteString(num)
	b.WriteByte('\t')
	if extra := utf8.RuneCountInString(line) - maxRegionLineRunes; extra > 0 {
		cut := 0
		for range maxRegionLineRunes {
			_, size := utf8.DecodeRuneInString(line[cut:])
			cut += size
		}
		line = line[:cut] + " … [line cut: " + strconv.Itoa(extra) + " more characters]"
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

// forDisplay returns content without its byte order mark and with LF line breaks.
func forDisplay(content string) string {
	return toLF(strings.TrimPrefix(content, bom))
}
