// Package termsafe makes untrusted text (a model's answer, a tool's result, a file's
// content) safe to print on a terminal: it cannot move the cursor, erase or redraw what is
// on the screen, change colours or titles, or reorder the text around it.
//
// The convention is that of a Go string literal, so what is shown can be read back:
//
//	C0 controls (U+0000–U+001F) but tab and newline, and DEL   \x1b, \x00, \x7f …; \a \b \f \r \v
//	C1 controls (U+0080–U+009F)                               \u009b
//	bidi controls (U+202A–U+202E, U+2066–U+2069,              \u202e
//	  U+200E, U+200F, U+061C)
//	bytes that are not UTF-8                                  \xff
//
// Tab and newline are kept (Line makes newline visible too). A carriage return is made
// visible: it would let the text after it overwrite the line. Backslashes are not
// doubled, so a literal `\x1b` typed in a file looks the same as an escaped ESC byte;
// either way nothing reaches the terminal that it would interpret.
//
// Escape the content before adding one's own colours: the escape sequences of the caller
// are its own business, those of the content never get through.
package termsafe

import (
	"strings"
	"unicode/utf8"
)

// String returns s with every control character, bidi control and invalid byte replaced
// by a visible escape; tab and newline are kept. A string that needs nothing is returned
// as is, without allocating.
func String(s string) string { return escape(s, false) }

// Line is String for text that must stay on one line (a title, a label): newline is made
// visible as \n too.
func Line(s string) string { return escape(s, true) }

// JSON makes the output of encoding/json safe to print while keeping it the same JSON:
// encoding/json already escapes C0 controls inside strings, but writes DEL, C1 and bidi
// controls raw; JSON writes them as \u escapes, which decode to the same characters.
// Bytes that are not UTF-8 become \ufffd (encoding/json would decode them so). C0
// controls outside strings (JSON's whitespace) are kept.
func JSON(s string) string {
	return rewrite(s, false, true, func(b *strings.Builder, c byte) {
		if c == 0x7f {
			b.WriteString(`\u007f`)
		} else {
			b.WriteByte(c)
		}
	}, func(b *strings.Builder, _ byte) { b.WriteString(`\ufffd`) })
}

const hex = "0123456789abcdef"

// escape is String (line false) and Line (line true).
func escape(s string, line bool) string {
	return rewrite(s, line, false, func(b *strings.Builder, c byte) {
		if unsafeByte(c, line) {
			writeByte(b, c)
		} else {
			b.WriteByte(c)
		}
	}, func(b *strings.Builder, c byte) {
		b.WriteString(`\x`)
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xf])
	})
}

// rewrite copies s from its first unsafe byte on (s itself when there is none), giving
// each ASCII byte to ascii and each byte that is not UTF-8 to invalid, and writing unsafe
// runes as \u escapes.
func rewrite(s string, line, json bool, ascii, invalid func(*strings.Builder, byte)) string {
	i := firstUnsafe(s, line, json)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			ascii(&b, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			invalid(&b, c)
		case unsafeRune(r):
			writeU(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s to escape, or -1. In JSON mode only
// DEL is unsafe among the ASCII bytes.
func firstUnsafe(s string, line, json bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (json && c == 0x7f) || (!json && unsafeByte(c, line)) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) {
			return i
		}
		i += n
	}
	return -1
}

func unsafeByte(c byte, line bool) bool {
	return (c < 0x20 && c != '\t' && (c != '\n' || line)) || c == 0x7f
}

// unsafeRune reports the non-ASCII runes to escape: C1 controls and bidi controls.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

func writeByte(b *strings.Builder, c byte) {
	switch c {
	case '\a':
		b.WriteString(`\a`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\v':
		b.WriteString(`\v`)
	default:
		b.WriteString(`\x`)
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xf])
	}
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>shift)&0xf])
	}
}

// Stream escapes text that arrives in chunks (a streamed answer). Every control byte is
// escaped on its own, so a sequence split across chunks is harmless anyway; Stream only
// holds back a UTF-8 character cut at the end of a chunk, so that it is shown whole
// rather than as invalid bytes. The zero Stream is ready to use; one goroutine at a time.
type Stream struct{ pending string }

// Chunk returns the escaped text of chunk that can be shown now.
func (st *Stream) Chunk(chunk string) string {
	s := st.pending + chunk
	st.pending = ""
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				st.pending, s = s[i:], s[:i]
			}
			break
		}
	}
	return String(s)
}

// Flush returns the escaped bytes held back (a character that was never completed).
func (st *Stream) Flush() string {
	p := st.pending
	st.pending = ""
	return String(p)
}
