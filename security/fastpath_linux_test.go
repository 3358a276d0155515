package security

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastCase is a name, whether the openat2 fast path decides it (false: the walk does)
// and the cause ReadFile fails with (nil: it reads).
type fastCase struct {
	in   string
	fast bool
	err  error
}

// TestFastPathMatchesWalk checks, for names of every kind, that the fast path decides
// exactly the names it should and that a Root using it answers everything (Resolve,
// Stat, write resolution, OpenFile, ReadFile, ReadDir, messages included) as a Root
// restricted to the walk.
func TestFastPathMatchesWalk(t *testing.T) {
	tr := newTree(t, Options{MaxFileSize: 64})
	if tr.r.fast.conn == nil {
		t.Skip("openat2 is not available: the fast path is disabled")
	}
	walk := walkOnly(t, tr.root, Options{MaxFileSize: 64})
	writeFiles(t, tr.root, map[string]string{
		"a/b/c/d/e/f.txt":   "deep",
		"keys/server.pem":   "-----BEGIN PRIVATE KEY-----",
		"sub/.env.example":  "TOKEN=",
		"sub/big.txt":       strings.Repeat("x", 65),
		"sub/limit.txt":     strings.Repeat("y", 64),
		"sub/deep/empty.md": "",
	})
	mkfifo(t, tr.host("sub/fifo"))
	require.NoError(t, os.Link(filepath.Join(tr.outside, "canary.txt"), tr.host("sub/hardlink_out")))
	makeLinks(t, tr.root, map[string]string{"link_fifo": "sub/fifo", "link_hard": "sub/hardlink_out", "link_deep": "a/b/c"})

	cases := []fastCase{
		{in: "sub/b.txt", fast: true},
		{in: "a/b/c/d/e/f.txt", fast: true},
		{in: "./sub//deep/./c.txt", fast: true},
		{in: tr.root + "/sub/deep/c.txt", fast: true},
		{in: "sub/deep/../b.txt", fast: true},
		{in: "sub/deep/../../a.txt", fast: true},
		{in: tr.root + "/sub/../a.txt", fast: true},
		{in: "sub/limit.txt", fast: true},
		{in: "sub/deep/empty.md", fast: true},
		{in: ".git/config", fast: true},
		{in: "sub/.env.example", fast: true},
		{in: "sub/../.env", fast: true, err: ErrSecret},
		{in: "keys/server.pem", fast: true, err: ErrSecret},
		{in: "sub/.env.missing", fast: true, err: ErrSecret},
		{in: "sub/big.txt", fast: true, err: ErrTooLarge},
		{in: "sub/fifo", fast: true, err: ErrNotRegular},
		{in: "sub/hardlink_out", fast: true, err: ErrHardLink},
		{in: "sub/deep", fast: true, err: ErrIsDir},
		{in: "sub/deep/", fast: true, err: ErrIsDir},
		{in: "sub/..", fast: true, err: ErrIsDir},
		{in: "sub/b.txt/", fast: true, err: ErrNotDir},
		{in: "sub/missing.txt", fast: true, err: fs.ErrNotExist},
		{in: "./sub//missing.txt", fast: true, err: fs.ErrNotExist},
		{in: "sub/../missing/", fast: true, err: fs.ErrNotExist},

		// Left to the walk: one component, symlinks, climbs, missing or non-directory parents.
		{in: ".", err: ErrIsDir},
		{in: "a.txt"},
		{in: ".env", err: ErrSecret},
		{in: "sub", err: ErrIsDir},
		{in: "missing.txt", err: fs.ErrNotExist},
		{in: "a.txt/x", err: ErrNotDir},
		{in: "sub/b.txt/x", err: ErrNotDir},
		{in: "nope/missing.txt", err: fs.ErrNotExist},
		{in: "nope/../a.txt", err: fs.ErrNotExist},
		{in: "sub/nope/../b.txt", err: fs.ErrNotExist},
		{in: "sub/../..", err: ErrOutsideRoot},
		{in: "sub/../../outside/canary.txt", err: ErrOutsideRoot},
		{in: "../root/a.txt", err: ErrOutsideRoot},
		{in: "link_rel"},
		{in: "link_dir/b.txt"},
		{in: "link_dir/deep/../b.txt"},
		{in: "link_dir/../a.txt"},
		{in: "link_deep/d/e/f.txt"},
		{in: "sub/link_back"},
		{in: "chain1"},
		{in: "self/self/a.txt"},
		{in: "dangling_in", err: fs.ErrNotExist},
		{in: "innocent.txt", err: ErrSecret},
		{in: "link_fifo", err: ErrNotRegular},
		{in: "link_hard", err: ErrHardLink},
		{in: "devnull", err: ErrOutsideRoot},
		{in: "link_out", err: ErrOutsideRoot},
		{in: "link_outdir/canary.txt", err: ErrOutsideRoot},
		{in: "link_up/outside/canary.txt", err: ErrOutsideRoot},
		{in: "sub/deep/escape/canary.txt", err: ErrOutsideRoot},
		{in: "link_abs", err: ErrOutsideRoot},
		{in: "loop1", err: ErrInvalidPath},
		{in: "sub/a\x00", err: ErrInvalidPath},
	}
	cases = append(cases, privilegedCases(t, tr)...)

	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if c, err := tr.r.split(tc.in); err == nil {
				_, fast := tr.r.fastResolve(c.parts)
				assert.Equal(t, tc.fast, fast, "fastResolve decides")
			}
			var got, want string
			within(t, 5*time.Second, func() { got, want = outcome(tr.r, tc.in), outcome(walk, tc.in) })
			assert.Equal(t, want, got, "fast path and walk disagree")

			file, err := tr.r.ReadFile(tc.in)
			assertErr(t, err, tc.err)
			if err == nil && tc.fast && strings.Contains(file.Path, "/") {
				f, ok := tr.r.fastOpen(file.Path, readFlags)
				if assert.True(t, ok, "fastOpen opens %s", file.Path) {
					f.Close()
				}
			}
		})
	}
}

