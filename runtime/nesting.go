package runtime

import "strings"

// checkNesting refuses a source whose brackets or blocks nest deeper than maxSyntaxLevels, as
// Lua 5.1 does ("chunk has too many syntax levels"). gopher-lua's compiler recurses once per
// level, and deep enough nesting overflows the Go stack, which kills the process instead of
// panicking (research 1.9 #8). The scan is lexical: it skips strings and comments and counts
// ( { [ function if do repeat against ) } ] end until.
func checkNesting(src string) *Error {
	depth := 0
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case strings.HasPrefix(src[i:], "--"):
			i = skipComment(src, i+2)
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
		case longLevel(src, i) >= 0:
			i = skipLong(src, i)
		case c == '(' || c == '{' || c == '[':
			depth++
			i++
		case c == ')' || c == '}' || c == ']':
			depth--
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && (isIdentStart(src[j]) || isDigit(src[j])) {
				j++
			}
			switch src[i:j] {
			case "function", "if", "do", "repeat":
				depth++
			case "end", "until":
				depth--
			}
			i = j
		default:
			i++
		}
		if depth > maxSyntaxLevels {
			return newError(KindSyntax, "the source nests brackets or blocks deeper than %d levels", maxSyntaxLevels)
		}
	}
	return nil
}

// longLevel returns the level of the long bracket opening at i ([[ is 0, [==[ is 2), or -1.
func longLevel(src string, i int) int {
	if i >= len(src) || src[i] != '[' {
		return -1
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j < len(src) && src[j] == '[' {
		return j - i - 1
	}
	return -1
}

// skipLong returns the index after the long string or comment opening at i.
func skipLong(src string, i int) int {
	level := longLevel(src, i)
	start := i + level + 2
	end := strings.Index(src[start:], "]"+strings.Repeat("=", level)+"]")
	if end < 0 {
		return len(src)
	}
	return start + end + level + 2
}

// skipComment returns the index after the comment whose text starts at i.
func skipComment(src string, i int) int {
	if longLevel(src, i) >= 0 {
		return skipLong(src, i)
	}
	if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(src)
}

// skipQuoted returns the index after the quoted string opening at i (or its line, if unfinished).
func skipQuoted(src string, i int) int {
	quote := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case quote:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
