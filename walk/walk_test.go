package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// makeTree writes files (a trailing '/' makes an empty directory) and symlinks under a new
// directory and opens it as a Root.
func makeTree(t *testing.T, files map[string]string, links map[string]string) (string, *security.Root) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	}
	root, err := security.Open(filepath.Join(dir, "root"), security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return filepath.Join(dir, "root"), root
}

// paths walks and returns the reported paths, sorted, with "/" after directories and
// "@" after entries reached through a symlink.
func paths(t *testing.T, w *Walker, dir string, opts Options) []string {
	t.Helper()
	var mu sync.Mutex
	var out []string
	_, err := w.Walk(t.Context(), dir, opts, func(e Entry) error {
		s := e.Path
		if e.Type.IsDir() {
			s += "/"
		}
		if e.Link {
			s += "@"
		}
		mu.Lock()
		out = append(out, s)
		mu.Unlock()
		return nil
	})
	require.NoError(t, err)
	slices.Sort(out)
	return out
}

var ignoreTree = map[string]string{
	"root/.gitignore":           "*.log\n/build\nnode_modules/\n!keep.log\n",
	"root/.jidoignore":          "secret-notes.md\n!dist/\n",
	"root/.git/info/exclude":    "*.tmp\n",
	"root/.git/HEAD":            "ref: refs/heads/main\n",
	"root/main.go":              "package main\n",
	"root/debug.log":            "log\n",
	"root/keep.log":             "kept by !keep.log\n",
	"root/scratch.tmp":          "excluded by info/exclude\n",
	"root/secret-notes.md":      "excluded by .jidoignore\n",
	"root/.hidden":              "hidden\n",
	"root/.config/app.toml":     "hidden dir\n",
	"root/build/out.bin":        "anchored /build\n",
	"root/src/build/keep.go":    "not anchored here\n",
	"root/src/lib.go":           "package src\n",
	"root/src/.gitignore":       "gen/\n*.pb.go\n!keep.pb.go\n",
	"root/src/gen/x.go":         "ignored dir\n",
	"root/src/a.pb.go":          "ignored\n",
	"root/src/keep.pb.go":       "re-included\n",
	"root/node_modules/m/i.js":  "ignored dir\n",
	"root/dist/.gitignore":      "",
	"root/dist/app.js":          "git ignores dist via the core excludes; .jidoignore re-includes it\n",
	"root/deep/a/b/c/d/e/f.txt": "deep\n",
}

func TestWalkAppliesIgnoreFiles(t *testing.T) {
	_, root := makeTree(t, ignoreTree, nil)
	w := New(root, []byte("dist/\n"))
	assert.Equal(t, []string{
		".config/app.toml", ".gitignore", ".hidden", ".jidoignore", "deep/a/b/c/d/e/f.txt",
		"dist/.gitignore", "dist/app.js", "keep.log", "main.go", "src/.gitignore",
		"src/build/keep.go", "src/keep.pb.go", "src/lib.go",
	}, paths(t, w, ".", Options{Hidden: true}))

	got := paths(t, w, ".", Options{})
	assert.Equal(t, []string{"deep/a/b/c/d/e/f.txt", "dist/app.js", "keep.log", "main.go", "src/build/keep.go", "src/keep.pb.go", "src/lib.go"}, got,
		"hidden entries are left out by default")

	got = paths(t, w, ".", Options{NoIgnore: true})
	assert.Contains(t, got, "node_modules/m/i.js")
	assert.Contains(t, got, "debug.log")
	assert.NotContains(t, got, ".git/HEAD", ".git is never listed")
}

func TestWalkNeverEntersIgnoredDirectories(t *testing.T) {
	_, root := makeTree(t, ignoreTree, nil)
	w := New(root, nil)
	all, err := w.Walk(t.Context(), ".", Options{Hidden: true, NoIgnore: true}, func(Entry) error { return nil })
	require.NoError(t, err)
	some, err := w.Walk(t.Context(), ".", Options{Hidden: true}, func(Entry) error { return nil })
	require.NoError(t, err)
	// build, src/gen, node_modules and node_modules/m are not read.
	assert.Equal(t, all.Dirs-4, some.Dirs)
}

func TestWalkFromSubdirectoryKeepsAncestorRules(t *testing.T) {
	_, root := makeTree(t, ignoreTree, nil)
	w := New(root, nil)
	assert.Equal(t, []string{"src/build/keep.go", "src/keep.pb.go", "src/lib.go"}, paths(t, w, "src", Options{}))
	// A directory named explicitly is walked even though it is ignored; rules below apply.
	assert.Equal(t, []string{"src/gen/x.go"}, paths(t, w, "src/gen", Options{}))
	assert.Equal(t, []string{"node_modules/m/i.js"}, paths(t, w, "node_modules", Options{}))
}

