package ignore

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLines(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []pattern // prefix is not compared
	}{
		{"empty", "", nil},
		{"comments and blanks", "# c\n\n   \n\t#x\n", []pattern{{text: "\t#x", kind: kindLiteral, lit: "\t#x", basename: true}}},
		{"negation and dir", "!foo/\n", []pattern{{text: "foo", kind: kindLiteral, lit: "foo", negate: true, dirOnly: true, basename: true}}},
		{"anchored", "/a/b\n", []pattern{{text: "a/b", kind: kindLiteral, lit: "a/b"}}},
		{"leading slash only", "/foo\n", []pattern{{text: "foo", kind: kindLiteral, lit: "foo"}}},
		{"suffix", "*.go", []pattern{{text: "*.go", kind: kindSuffix, lit: ".go", basename: true}}},
		{"prefix", "build*\n", []pattern{{text: "build*", kind: kindPrefixStar, lit: "build", basename: true}}},
		{"anchored prefix", "/a/b*\n", []pattern{{text: "a/b*", kind: kindPrefixStar, lit: "a/b"}}},
		{"general", "a/**/b\n", []pattern{{text: "a/**/b", kind: kindGeneral, tail: "b"}}},
		{"anchored star suffix is general", "/*.go\n", []pattern{{text: "*.go", kind: kindGeneral, tail: ".go"}}},
		{"escaped suffix is general", "*\\*\n", []pattern{{text: "*\\*", kind: kindGeneral, basename: true}}},
		{"CRLF", "a\r\nb \r\n", []pattern{
			{text: "a", kind: kindLiteral, lit: "a", basename: true},
			{text: "b", kind: kindLiteral, lit: "b", basename: true}}},
		{"only one CR stripped", "a\r\r\n", []pattern{{text: "a\r", kind: kindLiteral, lit: "a\r", basename: true}}},
		{"BOM", "\xef\xbb\xbf*.o\n", []pattern{{text: "*.o", kind: kindSuffix, lit: ".o", basename: true}}},
		{"escaped trailing space", "a\\ \n", []pattern{{text: "a\\ ", kind: kindGeneral, tail: " ", basename: true}}},
		{"trailing tab kept", "a\t\n", []pattern{{text: "a\t", kind: kindLiteral, lit: "a\t", basename: true}}},
		{"NUL ends the line", "ab\x00cd\n", []pattern{{text: "ab", kind: kindLiteral, lit: "ab", basename: true}}},
		{"unusable lines", "!\n/\n!/\n \n", nil},
		{"hash escaped", "\\#a\n", []pattern{{text: "\\#a", kind: kindGeneral, tail: "#a", basename: true}}},
		{"double trailing slash", "a//\n", []pattern{{text: "a/", kind: kindLiteral, lit: "a/", dirOnly: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseLines([]byte(tt.content))
			for i := range got {
				got[i].prefix = 0
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"none", "a", "a"},
		{"spaces", "a   ", "a"},
		{"escaped", "a\\ ", "a\\ "},
		{"escaped then spaces", "a\\   ", "a\\ "},
		{"tab kept", "a \t", "a \t"},
		{"trailing backslash keeps all", "a \\", "a \\"},
		{"inner spaces kept", "a b ", "a b"},
		{"only spaces", "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, trimTrailingSpaces(tt.in))
		})
	}
}

func TestRulesMatch(t *testing.T) {
	r := Parse("src/pkg", []byte("*.log\n!keep.log\n/gen/\ndocs/*.md\n"))
	tests := []struct {
		name  string
		path  string
		isDir bool
		want  Decision
	}{
		{"basename below dir", "src/pkg/a.log", false, Ignore},
		{"basename deeper", "src/pkg/x/y/a.log", false, Ignore},
		{"negated", "src/pkg/x/keep.log", false, Include},
		{"not under dir", "src/a.log", false, None},
		{"sibling with dir as prefix", "src/pkgx/a.log", false, None},
		{"dir itself", "src/pkg", true, None},
		{"anchored dir", "src/pkg/gen", true, Ignore},
		{"anchored dir is not a file", "src/pkg/gen", false, None},
		{"anchored dir not deeper", "src/pkg/x/gen", true, None},
		{"middle slash", "src/pkg/docs/a.md", false, Ignore},
		{"middle slash not deeper", "src/pkg/x/docs/a.md", false, None},
		{"no match", "src/pkg/main.go", false, None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, r.Match(tt.path, tt.isDir))
		})
	}
	assert.Equal(t, 4, r.Len())
	var nilRules *Rules
	assert.Equal(t, 0, nilRules.Len())
	assert.Equal(t, None, nilRules.Match("a", false))
	assert.Equal(t, 0, Parse("", []byte("# only\n\n")).Len())
	assert.Equal(t, Ignore, Parse("/a/", []byte("x\n")).Match("a/x", false), "slashes around dir are dropped")
}

