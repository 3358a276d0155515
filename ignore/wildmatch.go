package ignore

import "strings"

// Results of dowild, as in git's wildmatch.c. Only wmMatch is a match; the two
// abort results prune the enclosing '*' loops (this is what keeps matching
// polynomial).
const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1 // no suffix of the text can match either
	wmAbortToStarStar = -2 // no match before the next '/' of the text
)

// wildmatch reports whether text matches pattern with git's WM_PATHNAME rules:
// '*', '?' and brackets never match '/', and "**" between slashes (or at either
// end) matches any number of directories.
func wildmatch(pattern, text string) bool {
	return dowild(pattern, text) == wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// dowild is a port of git's wildmatch.c dowild() with flags = WM_PATHNAME. The
// end of a Go string plays the role of C's NUL terminator. Two shortcuts
// return the result git's slower path would reach anyway (see the '*' case).
func dowild(p, text string) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		var tch byte
		if ti < len(text) {
			tch = text[ti]
		}
		switch pch {
		case '\\':
			// Literal match with the next character; a trailing backslash
			// never matches.
			pi++
			if pi >= len(p) || tch != p[pi] {
				return wmNoMatch
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
		case '*':
			pi++
			matchSlash := false
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2 // the byte before the first '*'
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/')) {
					// "**/" first tries to match zero directories.
					if pi < len(p) && p[pi] == '/' {
						switch dowild(p[pi+1:], text[ti:]) {
						case wmMatch:
							return wmMatch
						case wmAbortAll:
							// The loop below would only try suffixes of
							// text[ti:] for the same sub-pattern.
							return wmAbortAll
						}
					}
					matchSlash = true
				}
			}
			if pi == len(p) {
				// A trailing "**" matches everything, a trailing '*'
				// everything up to the next '/'.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One '*' followed by '/' matches the rest of this segment;
				// the slash is consumed by the loop increment.
				s := strings.IndexByte(text[ti:], '/')
				if s < 0 {
					return wmNoMatch
				}
				ti += s
				continue
			}
			for ti < len(text) {
				tch = text[ti]
				if !isGlobSpecial(p[pi]) {
					// Skip ahead to the next occurrence of the literal that
					// follows the star. Git returns WM_NOMATCH when it is
					// missing; returning what git's slow path would return
					// (abort) avoids exponential time on "*a*a*a*b".
					c := p[pi]
					for ti < len(text) && text[ti] != c && (matchSlash || text[ti] != '/') {
						ti++
					}
					if ti >= len(text) {
						return wmAbortAll
					}
					if text[ti] != c {
						return wmAbortToStarStar // stopped at a '/'
					}
					tch = c
				}
				if m := dowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			var ok bool
			pi, ok = matchBracket(p, pi, tch)
			if pi < 0 {
				return wmAbortAll
			}
			if !ok || tch == '/' {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchBracket matches c against the bracket expression that opens at p[open].
// It returns the index of the closing ']' and whether c is in the set, or -1
// when the expression is malformed (git then aborts the whole match).
func matchBracket(p string, open int, c byte) (int, bool) {
	i := open + 1
	if i >= len(p) {
		return -1, false
	}
	negated := p[i] == '!' || p[i] == '^'
	if negated {
		i++
	}
	matched := false
	var prev byte // previous literal, a possible range start
	hasPrev := false
	for {
		if i >= len(p) {
			return -1, false
		}
		ch := p[i]
		cur, curIsLiteral := ch, true
		switch {
		case ch == '\\':
			i++
			if i >= len(p) {
				return -1, false
			}
			cur = p[i]
			if c == cur {
				matched = true
			}
		case ch == '-' && hasPrev && i+1 < len(p) && p[i+1] != ']':
			i++
			hi := p[i]
			if hi == '\\' {
				i++
				if i >= len(p) {
					return -1, false
				}
				hi = p[i]
			}
			if c <= hi && c >= prev {
				matched = true
			}
			curIsLiteral = false
		case ch == '[' && i+1 < len(p) && p[i+1] == ':':
			s := i + 2
			j := s
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				return -1, false
			}
			if j-s-1 < 0 || p[j-1] != ':' {
				// No ":]" before the first ']': a literal '['.
				if c == '[' {
					matched = true
				}
				break
			}
			in, known := inClass(p[s:j-1], c)
			if !known {
				return -1, false
			}
			if in {
				matched = true
			}
			i = j
			curIsLiteral = false
		default:
			if c == ch {
				matched = true
			}
		}
		prev, hasPrev = cur, curIsLiteral
		i++
		if i < len(p) && p[i] == ']' {
			return i, matched != negated
		}
	}
}

// inClass reports whether c belongs to the POSIX class name, with git's ASCII
// ctype (its isspace is only " \t\n\r"); known is false for an unknown name.
func inClass(name string, c byte) (in, known bool) {
	lower := c >= 'a' && c <= 'z'
	upper := c >= 'A' && c <= 'Z'
	digit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !lower && !upper && !digit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
