package ignore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handTree is a small tree written to exercise one group of git's rules.
// Files maps paths to content; a path ending in "/" is an empty directory.
type handTree struct {
	name     string
	files    map[string]string
	info     string // .git/info/exclude
	excludes string // core.excludesFile ("" means no excludes file)
}

// plain lists files whose content does not matter.
func plain(m map[string]string, paths ...string) map[string]string {
	for _, p := range paths {
		m[p] = "x"
	}
	return m
}

var handTrees = []handTree{
	{
		name: "nested negation",
		files: plain(map[string]string{
			".gitignore": "*.log\n!important.log\nbuild/\n/root-only.txt\ndocs/*.md\n!docs/keep.md\n" +
				"logs/**\n!logs/keep\nexcluded/\n!excluded/inner.txt\n!excluded/\n",
			"sub/.gitignore":       "!a.log\n*.tmp\n/local\ndeep/**/x\n!/deep/keep/x\n",
			"sub/inner/.gitignore": "!*.tmp\nlocal\n",
			"gone/.gitignore":      "!*\n",
			"gone2/.gitignore":     "!keep\n",
			".gitignore2":          "",
		},
			"a.log", "important.log", "sub/a.log", "sub/b.log", "sub/important.log",
			"build/x", "sub/build/y", "other/build", "root-only.txt", "sub/root-only.txt",
			"docs/a.md", "docs/keep.md", "docs/sub/b.md", "docs/a.txt",
			"logs/a", "logs/keep", "logs/sub/c", "logs/sub/keep",
			"excluded/inner.txt", "excluded/other",
			"sub/b.tmp", "sub/local", "sub/x/local", "sub/deep/x", "sub/deep/1/2/x", "sub/deep/1/y",
			"sub/deep/keep/x", "sub/inner/c.tmp", "sub/inner/local", "sub/inner/d.log",
			"gone/a.log", "gone2/keep", "gone2/x.log"),
	},
	{
		name: "file under excluded directory stays ignored",
		files: plain(map[string]string{
			".gitignore": "out/\n!out/keep.txt\n!out/sub/\ncache\n!cache/x\ndist/*\n!dist/keep\n" +
				"pkg/**\n!pkg/keep\n!pkg/dir/\n",
		},
			"out/keep.txt", "out/sub/a", "out/b", "cache/x", "cache/y", "dist/keep", "dist/drop",
			"dist/sub/keep", "pkg/keep", "pkg/drop", "pkg/dir/a", "pkg/sub/keep"),
	},
	{
		name: "anchoring",
		files: plain(map[string]string{
			".gitignore":     "/top\nmid/dle\n/a/b/c\nsub/x/\n**/y/z\n",
			"sub/.gitignore": "/top\nfoo/bar\n/baz/\nqux\n",
		},
			"top", "x/top", "sub/top", "sub/deeper/top", "mid/dle", "x/mid/dle", "sub/mid/dle",
			"a/b/c", "x/a/b/c", "sub/x/f", "sub/sub/x/f", "q/y/z", "y/z", "q/r/y/z",
			"sub/foo/bar", "sub/k/foo/bar", "foo/bar", "sub/baz/f", "sub/k/baz/f", "sub/baz2",
			"sub/qux", "sub/k/qux", "qux"),
	},
	{
		name: "directory-only patterns versus files",
		files: plain(map[string]string{
			".gitignore": "build/\nlib\n/tmp/\nnode_modules/\n*.d/\n",
		},
			"build", "a/build/x", "b/build", "lib/x", "c/lib", "tmp/x", "d/tmp/x", "tmp2",
			"node_modules/p/index.js", "web/node_modules/q/index.js", "web/node_modules2",
			"conf.d/a", "conf.d2", "e/x.d"),
	},
	{
		name: "double star everywhere",
		files: plain(map[string]string{
			".gitignore": "**/logs\n**/cache/*.bin\nfoo/**\n!foo/keep\n!foo/keepdir/\na/**/z\nx**y\n" +
				"sp/**/deep/**/leaf\nq**/r\n**/tail/**\n",
			"ds/.gitignore": "**/\n",
		},
			"logs", "s/logs", "s/t/logs/f", "cache/a.bin", "s/cache/b.bin", "s/cache/c.txt",
			"foo/a", "foo/keep", "foo/keepdir/b", "foo/sub/keep", "foo2", "a/z", "a/b/z", "a/b/c/z",
			"a/zz", "xy", "xay", "x/y", "xaay/f", "sp/deep/leaf", "sp/1/deep/2/leaf", "sp/deep/leafy",
			"q/r", "qq/s/r", "qa/r", "tail/a", "s/tail/b", "s/tail2", "ds/file", "ds/dir/file"),
	},
	{
		name: "brackets and classes",
		files: plain(map[string]string{
			".gitignore": "[!a-m]*.txt\nfile[[:digit:]].c\n*.py[cod]\n[[:upper:]]*\n[]x]\n[!]]z\nv[0-9][0-9]/\n" +
				"weird[\n[[:bogus:]]*\nsp[[:space:]]x\n",
		},
			"apple.txt", "nose.txt", "zoo.txt", "Bear.txt", "file1.c", "filex.c", "file12.c",
			"m.pyc", "m.pyo", "m.pyd", "m.py", "m.pyx", "Readme", "readme", "]", "x", "az", "]z",
			"v12/a", "v1/a", "v123/a", "weird[", "weird", "xx", "sp x", "sp\tx", "spxx"),
	},
	{
		name: "escapes whitespace comments CRLF and BOM",
		files: plain(map[string]string{
			".gitignore": "\xef\xbb\xbf# a comment\n\\#hash\n\\!bang\ntrailing   \nescaped\\ \n" +
				"tab\t\n\n   \nback\\\\slash\n!\n/\nstar\\*\n",
			"crlf/.gitignore":    "*.o\r\n!keep.o\r\nsp \r\n# c\r\n\r\nlast",
			"nofinal/.gitignore": "x",
		},
			"#hash", "!bang", "hash", "bang", "trailing", "trailing ", "escaped ", "escaped",
			"tab\t", "tab", "back\\slash", "star*", "starx", "# a comment",
			"crlf/a.o", "crlf/keep.o", "crlf/sp", "crlf/last", "crlf/last\r", "nofinal/x", "nofinal/y"),
	},
	{
		name: "hidden files",
		files: plain(map[string]string{
			".gitignore":     ".*\n!.gitignore\n!.keep\n.cache/\n",
			"sub/.gitignore": "!.env.example\n",
		},
			".env", ".keep", ".cache/x", "sub/.env", "sub/.env.example", "visible", ".hidden/x", "sub/.x/y"),
	},
	{
		name: "info/exclude and core.excludesFile",
		files: plain(map[string]string{
			".gitignore":     "!secret-ok\n",
			"sub/.gitignore": "!*.bak\n",
		},
			"a.bak", "keep.bak", "secret1", "secret-ok", "tmp/x", "sub/tmp", "sub/b.bak",
			"sub/tmp2/y", "info-only", "global-only", "sub/info-only"),
		info:     "# local\ntmp/\n!keep.bak\ninfo-only\n/global-only\n",
		excludes: "*.bak\nsecret*\nglobal-only\n",
	},
	{
		name: "empty directories and deep nesting",
		files: plain(map[string]string{
			"a/.gitignore":          "*.gen\n",
			"a/b/.gitignore":        "!x.gen\n/c/\n",
			"a/b/c2/.gitignore":     "# only a comment\n",
			"a/b/c2/d/.gitignore":   "*\n!*.keep\n!*/\n",
			"a/b/c2/d/e/.gitignore": "!*.gen\n",
		},
			"empty/", "a/empty/", "a/x.gen", "a/b/x.gen", "a/b/y.gen", "a/b/c/f", "a/b/c2/f.gen",
			"a/b/c2/d/f", "a/b/c2/d/f.keep", "a/b/c2/d/e/g.gen", "a/b/c2/d/e/g.keep", "a/b/c2/d/e/h"),
	},
}

