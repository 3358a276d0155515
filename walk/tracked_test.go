package walk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkFiles returns the files a walk of the whole root lists, hidden ones included, sorted.
func walkFiles(t *testing.T, w *Walker) []string {
	t.Helper()
	var mu sync.Mutex
	var out []string
	_, err := w.Walk(t.Context(), ".", Options{Hidden: true}, func(e Entry) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, e.Path)
		return nil
	})
	require.NoError(t, err)
	slices.Sort(out)
	return out
}

// ignoredTracked is the repository at root's tracked files that its ignore rules match
// (themselves or through an excluded directory): what a walk without the index hides.
func ignoredTracked(t *testing.T, root string) []string {
	return nulFields(gitIn(t, root, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard"))
}

// checkIgnored asks git check-ignore about every file on disk in the work tree at root,
// outside nested work trees: tracked files are never ignored, untracked ones below an
// excluded directory are. It returns the files git would list and those it ignores.
func checkIgnored(t *testing.T, root string) (kept, ignored []string) {
	t.Helper()
	var all []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		require.NoError(t, err)
		all = append(all, filepath.ToSlash(rel))
		return nil
	}))
	ignored = nulFields(gitExec(t, root, strings.Join(all, "\x00"), true, "check-ignore", "-z", "--stdin"))
	for _, f := range all {
		if !slices.Contains(ignored, f) {
			kept = append(kept, f)
		}
	}
	slices.Sort(kept)
	return kept, ignored
}

// trackedTree is the tree of most cases: files that .gitignore ignores but git tracks,
// beside others it ignores and does not.
var trackedTree = map[string]string{
	".gitignore":               "*.log\nbuild/\n/out\n*.tmp\n",
	"fixture.log":              "tracked although *.log\n",
	"debug.log":                "ignored\n",
	"build/keep.txt":           "tracked inside an ignored directory\n",
	"build/other.txt":          "untracked inside it: ignored\n",
	"build/sub/deep.txt":       "tracked, two levels down\n",
	"build/sub/x.txt":          "untracked: ignored\n",
	"build/sub/.gitignore":     "!x.txt\n",
	"build/untracked/a.txt":    "a directory without tracked files in an ignored one\n",
	"out":                      "a tracked file matching /out\n",
	"src/main.go":              "package main\n",
	"src/gen.log":              "tracked\n",
	"src/x.log":                "ignored\n",
	"logs.log/inner.txt":       "tracked, in a directory matching *.log\n",
	"logs.log/other.txt":       "ignored\n",
	"logs.logx/free.txt":       "not ignored at all\n",
	"tmpdir.tmp/nested/t.txt":  "tracked, deep in an ignored directory\n",
	"tmpdir.tmp/nested/u.txt":  "ignored\n",
	"tmpdir.tmp/other/v.txt":   "ignored\n",
	"free/readme.md":           "not ignored\n",
	"free/scratch.tmp":         "ignored\n",
	"free/pinned.tmp":          "tracked\n",
	"free/dir.tmp/pinned2.txt": "tracked\n",
}

// trackedFiles are the files of trackedTree that git tracks.
var trackedFiles = []string{
	".gitignore", "fixture.log", "build/keep.txt", "build/sub/deep.txt", "out", "src/main.go", "src/gen.log",
	"logs.log/inner.txt", "logs.logx/free.txt", "tmpdir.tmp/nested/t.txt", "free/readme.md", "free/pinned.tmp",
	"free/dir.tmp/pinned2.txt",
}

// commitTracked makes root a repository of trackedTree with trackedFiles committed.
func commitTracked(t *testing.T, root string) {
	writeFiles(t, root, trackedTree)
	gitIn(t, root, "init", "-q")
	gitIn(t, root, append([]string{"add", "-f"}, trackedFiles...)...)
	gitIn(t, root, "commit", "-qm", "tracked")
}

