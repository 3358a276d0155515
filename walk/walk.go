// Package walk lists a project tree in parallel, the way git sees it: directories that
// .gitignore, .git/info/exclude, core.excludesFile or .jidoignore exclude are never
// entered, hidden entries and .git are left out unless asked for, and symlinks are
// followed only to targets inside the root (never into a directory that contains them).
// Files git tracks are listed whatever git's ignore rules say, as git lists them (an
// excluded directory holding some is entered for them alone); each nested repository
// and submodule has its own rules and index (repo.go).
//
// Every directory and file is opened through security.Root's tree primitives, so a walk
// stays inside the root even while the tree changes under it. Directories are read by
// up to GOMAXPROCS goroutines (the semaphore pattern of golang.org/x/tools'
// gopathwalk: a subdirectory gets a new goroutine when a token is free, else it is walked
// inline), so the visit function is called concurrently.
package walk

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jido-run/jido/ignore"
	"github.com/jido-run/jido/security"
)

// Names of the ignore files read in every directory.
const (
	GitIgnore  = ".gitignore"
	JidoIgnore = ".jidoignore"
)

// Stop, returned by a visit function, ends the walk early without an error.
var Stop = errors.New("stop the walk")

// Options select what a walk reports.
type Options struct {
	Hidden         bool // also entries whose name starts with a dot (.git never)
	NoIgnore       bool // do not apply the ignore files
	MaxDepth       int  // 0: unlimited; 1: the entries of the start directory only
	FollowSymlinks bool // report a symlink to an in-root target as its target, entering directories
	Dirs           bool // report directories too, not only files
	// Skip, when set, leaves out entries as the ignore rules do: a directory it skips is
	// not entered. path is relative to the root.
	Skip func(path string, typ fs.FileMode) bool
	// Match, when set, selects the entries reported (after the ignore rules and Skip).
	// Directories are entered whatever it answers.
	Match func(path string, typ fs.FileMode) bool
	// Stat asks for the size and modification time of every reported entry.
	Stat bool
}

// Entry is one reported file or directory.
type Entry struct {
	Path string      // relative to the root, through symlinks as walked
	Type fs.FileMode // type bits; a followed symlink reports its target's type
	Link bool        // reached through a followed symlink (the entry or a parent)
	Info security.TreeInfo
}

// Stats count what a walk saw.
type Stats struct {
	Dirs       int64 // directories read
	Reported   int64 // entries passed to visit
	Unreadable int64 // directories or ignore files that could not be read (permissions, races)
}

// Tree is what a walk reads: the project on disk (Disk) or a plan's overlay of it. Names
// are canonical root-relative paths built by the walk. A Tree that also has security.Root's
// Clean lets a walk follow a .git file that names its git directory by an absolute path
// inside the root (a linked worktree's).
type Tree interface {
	OpenDir(dir string) (Dir, error)
	ReadTreeFile(name string, buf []byte) ([]byte, error) // an ignore file
	Resolve(name string) (string, error)                  // a symlink's canonical target
	Lstat(name string) (fs.FileInfo, error)
}

// Dir is a directory opened for listing; one goroutine uses it, then closes it.
type Dir interface {
	Entries(buf []security.TreeEntry) ([]security.TreeEntry, error) // unsorted
	Lstat(name string) (security.TreeInfo, error)
	Close() error
}

// Disk is the Tree of a Root: security.Root's tree primitives.
func Disk(root *security.Root) Tree { return disk{root} }

type disk struct{ *security.Root }

func (d disk) OpenDir(dir string) (Dir, error) {
	td, err := d.OpenTreeDir(dir)
	if err != nil {
		return nil, err
	}
	return td, nil
}

// Walker walks one Tree; safe for concurrent use.
type Walker struct {
	root     Tree
	excludes []byte      // content of git's global excludes file
	indexes  *indexCache // the git indexes read by its walks
}

// New returns a walker of root; excludes is the content of git's core.excludesFile
// (see UserExcludes), nil for none.
func New(root *security.Root, excludes []byte) *Walker { return NewTree(Disk(root), excludes) }

// NewTree returns a walker of any Tree; excludes as for New.
func NewTree(tree Tree, excludes []byte) *Walker {
	return &Walker{root: tree, excludes: excludes, indexes: &indexCache{limit: maxCachedBytes}}
}

// On returns a walker of tree with w's global excludes and the git indexes it read (a
// plan's tree is the project's, and an index is read again when its file changed).
func (w *Walker) On(tree Tree) *Walker {
	return &Walker{root: tree, excludes: w.excludes, indexes: w.indexes}
}

