package ignore

import "strings"

// kind selects how a pattern is matched; all but kindGeneral are fast paths
// decided once at Parse time.
type kind uint8

const (
	kindGeneral    kind = iota // wildmatch (after the literal prefix when anchored)
	kindLiteral                // no wildcard: string compare
	kindSuffix                 // basename "*lit": suffix compare (git's PATTERN_FLAG_ENDSWITH)
	kindPrefixStar             // "lit*": prefix compare, no '/' after it
)

// pattern is one compiled line of an ignore file.
type pattern struct {
	text     string // without '!', the trailing '/' and, if anchored, one leading '/'
	lit      string // the literal part used by the fast paths
	tail     string // kindGeneral: literal end every matching name has
	prefix   int    // length of the wildcard-free prefix of text (git's nowildcardlen)
	kind     kind
	negate   bool // "!pattern"
	dirOnly  bool // "pattern/"
	basename bool // no '/' inside: matched against the basename at any depth
}

// parseLines splits an ignore file the way git's add_patterns_from_buffer
// does and compiles every usable line. Patterns are substrings of one copy of
// the content.
func parseLines(content []byte) []pattern {
	text := strings.TrimPrefix(string(content), "\xef\xbb\xbf") // UTF-8 BOM
	pats := make([]pattern, 0, strings.Count(text, "\n")+1)
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n") // git appends a missing final newline
		text = rest
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimSuffix(line, "\r")
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i] // git handles each line as a C string
		}
		if p, ok := compile(trimTrailingSpaces(line)); ok {
			pats = append(pats, p)
		}
	}
	if len(pats) == 0 {
		return nil
	}
	return pats
}

// trimTrailingSpaces removes unescaped trailing spaces (not tabs), like git's
// trim_trailing_spaces: `a\ ` keeps its escaped space.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s // a trailing backslash keeps everything
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// simpleLength is the length of the prefix of s free of glob characters.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// compile parses one trimmed line as git's parse_path_pattern does and picks a
// fast path. ok is false for patterns that can never match (empty ones).
func compile(line string) (pattern, bool) {
	var p pattern
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	if line == "" {
		return p, false
	}
	p.basename = strings.IndexByte(line, '/') < 0
	if !p.basename && line[0] == '/' {
		line = line[1:] // anchored: the leading slash only marks the anchor
	}
	p.text = line
	p.prefix = simpleLength(line)
	switch {
	case p.prefix == len(line):
		p.kind, p.lit = kindLiteral, line
	case p.basename && line[0] == '*' && simpleLength(line[1:]) == len(line)-1:
		p.kind, p.lit = kindSuffix, line[1:]
	case p.prefix == len(line)-1 && line[p.prefix] == '*':
		p.kind, p.lit = kindPrefixStar, line[:p.prefix]
	default:
		p.tail = literalTail(line)
	}
	return p, true
}

// literalTail returns the end of pattern that a matching name must end with:
// what follows the last wildcard, bracket or backslash, without the slash of a
// final "**/" (which may match zero directories).
func literalTail(pattern string) string {
	i := strings.LastIndexAny(pattern, "*?[]\\")
	tail := pattern[i+1:]
	if i > 0 && pattern[i] == '*' && pattern[i-1] == '*' {
		tail = strings.TrimPrefix(tail, "/")
	}
	return tail
}

// match reports whether the pattern matches a path: rel is the path relative
// to the directory of the ignore file, base its last segment.
func (p *pattern) match(rel, base string) bool {
	name := rel
	if p.basename {
		name = base
	}
	switch p.kind {
	case kindLiteral:
		return name == p.lit
	case kindSuffix:
		return strings.HasSuffix(name, p.lit)
	case kindPrefixStar:
		return strings.HasPrefix(name, p.lit) && strings.IndexByte(name[len(p.lit):], '/') < 0
	}
	// Cheap rejections before wildmatch: the literal prefix and end.
	if !strings.HasSuffix(name, p.tail) || !strings.HasPrefix(name, p.text[:p.prefix]) {
		return false
	}
	return p.matchGeneral(rel, base)
}

// matchGeneral is git's match_basename / match_pathname without fast paths.
// For anchored patterns git compares the wildcard-free prefix literally and
// wildmatches the rest on its own, so a "**" right after that prefix counts as
// starting the pattern ("a**/b" matches "ax/y/b"); this reproduces it.
func (p *pattern) matchGeneral(rel, base string) bool {
	if p.basename {
		return wildmatch(p.text, base)
	}
	if len(rel) < p.prefix || rel[:p.prefix] != p.text[:p.prefix] {
		return false
	}
	return wildmatch(p.text[p.prefix:], rel[p.prefix:])
}
