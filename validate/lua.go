package validate

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/jido-run/jido/luanest"
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
	if off := luanest.TooDeep(string(body), maxLuaDepth); off >= 0 {
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
