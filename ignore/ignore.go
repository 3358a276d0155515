// Package ignore decides which paths of a tree walk are ignored, giving exactly
// git's answers for .gitignore, .git/info/exclude and core.excludesFile (git's
// dir.c and wildmatch.c, case-sensitive), plus jido's own .jidoignore files.
//
// Precedence, as ripgrep gives .ignore files over .gitignore: the .jidoignore
// files decide first, deepest directory first; the first file with a matching
// pattern wins (its last matching pattern decides, "!" re-includes). When none
// matches, git's rules decide the same way: .gitignore files deepest first,
// then info/exclude, then core.excludesFile. So a .jidoignore "!build/" keeps a
// directory that .gitignore ignores, and a .jidoignore can ignore what git keeps.
//
// Like git, the matcher answers for one path at a time and never looks at
// parents: a walker must not descend into ignored directories (git never
// re-includes a file below an excluded directory). Matching does not allocate
// and everything is immutable, so a Matcher is shared freely by goroutines.
package ignore

import "strings"

// Rules are the compiled patterns of one ignore file (.gitignore, .jidoignore,
// info/exclude, core.excludesFile).
type Rules struct {
	dir  string // directory of the file relative to the walk root, "" for the root
	pats []pattern
}

// Parse compiles the content of an ignore file that lives in dir: a
// slash-separated path relative to the walk root, "" for the root itself. Lines
// are parsed as git does; lines git cannot use are silently dropped.
func Parse(dir string, content []byte) *Rules {
	return &Rules{dir: strings.Trim(dir, "/"), pats: parseLines(content)}
}

// Decision is the verdict of a set of rules on a path.
type Decision int8

const (
	None    Decision = iota // no pattern matches
	Ignore                  // the last matching pattern ignores the path
	Include                 // the last matching pattern is a negated (!) one
)

// Match returns the decision of the last pattern of r that matches path, a
// slash-separated path relative to the walk root without leading or trailing
// slash; isDir says whether it names a directory. A path not under r's
// directory gets None.
func (r *Rules) Match(path string, isDir bool) Decision {
	if r == nil || len(r.pats) == 0 {
		return None
	}
	rel := path
	if r.dir != "" {
		if len(path) <= len(r.dir)+1 || path[len(r.dir)] != '/' || path[:len(r.dir)] != r.dir {
			return None
		}
		rel = path[len(r.dir)+1:]
	}
	if rel == "" {
		return None
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for i := len(r.pats) - 1; i >= 0; i-- {
		p := &r.pats[i]
		if p.dirOnly && !isDir {
			continue
		}
		if p.match(rel, base) {
			if p.negate {
				return Include
			}
			return Ignore
		}
	}
	return None
}

// Len returns the number of patterns (0 for nil or empty rules).
func (r *Rules) Len() int {
	if r == nil {
		return 0
	}
	return len(r.pats)
}

// Matcher is an immutable chain of rule levels: one per directory entered by
// the walk, the root one holding the repository-wide git rules.
type Matcher struct {
	parent   *Matcher
	git      *Rules // this level's .gitignore, nil if none
	jido     *Rules // this level's .jidoignore, nil if none
	info     *Rules // .git/info/exclude (shared by the whole chain)
	excludes *Rules // core.excludesFile (shared by the whole chain)
	anyJido  bool   // some level of the chain has a .jidoignore
}

// New returns the root matcher with the repository-wide git rules:
// core.excludesFile content and .git/info/exclude content (both relative to
// the root; either may be nil).
func New(excludesFile, infoExclude []byte) *Matcher {
	return &Matcher{info: nonEmpty(Parse("", infoExclude)), excludes: nonEmpty(Parse("", excludesFile))}
}

// Enter returns the matcher for directory dir (relative to the walk root, ""
// for the root), adding dir's .gitignore and .jidoignore content (either may
// be nil). When neither has a pattern it returns m itself. m is not changed;
// a nil m stands for a root without repository-wide rules.
func (m *Matcher) Enter(dir string, gitignore, jidoignore []byte) *Matcher {
	if len(gitignore) == 0 && len(jidoignore) == 0 {
		return m
	}
	git, jido := nonEmpty(Parse(dir, gitignore)), nonEmpty(Parse(dir, jidoignore))
	if git == nil && jido == nil {
		return m
	}
	if m == nil {
		m = &Matcher{}
	}
	return &Matcher{parent: m, git: git, jido: jido, info: m.info, excludes: m.excludes,
		anyJido: m.anyJido || jido != nil}
}

// Ignored reports whether path (relative to the walk root) is ignored; isDir
// says whether it names a directory. See the package comment for precedence.
func (m *Matcher) Ignored(path string, isDir bool) bool {
	if m == nil {
		return false
	}
	for l := m; l != nil && l.anyJido; l = l.parent {
		if d := l.jido.Match(path, isDir); d != None {
			return d == Ignore
		}
	}
	for l := m; l != nil; l = l.parent {
		if d := l.git.Match(path, isDir); d != None {
			return d == Ignore
		}
	}
	if d := m.info.Match(path, isDir); d != None {
		return d == Ignore
	}
	return m.excludes.Match(path, isDir) == Ignore
}

func nonEmpty(r *Rules) *Rules {
	if r.Len() == 0 {
		return nil
	}
	return r
}