func TestMatcherGitPrecedence(t *testing.T) {
	m := New([]byte("*.bak\nglobal\n"), []byte("*.tmp\n!keep.bak\n"))
	m = m.Enter("", []byte("*.log\n!keep.tmp\n"), nil)
	sub := m.Enter("sub", []byte("!*.log\n"), nil)
	tests := []struct {
		name string
		m    *Matcher
		path string
		want bool
	}{
		{"excludes file", m, "a.bak", true},
		{"info/exclude beats excludes file", m, "keep.bak", false},
		{"info/exclude", m, "a.tmp", true},
		{".gitignore beats info/exclude", m, "keep.tmp", false},
		{"root .gitignore", m, "a.log", true},
		{"deeper .gitignore wins", sub, "sub/a.log", false},
		{"deeper .gitignore only below its dir", sub, "other/a.log", true},
		{"nothing matches", sub, "main.go", false},
		{"global", sub, "sub/global", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.m.Ignored(tt.path, false))
		})
	}
}

func TestJidoignorePrecedence(t *testing.T) {
	root := New(nil, []byte("secret/\n")).Enter("", []byte("build/\n*.log\n"), []byte("!build/\nfixtures/\n"))
	sub := root.Enter("sub", []byte("!fixtures/\n"), []byte("*.gen\n!keep.log\n"))
	deep := sub.Enter("sub/deep", nil, []byte("!*.gen\n"))
	tests := []struct {
		name  string
		m     *Matcher
		path  string
		isDir bool
		want  bool
	}{
		{"jidoignore re-includes a dir .gitignore ignores", root, "build", true, false},
		{"gitignore alone still applies to files", root, "build.log", false, true},
		{"jidoignore ignores what git keeps", root, "fixtures", true, true},
		{"jidoignore beats a deeper gitignore", sub, "sub/fixtures", true, true},
		{"jidoignore beats info/exclude only when it matches", root, "secret", true, true},
		{"deeper jidoignore re-includes over root gitignore", sub, "sub/keep.log", false, false},
		{"root gitignore when jidoignore is silent", sub, "sub/other.log", false, true},
		{"jidoignore ignores", sub, "sub/a.gen", false, true},
		{"deeper jidoignore wins", deep, "sub/deep/a.gen", false, false},
		{"deeper jidoignore only below its dir", deep, "sub/b.gen", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.m.Ignored(tt.path, tt.isDir))
		})
	}
}

func TestEnterWithoutPatternsReturnsSameMatcher(t *testing.T) {
	m := New(nil, nil)
	assert.Same(t, m, m.Enter("a", nil, nil))
	assert.Same(t, m, m.Enter("a", []byte{}, []byte("# comment\n\n")))
	assert.Zero(t, testing.AllocsPerRun(100, func() { m.Enter("a", nil, nil) }))
	child := m.Enter("a", []byte("x\n"), nil)
	assert.NotSame(t, m, child)
	assert.False(t, m.Ignored("a/x", false), "parent matcher unchanged")
	assert.True(t, child.Ignored("a/x", false))
	var none *Matcher
	assert.False(t, none.Ignored("a/x", false))
	assert.True(t, none.Enter("a", nil, []byte("x\n")).Ignored("a/x", false))
}