// subRepo makes dir (under root) a repository with files, committing those listed in tracked.
func subRepo(t *testing.T, dir string, files map[string]string, tracked ...string) {
	t.Helper()
	writeFiles(t, dir, files)
	gitIn(t, dir, "init", "-q")
	if len(tracked) > 0 {
		gitIn(t, dir, append([]string{"add", "-f"}, tracked...)...)
		gitIn(t, dir, "commit", "-qm", "files")
	}
}

var trackedCases = []struct {
	name  string
	setup func(t *testing.T, root string)
	// rulesAlone: the index cannot be read (a format ParseIndex refuses, a git directory
	// out of reach), so the walk hides what git's rules match, tracked or not.
	rulesAlone bool
}{
	{name: "tracked files git's rules ignore", setup: commitTracked},
	{name: "deleted but still indexed", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		for _, f := range []string{"fixture.log", "build/keep.txt", "src/main.go", "logs.log/inner.txt"} {
			require.NoError(t, os.Remove(filepath.Join(root, f)))
		}
	}},
	{name: "repository without commits", setup: func(t *testing.T, root string) {
		writeFiles(t, root, trackedTree)
		gitIn(t, root, "init", "-q")
		gitIn(t, root, append([]string{"add", "-f"}, trackedFiles...)...)
	}},
	{name: "repository without an index", setup: func(t *testing.T, root string) {
		writeFiles(t, root, trackedTree)
		gitIn(t, root, "init", "-q")
	}},
	{name: "index version 4", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		gitIn(t, root, "update-index", "--index-version", "4")
	}},
	{name: "index version 3 (intent to add, skip-worktree)", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		writeFiles(t, root, map[string]string{"build/later.txt": "added with -N\n"})
		gitIn(t, root, "add", "-f", "-N", "build/later.txt")
		gitIn(t, root, "update-index", "--skip-worktree", "build/keep.txt") // still on disk
	}},
	{name: "nested repositories", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		writeFiles(t, root, map[string]string{".git/info/exclude": "*.bak\n"})
		// The outer *.log, *.tmp and info/exclude do not reach into nested/: its own rules do.
		subRepo(t, filepath.Join(root, "nested"), map[string]string{
			".gitignore": "vendor/\n", "a.log": "listed\n", "b.bak": "listed\n", "c.tmp": "listed\n",
			"vendor/v.go": "tracked\n", "vendor/u.go": "ignored\n", "d.gen": "ignored by info/exclude\n",
			".git/info/exclude": "*.gen\n", "pinned.gen": "tracked\n",
		}, ".gitignore", "a.log", "vendor/v.go", "pinned.gen")
		subRepo(t, filepath.Join(root, "nested/inner"), map[string]string{
			".gitignore": "*\n", "kept.txt": "tracked although everything is ignored\n", "dropped.txt": "ignored\n",
		}, "kept.txt")
		// A nested repository that git's rules exclude is not entered: its files are not
		// the outer repository's, tracked or not.
		subRepo(t, filepath.Join(root, "build/clone"), map[string]string{"c.txt": "tracked by the clone\n"}, "c.txt")
	}},
	{name: "submodule in an ignored directory", setup: func(t *testing.T, root string) {
		src := t.TempDir()
		subRepo(t, src, map[string]string{
			".gitignore": "*.log\n", "lib.go": "package lib\n", "fixture.log": "tracked in the submodule\n",
		}, ".gitignore", "lib.go", "fixture.log")
		commitTracked(t, root)
		writeFiles(t, root, map[string]string{".gitignore": trackedTree[".gitignore"] + "libs/\n"})
		gitIn(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "-f", src, "libs/sub")
		gitIn(t, root, "commit", "-qam", "submodule")
		writeFiles(t, root, map[string]string{
			"libs/junk.txt": "ignored: libs/ holds only the submodule", "libs/sub/new.log": "ignored in the submodule",
			"libs/sub/new.go": "untracked, listed",
		})
	}},
	{name: "worktree inside the root (.git is a file)", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		writeFiles(t, root, map[string]string{".git/info/exclude": "*.bak\n"})
		gitIn(t, root, "worktree", "add", "-q", "wt")
		// The worktree's own index; info/exclude is the common git directory's.
		writeFiles(t, root, map[string]string{"wt/new.log": "ignored", "wt/x.bak": "ignored", "wt/new.txt": "listed"})
		gitIn(t, root, "-C", "wt", "add", "-f", "new.log")
	}},
	{name: "sparse checkout (skip-worktree entries not on disk)", setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		gitIn(t, root, "sparse-checkout", "set", "--cone", "build", "src")
	}},
	{name: "split index", rulesAlone: true, setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		gitIn(t, root, "update-index", "--split-index")
	}},
	{name: "sparse index", rulesAlone: true, setup: func(t *testing.T, root string) {
		commitTracked(t, root)
		gitIn(t, root, "sparse-checkout", "set", "--cone", "--sparse-index", "build", "src")
	}},
	{name: "worktree of a repository outside the root", rulesAlone: true, setup: func(t *testing.T, root string) {
		main := t.TempDir()
		commitTracked(t, main)
		require.NoError(t, os.Remove(root))
		gitIn(t, main, "worktree", "add", "-q", root)
	}},
}

