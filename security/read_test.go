package security

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFile(t *testing.T) {
	tr := newTree(t, Options{MaxFileSize: 64})
	writeFiles(t, tr.root, map[string]string{
		"Config/.ENV":     "shouting secret",
		"keys/server.PEM": "-----BEGIN PRIVATE KEY-----",
		"big.txt":         strings.Repeat("x", 65),
		"limit.txt":       strings.Repeat("y", 64),
		"empty.txt":       "",
	})
	mkfifo(t, tr.host("fifo"))
	require.NoError(t, os.Link(filepath.Join(tr.outside, "canary.txt"), tr.host("hardlink_out")))
	makeLinks(t, tr.root, map[string]string{"link_fifo": "fifo", "link_hard": "hardlink_out"})

	tests := []struct {
		name, in, path, want string
		err                  error
	}{
		{name: "file", in: "a.txt", path: "a.txt", want: "alpha"},
		{name: "empty file", in: "empty.txt", path: "empty.txt", want: ""},
		{name: "at the size limit", in: "limit.txt", path: "limit.txt", want: strings.Repeat("y", 64)},
		{name: "relative link", in: "link_rel", path: "sub/b.txt", want: "bravo"},
		{name: "chain", in: "chain1", path: "a.txt", want: "alpha"},
		{name: "absolute inside", in: tr.root + "/sub/deep/c.txt", path: "sub/deep/c.txt", want: "charlie"},
		{name: "secret example is readable", in: ".env.example", path: ".env.example", want: "TOKEN="},

		{name: "secret", in: ".env", err: ErrSecret},
		{name: "secret case-insensitive", in: "Config/.ENV", err: ErrSecret},
		{name: "secret key", in: "keys/server.PEM", err: ErrSecret},
		{name: "secret behind innocent link", in: "innocent.txt", err: ErrSecret},
		{name: "directory", in: "sub", err: ErrIsDir},
		{name: "root", in: ".", err: ErrIsDir},
		{name: "missing", in: "missing.txt", err: fs.ErrNotExist},
		{name: "too large", in: "big.txt", err: ErrTooLarge},
		{name: "fifo", in: "fifo", err: ErrNotRegular},
		{name: "link to fifo", in: "link_fifo", err: ErrNotRegular},
		{name: "device via absolute link", in: "devnull", err: ErrOutsideRoot},
		{name: "hard link to outside", in: "hardlink_out", err: ErrHardLink},
		{name: "link to hard link", in: "link_hard", err: ErrHardLink},
		{name: "escaping link", in: "link_out", err: ErrOutsideRoot},
		{name: "escaping dir link", in: "link_outdir/canary.txt", err: ErrOutsideRoot},
		{name: "absolute link", in: "link_abs_out", err: ErrOutsideRoot},
		{name: "dotdot", in: "../outside/canary.txt", err: ErrOutsideRoot},
		{name: "absolute sibling prefix", in: tr.evil + "/x.txt", err: ErrOutsideRoot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f *File
			var err error
			within(t, 5*time.Second, func() { f, err = tr.r.ReadFile(tc.in) })
			if !assertErr(t, err, tc.err) {
				return
			}
			if tc.err != nil {
				assert.Nil(t, f)
				return
			}
			assert.Equal(t, tc.want, string(f.Data))
			assert.Equal(t, tc.path, f.Path)
			info, err := os.Lstat(tr.host(tc.path))
			require.NoError(t, err)
			assert.True(t, versionOf(info).Equal(f.Version), "version differs from lstat")
		})
	}
}

// TestReadFileDevice reads a character device made inside the root (needs root).
func TestReadFileDevice(t *testing.T) {
	tr := newTree(t, Options{})
	if err := syscall.Mknod(tr.host("null"), syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Skipf("mknod needs privileges: %v", err)
	}
	within(t, 5*time.Second, func() {
		_, err := tr.r.ReadFile("null")
		assertErr(t, err, ErrNotRegular)
	})
}

func TestOpenFile(t *testing.T) {
	tr := newTree(t, Options{})
	f, canonical, v, err := tr.r.OpenFile("link_dir/b.txt")
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, "sub/b.txt", canonical)
	info, err := f.Stat()
	require.NoError(t, err)
	assert.True(t, versionOf(info).Equal(v))
	assert.Equal(t, int64(len("bravo")), v.Size)
}