func benchMatcher() (*Matcher, []string) {
	root := New([]byte("*.swp\n.DS_Store\n*~\n.idea/\n"), []byte("# local\n/scratch/\n*.prof\n"))
	root = root.Enter("", []byte(strings.Join([]string{
		"node_modules/", "dist/", "*.log", "/build", "vendor/**/testdata", "!important.log",
		"coverage/", "*.py[cod]", "__pycache__/", "target/", "*.o", "*.so", ".env", ".env.*",
		"!.env.example", "/out/", "bin/", "*.class", ".vscode/*", "!.vscode/settings.json", "*.tmp",
		"tmp/", "**/generated/*.go", "*.egg-info/", ".cache/", "npm-debug.log*", "*.orig", "*.min.js",
		"logs/**", "*.pb.go",
	}, "\n")), nil)
	pkg := root.Enter("pkg", []byte("*.test\n/testdata/big/\n*.out\ncmake-build-*/\n[Dd]ebug/\n"+
		"[Rr]elease/\nx64/\n*.tfstate\n*.tfstate.*\n.terraform/\nsecrets/*.key\n!secrets/public.key\n"+
		"*.[Cc][Ss][Vv]\n?.tmp\n*.d.ts\n"), nil)
	lvl := pkg.Enter("pkg/core", []byte("*.gen.go\n!keep.gen.go\n/mocks/\nfixtures/**/*.snap\n"+
		"*.bak\nreport-[[:digit:]]*.xml\nout*/\n*.iml\n.gradle\nlocal.properties\n*.sw[a-p]\n"+
		"build-*/\n/*.local\n.mypy_cache/\n**/.pytest_cache\n"), []byte("!*.bak\n"))
	paths := []string{
		"pkg/core/server/handler.go", "pkg/core/server/handler_test.go", "pkg/core/mocks/db.go",
		"pkg/core/api/v1.pb.go", "pkg/core/web/app.min.js", "pkg/core/util/a.log",
		"pkg/core/util/important.log", "pkg/core/data/table.csv", "pkg/core/x/report-1.xml",
		"pkg/core/ui/index.d.ts", "pkg/core/docs/README.md", "pkg/core/py/mod.pyc",
	}
	return lvl, paths
}

func TestIgnoredDoesNotAllocate(t *testing.T) {
	m, paths := benchMatcher()
	allocs := testing.AllocsPerRun(200, func() {
		for _, p := range paths {
			m.Ignored(p, false)
			m.Ignored(p, true)
		}
	})
	assert.Zero(t, allocs)
	// Sanity: the benchmark matcher gives git-like answers.
	assert.True(t, m.Ignored("pkg/core/api/v1.pb.go", false))
	assert.False(t, m.Ignored("pkg/core/server/handler.go", false))
	assert.False(t, m.Ignored("pkg/core/util/important.log", false))
	assert.True(t, m.Ignored("pkg/core/mocks", true))
}

func TestConcurrentUse(t *testing.T) {
	root := New(nil, nil).Enter("", []byte("*.log\n!keep.log\nbuild/\n"), nil)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			dir := fmt.Sprintf("d%d", g)
			m := root.Enter(dir, []byte("*.tmp\n"), []byte("!build/\n"))
			for i := 0; i < 200; i++ {
				require.True(t, m.Ignored(dir+"/a.log", false))
				require.False(t, m.Ignored(dir+"/keep.log", false))
				require.True(t, m.Ignored(dir+"/x.tmp", false))
				require.False(t, m.Ignored(dir+"/build", true))
				require.True(t, root.Ignored(dir+"/build", true))
			}
		}(g)
	}
	wg.Wait()
}

func BenchmarkIgnored(b *testing.B) {
	m, paths := benchMatcher()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Ignored(paths[i%len(paths)], false)
	}
}

func BenchmarkParse(b *testing.B) {
	content := []byte(strings.Join(realPatterns, "\n") + "\n# comment\n\n")
	b.ReportAllocs()
	b.SetBytes(int64(len(content)))
	for i := 0; i < b.N; i++ {
		Parse("src", content)
	}
}

func TestLiteralTail(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"*.xml", ".xml"},
		{"a/**/b", "b"},
		{"a/**\\/b", "/b"},
		{"a/*/b", "/b"},
		{"[ab]c", "c"},
		{"x[a-z]", ""},
		{"a\\*", ""},
		{"a\\\\b", "b"},
		{"**", ""},
		{"?x/y", "x/y"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			assert.Equal(t, tt.want, literalTail(tt.pattern))
		})
	}
}

// verdictCase is a path asked to a matcher and the verdict it must give.
type verdictCase struct {
	name  string
	m     *Matcher
	path  string
	isDir bool
	want  Verdict
}

// checkVerdicts asks each case's matcher, by Check and by Ignored.
func checkVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.m.Check(tt.path, tt.isDir))
			assert.Equal(t, tt.want == Skip, tt.m.Ignored(tt.path, tt.isDir))
		})
	}
}

