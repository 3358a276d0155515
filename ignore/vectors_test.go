package ignore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vector is one line of a .gitignore (pattern), a path relative to that
// file's directory, whether the path is a directory, and whether the line
// matches it. No parent directory of path matches the line, so the answer is
// the pattern's own (git would report an ignored parent otherwise).
type vector struct {
	pattern string
	path    string
	dir     bool
	want    bool
}

func (v vector) name() string {
	kind := "file"
	if v.dir {
		kind = "dir"
	}
	return fmt.Sprintf("%q~%s:%q", v.pattern, kind, v.path)
}

const T, F = true, false

// vectors were written by hand for this package (not taken from git's test
// suite) and are proven against git by TestVectorsAgainstGit.
var vectors = []vector{
	// Literals and basenames.
	{"foo", "foo", F, T},
	{"foo", "bar", F, F},
	{"foo", "foobar", F, F},
	{"foo", "xfoo", F, F},
	{"foo", "FOO", F, F},
	{"foo", "a/foo", F, T},
	{"foo", "a/b/foo", F, T},
	{"foo", "foo", T, T},
	{"foo.txt", "foo.txt", F, T},
	{"foo.txt", "fooatxt", F, F},
	{"a/b", "a/b", F, T},
	{"a/b", "x/a/b", F, F},
	{"a/b", "a/b", T, T},
	{"/foo", "foo", F, T},
	{"/foo", "a/foo", F, F},
	{"a/b/c", "a/b/c", F, T},
	{"a/b/c", "a/b/cd", F, F},
	{"/a/b", "a/b", F, T},
	// Line syntax: spaces, CR, comments, escapes at the start.
	{" foo", " foo", F, T},
	{" foo", "foo", F, F},
	{"foo ", "foo", F, T},
	{"foo   ", "foo", F, T},
	{"foo\\ ", "foo ", F, T},
	{"foo\\ ", "foo", F, F},
	{"foo\\  ", "foo ", F, T},
	{"foo\\ \\ ", "foo  ", F, T},
	{"foo\t", "foo\t", F, T},
	{"foo\t", "foo", F, F},
	{"foo\r", "foo", F, T},
	{"foo \r", "foo", F, T},
	{"foo\r\r", "foo\r", F, T},
	{"#foo", "#foo", F, F},
	{"\\#foo", "#foo", F, T},
	{" #foo", " #foo", F, T},
	{"!foo", "foo", F, T},
	{"\\!foo", "!foo", F, T},
	{"\\!foo", "foo", F, F},
	{"foo\\", "foo", F, F},
	{"foo\\", "foo\\", F, F},
	{"a\\b", "ab", F, T},
	{"a\\b", "a\\b", F, F},
	{"a\\\\b", "a\\b", F, T},
	{"/", "a", F, F},
	// Directory-only patterns.
	{"foo/", "foo", T, T},
	{"foo/", "foo", F, F},
	{"foo/", "a/foo", T, T},
	{"a/foo/", "a/foo", T, T},
	{"a/foo/", "a/foo", F, F},
	{"/foo/", "foo", T, T},
	{"/foo/", "a/foo", T, F},
	{"foo//", "foo", T, F},
	{"*/", "x", T, T},
	{"*/", "x", F, F},
	{"**/", "x", T, T},
	{"a/", "b/a", T, T},
	{"a/b/", "a/b", T, T},
	{"a/b/", "a/b", F, F},
	{"a/b/", "x/a/b", T, F},
	// '?'.
	{"?", "a", F, T},
	{"?", "ab", F, F},
	{"??", "ab", F, T},
	{"a?c", "abc", F, T},
	{"a?c", "ac", F, F},
	{"x/a?c", "x/a/c", F, F},
	{"?foo", ".foo", F, T},
	{"/?", "a", F, T},
	{"/?", "bb/a", F, F},
	{"a/?", "a/b", F, T},
	{"a/?", "a/bc", F, F},
	{"??", "é", F, T},
	{"?", "é", F, F},
	// '*'.
	{"*", "foo", F, T},
	{"*", ".hidden", F, T},
	{".*", ".x", F, T},
	{".*", "x", F, F},
	{"*.c", "main.c", F, T},
	{"*.c", ".c", F, T},
	{"*.c", "main.cc", F, F},
	{"*.c", "dir/main.c", F, T},
	{"*.c", "c", F, F},
	{"f*", "foo", F, T},
	{"f*", "f", F, T},
	{"f*", "bar", F, F},
	{"*o*", "foo", F, T},
	{"*o*", "bar", F, F},
	{"a*b*c", "aXbYc", F, T},
	{"a*b*c", "abc", F, T},
	{"a*b*c", "acb", F, F},
	{"a/*", "a/b", F, T},
	{"a/*", "a", T, F},
	{"a/*/c", "a/b/c", F, T},
	{"a/*/c", "a/b/x/c", F, F},
	{"a/*/c", "a/c", F, F},
	{"/*.c", "x.c", F, T},
	{"/*.c", "d/x.c", F, F},
	{"/*", "x", F, T},
	{"a/*b", "a/xb", F, T},
	{"a/*b", "a/b", F, T},
	{"a/*b", "a/x/b", F, F},
	{"*/b", "a/b", F, T},
	{"*/b", "x/a/b", F, F},
	{"a/b*", "a/bc", F, T},
	{"a/b*", "a/b", F, T},
	{"a/b*", "a/cb", F, F},
	{"*a*a*a*b", "aaab", F, T},
	{"*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", F, F},
	{"*a*a*a*a*a*a*a*b", strings.Repeat("a", 60), F, F},
	{"*.tar.gz", "x.tar.gz", F, T},
	{"*~", "file~", F, T},
	{"a/*.c", "a/x.c", F, T},
	{"a/*.c", "a/b/x.c", F, F},
	{"*/*", "a/b", F, T},
	{"*/*/c", "a/b/c", F, T},
	{"x*/y", "xa/y", F, T},
	{"x*/y", "x/y", F, T},
	{"*\\*", "x*", F, T},
	// "**" in every position.
	{"**", "foo", F, T},
	{"**/foo", "foo", F, T},
	{"**/foo", "a/foo", F, T},
	{"**/foo", "a/b/foo", F, T},
	{"**/foo", "a/foox", F, F},
	{"**/a/b", "x/y/a/b", F, T},
	{"**/a/b", "a/b", F, T},
	{"**/a/b", "a/x/b", F, F},
	{"a/**", "a/b", F, T},
	{"a/**", "a", T, F},
	{"a/**", "a", F, F},
	{"a/**", "ab/c", F, F},
	{"a/**/b", "a/b", F, T},
	{"a/**/b", "a/x/b", F, T},
	{"a/**/b", "a/x/y/b", F, T},
	{"a/**/b", "a/xb", F, F},
	{"a/**/b", "ab", F, F},
	{"a/**/b", "x/a/b", F, F},
	{"a/**b", "a/xb", F, T},
	{"a/**b", "a/x/b", F, F},
	{"a**/b", "ax/y/b", F, T}, // git strips the literal prefix "a" first
	{"a**/b", "a/b", F, T},
	{"d/ab**/c", "d/abx/y/c", F, T},
	{"d/ab**/c", "d/ab/c", F, T},
	{"foo**bar", "fooXbar", F, T},
	{"foo**bar", "foobar", F, T},
	{"x**y/z", "xay/z", F, T},
	{"x**y/z", "xa/y/z", F, F},
	{"/**", "foo", F, T},
	{"**/**/x", "x", F, T},
	{"a/**/**/b", "a/b", F, T},
	{"**a", "xa", F, T},
	{"**foo", "a/xfoo", F, T},
	{"a/**/", "a/b", T, T},
	{"a/**/", "a/b", F, F},
	{"***", "foo", F, T},
	{"a/***/b", "a/x/y/b", F, T},
	{"**/*.c", "a/b/x.c", F, T},
	{"a/**/*.c", "a/x.c", F, T},
	{"a/**/*.c", "a/b/c/x.c", F, T},
	{"**/b/**", "a/b/c", F, T},
	{"**/b/**", "a/b", T, F},
	{"a/**\\/b", "a/x/y/b", F, T},
	{"a/**\\/b", "a/b", F, F},
	{"foo/**/bar/**/baz", "foo/bar/baz", F, T},
	{"**/*", "a", F, T},
	{"**/**/**/**/x", "a/b/c/d/e/x", F, T},
	// Bracket expressions.
	{"[abc]", "a", F, T},
	{"[abc]", "d", F, F},
	{"[a-c]", "b", F, T},
	{"[a-c]", "d", F, F},
	{"[a-c]", "-", F, F},
	{"[!a-c]", "d", F, T},
	{"[!a-c]", "a", F, F},
	{"[^a-c]", "d", F, T},
	{"[^a-c]", "b", F, F},
	{"[]]", "]", F, T},
	{"[]a]", "a", F, T},
	{"[]a]", "b", F, F},
	{"[!]]", "a", F, T},
	{"[!]]", "]", F, F},
	{"[a-]", "-", F, T},
	{"[-a]", "-", F, T},
	{"[a-c-e]", "d", F, F},
	{"[a-c-e]", "-", F, T},
	{"[a-c-e]", "e", F, T},
	{"[z-a]", "m", F, F},
	{"[\\]]", "]", F, T},
	{"[a\\-c]", "b", F, F},
	{"[a\\-c]", "-", F, T},
	{"[\\a-c]", "b", F, T},
	{"[a-\\c]", "b", F, T},
	{"[[]", "[", F, T},
	{"[", "[", F, F},
	{"[a", "a", F, F},
	{"[a", "[a", F, F},
	{"x[!", "x[!", F, F},
	{"[]", "]", F, F},
	{"[]", "[]", F, F},
	{"a[/]b", "a/b", F, F},
	{"x[!a]y", "x/y", F, F},
	{"[!a]", "b", F, T},
	{"[A-Z]", "a", F, F},
	{"[A-Z]", "Q", F, T},
	{"*.py[cod]", "x.pyc", F, T},
	{"*.py[cod]", "x.py", F, F},
	{"[!a-m]*", "nose", F, T},
	{"[!a-m]*", "apple", F, F},
	{"[a-c]*", "cat", F, T},
	{"*[0-9]", "v2", F, T},
	{"[*]", "*", F, T},
	{"[*]", "a", F, F},
	{"[?]", "?", F, T},
	{"[!!]", "!", F, F},
	{"[!!]", "a", F, T},
	{"[^^]", "^", F, F},
	{"[a^]", "^", F, T},
	{"[---]", "-", F, T},
	{"[--0]x", ".x", F, T},
	{"[\\\\]", "\\", F, T},
	{"a/[bc]/d", "a/c/d", F, T},
	{"a/[!bc]/d", "a/c/d", F, F},
	// POSIX classes, with git's own ctype.
	{"[[:digit:]]", "5", F, T},
	{"[[:digit:]]", "a", F, F},
	{"[[:alpha:]]", "a", F, T},
	{"[[:alpha:]]", "1", F, F},
	{"[[:alnum:]]", "_", F, F},
	{"[[:alnum:]]", "Z", F, T},
	{"[[:upper:]]", "A", F, T},
	{"[[:upper:]]", "a", F, F},
	{"[[:lower:]]", "a", F, T},
	{"[[:lower:]]", "A", F, F},
	{"[[:space:]]", " ", F, T},
	{"[[:space:]]", "\t", F, T},
	{"[[:space:]]", "\v", F, F},
	{"[[:space:]]", "\f", F, F},
	{"[[:space:]]", "\r", F, T},
	{"[[:space:]]", "\n", F, T},
	{"[[:blank:]]", "\t", F, T},
	{"[[:blank:]]", "\n", F, F},
	{"[[:punct:]]", "!", F, T},
	{"[[:punct:]]", "a", F, F},
	{"[[:punct:]]", "~", F, T},
	{"[[:xdigit:]]", "f", F, T},
	{"[[:xdigit:]]", "g", F, F},
	{"[[:xdigit:]]", "F", F, T},
	{"[[:cntrl:]]", "\x01", F, T},
	{"[[:cntrl:]]", "\x7f", F, T},
	{"[[:cntrl:]]", "a", F, F},
	{"[[:graph:]]", "a", F, T},
	{"[[:graph:]]", " ", F, F},
	{"[[:print:]]", " ", F, T},
	{"[[:print:]]", "\x01", F, F},
	{"[[:alpha:]][[:alpha:]]", "é", F, F},
	{"[[:print:]][[:print:]]", "é", F, F},
	{"[[:foo:]]", "f", F, F},
	{"[[:foo:]]", "[[:foo:]]", F, F},
	{"[[:digit:]a]", "a", F, T},
	{"[[:digit:]-z]", "-", F, T},
	{"[[:digit:]-z]", "m", F, F},
	{"[[:digit]", "d", F, T},
	{"[[:digit]", "x", F, F},
	{"[[:]", "[", F, T},
	{"[[:]", ":", F, T},
	{"[[:digit:]", "5", F, F},
	{"[[:digit:][:alpha:]]", "x", F, T},
	{"[![:digit:]]", "x", F, T},
	{"[![:digit:]]", "7", F, F},
	{"file[[:digit:]].c", "file7.c", F, T},
	// Backslash escapes.
	{"\\*", "*", F, T},
	{"\\*", "a", F, F},
	{"\\?", "?", F, T},
	{"\\?", "a", F, F},
	{"\\[a]", "[a]", F, T},
	{"\\[a]", "a", F, F},
	{"\\a", "a", F, T},
	{"a\\*b", "a*b", F, T},
	{"a\\*b", "axb", F, F},
	{"\\\\", "\\", F, T},
	// Slashes.
	{"a//b", "a/b", F, F},
	{"//a", "a", F, F},
	{"a/b/c", "a/b/c", T, T},
	{"/a/*/c/", "a/b/c", T, T},
}

