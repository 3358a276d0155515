package security

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name, in, path string // path: canonical path expected to hold the data
		opts           WriteOptions
		err            error
	}{
		{name: "new file", in: "new.txt", path: "new.txt"},
		{name: "replace", in: "a.txt", path: "a.txt"},
		{name: "creates parents", in: "x/y/z.txt", path: "x/y/z.txt"},
		{name: "absolute inside", in: "/ROOT/sub/new.txt", path: "sub/new.txt"},
		{name: "through leaf link", in: "link_rel", path: "sub/b.txt"},
		{name: "through dangling in-root link", in: "dangling_in", path: "sub/new.txt"},
		{name: "through dir link", in: "link_dir/new.txt", path: "sub/new.txt"},
		{name: "must not exist, new", in: "fresh.txt", path: "fresh.txt", opts: WriteOptions{MustNotExist: true}},
		{name: "secret example", in: ".env.example", path: ".env.example"},

		{name: "must not exist, existing", in: "a.txt", opts: WriteOptions{MustNotExist: true}, err: fs.ErrExist},
		{name: "secret", in: ".env", err: ErrSecret},
		{name: "secret new", in: "sub/.env.production", err: ErrSecret},
		{name: "secret via innocent link", in: "innocent.txt", err: ErrSecret},
		{name: "protected", in: ".git/config", err: ErrProtected},
		{name: "protected new", in: ".git/hooks/pre-commit", err: ErrProtected},
		{name: "protected nested", in: "sub/.GIT/HEAD", err: ErrProtected},
		{name: "directory", in: "sub", err: ErrIsDir},
		{name: "trailing slash", in: "newdir/", err: ErrIsDir},
		{name: "root", in: ".", err: ErrIsDir},
		{name: "dotdot", in: "../outside/new.txt", err: ErrOutsideRoot},
		{name: "dangling escaping link", in: "dangling_out", err: ErrOutsideRoot},
		{name: "escaping dir link", in: "link_outdir/pwned.txt", err: ErrOutsideRoot},
		{name: "escaping dir link new parents", in: "link_outdir/a/b/pwned.txt", err: ErrOutsideRoot},
		{name: "absolute link", in: "link_abs", err: ErrOutsideRoot},
		{name: "absolute sibling prefix", in: "/EVIL/x.txt", err: ErrOutsideRoot},
		{name: "missing parent then dotdot", in: "nope/../../outside/x", err: fs.ErrNotExist},
		{name: "file as parent", in: "a.txt/x", err: ErrNotDir},
		{name: "invalid", in: "a\u202e.txt", err: ErrInvalidPath},
	}
	data := []byte("new content")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			in := expandRoots(tr, tc.in)
			before := snapshot(t, tr.root)
			canonical, v, err := tr.r.WriteFile(in, data, tc.opts)
			if !assertErr(t, err, tc.err) {
				return
			}
			if tc.err != nil {
				assert.Equal(t, before, snapshot(t, tr.root), "a refused write changed the root")
				return
			}
			assert.Equal(t, tc.path, canonical)
			got, err := os.ReadFile(tr.host(tc.path))
			require.NoError(t, err)
			assert.Equal(t, data, got)
			info, err := os.Lstat(tr.host(tc.path))
			require.NoError(t, err)
			assert.True(t, versionOf(info).Equal(v), "returned version differs from lstat")
			assert.Empty(t, tempNames(t, tr.root))
		})
	}
}

func TestWriteFileKeepsLink(t *testing.T) {
	tr := newTree(t, Options{})
	_, _, err := tr.r.WriteFile("link_rel", []byte("via link"), WriteOptions{})
	require.NoError(t, err)
	target, err := os.Readlink(tr.host("link_rel"))
	require.NoError(t, err)
	assert.Equal(t, "sub/b.txt", target)
}

func TestWriteFileMode(t *testing.T) {
	tr := newTree(t, Options{})
	require.NoError(t, os.Chmod(tr.host("a.txt"), 0o600))
	tests := []struct {
		name, in string
		perm     fs.FileMode
		want     fs.FileMode
	}{
		{name: "existing keeps its mode", in: "a.txt", perm: 0o644, want: 0o600},
		{name: "new default", in: "new.txt", want: 0o644},
		{name: "new with perm, umask ignored", in: "script.sh", perm: 0o777, want: 0o777},
		{name: "non-permission bits dropped", in: "odd.txt", perm: fs.ModeSetuid | 0o640, want: 0o640},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, v, err := tr.r.WriteFile(tc.in, []byte("x"), WriteOptions{Perm: tc.perm})
			require.NoError(t, err)
			info, err := os.Stat(tr.host(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.want, info.Mode())
			assert.Equal(t, tc.want, v.Mode)
		})
	}
}

// TestWriteFileHardLink replaces a file hard-linked to a file outside the root: the
// link is detached, the outside inode untouched (newTree checks the outside tree).
func TestWriteFileHardLink(t *testing.T) {
	tr := newTree(t, Options{})
	require.NoError(t, os.Link(filepath.Join(tr.outside, "canary.txt"), tr.host("hl")))
	_, _, err := tr.r.WriteFile("hl", []byte("replaced"), WriteOptions{})
	require.NoError(t, err)
	got, err := os.ReadFile(tr.host("hl"))
	require.NoError(t, err)
	assert.Equal(t, "replaced", string(got))
	f, err := tr.r.ReadFile("hl")
	require.NoError(t, err, "the replaced file has a single link")
	assert.Equal(t, "replaced", string(f.Data))
}

