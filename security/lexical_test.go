package security

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClean(t *testing.T) {
	tr := newTree(t, Options{})
	long := strings.Repeat("a", 255)
	tests := []struct {
		name, in, want string
		err            error
	}{
		{name: "plain", in: "a.txt", want: "a.txt"},
		{name: "nested", in: "sub/b.txt", want: "sub/b.txt"},
		{name: "dot prefix", in: "./a.txt", want: "a.txt"},
		{name: "double slash", in: "sub//b.txt", want: "sub/b.txt"},
		{name: "inner dot", in: "sub/./b.txt", want: "sub/b.txt"},
		{name: "root dot", in: ".", want: "."},
		{name: "root dot slash", in: "./", want: "."},
		{name: "trailing slash kept", in: "sub/", want: "sub/"},
		{name: "trailing slash dot", in: "sub/.", want: "sub/"},
		{name: "dotdot kept", in: "sub/../a.txt", want: "sub/../a.txt"},
		{name: "inner dotdot left to resolve", in: "sub/../../x", want: "sub/../../x"},
		{name: "hidden file", in: ".gitignore", want: ".gitignore"},
		{name: "tilde inside", in: "a/~b", want: "a/~b"},
		{name: "unicode", in: "café/日本語.go", want: "café/日本語.go"},
		{name: "inner space", in: "my file.txt", want: "my file.txt"},
		{name: "longest component", in: long, want: long},
		{name: "absolute root", in: tr.root, want: "."},
		{name: "absolute root slash", in: tr.root + "/", want: "."},
		{name: "absolute inside", in: tr.root + "/sub/b.txt", want: "sub/b.txt"},
		{name: "absolute with slashes", in: tr.root + "//./sub//b.txt", want: "sub/b.txt"},

		{name: "empty", in: "", err: ErrInvalidPath},
		{name: "NUL", in: "a\x00b", err: ErrInvalidPath},
		{name: "newline", in: "a\nb", err: ErrInvalidPath},
		{name: "DEL", in: "a\x7f", err: ErrInvalidPath},
		{name: "C1 control", in: "a\u0085", err: ErrInvalidPath},
		{name: "invalid UTF-8", in: "a\xffb", err: ErrInvalidPath},
		{name: "bidi override", in: "txt.\u202eexe", err: ErrInvalidPath},
		{name: "bidi isolate", in: "a\u2066b", err: ErrInvalidPath},
		{name: "zero width space", in: ".e\u200bnv", err: ErrInvalidPath},
		{name: "zero width joiner", in: "a\u200db", err: ErrInvalidPath},
		{name: "BOM", in: "\ufeffa", err: ErrInvalidPath},
		{name: "word joiner", in: "a\u2060b", err: ErrInvalidPath},
		{name: "line separator", in: "a\u2028b", err: ErrInvalidPath},
		{name: "one dot leader", in: "\u2024\u2024/x", err: ErrInvalidPath},
		{name: "two dot leader", in: "\u2025/x", err: ErrInvalidPath},
		{name: "ellipsis", in: "\u2026/x", err: ErrInvalidPath},
		{name: "small full stop", in: "a\ufe52txt", err: ErrInvalidPath},
		{name: "fullwidth full stop", in: "\uff0e\uff0e/x", err: ErrInvalidPath},
		{name: "ideographic full stop", in: "a\u3002txt", err: ErrInvalidPath},
		{name: "division slash", in: "..\u2215x", err: ErrInvalidPath},
		{name: "fraction slash", in: "a\u2044b", err: ErrInvalidPath},
		{name: "fullwidth solidus", in: "a\uff0fb", err: ErrInvalidPath},
		{name: "big solidus", in: "a\u29f8b", err: ErrInvalidPath},
		{name: "box drawing diagonal", in: "a\u2571b", err: ErrInvalidPath},
		{name: "backslash", in: `sub\b.txt`, err: ErrInvalidPath},
		{name: "backslash dotdot", in: `..\outside`, err: ErrInvalidPath},
		{name: "tilde", in: "~", err: ErrInvalidPath},
		{name: "tilde home", in: "~/.ssh/id_rsa", err: ErrInvalidPath},
		{name: "tilde user", in: "~root/x", err: ErrInvalidPath},
		{name: "tilde after dot", in: "./~/x", err: ErrInvalidPath},
		{name: "tilde after absolute root", in: "/ROOT/~/x", err: ErrInvalidPath},
		{name: "path too long", in: strings.Repeat("a/", 2048) + "b", err: ErrInvalidPath},
		{name: "too many components", in: strings.Repeat("a/", 257), err: ErrInvalidPath},
		{name: "component too long", in: long + "a", err: ErrInvalidPath},
		{name: "three dots", in: "...", err: ErrInvalidPath},
		{name: "four dots inside", in: "a/..../b", err: ErrInvalidPath},
		{name: "trailing dot", in: "a.txt.", err: ErrInvalidPath},
		{name: "trailing space", in: "a.txt ", err: ErrInvalidPath},
		{name: "inner trailing dot", in: "sub./b.txt", err: ErrInvalidPath},

		{name: "absolute outside", in: "/etc/passwd", err: ErrOutsideRoot},
		{name: "absolute slash", in: "/", err: ErrOutsideRoot},
		{name: "absolute parent of root", in: tr.base, err: ErrOutsideRoot},
		{name: "absolute sibling with root as prefix", in: tr.evil + "/x.txt", err: ErrOutsideRoot},
		{name: "absolute sibling", in: tr.outside + "/canary.txt", err: ErrOutsideRoot},
		{name: "leading dotdot", in: "../x", err: ErrOutsideRoot},
		{name: "dot then dotdot", in: "./../x", err: ErrOutsideRoot},
		{name: "absolute dotdot after root", in: tr.root + "/../root/a.txt", err: ErrOutsideRoot},
		{name: "absolute dotdot before root", in: tr.base + "/../" + filepath.Base(tr.base) + "/root/a.txt", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tr.r.Clean(expandRoots(tr, tc.in))
			if !assertErr(t, err, tc.err) {
				return
			}
			if tc.err != nil {
				assert.Equal(t, -1, strings.IndexFunc(err.Error(), invisible), "raw control character in %q", err)
				return
			}
			assert.Equal(t, tc.want, got)
			again, err := tr.r.Clean(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "Clean is not idempotent")
		})
	}
}

