package walk

import (
	"io/fs"
	"path"
	"strings"
	"sync"
	"syscall"

	"github.com/jido-run/jido/ignore"
)

// A directory with a .git entry is the work tree of a repository: the root's own, a
// nested one or a submodule. Its git directory is .git itself or, when .git is a file
// (a submodule, a linked worktree), the directory that file names. Git's info/exclude
// and index are read from there through the Tree, so never through a symlink nor
// outside the root: a git directory elsewhere (a worktree of a repository outside the
// project) leaves the rules without info/exclude and without an index, and a
// symlinked, oversized (over the Tree's read cap) or unreadable index is unknown: git's
// rules alone apply, as they did before indexes were read.

// repo returns m for the entries of directory rel (relative to the root; open is its
// canonical path) when it is a repository's work tree: its own info/exclude and index
// instead of those above. A directory whose .git git itself would not take for a
// repository (a .git directory without HEAD, a .git file without "gitdir: ") keeps m.
func (wk *walk) repo(m *ignore.Matcher, rel, open string) *ignore.Matcher {
	gitDir, common, ok := wk.gitDir(open)
	if !ok {
		return m
	}
	var info []byte
	if common != "" {
		info = wk.readSmall(join(common, "info/exclude"))
	}
	var index ignore.Tracked
	if gitDir != "" {
		index = &lazyIndex{cache: wk.indexes, tree: wk.root, name: join(gitDir, "index")}
	}
	return m.Repo(rel, info, index)
}

// gitDir returns the canonical git directory of the work tree at dir and the directory
// holding its info/exclude (a linked worktree's common directory, which its commondir
// file names; else the git directory itself). Each is "" when it is out of reach: outside
// the root, or through a symlink. ok is false when dir is not a work tree.
func (wk *walk) gitDir(dir string) (gitDir, common string, ok bool) {
	dotGit := join(dir, ".git")
	info, err := wk.root.Lstat(dotGit)
	switch {
	case err != nil:
		return "", "", false
	case info.IsDir():
		return dotGit, dotGit, wk.exists(join(dotGit, "HEAD"))
	case !info.Mode().IsRegular():
		return "", "", true // a symlink, which git follows and the walk does not
	}
	target, found := strings.CutPrefix(string(wk.readSmall(dotGit)), "gitdir: ")
	if !found {
		return "", "", false
	}
	gitDir = wk.inRoot(dir, strings.TrimRight(target, "\r\n"))
	if gitDir == "" {
		return "", "", true
	}
	if !wk.exists(join(gitDir, "HEAD")) {
		return "", "", false
	}
	common = gitDir
	if data := wk.readSmall(join(gitDir, "commondir")); data != nil {
		common = wk.inRoot(gitDir, strings.TrimRight(string(data), "\r\n"))
	}
	return gitDir, common, true
}

// exists reports whether the canonical path name exists (of any type).
func (wk *walk) exists(name string) bool {
	_, err := wk.root.Lstat(name)
	return err == nil
}

// inRoot returns the canonical path that target, a path a git file holds (relative to
// the canonical directory base, or absolute), names inside the root; "" when it names a
// place outside or the root itself. An absolute one is made relative by the Tree's Clean
// (security.Root's: component-wise inside the root as given or as resolved), when it has one.
func (wk *walk) inRoot(base, target string) string {
	if target == "" {
		return ""
	}
	if path.IsAbs(target) {
		c, ok := wk.root.(interface{ Clean(string) (string, error) })
		if !ok {
			return ""
		}
		rel, err := c.Clean(target)
		if err != nil {
			return ""
		}
		base, target = ".", rel
	}
	p := path.Join(base, target)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// lazyIndex is a repository's index in one walk, read when the walk first asks it, that
// is when git's rules first ignore a path of the repository.
type lazyIndex struct {
	once  sync.Once
	cache *indexCache
	tree  Tree
	name  string // canonical path of the index file
	idx   *ignore.Index
}

// Tracked implements ignore.Tracked; an index that cannot be read tracks nothing.
func (x *lazyIndex) Tracked(path string, isDir bool) bool {
	x.once.Do(func() { x.idx = x.cache.load(x.tree, x.name) })
	return x.idx.Tracked(path, isDir)
}

// maxCachedBytes bounds the memory of the indexes a Walker keeps (a project whose nested
// repositories hold more than that reads the least recently used ones again); Go's
// source tree as one repository takes about 1 MB.
const maxCachedBytes = 64 << 20

// indexCache keeps the indexes a Walker's walks read, each with the identity of its file
// (size, modification time, device and inode: git replaces the file on every change), so
// that a walk reads an index again only when it changed.
type indexCache struct {
	limit int // the bytes it may keep (maxCachedBytes)
	mu    sync.Mutex
	files map[string]*cachedIndex
	bytes int // what the entries kept take (cost)
	clock uint64
}

// cachedIndex is one index file as last read; idx is nil when it could not be parsed.
type cachedIndex struct {
	id   fileID
	idx  *ignore.Index
	used uint64
}

// cost is what keeping the entry of the index file name takes, its bookkeeping included.
func (e *cachedIndex) cost(name string) int { return len(name) + 64 + e.idx.Size() }

// fileID is the identity of a file's content.
type fileID struct {
	size, mtime int64
	dev, ino    uint64
}

func idOf(info fs.FileInfo) fileID {
	id := fileID{size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(st.Dev), uint64(st.Ino)
	}
	return id
}

// load returns the parsed index at the canonical path name, from the cache when its file
// is unchanged. An index that is missing, not a regular file, refused by the Tree (a
// symlink on the way, over its size cap) or unparsable is nil: unknown.
func (c *indexCache) load(tree Tree, name string) *ignore.Index {
	before, err := tree.Lstat(name)
	if err != nil || !before.Mode().IsRegular() {
		return nil
	}
	id := idOf(before)
	c.mu.Lock()
	if e := c.files[name]; e != nil && e.id == id {
		c.clock++
		e.used = c.clock
		c.mu.Unlock()
		return e.idx
	}
	c.mu.Unlock()
	data, err := tree.ReadTreeFile(name, nil)
	if err != nil {
		return nil
	}
	idx, _ := ignore.ParseIndex(data)
	if after, err := tree.Lstat(name); err == nil && idOf(after) == id {
		c.put(name, &cachedIndex{id: id, idx: idx})
	}
	return idx
}

// put caches an index read, forgetting the least recently used ones beyond the limit.
func (c *indexCache) put(name string, e *cachedIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*cachedIndex{}
	}
	if old := c.files[name]; old != nil {
		c.bytes -= old.cost(name)
	}
	c.clock++
	e.used = c.clock
	c.files[name] = e
	c.bytes += e.cost(name)
	for c.bytes > c.limit {
		oldest := name
		for n, f := range c.files {
			if f.used < c.files[oldest].used {
				oldest = n
			}
		}
		c.bytes -= c.files[oldest].cost(oldest)
		delete(c.files, oldest)
	}
}
