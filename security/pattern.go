package security

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPattern is a compiled policy glob. Policy globs are checked for every file a search
// reads, so the common shapes get a fast path that answers exactly what doublestar.Match
// would (pattern_test.go holds them to it): "**/NAME-GLOB" tests only the base name,
// "**/LITERAL/**" a component, and NAME-GLOB's own shapes ("*.ext", "prefix*", a literal)
// use string functions.
type pathPattern struct {
	glob string // the whole pattern, for the general case
	kind patternKind
	lit  string // the literal part of the fast paths
	base string // the base-name glob of kindBaseGlob
}

type patternKind uint8

const (
	kindGlob        patternKind = iota // doublestar.Match on the whole path
	kindBaseGlob                       // "**/X": doublestar.Match(X, base name)
	kindBaseLiteral                    // "**/lit"
	kindBasePrefix                     // "**/lit*"
	kindBaseSuffix                     // "**/*lit"
	kindComponent                      // "**/lit/**": some component is lit
)

// compilePattern picks the fast path of a (validated, lowercased) pattern.
func compilePattern(glob string) pathPattern {
	p := pathPattern{glob: glob}
	if rest, ok := strings.CutPrefix(glob, "**/"); ok {
		if dir, ok := strings.CutSuffix(rest, "/**"); ok && isLiteral(dir) && !strings.Contains(dir, "/") {
			p.kind, p.lit = kindComponent, dir
			return p
		}
		if strings.Contains(rest, "/") || strings.Contains(rest, "**") || strings.ContainsAny(rest, "{}") {
			return p
		}
		switch {
		case isLiteral(rest):
			p.kind, p.lit = kindBaseLiteral, rest
		case strings.HasSuffix(rest, "*") && isLiteral(rest[:len(rest)-1]):
			p.kind, p.lit = kindBasePrefix, rest[:len(rest)-1]
		case strings.HasPrefix(rest, "*") && isLiteral(rest[1:]):
			p.kind, p.lit = kindBaseSuffix, rest[1:]
		default:
			p.kind, p.base = kindBaseGlob, rest
		}
	}
	return p
}

// isLiteral reports whether a glob fragment has no meta characters.
func isLiteral(s string) bool { return !strings.ContainsAny(s, `*?[]{}\`) }

// match reports whether the (lowercased) canonical path matches.
func (p *pathPattern) match(name string) bool {
	base := name[strings.LastIndexByte(name, '/')+1:]
	switch p.kind {
	case kindBaseLiteral:
		return base == p.lit
	case kindBasePrefix:
		return strings.HasPrefix(base, p.lit)
	case kindBaseSuffix:
		return strings.HasSuffix(base, p.lit)
	case kindBaseGlob:
		ok, _ := doublestar.Match(p.base, base)
		return ok
	case kindComponent:
		for c := range strings.SplitSeq(name, "/") {
			if c == p.lit {
				return true
			}
		}
		return false
	}
	ok, _ := doublestar.Match(p.glob, name)
	return ok
}
