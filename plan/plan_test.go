package plan

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setup creates a root holding files (path -> content) and returns it.
func setup(t *testing.T, files map[string]string) (string, *security.Root) {
	t.Helper()
	dir := t.TempDir()
	for p, data := range files {
		full := filepath.Join(dir, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(data), 0o644))
	}
	root, err := security.Open(dir, security.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return dir, root
}

// treeHash hashes every path, mode and content under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		info, err := d.Info()
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	}))
	sort.Strings(lines)
	return fmt.Sprint(lines)
}

// snapshot reads every file under dir (path -> content).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return err
	}))
	return out
}

func names(infos []fs.FileInfo) []string {
	var out []string
	for _, fi := range infos {
		out = append(out, fi.Name())
	}
	return out
}

func TestRootFsReads(t *testing.T) {
	dir, root := setup(t, map[string]string{"a.txt": "A", "sub/b.txt": "B", ".env": "SECRET=1"})
	require.NoError(t, os.Symlink("sub/b.txt", filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink("../../etc/passwd", filepath.Join(dir, "out")))
	f := NewRootFs(root)

	data, err := afero.ReadFile(f, "a.txt")
	require.NoError(t, err)
	assert.Equal(t, "A", string(data))
	data, err = afero.ReadFile(f, "/sub/b.txt")
	require.NoError(t, err)
	assert.Equal(t, "B", string(data))
	data, err = afero.ReadFile(f, "link")
	require.NoError(t, err)
	assert.Equal(t, "B", string(data))

	infos, err := afero.ReadDir(f, "/")
	require.NoError(t, err)
	assert.Equal(t, []string{".env", "a.txt", "link", "out", "sub"}, names(infos))
	info, err := f.Stat("sub")
	require.NoError(t, err)
	assert.True(t, info.IsDir())
	_, err = f.Stat("missing")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	_, err = afero.ReadFile(f, ".env")
	assert.ErrorIs(t, err, security.ErrSecret)
	_, err = f.Open("../x")
	assert.ErrorIs(t, err, security.ErrOutsideRoot)
	_, err = f.Open("sub/../../x")
	assert.ErrorIs(t, err, security.ErrOutsideRoot)
	_, err = f.Open("out")
	assert.ErrorIs(t, err, security.ErrOutsideRoot)
}

func TestRootFsWritesFail(t *testing.T) {
	_, root := setup(t, map[string]string{"a.txt": "A"})
	f := NewRootFs(root)
	erofs := func(err error) {
		t.Helper()
		var pe *fs.PathError
		require.ErrorAs(t, err, &pe)
		assert.ErrorIs(t, err, syscall.EROFS)
	}
	_, err := f.Create("n")
	erofs(err)
	_, err = f.OpenFile("a.txt", os.O_WRONLY, 0)
	erofs(err)
	_, err = f.OpenFile("a.txt", os.O_RDONLY|os.O_APPEND, 0)
	erofs(err)
	erofs(f.Mkdir("d", 0o755))
	erofs(f.MkdirAll("d/e", 0o755))
	erofs(f.Remove("a.txt"))
	erofs(f.RemoveAll("a.txt"))
	erofs(f.Rename("a.txt", "b.txt"))
	erofs(f.Chmod("a.txt", 0o600))
	erofs(f.Chown("a.txt", 0, 0))
	erofs(f.Chtimes("a.txt", time.Time{}, time.Time{}))
	// A file opened for reading cannot be written either.
	h, err := f.Open("a.txt")
	require.NoError(t, err)
	defer h.Close()
	_, err = h.Write([]byte("x"))
	assert.Error(t, err)
}

func TestOverlayOperations(t *testing.T) {
	dir, root := setup(t, map[string]string{
		"a.txt": "A\n", "keep.txt": "K\n", "d/x.txt": "X\n", "d/e/y.txt": "Y\n", "r/z.txt": "Z\n",
	})
	before := treeHash(t, dir)
	o := New(root)
	unchanged := func() { t.Helper(); assert.Equal(t, before, treeHash(t, dir)) }

	require.NoError(t, o.WriteFile("new/deep/n.txt", []byte("N\n"), 0o600))
	unchanged()
	require.NoError(t, o.WriteFile("a.txt", []byte("A2\n"), 0))
	unchanged()
	require.NoError(t, o.Remove("d", true))
	unchanged()
	require.NoError(t, o.Rename("r", "moved", false))
	unchanged()
	require.NoError(t, o.WriteFile("tmp.txt", []byte("T"), 0))
	require.NoError(t, o.Remove("tmp.txt", false))
	require.NoError(t, o.WriteFile("keep.txt", []byte("changed"), 0))
	require.NoError(t, o.WriteFile("keep.txt", []byte("K\n"), 0))
	unchanged()

	data, err := o.ReadFile("new/deep/n.txt")
	require.NoError(t, err)
	assert.Equal(t, "N\n", string(data))
	data, err = afero.ReadFile(o.Fs(), "/a.txt")
	require.NoError(t, err)
	assert.Equal(t, "A2\n", string(data))
	data, err = o.ReadFile("moved/z.txt")
	require.NoError(t, err)
	assert.Equal(t, "Z\n", string(data))
	for _, gone := range []string{"d", "d/x.txt", "d/e/y.txt", "r/z.txt", "tmp.txt"} {
		_, err := o.Stat(gone)
		assert.ErrorIs(t, err, fs.ErrNotExist, gone)
		_, err = o.Fs().Stat(gone)
		assert.ErrorIs(t, err, fs.ErrNotExist, gone)
	}
	info, err := o.Stat("new/deep/n.txt")
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm())

	infos, err := o.ReadDir(".")
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt", "keep.txt", "moved", "new"}, names(infos))
	infos, err = afero.ReadDir(o.Fs(), "/")
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt", "keep.txt", "moved", "new"}, names(infos))

	changes, err := o.Changes()
	require.NoError(t, err)
	var got []string
	for _, c := range changes {
		got = append(got, c.Kind+" "+c.Path)
	}
	assert.Equal(t, []string{
		"modify a.txt", "delete d/e/y.txt", "delete d/x.txt", "create moved/z.txt",
		"create new/deep/n.txt", "delete r/z.txt",
	}, got)
	unchanged()

	// Recreating a file in a removed directory does not resurrect its siblings.
	require.NoError(t, o.WriteFile("d/x.txt", []byte("X2\n"), 0))
	infos, err = o.ReadDir("d")
	require.NoError(t, err)
	assert.Equal(t, []string{"x.txt"}, names(infos))

	paths, err := o.Apply()
	require.NoError(t, err)
	assert.Len(t, paths, 6)
	assert.Equal(t, map[string]string{
		"a.txt": "A2\n", "keep.txt": "K\n", "d/x.txt": "X2\n", "moved/z.txt": "Z\n", "new/deep/n.txt": "N\n",
	}, snapshot(t, dir))
	_, err = os.Stat(filepath.Join(dir, "d/e"))
	assert.ErrorIs(t, err, fs.ErrNotExist, "removed directory pruned")
	_, err = os.Stat(filepath.Join(dir, "r"))
	assert.ErrorIs(t, err, fs.ErrNotExist, "renamed directory pruned")
	st, err := os.Stat(filepath.Join(dir, "new/deep/n.txt"))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), st.Mode().Perm())
	changes, err = o.Changes()
	require.NoError(t, err)
	assert.Empty(t, changes)
}