// Walk reports the entries under the canonical directory dir ("." for the root) to visit,
// from several goroutines at once. The start directory is walked even when an ignore rule
// excludes it (the caller named it); its ancestors' ignore files apply. Walk returns the
// first error of visit (other than Stop) or ctx's error.
func (w *Walker) Walk(ctx context.Context, dir string, opts Options, visit func(Entry) error) (Stats, error) {
	wk := &walk{ctx: ctx, root: w.root, indexes: w.indexes, opts: opts, visit: visit, sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	m := w.matcher(dir, opts.NoIgnore, wk)
	wk.wg.Add(1)
	wk.dir(dir, dir, 0, m, false)
	wk.wg.Wait()
	if err := ctx.Err(); err != nil && wk.err == nil {
		return wk.stats(), err
	}
	return wk.stats(), wk.err
}

// Ignored returns the ignore decision for the entries of the canonical directory dir:
// what the repository's rules and index and the ignore files of dir and its ancestors say
// of a name in it. For listings of one directory (list_dir); walks build theirs on the way.
func (w *Walker) Ignored(dir string) func(name string, isDir bool) bool {
	wk := &walk{root: w.root, indexes: w.indexes}
	m := wk.enter(w.matcher(dir, false, wk), dir, dir, nil)
	return func(name string, isDir bool) bool { return m.Ignored(join(dir, name), isDir) }
}

// matcher returns the ignore matcher in force in dir before dir's own ignore files and
// repository: the rules and repositories of every directory from the root down to dir's
// parent.
func (w *Walker) matcher(dir string, off bool, wk *walk) *ignore.Matcher {
	if off {
		return nil
	}
	m := ignore.New(w.excludes, nil)
	if dir == "." {
		return m
	}
	parent := "."
	for _, part := range strings.Split(path.Dir(dir), "/") {
		if part == "." {
			break
		}
		m = wk.enter(m, parent, parent, nil)
		parent = join(parent, part)
	}
	return wk.enter(m, parent, parent, nil)
}

// walk is the state of one Walk.
type walk struct {
	ctx     context.Context
	root    Tree
	indexes *indexCache
	opts    Options
	visit   func(Entry) error
	sem     chan struct{}
	wg      sync.WaitGroup

	dirs, reported, unreadable atomic.Int64
	stopped                    atomic.Bool
	errOnce                    sync.Once
	err                        error
}

func (wk *walk) stats() Stats {
	return Stats{Dirs: wk.dirs.Load(), Reported: wk.reported.Load(), Unreadable: wk.unreadable.Load()}
}

// fail records the first error and stops the walk.
func (wk *walk) fail(err error) {
	if !errors.Is(err, Stop) {
		wk.errOnce.Do(func() { wk.err = err })
	}
	wk.stopped.Store(true)
}

// done reports whether the walk must end.
func (wk *walk) done() bool {
	if wk.stopped.Load() {
		return true
	}
	if wk.ctx.Err() != nil {
		wk.stopped.Store(true)
		return true
	}
	return false
}

// dir walks one directory: open is its canonical path, show the path reported (they
// differ below a followed symlink); depth counts the levels above its entries.
func (wk *walk) dir(open, show string, depth int, m *ignore.Matcher, link bool) {
	defer wk.wg.Done()
	if wk.done() {
		return
	}
	d, err := wk.root.OpenDir(open)
	if err != nil {
		wk.unreadable.Add(1)
		return
	}
	buf := entryBufs.Get().(*[]security.TreeEntry)
	defer putEntries(buf)
	entries, err := d.Entries((*buf)[:0])
	*buf = entries
	if err != nil {
		wk.unreadable.Add(1)
	}
	wk.dirs.Add(1)
	defer d.Close()
	if m != nil {
		m = wk.enter(m, show, open, entries)
	}
	slices.SortFunc(entries, func(a, b security.TreeEntry) int { return strings.Compare(a.Name, b.Name) })
	for _, e := range entries {
		if wk.done() {
			return
		}
		if e.Name == ".git" || (!wk.opts.Hidden && e.Name[0] == '.') {
			continue
		}
		wk.entry(d, open, show, e, depth, m, link)
	}
}

// entryBufs holds the buffers directories are listed into, so that a walk of a thousand
// directories does not grow a thousand slices; a directory keeps its buffer while its
// subdirectories (walked inline) take others.
var entryBufs = sync.Pool{New: func() any { return new([]security.TreeEntry) }}

// putEntries returns a listing's buffer to entryBufs, without the names it refers to.
func putEntries(buf *[]security.TreeEntry) {
	clear(*buf)
	entryBufs.Put(buf)
}

// entry handles one entry of a directory being walked.
func (wk *walk) entry(d Dir, open, show string, e security.TreeEntry, depth int, m *ignore.Matcher, link bool) {
	openPath, typ := join(open, e.Name), e.Type
	showPath := openPath
	if show != open { // below a followed symlink
		showPath = join(show, e.Name)
	}
	if typ&fs.ModeSymlink != 0 && wk.opts.FollowSymlinks {
		target, info, ok := wk.follow(openPath, open)
		if !ok {
			return
		}
		openPath, typ, link = target, info.Mode().Type(), true
	}
	isDir := typ.IsDir()
	if m != nil {
		switch m.Check(showPath, isDir) {
		case ignore.Skip:
			return
		case ignore.KeepTracked:
			if isDir {
				m = m.Excluded() // entered for its tracked files only
			}
		}
	}
	if wk.opts.Skip != nil && wk.opts.Skip(showPath, typ) {
		return
	}
	if (!isDir || wk.opts.Dirs) && (wk.opts.Match == nil || wk.opts.Match(showPath, typ)) {
		ent := Entry{Path: showPath, Type: typ, Link: link}
		if wk.opts.Stat {
			var err error
			if link {
				ent.Info, err = wk.statLink(openPath)
			} else {
				ent.Info, err = d.Lstat(e.Name)
			}
			if err != nil {
				return // gone since the listing
			}
		}
		wk.reported.Add(1)
		if err := wk.visit(ent); err != nil {
			wk.fail(err)
			return
		}
	}
	if !isDir || (wk.opts.MaxDepth > 0 && depth+1 >= wk.opts.MaxDepth) {
		return
	}
	wk.wg.Add(1)
	select {
	case wk.sem <- struct{}{}:
		go func() {
			defer func() { <-wk.sem }()
			wk.dir(openPath, showPath, depth+1, m, link)
		}()
	default:
		wk.dir(openPath, showPath, depth+1, m, link)
	}
}

// follow resolves the symlink at canonical path p, in directory dir: its canonical target
// and the target's info, unless it leaves the root, dangles, or is a directory that
// contains the link (a loop).
func (wk *walk) follow(p, dir string) (string, fs.FileInfo, bool) {
	target, err := wk.root.Resolve(p)
	if err != nil {
		return "", nil, false
	}
	info, err := wk.root.Lstat(target)
	if err != nil {
		return "", nil, false
	}
	if info.IsDir() && (target == "." || dir == target || strings.HasPrefix(dir+"/", target+"/")) {
		return "", nil, false
	}
	return target, info, true
}

// statLink stats a symlink's canonical target.
func (wk *walk) statLink(target string) (security.TreeInfo, error) {
	info, err := wk.root.Lstat(target)
	if err != nil {
		return security.TreeInfo{}, err
	}
	return security.TreeInfo{Size: info.Size(), ModTime: info.ModTime(), Mode: info.Mode()}, nil
}

// enter adds what directory show holds to m: its repository when it is the work tree of
// one, then its ignore files (those its entries list, or all of them when entries is nil).
// open is its canonical path, where they are read; show the path reported (they differ
// below a followed symlink).
func (wk *walk) enter(m *ignore.Matcher, show, open string, entries []security.TreeEntry) *ignore.Matcher {
	dotGit, git, jido := entries == nil, entries == nil, entries == nil
	for _, e := range entries {
		switch e.Name {
		case ".git":
			dotGit = true
		case GitIgnore:
			git = e.Type.IsRegular()
		case JidoIgnore:
			jido = e.Type.IsRegular()
		}
	}
	rel := show
	if rel == "." {
		rel = ""
	}
	if dotGit {
		m = wk.repo(m, rel, open)
	}
	var gitData, jidoData []byte
	if git {
		gitData = wk.readSmall(join(open, GitIgnore))
	}
	if jido {
		jidoData = wk.readSmall(join(open, JidoIgnore))
	}
	return m.Enter(rel, gitData, jidoData)
}

// readSmall reads an ignore file (or a file of git's that the walk needs); a missing one
// is nil, an unreadable one is counted.
func (wk *walk) readSmall(name string) []byte {
	data, err := wk.root.ReadTreeFile(name, nil)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			wk.unreadable.Add(1)
		}
		return nil
	}
	return data
}

// join joins a canonical directory and a name.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
