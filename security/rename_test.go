package security

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRename(t *testing.T) {
	tests := []struct {
		name, from, to string
		overwrite      bool
		want           map[string]string // root-relative name -> content ("->x": a symlink to x) afterwards
		gone           []string
		err            error
	}{
		{name: "file", from: "a.txt", to: "moved.txt", want: map[string]string{"moved.txt": "alpha"}, gone: []string{"a.txt"}},
		{name: "creates parents", from: "a.txt", to: "x/y/a.txt", want: map[string]string{"x/y/a.txt": "alpha"}, gone: []string{"a.txt"}},
		{name: "directory", from: "sub", to: "sub3", want: map[string]string{"sub3/b.txt": "bravo"}, gone: []string{"sub"}},
		{name: "link is moved, not followed", from: "link_rel", to: "l2", want: map[string]string{"l2": "->sub/b.txt", "sub/b.txt": "bravo"}, gone: []string{"link_rel"}},
		{name: "escaping link is moved as a link", from: "link_out", to: "sub/l", want: map[string]string{"sub/l": "->../outside/canary.txt"}},
		{name: "onto a link replaces the link", from: "a.txt", to: "link_rel", overwrite: true, want: map[string]string{"link_rel": "alpha", "sub/b.txt": "bravo"}},
		{name: "overwrite file", from: "a.txt", to: "sub/b.txt", overwrite: true, want: map[string]string{"sub/b.txt": "alpha"}, gone: []string{"a.txt"}},
		{name: "through dir link", from: "link_dir/b.txt", to: "b.txt", want: map[string]string{"b.txt": "bravo"}, gone: []string{"sub/b.txt"}},

		{name: "no clobber file", from: "a.txt", to: "sub/b.txt", err: fs.ErrExist, want: map[string]string{"a.txt": "alpha", "sub/b.txt": "bravo"}},
		{name: "no clobber link", from: "link_rel", to: "a.txt", err: fs.ErrExist, want: map[string]string{"a.txt": "alpha"}},
		{name: "no clobber dir", from: "sub", to: ".git", err: ErrProtected},
		{name: "no clobber dir onto dir", from: "sub/deep", to: "sub2", err: fs.ErrExist, want: map[string]string{"sub/deep/c.txt": "charlie"}},
		{name: "file over dir", from: "a.txt", to: "sub", overwrite: true, err: ErrIsDir},
		{name: "dir over file", from: "sub", to: "a.txt", overwrite: true, err: ErrNotDir},
		{name: "root source", from: "sub/..", to: "x", err: ErrIsRoot},
		{name: "root destination", from: "a.txt", to: ".", overwrite: true, err: ErrIsRoot},
		{name: "protected source", from: ".git/config", to: "config", err: ErrProtected},
		{name: "protected destination", from: "a.txt", to: ".git/hooks/pre-commit", err: ErrProtected},
		{name: "secret source", from: ".env", to: "env.txt", err: ErrSecret},
		{name: "secret destination", from: "a.txt", to: ".env.local", err: ErrSecret},
		{name: "missing source", from: "missing", to: "x", err: fs.ErrNotExist},
		{name: "destination outside", from: "a.txt", to: "../outside/a.txt", err: ErrOutsideRoot},
		{name: "destination through escaping link", from: "a.txt", to: "link_outdir/a.txt", err: ErrOutsideRoot},
		{name: "source through escaping link", from: "link_outdir/canary.txt", to: "stolen.txt", err: ErrOutsideRoot},
		{name: "destination sibling prefix", from: "a.txt", to: "/EVIL/a.txt", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			require.NoError(t, os.MkdirAll(tr.host("sub2/keep"), 0o755))
			err := tr.r.Rename(expandRoots(tr, tc.from), expandRoots(tr, tc.to), tc.overwrite)
			assertErr(t, err, tc.err)
			for name, want := range tc.want {
				if target, ok := strings.CutPrefix(want, "->"); ok {
					got, err := os.Readlink(tr.host(name))
					require.NoError(t, err, name)
					assert.Equal(t, target, got, name)
					continue
				}
				got, err := os.ReadFile(tr.host(name))
				require.NoError(t, err, name)
				assert.Equal(t, want, string(got), name)
			}
			for _, name := range tc.gone {
				_, err := os.Lstat(tr.host(name))
				assert.ErrorIs(t, err, fs.ErrNotExist, name)
			}
		})
	}
}