func TestStatLstat(t *testing.T) {
	tr := newTree(t, Options{})
	tests := []struct {
		name, in string
		lstat    bool
		mode     fs.FileMode // type bits expected
		err      error
	}{
		{name: "stat follows link", in: "link_rel", mode: 0},
		{name: "lstat does not follow link", in: "link_rel", lstat: true, mode: fs.ModeSymlink},
		{name: "stat dir link", in: "link_dir", mode: fs.ModeDir},
		{name: "lstat escaping link is the link", in: "link_out", lstat: true, mode: fs.ModeSymlink},
		{name: "stat escaping link", in: "link_out", err: ErrOutsideRoot},
		{name: "lstat through escaping dir link", in: "link_outdir/canary.txt", lstat: true, err: ErrOutsideRoot},
		{name: "stat root", in: ".", mode: fs.ModeDir},
		{name: "lstat root", in: "./", lstat: true, mode: fs.ModeDir},
		{name: "lstat dotdot to root", in: "sub/..", lstat: true, mode: fs.ModeDir},
		{name: "lstat dotdot not root", in: "sub/deep/..", lstat: true, err: ErrInvalidPath},
		{name: "lstat link with slash", in: "link_dir/", lstat: true, err: ErrNotDir},
		{name: "stat secret is allowed", in: ".env", mode: 0},
		{name: "stat missing", in: "missing", err: fs.ErrNotExist},
		{name: "lstat missing", in: "sub/missing", lstat: true, err: fs.ErrNotExist},
		{name: "lstat missing parent", in: "nope/missing", lstat: true, err: fs.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stat := tr.r.Stat
			if tc.lstat {
				stat = tr.r.Lstat
			}
			info, err := stat(tc.in)
			if assertErr(t, err, tc.err) && tc.err == nil {
				assert.Equal(t, tc.mode, info.Mode().Type())
			}
		})
	}
}

func TestReadDir(t *testing.T) {
	tr := newTree(t, Options{})
	names := func(entries []fs.DirEntry) []string {
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	tests := []struct {
		name, in string
		want     []string
		err      error
	}{
		{name: "dir", in: "sub", want: []string{"b.txt", "deep", "link_back"}},
		{name: "dir link", in: "link_dir", want: []string{"b.txt", "deep", "link_back"}},
		{name: "escaping dir link", in: "link_outdir", err: ErrOutsideRoot},
		{name: "dotdot", in: "..", err: ErrOutsideRoot},
		{name: "file", in: "a.txt", err: ErrNotDir},
		{name: "missing", in: "nope", err: fs.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := tr.r.ReadDir(tc.in)
			if assertErr(t, err, tc.err) && tc.err == nil {
				assert.Equal(t, tc.want, names(entries))
			}
		})
	}

	t.Run("root lists secret names and links as links", func(t *testing.T) {
		entries, err := tr.r.ReadDir(".")
		require.NoError(t, err)
		assert.Contains(t, names(entries), ".env")
		for _, e := range entries {
			if e.Name() == "link_outdir" {
				assert.Equal(t, fs.ModeSymlink, e.Type())
				info, err := e.Info()
				require.NoError(t, err)
				assert.Equal(t, fs.ModeSymlink, info.Mode().Type(), "Info must not follow the link")
			}
		}
	})
}

func TestFS(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"a.txt": "a", "sub/b.txt": "b", "sub/deep/c.txt": "c"})
	makeLinks(t, base, map[string]string{"sub/link": "../a.txt"})
	r, err := Open(base, Options{})
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, fstest.TestFS(r.FS(), "a.txt", "sub/b.txt", "sub/deep/c.txt", "sub/link"))

	t.Run("policy and checks apply", func(t *testing.T) {
		tr := newTree(t, Options{})
		mkfifo(t, tr.host("fifo"))
		fsys := tr.r.FS()
		within(t, 5*time.Second, func() {
			_, err := fsys.Open("fifo")
			assertErr(t, err, ErrNotRegular)
		})
		_, err := fs.ReadFile(fsys, "innocent.txt")
		assertErr(t, err, ErrSecret)
		_, err = fsys.Open("link_outdir/canary.txt")
		assertErr(t, err, ErrOutsideRoot)
		_, err = fsys.Open("../outside/canary.txt")
		assertErr(t, err, fs.ErrInvalid)
		_, err = fs.Stat(fsys, "/etc")
		assertErr(t, err, fs.ErrInvalid)
	})

	t.Run("walk never leaves the root", func(t *testing.T) {
		tr := newTree(t, Options{})
		var walked []string
		require.NoError(t, fs.WalkDir(tr.r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			require.NoError(t, err)
			walked = append(walked, p)
			return nil
		}))
		assert.Contains(t, walked, "link_outdir")
		assert.NotContains(t, walked, "link_outdir/canary.txt")
		assert.Contains(t, walked, "sub/deep/c.txt")
	})
}