func TestWriteFileNotRegular(t *testing.T) {
	tr := newTree(t, Options{})
	mkfifo(t, tr.host("fifo"))
	within(t, 5*time.Second, func() {
		_, _, err := tr.r.WriteFile("fifo", []byte("x"), WriteOptions{})
		assertErr(t, err, ErrNotRegular)
	})
	info, err := os.Lstat(tr.host("fifo"))
	require.NoError(t, err)
	assert.Equal(t, fs.ModeNamedPipe, info.Mode().Type())
}

func TestWriteFileTooLarge(t *testing.T) {
	tr := newTree(t, Options{MaxFileSize: 4})
	_, _, err := tr.r.WriteFile("a.txt", []byte("12345"), WriteOptions{})
	assertErr(t, err, ErrTooLarge)
	_, _, err = tr.r.WriteFile("a.txt", []byte("1234"), WriteOptions{})
	assert.NoError(t, err)
}

func TestWriteFileExpect(t *testing.T) {
	tr := newTree(t, Options{})
	f, err := tr.r.ReadFile("a.txt")
	require.NoError(t, err)

	_, v, err := tr.r.WriteFile("a.txt", []byte("first"), WriteOptions{Expect: &f.Version})
	require.NoError(t, err, "unchanged file")

	_, _, err = tr.r.WriteFile("a.txt", []byte("stale"), WriteOptions{Expect: &f.Version})
	assertErr(t, err, ErrChanged)

	require.NoError(t, os.WriteFile(tr.host("a.txt"), []byte("someone else"), 0o644))
	_, _, err = tr.r.WriteFile("a.txt", []byte("second"), WriteOptions{Expect: &v})
	assertErr(t, err, ErrChanged)
	got, err := os.ReadFile(tr.host("a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "someone else", string(got))

	require.NoError(t, os.Remove(tr.host("a.txt")))
	_, _, err = tr.r.WriteFile("a.txt", []byte("third"), WriteOptions{Expect: &v})
	assertErr(t, err, ErrChanged)
	assert.NoFileExists(t, tr.host("a.txt"))
	assert.Empty(t, tempNames(t, tr.root))
}

// TestReplaceCleansUp fails the final steps of the atomic replace (a conflict detected
// just before the rename) and checks that no temporary file is left.
func TestReplaceCleansUp(t *testing.T) {
	tr := newTree(t, Options{})
	stale := Version{Size: -1}
	tests := []struct {
		name string
		opts WriteOptions
		err  error
	}{
		{name: "expect conflict", opts: WriteOptions{Expect: &stale}, err: ErrChanged},
		{name: "must not exist conflict", opts: WriteOptions{MustNotExist: true}, err: fs.ErrExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tr.r.replace("sub/b.txt", []byte("x"), 0o644, tc.opts)
			assert.ErrorIs(t, err, tc.err)
			assert.Empty(t, tempNames(t, tr.root))
			got, err := os.ReadFile(tr.host("sub/b.txt"))
			require.NoError(t, err)
			assert.Equal(t, "bravo", string(got))
		})
	}
}

func TestMkdirAll(t *testing.T) {
	tests := []struct {
		name, in, path string
		err            error
	}{
		{name: "new", in: "x/y/z", path: "x/y/z"},
		{name: "existing", in: "sub/deep", path: "sub/deep"},
		{name: "root", in: ".", path: "."},
		{name: "trailing slash", in: "n/", path: "n"},
		{name: "through dir link", in: "link_dir/new", path: "sub/new"},
		{name: "over file", in: "a.txt", err: ErrNotDir},
		{name: "under file", in: "a.txt/x", err: ErrNotDir},
		{name: "protected", in: ".git/hooks", err: ErrProtected},
		{name: "escaping", in: "link_outdir/x", err: ErrOutsideRoot},
		{name: "dotdot", in: "../x", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t, Options{})
			err := tr.r.MkdirAll(tc.in)
			if assertErr(t, err, tc.err) && tc.err == nil {
				info, err := os.Lstat(tr.host(tc.path))
				require.NoError(t, err)
				assert.True(t, info.IsDir())
			}
		})
	}
}

func TestWriteFileNoSyncStillReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir, Options{NoSync: true})
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte("old"), 0o600))
	_, v, err := r.WriteFile("f.txt", []byte("new"), WriteOptions{})
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "f.txt"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	assert.Equal(t, fs.FileMode(0o600), v.Mode.Perm(), "mode kept")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temp file left")
}

func TestCreateLog(t *testing.T) {
	tr := newTree(t, Options{})
	f, canon, err := tr.r.CreateLog(".jido/output/run-1.log")
	require.NoError(t, err)
	assert.Equal(t, ".jido/output/run-1.log", canon)
	_, err = f.WriteString("line 1\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	data, err := os.ReadFile(tr.host(".jido/output/run-1.log"))
	require.NoError(t, err)
	assert.Equal(t, "line 1\n", string(data))

	for name, want := range map[string]error{
		".jido/output/run-1.log": fs.ErrExist,
		"link_rel":               fs.ErrExist, // a symlink is never followed or replaced
		"link_out":               fs.ErrExist,
		"dangling_out":           fs.ErrExist,
		"../x.log":               ErrOutsideRoot,
		".env.log":               ErrSecret,
		".git/x.log":             ErrProtected,
	} {
		f, _, err := tr.r.CreateLog(name)
		if assert.Error(t, err, name) {
			assert.ErrorIs(t, err, want, name)
		} else {
			f.Close()
		}
	}
}