func TestOverlayRefusals(t *testing.T) {
	dir, root := setup(t, map[string]string{"a.txt": "A", ".env": "S", ".git/config": "C", "sub/f": "F"})
	require.NoError(t, os.Symlink(".env", filepath.Join(dir, "envlink")))
	before := treeHash(t, dir)
	o := New(root)
	for _, tc := range []struct {
		name string
		want error
	}{
		{".env", security.ErrSecret}, {"sub/.env.local", security.ErrSecret}, {"envlink", security.ErrSecret},
		{".git/config", security.ErrProtected}, {".git/hooks/pre-commit", security.ErrProtected},
		{"../x", security.ErrOutsideRoot}, {"sub/../../x", security.ErrOutsideRoot},
	} {
		assert.ErrorIs(t, o.WriteFile(tc.name, []byte("x"), 0), tc.want, tc.name)
		_, err := o.Fs().Create(tc.name)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	assert.ErrorIs(t, o.Remove(".env", false), security.ErrSecret)
	assert.ErrorIs(t, o.Remove(".git", true), security.ErrProtected)
	assert.ErrorIs(t, o.Rename("a.txt", ".env", true), security.ErrSecret)
	assert.ErrorIs(t, o.Rename("a.txt", "sub/f", false), fs.ErrExist)
	assert.ErrorIs(t, o.Remove("sub", false), security.ErrIsDir)
	assert.ErrorIs(t, o.Remove(".", true), security.ErrIsRoot)
	assert.ErrorIs(t, o.WriteFile("sub", []byte("x"), 0), security.ErrIsDir)
	_, err := o.ReadFile(".env")
	assert.ErrorIs(t, err, security.ErrSecret)
	// A secret under a directory refuses its recursive removal.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub/id_rsa"), []byte("k"), 0o600))
	before = treeHash(t, dir)
	assert.ErrorIs(t, o.Remove("sub", true), security.ErrSecret)
	changes, err := o.Changes()
	require.NoError(t, err)
	assert.Empty(t, changes)
	assert.Equal(t, before, treeHash(t, dir))
}

func TestFsWrites(t *testing.T) {
	dir, root := setup(t, map[string]string{"a.txt": "one\n", "d/b.txt": "B"})
	before := treeHash(t, dir)
	o := New(root)
	f, err := o.Fs().OpenFile("a.txt", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString("two\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, afero.WriteFile(o.Fs(), "/c.txt", []byte("C"), 0o644))
	require.NoError(t, o.Fs().Remove("d/b.txt"))
	require.NoError(t, o.Fs().Remove("d")) // now empty
	assert.Error(t, o.Fs().Remove("missing"))
	require.NoError(t, o.Fs().RemoveAll("missing"))
	require.NoError(t, o.Fs().MkdirAll("e/f", 0o755))
	_, err = o.Fs().OpenFile("d/new", os.O_CREATE|os.O_WRONLY, 0o644)
	assert.ErrorIs(t, err, fs.ErrNotExist, "parent removed in the plan")
	assert.Equal(t, before, treeHash(t, dir))

	data, err := o.ReadFile("a.txt")
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\n", string(data))
	changes, err := o.Changes()
	require.NoError(t, err)
	require.Len(t, changes, 3)
	assert.Equal(t, Change{Path: "a.txt", Kind: Modify, Mode: 0o644, Before: []byte("one\n"), After: []byte("one\ntwo\n")}, changes[0])
	assert.Equal(t, Change{Path: "c.txt", Kind: Create, Mode: 0o644, After: []byte("C")}, changes[1])
	assert.Equal(t, Change{Path: "d/b.txt", Kind: Delete, Before: []byte("B")}, changes[2])
}

func TestDiff(t *testing.T) {
	_, root := setup(t, map[string]string{"m.txt": "1\n2\n3\n", "old.txt": "gone\n"})
	o := New(root)
	require.NoError(t, o.WriteFile("m.txt", []byte("1\ntwo\n3\n"), 0))
	require.NoError(t, o.WriteFile("c.txt", []byte("new\n"), 0))
	require.NoError(t, o.Remove("old.txt", false))
	diff, files, added, removed, err := o.Diff()
	require.NoError(t, err)
	assert.Equal(t, 3, files)
	assert.Equal(t, 2, added)
	assert.Equal(t, 2, removed)
	assert.Equal(t, `--- c.txt
+++ c.txt
@@ -0,0 +1 @@
+new
--- m.txt
+++ m.txt
@@ -1,3 +1,3 @@
 1
-2
+two
 3
--- old.txt
+++ old.txt
@@ -1 +0,0 @@
-gone
`, diff)
}

func TestApplyConflict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after func(dir string)
		want  string
	}{
		{"modified", func(dir string) { os.WriteFile(filepath.Join(dir, "a.txt"), []byte("other"), 0o644) }, "a.txt"},
		{"created", func(dir string) { os.WriteFile(filepath.Join(dir, "n.txt"), []byte("n"), 0o644) }, "n.txt"},
		{"deleted", func(dir string) { os.Remove(filepath.Join(dir, "b.txt")) }, "b.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, root := setup(t, map[string]string{"a.txt": "A", "b.txt": "B"})
			o := New(root)
			require.NoError(t, o.WriteFile("a.txt", []byte("A2"), 0))
			require.NoError(t, o.WriteFile("n.txt", []byte("N"), 0))
			require.NoError(t, o.Remove("b.txt", false))
			tc.after(dir)
			before := treeHash(t, dir)
			_, err := o.Apply()
			require.ErrorIs(t, err, ErrConflict)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, before, treeHash(t, dir))
			changes, err := o.Changes()
			require.NoError(t, err)
			assert.Len(t, changes, 3, "the plan is kept")
		})
	}
}