// TestWalkListsTrackedFilesAsGit compares the walk with git over repositories whose
// tracked files git's ignore rules match: git ls-files (cached and others, not ignored,
// each nested repository by its own git) and, file by file, git check-ignore. Where the
// index cannot be read the walk falls back to the rules alone: git's listing less the
// tracked files its rules match.
func TestWalkListsTrackedFilesAsGit(t *testing.T) {
	for _, tc := range trackedCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			want := gitListing(t, dir)
			if tc.rulesAlone {
				hidden := ignoredTracked(t, dir)
				require.NotEmpty(t, hidden)
				want = slices.DeleteFunc(want, func(f string) bool { return slices.Contains(hidden, f) })
			}
			w := New(openRoot(t, dir, security.Options{}), nil)
			got := walkFiles(t, w)
			assert.Equal(t, want, got)
			assert.Equal(t, got, walkFiles(t, w), "the second walk, from the cached index, lists the same")
			if tc.rulesAlone {
				return
			}
			kept, ignored := checkIgnored(t, dir)
			for _, f := range kept {
				if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
					assert.Contains(t, got, f, "git check-ignore keeps %s", f)
				}
			}
			for _, f := range ignored {
				assert.NotContains(t, got, f, "git check-ignore ignores %s", f)
			}
		})
	}
}

func TestWalkJidoignoreDecidesBeforeTheIndex(t *testing.T) {
	dir := t.TempDir()
	commitTracked(t, dir)
	writeFiles(t, dir, map[string]string{
		".jidoignore":       "fixture.log\n!debug.log\n",
		"build/.jidoignore": "keep.txt\n!other.txt\n",
	})
	got := walkFiles(t, New(openRoot(t, dir, security.Options{}), nil))
	assert.NotContains(t, got, "fixture.log", ".jidoignore hides a tracked file")
	assert.Contains(t, got, "debug.log", ".jidoignore re-includes an untracked file git ignores")
	assert.NotContains(t, got, "build/keep.txt", "a .jidoignore in an excluded directory hides its tracked file")
	assert.NotContains(t, got, "build/other.txt", "but cannot re-include what git excludes with the directory")
	assert.Contains(t, got, "build/sub/deep.txt")
	assert.Contains(t, got, "src/gen.log")
}