func TestMatcherKeepsTrackedPaths(t *testing.T) {
	index, err := ParseIndex(v2Index("build/keep.txt", "build/sub/deep.txt", "fixture.log", "gen.log", "vendor/lib"))
	require.NoError(t, err)
	root := New([]byte("*.log\n"), nil).Repo("", []byte("vendor/\n"), index).
		Enter("", []byte("build/\n"), []byte("gen.log\n!notes.log\n"))
	build := root.Excluded()
	build = build.Enter("build", []byte("!other.txt\n"), []byte("secret.txt\n!free.txt\n"))
	checkVerdicts(t, []verdictCase{
		{"tracked file the excludes file ignores", root, "fixture.log", false, KeepTracked},
		{"untracked file it ignores", root, "debug.log", false, Skip},
		{"file no rule ignores", root, "main.go", false, Keep},
		{"directory holding tracked files", root, "build", true, KeepTracked},
		{"gitlink in a directory info/exclude ignores", root, "vendor", true, KeepTracked},
		{".jidoignore hides a tracked file", root, "gen.log", false, Skip},
		{".jidoignore re-includes an untracked file", root, "notes.log", false, Keep},
		{"tracked file below an excluded directory", build, "build/keep.txt", false, KeepTracked},
		{"directory of tracked files below it", build, "build/sub", true, KeepTracked},
		{"untracked file below it, though no rule names it", build, "build/new.txt", false, Skip},
		{"a .gitignore below it cannot re-include", build, "build/other.txt", false, Skip},
		{"a .jidoignore below it cannot re-include either", build, "build/free.txt", false, Skip},
		{"untracked directory below it", build, "build/tmp", true, Skip},
		{"a .jidoignore below it still hides", build, "build/secret.txt", false, Skip},
	})
	assert.Same(t, build, build.Excluded(), "already below an excluded directory")
	var none *Matcher
	assert.Nil(t, none.Excluded())
	assert.Equal(t, Keep, none.Check("a", false))
}

func TestMatcherRepo(t *testing.T) {
	outer, err := ParseIndex(v2Index("a.log", "nested/x.log"))
	require.NoError(t, err)
	inner, err := ParseIndex(v2Index("kept.tmp", "sub/t.bak"))
	require.NoError(t, err)
	root := New([]byte("/anchored\n*.bak\n"), nil).Repo("", []byte("*.info\n"), outer).
		Enter("", []byte("*.log\n"), []byte("*.secret\n"))
	nested := root.Excluded().Repo("nested", []byte("*.tmp\n"), inner).Enter("nested", []byte("!*.secret\n"), nil)
	checkVerdicts(t, []verdictCase{
		{"outer: tracked", root, "a.log", false, KeepTracked},
		{"outer: its info/exclude", root, "x.info", false, Skip},
		{"outer: excludes file anchored at the root", root, "anchored", false, Skip},
		{"nested: the outer .gitignore stops", nested, "nested/b.log", false, Keep},
		{"nested: the outer info/exclude stops", nested, "nested/x.info", false, Keep},
		{"nested: the outer index stops", nested, "nested/x.log", false, Keep},
		{"nested: the excluded directory above stops", nested, "nested/new.txt", false, Keep},
		{"nested: its own info/exclude", nested, "nested/c.tmp", false, Skip},
		{"nested: its own index", nested, "nested/kept.tmp", false, KeepTracked},
		{"nested: its index below a directory", nested, "nested/sub", true, Keep},
		{"nested: the excludes file applies to every repository", nested, "nested/sub/t.bak", false, KeepTracked},
		{"nested: the excludes file is anchored at it", nested, "nested/anchored", false, Skip},
		{"nested: .jidoignore goes on (its .gitignore cannot re-include)", nested, "nested/k.secret", false, Skip},
	})
	assert.Equal(t, Skip, (*Matcher)(nil).Repo("r", []byte("x\n"), nil).Check("r/x", false), "a nil matcher stands for no outer rules")
}

func TestCheckWithIndexDoesNotAllocate(t *testing.T) {
	index, err := ParseIndex(v2Index("pkg/core/api/v1.pb.go", "pkg/core/mocks/db.go"))
	require.NoError(t, err)
	m, paths := benchMatcher()
	m = m.Repo("", nil, index).Excluded()
	allocs := testing.AllocsPerRun(200, func() {
		for _, p := range paths {
			m.Check(p, false)
			m.Check(p, true)
		}
	})
	assert.Zero(t, allocs)
	assert.Equal(t, KeepTracked, m.Check("pkg/core/mocks", true))
}