// TestCleanRootAliases accepts absolute names under the root as given and as resolved.
func TestCleanRootAliases(t *testing.T) {
	tr := newTree(t, Options{})
	alias := filepath.Join(tr.base, "alias")
	require.NoError(t, os.Symlink("root", alias))
	r, err := Open(alias, Options{})
	require.NoError(t, err)
	defer r.Close()
	assert.Equal(t, tr.root, r.Path())

	for _, in := range []string{alias + "/sub/b.txt", tr.root + "/sub/b.txt"} {
		got, err := r.Clean(in)
		require.NoError(t, err, in)
		assert.Equal(t, "sub/b.txt", got, in)
	}
	_, err = r.Clean(tr.base + "/aliasx/a.txt")
	assertErr(t, err, ErrOutsideRoot)
}

// TestRefusedNamePath checks that errors name a refused path as given, quoted only when
// it holds characters that must not reach a message verbatim.
func TestRefusedNamePath(t *testing.T) {
	tr := newTree(t, Options{})
	tests := map[string]string{
		"../x":      "../x",
		"...":       "...",
		"a\x00b":    `"a\x00b"`,
		"a\u202eb":  `"a\u202eb"`,
		"bad\xffut": `"bad\xffut"`,
	}
	for in, want := range tests {
		t.Run(want, func(t *testing.T) {
			_, err := tr.r.ReadFile(in)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, want, pe.Path)
		})
	}
}
