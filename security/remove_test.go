package security

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRemove(t *testing.T) {
	tests := []struct {
		name, in  string
		recursive bool
		gone      []string // host-relative names that must be gone afterwards
		kept      []string // names that must still exist
		err       error
	}{
		{name: "file", in: "a.txt", gone: []string{"a.txt"}},
		{name: "link, not its target", in: "link_rel", gone: []string{"link_rel"}, kept: []string{"sub/b.txt"}},
		{name: "escaping link itself", in: "link_out", gone: []string{"link_out"}},
		{name: "dir link itself", in: "link_dir", recursive: true, gone: []string{"link_dir"}, kept: []string{"sub/b.txt"}},
		{name: "link to root itself", in: "self", gone: []string{"self"}, kept: []string{"a.txt"}},
		{name: "link to secret itself", in: "innocent.txt", gone: []string{"innocent.txt"}, kept: []string{".env"}},
		{name: "directory", in: "sub", recursive: true, gone: []string{"sub"}, kept: []string{"a.txt"}},
		{name: "absolute inside", in: "/ROOT/sub/deep", recursive: true, gone: []string{"sub/deep"}, kept: []string{"sub/b.txt"}},

		{name: "directory not recursive", in: "sub", err: ErrIsDir, kept: []string{"sub/b.txt"}},
		{name: "root dot", in: ".", recursive: true, err: ErrIsRoot},
		{name: "root dot slash", in: "./", recursive: true, err: ErrIsRoot},
		{name: "root sub dotdot", in: "sub/..", recursive: true, err: ErrIsRoot},
		{name: "root deep dotdot", in: "sub/deep/../..", recursive: true, err: ErrIsRoot},
		{name: "root via dir link dotdot", in: "link_dir/..", recursive: true, err: ErrIsRoot},
		{name: "root via link to root with slash", in: "self/", recursive: true, err: ErrNotDir},
		{name: "root absolute", in: "/ROOT", recursive: true, err: ErrIsRoot},
		{name: "root absolute slash", in: "/ROOT/", recursive: true, err: ErrIsRoot},
		{name: "dotdot not at root", in: "sub/deep/..", recursive: true, err: ErrInvalidPath, kept: []string{"sub/b.txt"}},
		{name: "protected dir", in: ".git", recursive: true, err: ErrProtected},
		{name: "protected file", in: ".git/config", err: ErrProtected},
		{name: "secret", in: ".env", err: ErrSecret},
		{name: "dir holding a secret", in: "vault", recursive: true, err: ErrSecret, kept: []string{"vault/notes.txt"}},
		{name: "dir holding a repository", in: "vendor", recursive: true, err: ErrProtected, kept: []string{"vendor/lib.go"}},
		{name: "missing", in: "missing", err: fs.ErrNotExist},
		{name: "outside", in: "../outside/canary.txt", err: ErrOutsideRoot},
		{name: "through escaping dir link", in: "link_outdir/canary.txt", err: ErrOutsideRoot},
		{name: "through escaping dir link recursive", in: "link_outdir/dir", recursive: true, err: ErrOutsideRoot},
		{name: "absolute sibling prefix", in: "/EVIL/x.txt", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			writeFiles(t, tr.root, map[string]string{
				"vault/notes.txt":   "n",
				"vault/deep/id_rsa": "k",
				"vendor/lib.go":     "package lib",
				"vendor/.git/HEAD":  "ref",
			})
			in := expandRoots(tr, tc.in)
			err := tr.r.Remove(in, tc.recursive)
			assertErr(t, err, tc.err)
			for _, name := range tc.gone {
				_, err := os.Lstat(tr.host(name))
				assert.ErrorIs(t, err, fs.ErrNotExist, name)
			}
			for _, name := range append(tc.kept, ".git/config") {
				_, err := os.Lstat(tr.host(name))
				assert.NoError(t, err, name)
			}
		})
	}
}

// expandRoots replaces a leading /ROOT or /EVIL by the host path of the root or its sibling.
func expandRoots(tr *tree, in string) string {
	for prefix, dir := range map[string]string{"/ROOT": tr.root, "/EVIL": tr.evil} {
		if rest, ok := strings.CutPrefix(in, prefix); ok {
			return dir + rest
		}
	}
	return in
}

func TestRemoveKeepsRootContent(t *testing.T) {
	tr := newTree(t, Options{})
	for _, in := range []string{".", "sub/..", "self/..", tr.root} {
		require.Error(t, tr.r.Remove(in, true))
	}
	entries, err := os.ReadDir(tr.root)
	require.NoError(t, err)
	assert.NotEmpty(t, entries)
}

func TestRemoveEmptyDir(t *testing.T) {
	tests := []struct {
		name, in string
		err      error
	}{
		{name: "empty", in: "empty"},
		{name: "not empty", in: "sub", err: fs.ErrExist}, // ENOTEMPTY
		{name: "file", in: "a.txt", err: ErrNotDir},
		{name: "root", in: ".", err: ErrIsRoot},
		{name: "missing", in: "missing", err: fs.ErrNotExist},
		{name: "outside", in: "../outside", err: ErrOutsideRoot},
		{name: "through escaping dir link", in: "link_outdir/dir", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			require.NoError(t, os.Mkdir(tr.host("empty"), 0o755))
			err := tr.r.RemoveEmptyDir(tc.in)
			if tc.err == fs.ErrExist {
				require.Error(t, err)
				assert.FileExists(t, tr.host("sub/b.txt"))
				return
			}
			assertErr(t, err, tc.err)
			if tc.err == nil {
				assert.NoDirExists(t, tr.host(tc.in))
			}
		})
	}
}
