// Package luanest finds Lua source nested too deeply for gopher-lua: its compiler recurses
// once per level of brackets and blocks, and a Go stack overflow kills the process instead of
// panicking. Lua 5.1 itself refuses about 200 levels ("chunk has too many syntax levels").
// The sandbox (before compiling a snippet) and the validator (before parsing a .lua file)
// share this one scan, so they agree on what is too deep.
package luanest

import "strings"

// TooDeep returns the offset of the first bracket or block opener nested more
// than limit levels deep, or -1. It is a lexer of its own, just
// good enough to skip strings and comments and to see the keywords that open
// and close blocks; the parser judges everything else.
func TooDeep(src string, limit int) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		start, opens := i, false
		switch c := src[i]; {
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			i = luaCommentEnd(src, i+2)
		case c == '[' && luaLongBracket(src, i) >= 0:
			i = luaLongEnd(src, i)
		case c == '"' || c == '\'':
			i = luaQuotedEnd(src, i)
		case c == '(' || c == '[' || c == '{':
			opens = true
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case isWordByte(c):
			for i+1 < len(src) && isWordByte(src[i+1]) {
				i++
			}
			switch src[start : i+1] {
			case "do", "function", "if", "repeat":
				opens = true
			case "end", "until":
				depth = max(depth-1, 0)
			}
		}
		if opens {
			if depth == limit {
				return start
			}
			depth++
		}
	}
	return -1
}

// isWordByte reports whether c may be part of a name, keyword or number.
func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// luaLongBracket returns the level of the long bracket [==[ opening at i (the
// number of '='), or -1 when there is none.
func luaLongBracket(src string, i int) int {
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j < len(src) && src[j] == '[' {
		return j - i - 1
	}
	return -1
}

// luaLongEnd returns the offset of the last byte of the long string or
// comment whose opening bracket is at i, or len(src) when it is not closed.
func luaLongEnd(src string, i int) int {
	level := luaLongBracket(src, i)
	closer := "]" + strings.Repeat("=", level) + "]"
	start := i + level + 2
	end := strings.Index(src[start:], closer)
	if end < 0 {
		return len(src)
	}
	return start + end + len(closer) - 1
}

// luaCommentEnd returns the offset of the last byte of the comment whose text
// starts at i, just after "--".
func luaCommentEnd(src string, i int) int {
	if i < len(src) && src[i] == '[' && luaLongBracket(src, i) >= 0 {
		return luaLongEnd(src, i)
	}
	if end := strings.IndexByte(src[i:], '\n'); end >= 0 {
		return i + end
	}
	return len(src)
}

// luaQuotedEnd returns the offset of the quote that closes the string opened
// at i, or of the line end or content end that cuts it short.
func luaQuotedEnd(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case src[i], '\n':
			return j
		}
	}
	return len(src)
}