func TestTreesAgainstGit(t *testing.T) {
	requireGit(t)
	total := 0
	for _, tc := range handTrees {
		t.Run(tc.name, func(t *testing.T) {
			ft := newFileTree()
			names := make([]string, 0, len(tc.files))
			for p := range tc.files {
				names = append(names, p)
			}
			sort.Strings(names)
			for _, p := range names {
				require.True(t, ft.add(p, []byte(tc.files[p])), "bad tree path %q", p)
			}
			root := t.TempDir()
			ft.write(t, root)
			var excludes []byte
			if tc.excludes != "" {
				excludes = []byte(tc.excludes)
			}
			n := compareTreeWithGit(t, root, []byte(tc.info), excludes)
			assert.Positive(t, n)
			total += len(ft.content)
		})
	}
	t.Logf("%d hand-built trees, %d files compared with git", len(handTrees), total)
}

// Realistic ignore patterns, as found in real projects.
var realPatterns = []string{
	"node_modules/", "dist/", "*.log", "/build", "vendor/**/testdata", "!important.log", "coverage/",
	"*.py[cod]", "__pycache__/", ".DS_Store", "target/", "*.swp", "*.sw[a-p]", "*.o", "*.[oa]",
	"*.so", ".env", ".env.*", "!.env.example", "/out/", "bin/", "obj/", "*.class", ".idea/",
	".vscode/*", "!.vscode/settings.json", "*.tmp", "tmp/", "**/generated/*.go", "docs/_build/",
	"*.egg-info/", ".cache/", "npm-debug.log*", "yarn-error.log", "*~", "\\#*#", ".#*", "*.orig",
	"/vendor/", "Thumbs.db", "*.min.js", "!keep.min.js", "logs/**", "!logs/.gitkeep", "*.pb.go",
	"/coverage.out", "*.test", "*.out", ".terraform/", "*.tfstate", "*.tfstate.*", "build-*/",
	"[Dd]ebug/", "[Rr]elease/", "x64/", "cmake-build-*/", "**/.pytest_cache", ".mypy_cache/",
	"*.bak", "!*.bak/", "/*.local", "secrets/*.key", "!secrets/public.key", "**/fixtures/**/*.snap",
	"[0-9][0-9]-*.sql", "*.[Cc][Ss][Vv]", "?.tmp", "lib/**/*.js", "!lib/**/index.js", "*.d.ts",
	"/.next/", "out*/", "*.iml", "report-[[:digit:]]*.xml", ".gradle", "local.properties",
}