func TestWalkerIgnoredKeepsTrackedEntries(t *testing.T) {
	dir := t.TempDir()
	commitTracked(t, dir)
	w := New(openRoot(t, dir, security.Options{}), nil)
	cases := []struct {
		dir, name string
		isDir     bool
		want      bool
	}{
		{".", "fixture.log", false, false},
		{".", "debug.log", false, true},
		{".", "build", true, false},
		{".", "logs.log", true, false},
		{".", "out", false, false},
		{"src", "gen.log", false, false},
		{"src", "x.log", false, true},
		{"free", "dir.tmp", true, false},
		{"free", "scratch.tmp", false, true},
		// A directory named by the caller is listed as if it were not ignored.
		{"build", "other.txt", false, false},
		{"build", "keep.txt", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.dir+"/"+tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, w.Ignored(tc.dir)(tc.name, tc.isDir))
		})
	}
}

// countingTree counts the reads and stats of git index files through the disk Tree.
type countingTree struct {
	Tree
	mu           sync.Mutex
	reads, stats int
}

func (c *countingTree) ReadTreeFile(name string, buf []byte) ([]byte, error) {
	if strings.HasSuffix(name, "/index") {
		c.mu.Lock()
		c.reads++
		c.mu.Unlock()
	}
	return c.Tree.ReadTreeFile(name, buf)
}

func (c *countingTree) Lstat(name string) (fs.FileInfo, error) {
	if strings.HasSuffix(name, "/index") {
		c.mu.Lock()
		c.stats++
		c.mu.Unlock()
	}
	return c.Tree.Lstat(name)
}

func (c *countingTree) counts() (reads, stats int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads, c.stats
}

func TestWalkReadsTheIndexOnlyWhenNeeded(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.go": "a", "sub/b.go": "b", "sub/c.log": "c"})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	tree := &countingTree{Tree: Disk(openRoot(t, dir, security.Options{}))}
	w := NewTree(tree, nil)

	walkFiles(t, w)
	reads, stats := tree.counts()
	assert.Zero(t, reads+stats, "no rule ignores a path: the index is never looked at")

	writeFiles(t, dir, map[string]string{".gitignore": "*.log\nnode_modules/\n", "node_modules/m/i.js": "m", "d.log": "untracked"})
	assert.Equal(t, []string{".gitignore", "a.go", "sub/b.go", "sub/c.log"}, walkFiles(t, w))
	reads, _ = tree.counts()
	assert.Equal(t, 1, reads, "read once, when git's rules first ignore a path")

	walkFiles(t, w)
	walkFiles(t, w.On(tree))
	reads, _ = tree.counts()
	assert.Equal(t, 1, reads, "an unchanged index is not read again by the walker or one made by On")

	gitIn(t, dir, "add", "-f", "d.log")
	assert.Contains(t, walkFiles(t, w), "d.log")
	reads, _ = tree.counts()
	assert.Equal(t, 2, reads, "a changed index is read again")

	walkFiles(t, NewTree(tree, nil))
	reads, _ = tree.counts()
	assert.Equal(t, 3, reads, "another walker has its own cache")
}

func TestIndexCacheForgetsTheLeastRecentlyUsed(t *testing.T) {
	name := func(i int) string { return fmt.Sprintf("r%02d/.git/index", i) }
	entry := &cachedIndex{}
	c := indexCache{limit: 10 * entry.cost(name(0))}
	for i := range 15 {
		c.put(name(i), &cachedIndex{})
		if i >= 2 {
			c.put(name(0), &cachedIndex{}) // kept in use
		}
	}
	assert.Len(t, c.files, 10)
	assert.Equal(t, c.limit, c.bytes)
	assert.Contains(t, c.files, name(0))
	assert.NotContains(t, c.files, name(1))
	assert.NotContains(t, c.files, name(5))
	assert.Contains(t, c.files, name(6))
	assert.Contains(t, c.files, name(14))

	small := indexCache{limit: 10}
	small.put(name(0), &cachedIndex{})
	assert.Empty(t, small.files, "an entry over the whole limit is not kept")
	assert.Zero(t, small.bytes)
}

