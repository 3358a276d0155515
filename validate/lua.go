package validate

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// Limits of the Lua checker. Content beyond them is refused, not parsed, and
// reported as an Unchecked problem.
//
// Lua 5.1's own parser refuses nesting deeper than about 200 levels
// (LUAI_MAXCCALLS, "chunk has too many syntax levels"); maxLuaDepth, counted
// over brackets and blocks, sits at the same place, so it turns away
// practically no program that Lua accepts. gopher-lua's yacc parser does not
// recurse, but deep nesting is slow to parse (a million parentheses take a
// second), its compiler walks the tree recursively, and a Go stack overflow is
// fatal, not a panic that recover can catch: a cheap pre-scan keeps such input
// away from it.
const (
	maxLuaSize  = 1 << 20
	maxLuaDepth = 200
)

// checkLua parses src as a Lua 5.1 chunk with gopher-lua.
func checkLua(src []byte) *Problem {
	if len(src) > maxLuaSize {
		return &Problem{Message: fmt.Sprintf("not checked: %d bytes, over the %d the Lua checker parses", len(src), maxLuaSize), Unchecked: true}
	}
	// Like lua and gopher-lua's LoadFile, skip a first line that starts
	// with '#' (#!/usr/bin/env lua), but not its newline: lines keep their
	// numbers, and offsets in body are offsets in src less skip.
	body, skip := src, 0
	if len(src) > 0 && src[0] == '#' {
		skip = lineEnd(src, 0)
		body = src[skip:]
	}
	if off := luaTooDeep(body, maxLuaDepth); off >= 0 {
		p := problemAt(src, skip+off, "not checked: nested more than %d levels deep", maxLuaDepth)
		p.Unchecked = true
		return p
	}
	_, err := parse.Parse(bytes.NewReader(body), "")
	var perr *parse.Error
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &perr):
		return &Problem{Message: err.Error()}
	case perr.Pos.Line == parse.EOF:
		return problemAt(src, len(src), "%s at end of file", perr.Message)
	}
	return &Problem{
		Line:    perr.Pos.Line,
		Column:  luaTokenColumn(src, perr.Pos.Line, perr.Pos.Column, perr.Token),
		Message: fmt.Sprintf("%s near %q", perr.Message, perr.Token),
	}
}

// luaTokenColumn moves gopher-lua's column of a syntax error, that of the last
// byte of the offending token, to its first byte, when the token is indeed
// what ends there (a string token, unquoted, is not).
func luaTokenColumn(src []byte, line, column int, token string) int {
	start := 0
	for range line - 1 {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return column
		}
		start += i + 1
	}
	end := start + column
	if len(token) == 0 || len(token) > column || end > len(src) || string(src[end-len(token):end]) != token {
		return column
	}
	return column - len(token) + 1
}

// luaTooDeep returns the offset of the first bracket or block opener nested
// more than limit levels deep, or -1. It is a lexer of its own, just
// good enough to skip strings and comments and to see the keywords that open
// and close blocks; the parser judges everything else.
func luaTooDeep(src []byte, limit int) int {
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
			switch string(src[start : i+1]) {
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
func luaLongBracket(src []byte, i int) int {
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
func luaLongEnd(src []byte, i int) int {
	level := luaLongBracket(src, i)
	closer := []byte("]" + strings.Repeat("=", level) + "]")
	start := i + level + 2
	end := bytes.Index(src[start:], closer)
	if end < 0 {
		return len(src)
	}
	return start + end + len(closer) - 1
}

// luaCommentEnd returns the offset of the last byte of the comment whose text
// starts at i, just after "--".
func luaCommentEnd(src []byte, i int) int {
	if i < len(src) && src[i] == '[' && luaLongBracket(src, i) >= 0 {
		return luaLongEnd(src, i)
	}
	if end := bytes.IndexByte(src[i:], '\n'); end >= 0 {
		return i + end
	}
	return len(src)
}

// luaQuotedEnd returns the offset of the quote that closes the string opened
// at i, or of the line end or content end that cuts it short.
func luaQuotedEnd(src []byte, i int) int {
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