var realDirNames = []string{
	"src", "lib", "pkg", "internal", "cmd", "app", "components", "utils", "test", "tests", "docs",
	"vendor", "third_party", "node_modules", "dist", "build", "target", "out", "bin", "obj",
	"generated", "testdata", "__pycache__", ".cache", "logs", "tmp", "coverage", ".vscode", ".idea",
	"Debug", "release", "x64", "fixtures", "secrets", "api", "web", "server", "client", "scripts",
	"build-linux", "cmake-build-debug", "out2", "_build", "mod.egg-info", ".next", "core", "models",
}

var realFileNames = []string{
	"main.go", "index.js", "a.log", "important.log", "x.pyc", "x.py", ".DS_Store", "foo.swp",
	"foo.swo", "foo.swz", "README.md", ".env", ".env.local", ".env.example", "settings.json",
	"app.min.js", "keep.min.js", "api.pb.go", "x.test", "x.o", "lib.a", "Makefile", ".gitkeep",
	"npm-debug.log.1", "yarn-error.log", "notes.txt~", "#draft#", ".#lock", "merge.orig",
	"Thumbs.db", "coverage.out", "state.tfstate", "state.tfstate.backup", "data.bak", "x.local",
	"id.key", "public.key", "01-init.sql", "1-init.sql", "table.CSV", "table.csv", "a.tmp",
	"ab.tmp", "types.d.ts", "mod.iml", "report-1.xml", "report-x.xml", ".gradle", "local.properties",
	"util.js", "x.class", "x.so", "t.snap",
}

// genRealRepo builds a deterministic tree of about 2,000 files that looks like
// a real repository with many nested .gitignore files, and for every pattern
// files derived from it.
func genRealRepo(rng *rand.Rand) *fileTree {
	ft := newFileTree()
	var dirs []string
	var grow func(dir string, depth int)
	grow = func(dir string, depth int) {
		dirs = append(dirs, dir)
		for i := 0; i < 2+rng.IntN(4); i++ {
			ft.add(join(dir, pick(rng, realFileNames)), []byte("x"))
		}
		if depth >= 6 {
			return
		}
		n := rng.IntN(4)
		if depth < 2 {
			n += 3
		}
		for i := 0; i < n; i++ {
			grow(join(dir, pick(rng, realDirNames)), depth+1)
		}
	}
	grow("", 0)
	// A vendor-like subtree with its own ignore files at several levels.
	vendored := []string{"vendor/github.com/acme/tool", "vendor/github.com/acme/tool/internal",
		"third_party/lib/sub", "third_party/lib/sub/src", "web/node_modules/pkg"}
	for _, v := range vendored {
		grow(v, 5)
	}
	// Ignore files: the root, the vendored subtrees and random directories.
	rng.Shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
	ignoreDirs := append([]string{""}, vendored...)
	for _, d := range dirs {
		if d != "" && len(ignoreDirs) < 70 && !slices.Contains(ignoreDirs, d) {
			ignoreDirs = append(ignoreDirs, d)
		}
	}
	for _, d := range ignoreDirs {
		var lines []string
		for i := 0; i < 2+rng.IntN(5); i++ {
			p := pick(rng, realPatterns)
			lines = append(lines, p)
			for _, f := range derivedPaths(rng, p) {
				ft.add(join(d, f), []byte("x"))
			}
		}
		ft.add(join(d, ".gitignore"), []byte(strings.Join(lines, "\n")+"\n"))
	}
	return ft
}

