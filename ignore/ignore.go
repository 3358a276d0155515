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
// Git never ignores a tracked file: one its index holds (ParseIndex reads it) is kept
// whatever .gitignore, info/exclude and core.excludesFile say, and so is a directory
// that holds tracked files, where git's rules still exclude every untracked entry
// (Excluded). A .jidoignore is the user's word to jido and decides before git's index:
// its patterns hide tracked files too.
//
// Each repository has its own rules and index: at a nested repository or submodule
// (Repo) the .gitignore files above it, and the outer repository's info/exclude and
// index, no longer apply; .jidoignore files still do.
//
// Like git, the matcher answers for one path at a time and never looks at
// parents: a walker must not descend into ignored directories (git never
// re-includes a file below an excluded directory), except those Check keeps for
// their tracked files. Matching does not allocate and everything is immutable,
// so a Matcher is shared freely by goroutines.
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
// the walk with ignore files, one per repository.
type Matcher struct {
	parent   *Matcher
	git      *Rules // this level's .gitignore, nil if none
	jido     *Rules // this level's .jidoignore, nil if none
	repo     *repo  // the repository of this level's directory (shared down to the next one)
	anyJido  bool   // some level of the chain has a .jidoignore
	boundary bool   // a repository's first level: the .gitignore files above it do not apply
	excluded bool   // below a directory git excludes, entered for its tracked files
}

// repo is what a repository contributes to its levels.
type repo struct {
	dir      string  // its work tree relative to the walk root, "" for the root
	info     *Rules  // .git/info/exclude
	excludes *Rules  // core.excludesFile
	index    Tracked // its index; nil: none, or unknown (the rules alone apply)
}

// Tracked tells which paths a repository's index holds, relative to the repository:
// an entry, or with isDir a directory holding entries. *Index is one.
type Tracked interface {
	Tracked(path string, isDir bool) bool
}

// New returns the root matcher with the repository-wide git rules:
// core.excludesFile content and .git/info/exclude content (both relative to
// the root; either may be nil). It knows no index: every path is untracked.
func New(excludesFile, infoExclude []byte) *Matcher {
	return &Matcher{repo: &repo{info: nonEmpty(Parse("", infoExclude)), excludes: nonEmpty(Parse("", excludesFile))}}
}

// Repo returns the matcher for the work tree of the repository at dir (relative to
// the walk root, "" for the root): a nested repository, a submodule, or the root's own.
// Git's rules of m (its .gitignore levels, info/exclude, and whether m's directory was
// excluded) stop there; its own are infoExclude (relative to dir, may be nil), the
// core.excludesFile of m anchored at dir, and the .gitignore files a walk adds below.
// index tells which paths it tracks (nil: none known). m's .jidoignore levels go on.
func (m *Matcher) Repo(dir string, infoExclude []byte, index Tracked) *Matcher {
	dir = strings.Trim(dir, "/")
	if m == nil {
		m = New(nil, nil)
	}
	var excludes *Rules
	if m.repo.excludes != nil {
		excludes = &Rules{dir: dir, pats: m.repo.excludes.pats}
	}
	r := &repo{dir: dir, info: nonEmpty(Parse(dir, infoExclude)), excludes: excludes, index: index}
	return &Matcher{parent: m, repo: r, anyJido: m.anyJido, boundary: true}
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
		m = New(nil, nil)
	}
	return &Matcher{parent: m, git: git, jido: jido, repo: m.repo, anyJido: m.anyJido || jido != nil, excluded: m.excluded}
}

// Excluded returns the matcher for the entries of a directory that Check kept only
// for the tracked files it holds: git excludes everything below it, so there only
// tracked entries are kept (and a .jidoignore may still hide them).
func (m *Matcher) Excluded() *Matcher {
	if m == nil || m.excluded {
		return m
	}
	c := *m
	c.parent, c.git, c.jido, c.boundary, c.excluded = m, nil, nil, false, true
	return &c
}

// Verdict is what a Matcher says of a path.
type Verdict int8

const (
	Keep        Verdict = iota // not ignored
	Skip                       // ignored: leave it out, do not enter it
	KeepTracked                // git's rules exclude it but its index tracks it (a directory: holds tracked files)
)

// Check returns the verdict on path (relative to the walk root); isDir says whether
// it names a directory. See the package comment for precedence.
func (m *Matcher) Check(path string, isDir bool) Verdict {
	if m == nil {
		return Keep
	}
	for l := m; l != nil && l.anyJido; l = l.parent {
		if d := l.jido.Match(path, isDir); d != None {
			if d == Ignore {
				return Skip
			}
			if !m.excluded {
				return Keep
			}
			break // below an excluded directory only the index keeps a path
		}
	}
	if !m.excluded && !m.gitIgnores(path, isDir) {
		return Keep
	}
	r := m.repo
	if r.index != nil {
		rel := path
		if r.dir != "" {
			rel = path[min(len(r.dir)+1, len(path)):]
		}
		if r.index.Tracked(rel, isDir) {
			return KeepTracked
		}
	}
	return Skip
}

// Ignored reports whether path (relative to the walk root) is ignored: Check says Skip.
func (m *Matcher) Ignored(path string, isDir bool) bool {
	return m.Check(path, isDir) == Skip
}

// gitIgnores reports whether git's rules of the repository ignore path, regardless
// of its index: its .gitignore files deepest first, then info/exclude, then
// core.excludesFile.
func (m *Matcher) gitIgnores(path string, isDir bool) bool {
	for l := m; l != nil; l = l.parent {
		if d := l.git.Match(path, isDir); d != None {
			return d == Ignore
		}
		if l.boundary {
			break
		}
	}
	if d := m.repo.info.Match(path, isDir); d != None {
		return d == Ignore
	}
	return m.repo.excludes.Match(path, isDir) == Ignore
}

func nonEmpty(r *Rules) *Rules {
	if r.Len() == 0 {
		return nil
	}
	return r
}