func TestWalkDepthDirsAndStat(t *testing.T) {
	_, root := makeTree(t, ignoreTree, nil)
	w := New(root, nil)
	assert.Equal(t, []string{"deep/", "dist/", "keep.log", "main.go", "src/"}, paths(t, w, ".", Options{Dirs: true, MaxDepth: 1}))
	assert.Equal(t, []string{"deep/a/", "deep/a/b/"}, paths(t, w, "deep", Options{Dirs: true, MaxDepth: 2}))
	var mu sync.Mutex
	sizes := map[string]int64{}
	_, err := w.Walk(t.Context(), "src", Options{Stat: true, Match: func(p string, _ fs.FileMode) bool { return strings.HasSuffix(p, ".go") }}, func(e Entry) error {
		mu.Lock()
		defer mu.Unlock()
		sizes[e.Path] = e.Info.Size
		assert.False(t, e.Info.ModTime.IsZero())
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{"src/build/keep.go": 18, "src/keep.pb.go": 12, "src/lib.go": 12}, sizes)
}

func TestWalkSymlinks(t *testing.T) {
	_, root := makeTree(t, map[string]string{
		"root/real/a.txt":  "a",
		"root/file.txt":    "f",
		"outside/leak.txt": "must not be reported",
	}, map[string]string{
		"root/link_dir":      "real",
		"root/link_file":     "file.txt",
		"root/link_out":      "../outside",
		"root/link_abs":      "/etc",
		"root/real/loop":     "..",
		"root/real/self":     ".",
		"root/dangling":      "missing",
		"root/real/to_file":  "../file.txt",
		"root/real/sub_link": "../real",
	})
	w := New(root, nil)
	assert.Equal(t, []string{"dangling", "file.txt", "link_abs", "link_dir", "link_file", "link_out", "real/a.txt", "real/loop", "real/self", "real/sub_link", "real/to_file"},
		paths(t, w, ".", Options{}), "without FollowSymlinks a symlink is an entry, never entered")
	assert.Equal(t, []string{"file.txt", "link_dir/a.txt@", "link_dir/to_file@", "link_file@", "real/a.txt", "real/to_file@"},
		paths(t, w, ".", Options{FollowSymlinks: true}), "links out of the root, dangling links and loops are dropped")
}

// TestWalkReadsIgnoreFilesBelowFollowedSymlinks: below a followed symlink the ignore
// files are read where they are (in the link's target), and apply to the paths reported.
func TestWalkReadsIgnoreFilesBelowFollowedSymlinks(t *testing.T) {
	_, root := makeTree(t, map[string]string{"root/real/.gitignore": "*.log\n", "root/real/a.go": "a", "root/real/b.log": "b"},
		map[string]string{"root/link": "real"})
	stats, err := New(root, nil).Walk(t.Context(), ".", Options{FollowSymlinks: true}, func(Entry) error { return nil })
	require.NoError(t, err)
	assert.Zero(t, stats.Unreadable, "the link's .gitignore is read in its target")
	assert.Equal(t, []string{"link/a.go@", "real/a.go"}, paths(t, New(root, nil), ".", Options{FollowSymlinks: true}))
}

func TestWalkStopsEarly(t *testing.T) {
	_, root := makeTree(t, ignoreTree, nil)
	w := New(root, nil)
	n := 0
	var mu sync.Mutex
	_, err := w.Walk(t.Context(), ".", Options{}, func(Entry) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		return Stop
	})
	require.NoError(t, err)
	assert.LessOrEqual(t, n, 2, "Stop ends the walk (a second goroutine may be mid-visit)")

	boom := errors.New("boom")
	_, err = w.Walk(t.Context(), ".", Options{}, func(Entry) error { return boom })
	assert.ErrorIs(t, err, boom)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = w.Walk(ctx, ".", Options{}, func(Entry) error { return nil })
	assert.ErrorIs(t, err, context.Canceled)
}

// TestWalkMatchesGit builds a repository and compares the walk with git's own listing of
// untracked, not ignored files.
func TestWalkMatchesGit(t *testing.T) {
	dir, root := makeTree(t, ignoreTree, nil)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, ".git")))
	gitIn(t, dir, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte("*.tmp\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, ".jidoignore")))
	want := strings.Fields(gitIn(t, dir, "ls-files", "-o", "--exclude-standard"))
	slices.Sort(want)
	assert.Equal(t, want, paths(t, New(root, nil), ".", Options{Hidden: true}))
}

// TestWalkAllocations checks what a walk allocates: two strings per entry, its name and
// its path (not a second path for the path it reports), and a few objects per directory
// (not a listing that grows from nothing in each).
func TestWalkAllocations(t *testing.T) {
	const dirs, perDir = 50, 10
	files := map[string]string{}
	for i := range dirs * perDir {
		files[fmt.Sprintf("root/d%02d/f%03d.go", i/perDir, i)] = ""
	}
	_, root := makeTree(t, files, nil)
	w := New(root, nil)
	allocs := testing.AllocsPerRun(10, func() {
		_, err := w.Walk(t.Context(), ".", Options{}, func(Entry) error { return nil })
		require.NoError(t, err)
	})
	t.Logf("%.0f allocations for %d directories of %d files", allocs, dirs, perDir)
	assert.Less(t, allocs, float64(2*(dirs*perDir+dirs)+8*dirs))
}