func pick(rng *rand.Rand, s []string) string { return s[rng.IntN(len(s))] }

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// derivedPaths returns paths (relative to the ignore file's directory) built
// from a pattern: a concrete match, the same one level deeper (anchoring), a
// file inside it (dir-only patterns) and near misses for wildcards.
func derivedPaths(rng *rand.Rand, pat string) []string {
	p := strings.TrimPrefix(pat, "!")
	p = strings.TrimSuffix(p, "/")
	p = strings.TrimPrefix(p, "/")
	var out []string
	c := concretize(rng, p, true)
	out = append(out, c, "deeper/"+c, c+"/inside.txt", concretize(rng, p, true))
	out = append(out, concretize(rng, p, false), "x/"+concretize(rng, p, false))
	return out
}

// concretize turns a pattern into a path: wildcards are replaced by random
// text that matches them when match is true, by text that often does not
// otherwise.
func concretize(rng *rand.Rand, p string, match bool) string {
	var b strings.Builder
	words := []string{"", "a", "x", "foo", "b1", "Z", "-", "."}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			for i+1 < len(p) && p[i+1] == '*' {
				i++
			}
			switch rng.IntN(3) {
			case 0:
				if i+1 < len(p) && p[i+1] == '/' {
					i++ // zero directories
				}
			case 1:
				b.WriteString("d1")
			default:
				b.WriteString("d1/d2")
			}
		case c == '*':
			b.WriteString(pick(rng, words))
		case c == '?':
			if match {
				b.WriteByte("abz9._"[rng.IntN(6)])
			} else {
				b.WriteString(pick(rng, []string{"", "ab"}))
			}
		case c == '[':
			j := strings.IndexByte(p[i+1:], ']')
			if j < 0 {
				b.WriteByte(c)
				continue
			}
			set := p[i+1 : i+1+j]
			if j == 0 { // "[]...]"
				if k := strings.IndexByte(p[i+2:], ']'); k >= 0 {
					set = p[i+1 : i+2+k]
				}
			}
			if strings.HasPrefix(set, "[:") {
				if k := strings.Index(p[i:], ":]]"); k >= 0 {
					set = p[i+1 : i+k+2]
				}
			}
			i += len(set) + 1
			b.WriteByte(bracketSample(rng, set, match))
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	if s == "" || strings.HasSuffix(s, "/") || strings.Contains(s, "//") || strings.HasPrefix(s, "/") {
		return "e" + strings.Trim(strings.ReplaceAll(s, "//", "/e/"), "/")
	}
	return s
}

// bracketSample returns a byte that the bracket set likely matches (or not).
func bracketSample(rng *rand.Rand, set string, match bool) byte {
	neg := strings.HasPrefix(set, "!") || strings.HasPrefix(set, "^")
	if neg {
		set = set[1:]
	}
	var cands []byte
	switch {
	case strings.Contains(set, "[:digit:]"):
		cands = []byte("0123456789")
	case strings.Contains(set, "[:upper:]"):
		cands = []byte("AQZ")
	case strings.Contains(set, "[:alpha:]"):
		cands = []byte("abXY")
	default:
		for k := 0; k < len(set); k++ {
			if k+2 < len(set) && set[k+1] == '-' {
				for c := set[k]; c <= set[k+2] && c >= set[k]; c++ {
					cands = append(cands, c)
					if c == 255 {
						break
					}
				}
				k += 2
			} else if set[k] != '\\' {
				cands = append(cands, set[k])
			}
		}
	}
	if len(cands) == 0 {
		cands = []byte("a")
	}
	if match == neg || rng.IntN(4) == 0 {
		return "aqM7_"[rng.IntN(5)]
	}
	return cands[rng.IntN(len(cands))]
}

