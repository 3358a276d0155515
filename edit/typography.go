package edit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// foldRune returns the ASCII that a typographic character stands for: curly quotes, dashes,
// Unicode spaces and the ellipsis are what models and word processors put for ' " - space
// and "..."; zero-width characters stand for nothing.
func foldRune(r rune) (string, bool) {
	switch r {
	case '‘', '’', '‚', '‛':
		return "'", true
	case '“', '”', '„', '‟':
		return `"`, true
	case '‐', '‑', '‒', '–', '—', '―':
		return "-", true
	case '…':
		return "...", true
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return "", true // zero-width characters, which models drop (a ZWJ inside an emoji)
	}
	if r != ' ' && unicode.Is(unicode.Zs, r) {
		return " ", true
	}
	return "", false
}

// folded is a string with its typography folded, and where each byte of it came from.
type folded struct {
	text string
	// src[i] is the offset in the original of byte i of text (len(text)+1 entries, -1 inside
	// an expansion); nil when nothing was folded and text is the original.
	src []int
}

// foldTypography folds s.
func foldTypography(s string) folded {
	if !hasFoldable(s) {
		return folded{text: s}
	}
	var b strings.Builder
	b.Grow(len(s))
	src := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf { // ASCII folds to itself
			b.WriteByte(s[i])
			src = append(src, i)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if ascii, ok := foldRune(r); ok {
			b.WriteString(ascii)
			for k := range len(ascii) { // none for a zero-width character
				if k == 0 {
					src = append(src, i)
				} else {
					src = append(src, -1) // inside the expansion
				}
			}
		} else {
			b.WriteString(s[i : i+size])
			for k := range size {
				src = append(src, i+k)
			}
		}
		i += size
	}
	return folded{text: b.String(), src: append(src, len(s))}
}

// hasFoldable reports whether s has a character that foldRune folds. All of them are
// outside ASCII, which most code is, so ASCII bytes are skipped without decoding.
func hasFoldable(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if _, ok := foldRune(r); ok {
			return true
		}
		i += size
	}
	return false
}

// orig maps an offset of the folded text to the original, or -1 inside an expansion.
func (f *folded) orig(p int) int {
	if f.src == nil {
		return p
	}
	return f.src[p]
}

// keepFileChars returns new_string with the file's typography kept: where old_string and the
// file's region differ only by folding (a straight quote for a curly one), and new_string
// keeps that part of old_string unchanged, the file's characters are used.
func keepFileChars(old, region, repl string) string {
	groups := foldGroups(old, region)
	if len(groups) == 0 || !utf8.ValidString(old) || !utf8.ValidString(repl) {
		return repl // udiff's offsets count invalid bytes as U+FFFD: not to be trusted
	}
	edits := udiff.Strings(old, repl) // ascending, in old's offsets
	var b strings.Builder
	last, shift, e := 0, 0, 0 // last: bytes of repl written; shift: repl offset - old offset
	for _, g := range groups {
		for e < len(edits) && edits[e].End <= g.oldStart { // before the group in new_string too
			shift += len(edits[e].New) - (edits[e].End - edits[e].Start)
			e++
		}
		if e < len(edits) && edits[e].Start < g.oldEnd {
			continue // new_string changes this part (or inserts inside it)
		}
		at := g.oldStart + shift
		b.WriteString(repl[last:at])
		b.WriteString(region[g.fileStart:g.fileEnd])
		last = at + g.oldEnd - g.oldStart
	}
	b.WriteString(repl[last:])
	return b.String()
}

// foldGroup is a part of old_string and the part of the file's region that folds to the same
// text, when the two differ.
type foldGroup struct {
	oldStart, oldEnd, fileStart, fileEnd int
}

// foldGroups pairs old and region, which fold to the same text, into the smallest parts
// that fold alike, and returns those that differ.
func foldGroups(old, region string) []foldGroup {
	var out []foldGroup
	i, j, fi, fj := 0, 0, 0, 0 // byte offsets in old and region, and in their folded forms
	for i < len(old) && j < len(region) {
		g := foldGroup{oldStart: i, fileStart: j}
		i, fi = stepFolded(old, i, fi)
		j, fj = stepFolded(region, j, fj)
		for fi != fj {
			if fi < fj && i < len(old) {
				i, fi = stepFolded(old, i, fi)
			} else if fj < fi && j < len(region) {
				j, fj = stepFolded(region, j, fj)
			} else {
				return out // cannot happen for strings that fold alike
			}
		}
		g.oldEnd, g.fileEnd = i, j
		if old[g.oldStart:i] != region[g.fileStart:j] {
			out = append(out, g)
		}
	}
	return out
}

// stepFolded moves past one rune of s at byte i, whose folded form starts at f.
func stepFolded(s string, i, f int) (int, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if ascii, ok := foldRune(r); ok {
		return i + size, f + len(ascii)
	}
	return i + size, f + size
}