// parentsOf returns the directory prefixes of path: "a", "a/b" for "a/b/c".
func parentsOf(path string) []string {
	var ps []string
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			ps = append(ps, path[:i])
		}
	}
	return ps
}

func TestVectorsCount(t *testing.T) {
	assert.GreaterOrEqual(t, len(vectors), 150)
}

// TestVectors checks the matcher against the table, with the ignore file at
// the root and in a subdirectory.
func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.name(), func(t *testing.T) {
			for _, dir := range []string{"", "sub/dir"} {
				r := Parse(dir, []byte(v.pattern+"\n"))
				path := v.path
				if dir != "" {
					path = dir + "/" + path
				}
				assert.Equal(t, v.want, r.Match(path, v.dir) != None, "dir %q", dir)
				for _, p := range parentsOf(path) {
					assert.Equal(t, None, r.Match(p, true), "parent %q must not match", p)
				}
			}
		})
	}
}

// TestVectorsAgainstGit proves the table is git's behaviour: each pattern goes
// into the .gitignore of its own directory, each path (and its parents, which
// must not match) is created and asked to git check-ignore.
func TestVectorsAgainstGit(t *testing.T) {
	requireGit(t)
	root := t.TempDir()
	gitInit(t, root)
	var stdin []byte
	for i, v := range vectors {
		dir := fmt.Sprintf("v%03d", i)
		abs := filepath.Join(root, dir)
		require.NoError(t, os.MkdirAll(abs, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(abs, ".gitignore"), []byte(v.pattern+"\n"), 0o644))
		p := filepath.Join(abs, filepath.FromSlash(v.path))
		if v.dir {
			require.NoError(t, os.MkdirAll(p, 0o755))
		} else {
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, nil, 0o644))
		}
		for _, q := range append(parentsOf(v.path), v.path) {
			stdin = append(append(stdin, dir+"/"+q...), 0)
		}
	}
	out := splitNUL(runGit(t, root, stdin, true, "check-ignore", "--no-index", "--stdin", "-z", "-v", "-n"))
	require.Zero(t, len(out)%4, "check-ignore -z -v prints 4 fields per path")
	matched := map[string]string{} // path -> matching pattern ("" for none)
	for i := 0; i < len(out); i += 4 {
		if out[i] != "" {
			matched[out[i+3]] = out[i+2]
		} else {
			matched[out[i+3]] = ""
		}
	}
	for i, v := range vectors {
		dir := fmt.Sprintf("v%03d/", i)
		t.Run(v.name(), func(t *testing.T) {
			pat, ok := matched[dir+v.path]
			require.True(t, ok, "git did not answer for %q", dir+v.path)
			assert.Equal(t, v.want, pat != "", "git matched pattern %q", pat)
			for _, p := range parentsOf(v.path) {
				assert.Empty(t, matched[dir+p], "git matched parent %q: the vector is not about its own path", p)
			}
		})
	}
}