func TestGeneratedRepoAgainstGit(t *testing.T) {
	requireGit(t)
	ft := genRealRepo(rand.New(rand.NewPCG(20240611, 7)))
	root := t.TempDir()
	files, ignores := ft.write(t, root)
	require.GreaterOrEqual(t, files, 1800, "tree size")
	require.GreaterOrEqual(t, ignores, 60, ".gitignore files")
	listed := compareTreeWithGit(t, root, []byte("*.secret\n!keep.secret\n"), []byte("*.swp\n.DS_Store\n"))
	t.Logf("generated repository: %d files, %d .gitignore files, %d files not ignored by git", files, ignores, listed)
	assert.Less(t, listed, files, "some files must be ignored")
	assert.Greater(t, listed, files/10, "some files must be kept")
}

// randomPattern generates a pattern from a grammar of all supported features
// over a small alphabet so that patterns and paths collide often.
func randomPattern(rng *rand.Rand) string {
	var b strings.Builder
	if rng.IntN(5) == 0 {
		b.WriteByte('!')
	}
	if rng.IntN(4) == 0 {
		b.WriteByte('/')
	}
	segs := 1 + rng.IntN(3)
	for s := 0; s < segs; s++ {
		if s > 0 {
			b.WriteByte('/')
		}
		if rng.IntN(6) == 0 {
			b.WriteString("**")
			continue
		}
		for k := 0; k < 1+rng.IntN(3); k++ {
			switch rng.IntN(12) {
			case 0:
				b.WriteByte('*')
			case 1:
				b.WriteByte('?')
			case 2:
				b.WriteString(pick(rng, []string{"[ab]", "[!a]", "[^b]", "[a-c]", "[]a]", "[[:digit:]]",
					"[![:alpha:]]", "[a-]", "[[:lower:][:digit:]]", "[[:bogus:]]", "[x"}))
			case 3:
				b.WriteString(pick(rng, []string{"\\a", "\\*", "\\[", "\\ ", "\\#", "\\!"}))
			case 4:
				b.WriteString("**")
			default:
				b.WriteString(pick(rng, []string{"a", "b", "c", "1", ".", "ab"}))
			}
		}
	}
	if rng.IntN(4) == 0 {
		b.WriteByte('/')
	}
	line := b.String()
	switch rng.IntN(10) {
	case 0:
		line += "  "
	case 1:
		line += "\r"
	}
	return line
}

func randomSegment(rng *rand.Rand) string {
	var b strings.Builder
	for k := 0; k < 1+rng.IntN(3); k++ {
		b.WriteString(pick(rng, []string{"a", "b", "c", "1", "7", "ab", ".", "x", "*", "[", "#", "!", " "}))
	}
	return b.String()
}

// randomTree builds a tree of random .gitignore files at several levels and paths
// derived from their patterns; it returns the number of patterns too.
func randomTree(rng *rand.Rand) (*fileTree, int) {
	ft := newFileTree()
	patterns := 0
	dirs := []string{""}
	for i := 0; i < 8; i++ {
		d := join(pick(rng, dirs), randomSegment(rng))
		if validRelPath(d) && !strings.Contains(d, ".gitignore") {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		var lines []string
		for i := 0; i < 10+rng.IntN(10); i++ {
			pat := randomPattern(rng)
			lines = append(lines, pat)
			p := strings.TrimRight(pat, " \r")
			for j := 0; j < 3; j++ {
				ft.add(join(d, concretize(rng, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(p, "!"), "/"), "/"), rng.IntN(3) > 0)), []byte("x"))
			}
			ft.add(join(d, concretize(rng, p, true)+"/f"), []byte("x"))
		}
		patterns += len(lines)
		for i := 0; i < 20; i++ {
			path := d
			for k := 0; k < 1+rng.IntN(3); k++ {
				path = join(path, randomSegment(rng))
			}
			ft.add(path, []byte("x"))
		}
		ft.add(join(d, ".gitignore"), []byte(strings.Join(lines, "\n")+"\n"))
	}
	return ft, patterns
}

// TestRandomTreesAgainstGit compares random trees with random .gitignore
// files at several levels against git.
func TestRandomTreesAgainstGit(t *testing.T) {
	requireGit(t)
	totalPatterns, totalFiles := 0, 0
	for round := 0; round < 4; round++ {
		t.Run(fmt.Sprintf("seed%d", round), func(t *testing.T) {
			ft, patterns := randomTree(rand.New(rand.NewPCG(42, uint64(round))))
			totalPatterns += patterns
			root := t.TempDir()
			files, _ := ft.write(t, root)
			totalFiles += files
			compareTreeWithGit(t, root, nil, nil)
		})
	}
	t.Logf("random trees: %d patterns, %d files compared with git", totalPatterns, totalFiles)
	assert.GreaterOrEqual(t, totalPatterns, 300)
}