// TestWalkReadsIndexesOnlyInsideTheRoot plants indexes that would make the walk list
// secret.log (which .gitignore ignores) if it read them: outside the root through a
// symlink, a hard link or a .git file, inside it through a symlink, over the size cap,
// or not a file at all. None may be read; the rules alone apply, and no walk hangs.
func TestWalkReadsIndexesOnlyInsideTheRoot(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.log": "x", "a.txt": "x", ".git/info/exclude": "*.txt\n"})
	gitIn(t, outside, "init", "-q")
	gitIn(t, outside, "add", "-f", "secret.log")
	writeFiles(t, outside, map[string]string{".git/info/exclude": "*.txt\n"})
	crafted := filepath.Join(outside, ".git", "index")
	data, err := os.ReadFile(crafted)
	require.NoError(t, err)

	base := map[string]string{".gitignore": "*.log\n", "secret.log": "x", "a.txt": "x"}
	cases := []struct {
		name  string
		setup func(t *testing.T, root string)
		opts  security.Options
	}{
		{name: "index symlinked out of the root", setup: func(t *testing.T, root string) {
			require.NoError(t, os.Symlink(crafted, filepath.Join(root, ".git", "index")))
		}},
		{name: "index symlinked inside the root", setup: func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{"copy": string(data)})
			require.NoError(t, os.Symlink("../copy", filepath.Join(root, ".git", "index")))
		}},
		{name: "git directory symlinked out of the root", setup: func(t *testing.T, root string) {
			require.NoError(t, os.RemoveAll(filepath.Join(root, ".git")))
			require.NoError(t, os.Symlink(filepath.Join(outside, ".git"), filepath.Join(root, ".git")))
		}},
		{name: "index hard-linked from outside", setup: func(t *testing.T, root string) {
			require.NoError(t, os.Link(crafted, filepath.Join(root, ".git", "index")))
		}},
		{name: ".git file naming a directory outside (relative)", setup: func(t *testing.T, root string) {
			require.NoError(t, os.RemoveAll(filepath.Join(root, ".git")))
			rel, err := filepath.Rel(root, filepath.Join(outside, ".git"))
			require.NoError(t, err)
			writeFiles(t, root, map[string]string{".git": "gitdir: " + rel + "\n"})
		}},
		{name: ".git file naming a directory outside (absolute)", setup: func(t *testing.T, root string) {
			require.NoError(t, os.RemoveAll(filepath.Join(root, ".git")))
			writeFiles(t, root, map[string]string{".git": "gitdir: " + filepath.Join(outside, ".git") + "\n"})
		}},
		{name: "commondir naming a directory outside", setup: func(t *testing.T, root string) {
			require.NoError(t, os.Rename(filepath.Join(root, ".git"), filepath.Join(root, "gd")))
			rel, err := filepath.Rel(filepath.Join(root, "gd"), filepath.Join(outside, ".git"))
			require.NoError(t, err)
			writeFiles(t, root, map[string]string{".git": "gitdir: gd\n", "gd/commondir": rel + "\n"})
		}},
		{name: "index over the size cap", opts: security.Options{MaxFileSize: int64(len(data) - 1)}, setup: func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{".git/index": string(data)})
		}},
		{name: "index is a FIFO", setup: func(t *testing.T, root string) {
			require.NoError(t, syscall.Mkfifo(filepath.Join(root, ".git", "index"), 0o644))
		}},
		{name: "index is a directory", setup: func(t *testing.T, root string) {
			require.NoError(t, os.Mkdir(filepath.Join(root, ".git", "index"), 0o755))
		}},
		{name: "index is garbage", setup: func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{".git/index": "DIRC\x00\x00\x00\x02" + strings.Repeat("\xff", 200)})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, base)
			gitIn(t, root, "init", "-q")
			tc.setup(t, root)
			got := walkFiles(t, New(openRoot(t, root, tc.opts), nil))
			assert.NotContains(t, got, "secret.log", "an index out of reach was read")
			assert.Contains(t, got, "a.txt", "an info/exclude out of reach was read")
		})
	}
}
