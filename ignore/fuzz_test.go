package ignore

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refDowild is a literal transcription of git's dowild() (WM_PATHNAME, no
// case folding) without this package's two abort shortcuts. It can take
// exponential time, so it is only run on small inputs, to prove that the
// shortcuts never change an answer.
func refDowild(p, text string) int {
	pi, ti := 0, 0
	at := func(s string, i int) byte { // C's NUL terminator
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	for ; at(p, pi) != 0; pi, ti = pi+1, ti+1 {
		pch, tch := p[pi], at(text, ti)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			pi++
			if tch != at(p, pi) {
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
			matchSlash := false
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if (prev < 0 || p[prev] == '/') &&
					(at(p, pi) == 0 || at(p, pi) == '/' || (at(p, pi) == '\\' && at(p, pi+1) == '/')) {
					if at(p, pi) == '/' && refDowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if at(p, pi) == 0 {
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			} else if !matchSlash && p[pi] == '/' {
				s := strings.IndexByte(text[ti:], '/')
				if s < 0 {
					return wmNoMatch
				}
				ti += s
				continue
			}
			for {
				if tch == 0 {
					break
				}
				if !isGlobSpecial(p[pi]) {
					pc := p[pi]
					for tch = at(text, ti); tch != 0 && (matchSlash || tch != '/'); tch = at(text, ti) {
						if tch == pc {
							break
						}
						ti++
					}
					if tch != pc {
						return wmNoMatch
					}
				}
				if m := refDowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
				tch = at(text, ti)
			}
			return wmAbortAll
		case '[':
			end, ok := matchBracket(p, pi, tch)
			if end < 0 {
				return wmAbortAll
			}
			pi = end
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

// refMatch is git's match_basename / match_pathname over refDowild.
func refMatch(p *pattern, rel, base string) bool {
	if p.basename {
		return refDowild(p.text, base) == wmMatch
	}
	if len(rel) < p.prefix || rel[:p.prefix] != p.text[:p.prefix] {
		return false
	}
	return refDowild(p.text[p.prefix:], rel[p.prefix:]) == wmMatch
}

func TestWildmatchAgreesWithReference(t *testing.T) {
	for _, v := range vectors {
		p, ok := compile(v.pattern)
		if !ok {
			continue
		}
		base := v.path[strings.LastIndexByte(v.path, '/')+1:]
		assert.Equal(t, refMatch(&p, v.path, base), p.matchGeneral(v.path, base), "%s", v.name())
	}
}

// TestNoExponentialBlowup: patterns that make a naive backtracking matcher
// (and git's fast path) take exponential time must answer at once.
func TestNoExponentialBlowup(t *testing.T) {
	long := strings.Repeat("a", 5000)
	tests := []struct{ name, pattern, text string }{
		{"stars before missing literal", "*a*a*a*a*a*a*a*b", long},
		{"stars before a slash", "*a*a*a*a*a*a*a*b", strings.Repeat("a", 200) + "/x"},
		{"double stars", "**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/x", strings.Repeat("a/", 500)},
		{"double star and stars", "**/*a*a*a*a*a*a*b/**/c", strings.Repeat("a/", 100) + long},
		{"mixed", "*a?*a[a]*a*a*\\a*a*a*b", long},
		{"many segments", "a/**/a/**/a/**/a/**/a/**/b", strings.Repeat("a/", 300) + "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			assert.False(t, wildmatch(tt.pattern, tt.text))
			assert.Less(t, time.Since(start), 2*time.Second)
		})
	}
}

// FuzzMatch: compiling and matching never panic or hang, every fast path
// agrees with the general matcher, and the general matcher agrees with the
// literal port of git's code on small inputs.
func FuzzMatch(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.pattern, v.path)
	}
	for _, p := range realPatterns {
		f.Add(p, "a/b/c.log")
	}
	f.Add("*a*a*a*a*a*a*a*b", strings.Repeat("a", 300))
	f.Add("**/**/**/**/**/x", strings.Repeat("a/", 100))
	f.Fuzz(func(t *testing.T, line, path string) {
		start := time.Now()
		r := Parse("", []byte(line))
		r.Match(path, false)
		r.Match(path, true)
		Parse("d", []byte(line)).Match("d/"+path, true)
		p, ok := compile(line)
		if !ok {
			return
		}
		base := path[strings.LastIndexByte(path, '/')+1:]
		general := p.matchGeneral(path, base)
		require.Equal(t, general, p.match(path, base), "fast path %d disagrees on %q vs %q", p.kind, line, path)
		if strings.Count(line, "*") <= 4 && len(path) <= 48 && !strings.ContainsRune(line+path, 0) {
			require.Equal(t, refMatch(&p, path, base), general, "abort shortcuts change %q vs %q", line, path)
		}
		require.Less(t, time.Since(start), 5*time.Second, "too slow: %q vs %q", line, path)
	})
}

// TestAbortShortcutsRandom compares dowild with the literal port of git's code
// on many random wildcard-heavy patterns and texts.
func TestAbortShortcutsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	patAtoms := []string{"*", "**", "?", "a", "b", "/", "**/", "/**", "[ab]", "[!a]", "\\a", "\\/", "[/]"}
	textAtoms := []string{"a", "b", "/", "ab", "ba"}
	for i := 0; i < 100000; i++ {
		var p, s strings.Builder
		for k := rng.IntN(7); k >= 0; k-- {
			p.WriteString(patAtoms[rng.IntN(len(patAtoms))])
		}
		for k := rng.IntN(9); k >= 0; k-- {
			s.WriteString(textAtoms[rng.IntN(len(textAtoms))])
		}
		pat, text := p.String(), s.String()
		if got, want := dowild(pat, text) == wmMatch, refDowild(pat, text) == wmMatch; got != want {
			t.Fatalf("dowild(%q, %q) = %v, git's algorithm says %v", pat, text, got, want)
		}
	}
}