// TestTrackedTreesAgainstGit adds a random fifth of the files of a generated tree and of
// random trees to git's index, whatever the rules say, and compares with git: tracked
// files are listed even when ignored, and an ignored directory is entered for its tracked
// files and nothing else.
func TestTrackedTreesAgainstGit(t *testing.T) {
	requireGit(t)
	trees := []*fileTree{genRealRepo(rand.New(rand.NewPCG(20250101, 3)))}
	for round := range 3 {
		ft, _ := randomTree(rand.New(rand.NewPCG(99, uint64(round))))
		trees = append(trees, ft)
	}
	for i, ft := range trees {
		t.Run(fmt.Sprintf("tree%d", i), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(i)))
			root := t.TempDir()
			ft.write(t, root)
			var tracked []string
			for _, p := range ft.order {
				if !ft.entries[p] && rng.IntN(5) == 0 {
					tracked = append(tracked, p)
				}
			}
			listed := compareTreeWithGit(t, root, []byte("*.secret\n"), []byte("*.swp\n"), tracked...)
			trackedIgnored := splitNUL(runGit(t, root, nil, false, "ls-files", "--cached", "--ignored", "--exclude-standard", "-z"))
			t.Logf("%d files, %d tracked, %d of them ignored by the rules, %d listed by git", len(ft.content), len(tracked), len(trackedIgnored), listed)
			assert.Greater(t, len(trackedIgnored), len(tracked)/10, "the rules must ignore some tracked files")
		})
	}
}

// TestRandomPatternsAgainstGit asks git check-ignore about random patterns and
// paths derived from them (each pattern alone in the .gitignore of its own
// directory), which checks single matches more finely than a tree walk.
func TestRandomPatternsAgainstGit(t *testing.T) {
	requireGit(t)
	rng := rand.New(rand.NewPCG(7, 1234))
	root := t.TempDir()
	gitInit(t, root)
	type query struct {
		pattern, path string
		dir           bool
	}
	var queries []query
	var stdin []byte
	for i := 0; i < 400; i++ {
		pat := randomPattern(rng)
		d := fmt.Sprintf("r%03d", i)
		ft := newFileTree()
		ft.add(join(d, ".gitignore"), []byte(pat+"\n"))
		core := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(strings.TrimRight(pat, " \r"), "!"), "/"), "/")
		for j := 0; j < 4; j++ {
			p := concretize(rng, core, j < 3)
			dir := j == 0
			if dir {
				p += "/"
			}
			if ft.add(join(d, p), []byte("x")) {
				queries = append(queries, query{pat, join(d, strings.TrimSuffix(p, "/")), dir})
			}
		}
		ft.write(t, root)
	}
	for _, q := range queries {
		for _, p := range append(parentsOf(q.path), q.path) {
			stdin = append(append(stdin, p...), 0)
		}
	}
	out := splitNUL(runGit(t, root, stdin, true, "check-ignore", "--no-index", "--stdin", "-z", "-v", "-n"))
	require.Zero(t, len(out)%4)
	gitMatched := map[string]bool{}
	for i := 0; i < len(out); i += 4 {
		gitMatched[out[i+3]] = out[i] != ""
	}
	matches := 0
	for _, q := range queries {
		d := q.path[:strings.IndexByte(q.path, '/')]
		r := Parse(d, []byte(q.pattern+"\n"))
		// git check-ignore reports a path as matched when an ancestor
		// directory is ignored, or else when its own last pattern matches.
		ours := false
		for _, p := range parentsOf(q.path)[1:] {
			if r.Match(p, true) == Ignore {
				ours = true
				break
			}
		}
		ours = ours || r.Match(q.path, q.dir) != None
		if ours {
			matches++
		}
		got, ok := gitMatched[q.path]
		require.True(t, ok, "git did not answer for %q", q.path)
		assert.Equal(t, got, ours, "pattern %q path %q dir %v", q.pattern, q.path, q.dir)
	}
	t.Logf("%d random patterns, %d paths asked to git, %d matched", 400, len(queries), matches)
	assert.Greater(t, matches, len(queries)/5)
}
