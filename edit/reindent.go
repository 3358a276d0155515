package edit

import "strings"

// tabWidth is the width of a tab when indentation made of tabs is compared with indentation
// made of spaces. Both sides of a comparison use it, so only files that mix tabs and spaces
// inside one indentation depend on its value.
const tabWidth = 4

// indentStyle is how a file indents: with tabs or spaces, by unit columns a level (0 when
// unknown).
type indentStyle struct {
	tabs bool
	unit int
}

// detectIndent finds how lines indent: tabs if more lines start with a tab than with a space,
// and as unit the most frequent increase of indentation from one non-blank line to the next.
func detectIndent(lines []string) indentStyle {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := indentOf(l)
		switch {
		case strings.HasPrefix(ws, "\t"):
			tabs++
		case ws != "":
			spaces++
		}
		w := width(ws)
		if prev >= 0 && w > prev {
			steps[w-prev]++
		}
		prev = w
	}
	s := indentStyle{tabs: tabs > spaces}
	for step, n := range steps {
		if n > steps[s.unit] || (n == steps[s.unit] && step < s.unit) {
			s.unit = step
		}
	}
	return s
}

// indentOf returns the spaces and tabs a line starts with.
func indentOf(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// width returns how many columns an indentation takes.
func width(ws string) int {
	return len(ws) + (tabWidth-1)*strings.Count(ws, "\t")
}

// block is the indentation of a block's non-blank lines: the least (base) and the step
// between levels (unit, the greatest common divisor of the depths above base; 0 when all
// lines are at base).
type block struct {
	base, unit int
}

// measure returns the block of the given widths.
func measure(widths []int) block {
	b := block{base: -1}
	for _, w := range widths {
		if b.base < 0 || w < b.base {
			b.base = w
		}
	}
	for _, w := range widths {
		b.unit = gcd(b.unit, w-b.base)
	}
	return b
}

// level returns how many units w is above the base, and the columns left over.
func (b block) level(w int) (int, int) {
	d := w - b.base
	if b.unit == 0 {
		return 0, d
	}
	lv := d / b.unit
	if d < 0 && d%b.unit != 0 {
		lv-- // floor
	}
	return lv, d - lv*b.unit
}

// reindent re-indents new_string (repl) from the indentation of old_string's lines (olds) to
// that of the file lines they matched, converting tabs and spaces to the file's style. It
// reports false when the matched lines are not old_string's lines shifted by a constant
// number of levels: a block nested differently is not the block old_string meant.
func reindent(olds, matched []string, repl string, fileStyle func() indentStyle) (string, bool) {
	var ow, fw []int
	same := true
	tabs, indented := 0, 0
	for k, l := range olds {
		if strings.TrimSpace(l) == "" {
			continue
		}
		o, f := indentOf(l), indentOf(matched[k])
		same = same && o == f
		ow, fw = append(ow, width(o)), append(fw, width(f))
		if f != "" {
			indented++
			if f[0] == '\t' {
				tabs++
			}
		}
	}
	ob, fb := measure(ow), measure(fw)
	if (ob.unit == 0) != (fb.unit == 0) {
		return "", false
	}
	for k := range ow {
		if lo, _ := ob.level(ow[k]); ob.unit != 0 && lo != (fw[k]-fb.base)/fb.unit {
			return "", false
		}
	}
	if same {
		return repl, true
	}

	newLines := strings.Split(repl, "\n")
	if ob.unit == 0 { // old_string has one level: learn its unit from new_string
		for _, l := range newLines {
			if strings.TrimSpace(l) != "" {
				ob.unit = gcd(ob.unit, width(indentOf(l))-ob.base)
			}
		}
	}
	style := fileStyle()
	if indented > 0 {
		style.tabs = 2*tabs > indented
	}
	if fb.unit == 0 {
		fb.unit = style.unit
	}
	if fb.unit == 0 {
		fb.unit = ob.unit
	}
	for i, l := range newLines {
		body := strings.TrimLeft(l, " \t")
		if strings.TrimSpace(body) == "" {
			newLines[i] = ""
			continue
		}
		lv, rest := ob.level(width(indentOf(l)))
		newLines[i] = render(fb.base+lv*fb.unit+rest, style.tabs) + body
	}
	return strings.Join(newLines, "\n"), true
}

// render returns an indentation of w columns, with tabs (and spaces for the rest of a tab)
// or with spaces.
func render(w int, tabs bool) string {
	if w <= 0 {
		return ""
	}
	if !tabs {
		return strings.Repeat(" ", w)
	}
	return strings.Repeat("\t", w/tabWidth) + strings.Repeat(" ", w%tabWidth)
}

// gcd returns the greatest common divisor of |a| and |b|.
func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