// privilegedCases adds a character device, a tmpfs mount and a bind mount inside the
// root when the test may create them (as root).
func privilegedCases(t *testing.T, tr *tree) []fastCase {
	var cases []fastCase
	if err := syscall.Mknod(tr.host("sub/null"), syscall.S_IFCHR|0o666, int(1<<8|3)); err == nil {
		makeLinks(t, tr.root, map[string]string{"link_null": "sub/null"})
		cases = append(cases, fastCase{in: "sub/null", fast: true, err: ErrNotRegular},
			fastCase{in: "link_null", err: ErrNotRegular})
	} else {
		t.Logf("no device case: %v", err)
	}
	mount := func(name, source, fstype string, flags uintptr) bool {
		require.NoError(t, os.Mkdir(tr.host(name), 0o755))
		if err := syscall.Mount(source, tr.host(name), fstype, flags, ""); err != nil {
			t.Logf("no %s case: %v", name, err)
			return false
		}
		t.Cleanup(func() { assert.NoError(t, syscall.Unmount(tr.host(name), 0)) })
		return true
	}
	if mount("tmpfs", "tmpfs", "tmpfs", 0) {
		writeFiles(t, tr.host("tmpfs"), map[string]string{"f.txt": "other"})
		cases = append(cases, fastCase{in: "tmpfs/f.txt", err: ErrOtherDevice},
			fastCase{in: "sub/../tmpfs", err: ErrIsDir}, fastCase{in: "tmpfs/missing", err: fs.ErrNotExist})
	}
	if mount("bind", tr.host("sub"), "", syscall.MS_BIND) {
		cases = append(cases, fastCase{in: "bind/b.txt"}, fastCase{in: "bind/deep/../b.txt"})
	}
	return cases
}

// TestFastPathClosed checks that a closed Root's descriptor is never used again, even
// when its number has been reused for another directory.
func TestFastPathClosed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"sub/a.txt": "a", "other/sub/a.txt": "other"})
	r, err := Open(dir, Options{})
	require.NoError(t, err)
	require.NotNil(t, r.fast.dir)
	old := r.fast.dir.Fd()
	require.NoError(t, r.Close())
	reused := false
	for range 2 { // the lowest free numbers: the fast path's and os.Root's
		other, err := os.Open(filepath.Join(dir, "other"))
		require.NoError(t, err)
		defer other.Close()
		reused = reused || other.Fd() == old
	}
	require.True(t, reused, "the closed descriptor number was not reused: the test proves nothing")
	_, err = r.ReadFile("sub/a.txt")
	assert.ErrorIs(t, err, os.ErrClosed)
}

// TestFastPathRootRenamed checks that the fast path, like os.Root, keeps using the root
// directory after it is renamed.
func TestFastPathRootRenamed(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"root/a.txt": "a", "root/sub/b.txt": "b"})
	r, err := Open(filepath.Join(base, "root"), Options{})
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, os.Rename(filepath.Join(base, "root"), filepath.Join(base, "moved")))
	writeFiles(t, base, map[string]string{"root/a.txt": "impostor", "root/sub/b.txt": "impostor"})
	for name, want := range map[string]string{"sub/../a.txt": "a", "sub/b.txt": "b"} {
		f, err := r.ReadFile(name)
		require.NoError(t, err)
		assert.Equal(t, want, string(f.Data))
	}
	_, ok := r.fastResolve([]string{"sub", "b.txt"})
	assert.True(t, ok, "the fast path decided")
}

// TestReadDirInfoAfterSwap checks that directory entries describe the directory that was
// listed even when it is then swapped for a symlink to the outside (CVE-2026-27139):
// directories must be opened by os.Root, never by fastOpen, whose *os.File would lstat
// host paths in DirEntry.Info.
func TestReadDirInfoAfterSwap(t *testing.T) {
	tr := newTree(t, Options{})
	writeFiles(t, tr.root, map[string]string{"d/file.txt": "inside"})
	entries, err := tr.r.ReadDir("d")
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.NoError(t, os.Rename(tr.host("d"), tr.host("d.away")))
	require.NoError(t, os.Symlink("../outside/dir", tr.host("d")))
	info, err := entries[0].Info()
	require.NoError(t, err)
	assert.Equal(t, int64(len("inside")), info.Size(), "Info described the file outside")
}
