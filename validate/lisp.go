package validate

import "strings"

// lispDialect is what sets one Lisp's reader apart, as far as balance goes.
// All of them share the rest: ';' starts a comment that ends the line, and a
// backslash outside strings takes the next character literally, which covers
// Common Lisp and Scheme's #\( , Clojure's \( , Emacs Lisp's ?\( and escaped
// characters in symbols.
type lispDialect struct {
	// brackets lists opener, closer pairs.
	brackets string
	// quotes lists the delimiters of strings, and of symbols where the
	// dialect quotes them with |bars|; inside, a backslash escapes.
	quotes string
	// blockComments is true when #| ... |# comments, nesting, exist.
	blockComments bool
	// charPrefix, when not 0, starts a character literal at the start of a
	// token and quotes the next character: Emacs Lisp's ?( and ?" .
	charPrefix byte
}

var (
	// In Emacs Lisp and Common Lisp braces are ordinary symbol characters,
	// and so are brackets in Common Lisp.
	emacsLisp  = lispDialect{brackets: "()[]", quotes: `"`, charPrefix: '?'}
	commonLisp = lispDialect{brackets: "()", quotes: `"|`, blockComments: true}
	// Scheme's |symbols| are left out: R7RS has them, but Guile, by
	// default, reads '|' as an ordinary symbol character.
	scheme  = lispDialect{brackets: "()[]{}", quotes: `"`, blockComments: true}
	racket  = lispDialect{brackets: "()[]{}", quotes: `"|`, blockComments: true}
	clojure = lispDialect{brackets: "()[]{}", quotes: `"`}
)

// check reports, in the order of the text, a closer that closes nothing or
// the wrong opener, or a string or block comment never closed (where it
// starts); failing those, the innermost opener never closed. Reader macros
// such as #_ and #; need nothing: what they comment out must be balanced too.
func (d lispDialect) check(src []byte) *Problem {
	var open []int // offsets of the openers not closed yet
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			i++
		case d.charPrefix != 0 && c == d.charPrefix && lispTokenStart(src, i) && i+1 < len(src) && src[i+1] != '\\':
			i++
		case c == ';':
			i = lineEnd(src, i)
		case d.blockComments && c == '#' && i+1 < len(src) && src[i+1] == '|':
			end := blockCommentEnd(src, i)
			if end < 0 {
				return problemAt(src, i, "block comment #| is never closed")
			}
			i = end
		case strings.IndexByte(d.quotes, c) >= 0:
			end := quotedEnd(src, i)
			if end < 0 {
				return problemAt(src, i, "%c is never closed", c)
			}
			i = end
		default:
			k := strings.IndexByte(d.brackets, c)
			switch {
			case k < 0: // not a bracket
			case k%2 == 0:
				open = append(open, i)
			case len(open) == 0:
				return problemAt(src, i, "%c closes nothing", c)
			case src[open[len(open)-1]] != d.brackets[k-1]:
				line, column := position(src, open[len(open)-1])
				return problemAt(src, i, "%c does not close %c at line %d, column %d", c, src[open[len(open)-1]], line, column)
			default:
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) > 0 {
		last := open[len(open)-1]
		return problemAt(src, last, "%c is never closed (%d unclosed at end of file)", src[last], len(open))
	}
	return nil
}

// lispTokenStart reports whether offset i of src starts a token: it follows
// whitespace, a bracket, a quote or nothing.
func lispTokenStart(src []byte, i int) bool {
	return i == 0 || strings.IndexByte(" \t\r\n\f()[]{}'`,\"", src[i-1]) >= 0
}

// blockCommentEnd returns the offset of the last byte of the #| ... |# comment
// opening at i, counting nested ones, or -1 when it is not closed.
func blockCommentEnd(src []byte, i int) int {
	depth := 0
	for j := i; j+1 < len(src); j++ {
		switch {
		case src[j] == '#' && src[j+1] == '|':
			depth++
			j++
		case src[j] == '|' && src[j+1] == '#':
			depth--
			j++
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// quotedEnd returns the offset of the delimiter that closes the one at i,
// skipping backslash escapes, or -1 when it is not closed.
func quotedEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case src[i]:
			return j
		}
	}
	return -1
}
