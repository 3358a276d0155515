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

func TestResolve(t *testing.T) {
	tr := newTree(t, Options{})
	makeLinks(t, tr.root, map[string]string{
		"bad_target": `x\y`,
		"to_dot_env": "sub/../.env",
	})
	tests := []struct {
		name, in, want string
		err            error
	}{
		{name: "file", in: "a.txt", want: "a.txt"},
		{name: "root", in: ".", want: "."},
		{name: "absolute root", in: tr.root, want: "."},
		{name: "dotdot inside", in: "sub/../a.txt", want: "a.txt"},
		{name: "dotdot back to root", in: "sub/deep/../..", want: "."},
		{name: "directory with slash", in: "sub/", want: "sub"},
		{name: "relative link", in: "link_rel", want: "sub/b.txt"},
		{name: "link to dir then file", in: "link_dir/b.txt", want: "sub/b.txt"},
		{name: "dotdot applied after link expansion", in: "link_dir/deep/../b.txt", want: "sub/b.txt"},
		{name: "dotdot after dir link goes to link target parent", in: "link_dir/../a.txt", want: "a.txt"},
		{name: "link with dotdot target", in: "sub/link_back", want: "a.txt"},
		{name: "chain", in: "chain1", want: "a.txt"},
		{name: "link to root", in: "self/sub/b.txt", want: "sub/b.txt"},
		{name: "secret behind innocent name", in: "innocent.txt", want: ".env"},
		{name: "secret via dotdot link", in: "to_dot_env", want: ".env"},
		{name: "missing leaf", in: "sub/new.txt", want: "sub/new.txt"},
		{name: "dangling in-root link", in: "dangling_in", want: "sub/new.txt"},
		{name: "absolute inside with dotdot", in: tr.root + "/sub/../a.txt", want: "a.txt"},

		{name: "missing parent", in: "nope/new.txt", err: fs.ErrNotExist},
		{name: "file as directory", in: "a.txt/x", err: ErrNotDir},
		{name: "file with slash", in: "a.txt/", err: ErrNotDir},
		{name: "dotdot", in: "..", err: ErrOutsideRoot},
		{name: "dotdot to sibling", in: "../outside/canary.txt", err: ErrOutsideRoot},
		{name: "dotdot back into root", in: "../root/a.txt", err: ErrOutsideRoot},
		{name: "dotdot in middle", in: "sub/../../outside/canary.txt", err: ErrOutsideRoot},
		{name: "dotdot at end", in: "sub/deep/../../..", err: ErrOutsideRoot},
		{name: "absolute climbing and returning", in: tr.root + "/../root/a.txt", err: ErrOutsideRoot},
		{name: "absolute sibling prefix", in: tr.evil + "/x.txt", err: ErrOutsideRoot},
		{name: "link escaping", in: "link_out", err: ErrOutsideRoot},
		{name: "dir link escaping", in: "link_outdir/canary.txt", err: ErrOutsideRoot},
		{name: "link to parent", in: "link_up/outside/canary.txt", err: ErrOutsideRoot},
		{name: "deep link escaping", in: "sub/deep/escape/canary.txt", err: ErrOutsideRoot},
		{name: "absolute link inside", in: "link_abs", err: ErrOutsideRoot},
		{name: "absolute link outside", in: "link_abs_out", err: ErrOutsideRoot},
		{name: "absolute link to device", in: "devnull", err: ErrOutsideRoot},
		{name: "dangling escaping link", in: "dangling_out", err: ErrOutsideRoot},
		{name: "loop", in: "loop1", err: ErrInvalidPath},
		{name: "invalid link target", in: "bad_target", err: ErrInvalidPath},
		{name: "lexical refusal", in: "a\x00", err: ErrInvalidPath},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tr.r.Resolve(tc.in)
			if assertErr(t, err, tc.err) && tc.err == nil {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}

func TestResolveAbsoluteLinkMessage(t *testing.T) {
	tr := newTree(t, Options{})
	_, err := tr.r.Resolve("link_abs")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "relative")
}

func TestResolveLinkHops(t *testing.T) {
	tr := newTree(t, Options{})
	hop := func(i int) string { return "hop" + strings.Repeat("x", i) }
	for i := range maxLinkHops + 1 {
		target := hop(i + 1)
		if i == maxLinkHops-1 {
			target = "a.txt"
		}
		require.NoError(t, os.Symlink(target, tr.host(hop(i))))
	}
	got, err := tr.r.Resolve(hop(0))
	require.NoError(t, err, "exactly %d hops are allowed", maxLinkHops)
	assert.Equal(t, "a.txt", got)

	require.NoError(t, os.Remove(tr.host(hop(maxLinkHops-1))))
	require.NoError(t, os.Symlink(hop(maxLinkHops), tr.host(hop(maxLinkHops-1))))
	_, err = tr.r.Resolve(hop(0))
	assertErr(t, err, ErrInvalidPath)
}

// TestErrorsAreRootRelative checks that errors name root-relative paths, never the host path.
func TestErrorsAreRootRelative(t *testing.T) {
	tr := newTree(t, Options{})
	calls := map[string]func() error{
		"resolve escaping link": func() error { _, err := tr.r.Resolve("link_out"); return err },
		"read missing":          func() error { _, err := tr.r.ReadFile("sub/missing.txt"); return err },
		"read secret":           func() error { _, err := tr.r.ReadFile("innocent.txt"); return err },
		"read dir":              func() error { _, err := tr.r.ReadFile("sub"); return err },
		"write outside":         func() error { _, _, err := tr.r.WriteFile("link_outdir/x", nil, WriteOptions{}); return err },
		"remove missing":        func() error { return tr.r.Remove("nope", false) },
		"rename missing":        func() error { return tr.r.Rename("nope", "x", false) },
		"mkdir over file":       func() error { return tr.r.MkdirAll("a.txt/x") },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe)
			assert.False(t, filepath.IsAbs(pe.Path), pe.Path)
			assert.NotContains(t, err.Error(), tr.base)
		})
	}
}