func TestApplyRollback(t *testing.T) {
	dir, root := setup(t, map[string]string{"a.txt": "A", "b.txt": "B", "z/keep": "K"})
	require.NoError(t, os.Chmod(filepath.Join(dir, "a.txt"), 0o600))
	o := New(root)
	require.NoError(t, o.WriteFile("a.txt", []byte("A2"), 0))
	require.NoError(t, o.Remove("b.txt", false))
	require.NoError(t, o.WriteFile("c/new.txt", []byte("C"), 0))
	require.NoError(t, o.WriteFile("z/late.txt", []byte("L"), 0))
	before := treeHash(t, dir)
	// Between the conflict check and the writes, a later target becomes a directory.
	o.beforeWrite = func() { require.NoError(t, os.Mkdir(filepath.Join(dir, "z/late.txt"), 0o755)) }
	_, err := o.Apply()
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrConflict)
	require.NoError(t, os.Remove(filepath.Join(dir, "z/late.txt")))
	assert.Equal(t, before, treeHash(t, dir), "rolled back exactly")
	assert.Equal(t, map[string]string{"a.txt": "A", "b.txt": "B", "z/keep": "K"}, snapshot(t, dir))
}

func TestDiscard(t *testing.T) {
	dir, root := setup(t, map[string]string{"a.txt": "A"})
	before := treeHash(t, dir)
	o := New(root)
	require.NoError(t, o.WriteFile("a.txt", []byte("A2"), 0))
	require.NoError(t, o.WriteFile("b.txt", []byte("B"), 0))
	o.Discard()
	changes, err := o.Changes()
	require.NoError(t, err)
	assert.Empty(t, changes)
	data, err := o.ReadFile("a.txt")
	require.NoError(t, err)
	assert.Equal(t, "A", string(data))
	_, err = o.Stat("b.txt")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, before, treeHash(t, dir))
}

func TestConcurrent(t *testing.T) {
	_, root := setup(t, map[string]string{"shared.txt": "S"})
	o := New(root)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				name := fmt.Sprintf("w%d/f%d.txt", i, j)
				if err := o.WriteFile(name, []byte(name), 0); err != nil {
					t.Error(err)
				}
				if _, err := o.ReadFile(name); err != nil {
					t.Error(err)
				}
				if _, err := o.ReadDir("."); err != nil {
					t.Error(err)
				}
				if _, err := afero.ReadFile(o.Fs(), "shared.txt"); err != nil {
					t.Error(err)
				}
				if j%5 == 0 {
					if _, _, _, _, err := o.Diff(); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	changes, err := o.Changes()
	require.NoError(t, err)
	assert.Len(t, changes, 160)
}
