package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/jido-run/jido/ignore"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// Git is the bridge module of the read-only git tools. They read the repository at the
// project root on disk (d.Root, also in plan mode) with go-git through gitFS and the
// Root: they never run git, take no lock, write nothing and reach no network.
type Git struct{ Deps }

// GitStatus gives the branch and the staged, unstaged and untracked paths.
func (g *Git) GitStatus(ctx context.Context, p definitions.GitStatusParams) (*definitions.GitStatusResult, error) {
	repo, scope, err := openGitAt(g.Root, g.Git, p.Path)
	if err != nil {
		return nil, err
	}
	res := &definitions.GitStatusResult{Entries: []definitions.GitStatusEntry{}}
	head, err := repo.branch(res)
	if err != nil {
		return nil, err
	}
	entries, err := repo.status(ctx, head, scope)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		switch {
		case e.Worktree == "untracked" && e.Index == "":
			res.Untracked++
		case e.Index != "" && e.Worktree != "" && e.Worktree != "untracked":
			res.Staged++
			res.Unstaged++
		case e.Index != "":
			res.Staged++
		default:
			res.Unstaged++
		}
		if len(res.Entries) == gitMaxEntries {
			res.Truncated = true
			continue
		}
		res.Entries = append(res.Entries, *e)
	}
	res.Clean = len(entries) == 0
	return res, nil
}

// branch fills in the branch, HEAD and upstream of res and returns HEAD's commit (nil
// before the first one).
func (g *gitRepo) branch(res *definitions.GitStatusResult) (*object.Commit, error) {
	ref, err := g.st.Reference(plumbing.HEAD)
	if err != nil {
		return nil, err
	}
	if ref.Type() == plumbing.SymbolicReference && ref.Target().IsBranch() {
		res.Branch = ref.Target().Short()
	} else {
		res.Detached = true
	}
	head, err := g.head()
	if err != nil || head == nil {
		return nil, err
	}
	res.Head = head.Hash.String()
	if res.Branch == "" {
		return head, nil
	}
	cfg, err := g.st.Config()
	if err != nil {
		return head, nil // no upstream known
	}
	b, ok := cfg.Branches[res.Branch]
	if !ok || b.Merge == "" || b.Remote == "" {
		return head, nil
	}
	upName := plumbing.NewRemoteReferenceName(b.Remote, b.Merge.Short())
	if b.Remote == "." {
		upName = b.Merge
	}
	res.Upstream = upName.Short()
	up, err := storer.ResolveReference(g.st, upName)
	if err != nil {
		return head, nil
	}
	if ahead, behind, ok := g.aheadBehind(head.Hash, up.Hash()); ok {
		res.Ahead, res.Behind = &ahead, &behind
	}
	return head, nil
}

// aheadBehind counts the commits of a not in b and of b not in a; ok is false when
// either history is longer than gitMaxAncestry (too costly to count).
func (g *gitRepo) aheadBehind(a, b plumbing.Hash) (ahead, behind int, ok bool) {
	ancestors := func(h plumbing.Hash) (map[plumbing.Hash]bool, bool) {
		seen := map[plumbing.Hash]bool{h: true}
		queue := []plumbing.Hash{h}
		for len(queue) > 0 {
			c, err := object.GetCommit(g.st, queue[0])
			queue = queue[1:]
			if err != nil {
				return nil, false // a shallow clone's missing parent: unknown
			}
			for _, p := range c.ParentHashes {
				if !seen[p] {
					if len(seen) == gitMaxAncestry {
						return nil, false
					}
					seen[p] = true
					queue = append(queue, p)
				}
			}
		}
		return seen, true
	}
	sa, okA := ancestors(a)
	sb, okB := ancestors(b)
	if !okA || !okB {
		return 0, 0, false
	}
	for h := range sa {
		if !sb[h] {
			ahead++
		}
	}
	for h := range sb {
		if !sa[h] {
			behind++
		}
	}
	return ahead, behind, true
}

// status compares HEAD's tree, the index and the working tree in scope, as git status.
func (g *gitRepo) status(ctx context.Context, head *object.Commit, scope string) ([]*definitions.GitStatusEntry, error) {
	idx, err := g.index()
	if err != nil {
		return nil, err
	}
	tree, err := treeFiles(head, scope)
	if err != nil {
		return nil, err
	}
	entries := map[string]*definitions.GitStatusEntry{}
	entry := func(p string) *definitions.GitStatusEntry {
		e := entries[p]
		if e == nil {
			e = &definitions.GitStatusEntry{Path: p}
			entries[p] = e
		}
		return e
	}
	staged := map[string]*index.Entry{}
	tracked := make([]string, 0, len(idx.Entries))
	indexTime := g.indexTime()
	for _, e := range idx.Entries {
		tracked = append(tracked, e.Name)
		if !inScope(e.Name, scope) {
			continue
		}
		if e.Stage != 0 {
			entry(e.Name).Index, entry(e.Name).Worktree = "unmerged", "unmerged"
			continue
		}
		staged[e.Name] = e
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if state, _, unverified := g.worktreeState(e, indexTime); state != "" {
			w := entry(e.Name)
			w.Worktree, w.Unverified = state, unverified
		}
	}
	for p, t := range tree {
		e, ok := staged[p]
		switch {
		case entries[p] != nil && entries[p].Index == "unmerged":
		case !ok:
			entry(p).Index = "deleted"
		case (e.Mode == filemode.Symlink) != (t.mode == filemode.Symlink):
			entry(p).Index = "typechange"
		case e.Hash != t.hash || e.Mode != t.mode:
			entry(p).Index = "modified"
		}
	}
	for p := range staged {
		if _, ok := tree[p]; !ok {
			entry(p).Index = "added"
		}
	}
	sort.Strings(tracked)
	w := &untrackedWalk{g: g, ctx: ctx, tracked: tracked, scope: scope}
	info, _ := g.common.root.ReadFile(g.common.name("info/exclude"))
	var exclude []byte
	if info != nil {
		exclude = info.Data
	}
	if err := w.dir("", ignore.New(nil, exclude)); err != nil {
		return nil, err
	}
	for _, p := range w.found {
		entry(p).Worktree = "untracked"
	}
	out := make([]*definitions.GitStatusEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// untrackedWalk finds the untracked paths of the working tree as git status shows them:
// ignored files and directories are left out (an ignored directory is not entered), and
// a directory that holds no tracked file is one entry, "dir/", when it holds some
// untracked file that is not ignored (or is a nested repository).
type untrackedWalk struct {
	g       *gitRepo
	ctx     context.Context
	tracked []string // the index's paths, sorted
	scope   string
	found   []string
}

// isTracked reports whether p is in the index.
func (w *untrackedWalk) isTracked(p string) bool {
	i := sort.SearchStrings(w.tracked, p)
	return i < len(w.tracked) && w.tracked[i] == p
}

// holdsTracked reports whether the index has a path under directory p.
func (w *untrackedWalk) holdsTracked(p string) bool {
	i := sort.SearchStrings(w.tracked, p+"/")
	return i < len(w.tracked) && strings.HasPrefix(w.tracked[i], p+"/")
}

// enter reads directory dir and returns its entries and the matcher with its .gitignore.
func (w *untrackedWalk) enter(dir string, m *ignore.Matcher) ([]fs.DirEntry, *ignore.Matcher, error) {
	name := dir
	if name == "" {
		name = "."
	}
	entries, err := w.g.root.ReadDir(name)
	if err != nil {
		return nil, m, err
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			if f, err := w.g.root.ReadFile(path.Join(name, ".gitignore")); err == nil {
				m = m.Enter(dir, f.Data, nil)
			}
		}
	}
	return entries, m, nil
}

func (w *untrackedWalk) dir(dir string, m *ignore.Matcher) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, m, err := w.enter(dir, m)
	if err != nil {
		if dir == "" {
			return err
		}
		return nil // unreadable directory: nothing git could list either
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Name() == ".git" || w.isTracked(p) {
			continue
		}
		below := w.scope != "" && strings.HasPrefix(w.scope, p+"/") // the scope lies under p
		if !inScope(p, w.scope) && !(isDir && below) {
			continue
		}
		if m.Ignored(p, isDir) {
			continue
		}
		switch {
		case !isDir:
			w.found = append(w.found, p)
		case w.holdsTracked(p) || below:
			if err := w.dir(p, m); err != nil {
				return err
			}
		case w.untracked(p, m):
			w.found = append(w.found, p+"/")
		}
	}
	return nil
}

// untracked reports whether untracked directory p holds a file git would show: one not
// ignored, or a nested repository.
func (w *untrackedWalk) untracked(p string, m *ignore.Matcher) bool {
	if _, err := w.g.root.Lstat(p + "/.git"); err == nil {
		return true
	}
	entries, m, err := w.enter(p, m)
	if err != nil {
		return false
	}
	for _, e := range entries {
		q := path.Join(p, e.Name())
		if m.Ignored(q, e.IsDir()) {
			continue
		}
		if !e.IsDir() || w.untracked(q, m) {
			return true
		}
	}
	return false
}

// GitDiff shows the working tree against the index (or ref), or the index against ref.
func (g *Git) GitDiff(ctx context.Context, p definitions.GitDiffParams) (*definitions.GitDiffResult, error) {
	repo, scope, err := openGitAt(g.Root, g.Git, p.Path)
	if err != nil {
		return nil, err
	}
	idx, err := repo.index()
	if err != nil {
		return nil, err
	}
	d := &differ{g: repo, context: p.Context}
	res := &definitions.GitDiffResult{From: "index", To: "worktree"}
	indexTime := repo.indexTime()
	if !p.Staged && p.Ref == "" {
		for _, e := range idx.Entries {
			if e.Stage != 0 || !inScope(e.Name, scope) || e.Mode == filemode.Submodule {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			state, info, _ := repo.worktreeState(e, indexTime)
			if state == "" {
				continue
			}
			b := side{}
			if info != nil {
				b = side{present: true, mode: worktreeMode(info), worktree: true}
			}
			if err := d.file(e.Name, side{present: true, mode: e.Mode, hash: e.Hash}, b); err != nil {
				return nil, err
			}
		}
		return g.diffResult(res, d), nil
	}
	base, err := repo.base(p.Ref)
	if err != nil {
		return nil, err
	}
	tree, err := treeFiles(base, scope)
	if err != nil {
		return nil, err
	}
	res.From = "empty tree"
	if base != nil {
		res.From = base.Hash.String()
	}
	staged := map[string]*index.Entry{}
	for _, e := range idx.Entries {
		if e.Stage == 0 && inScope(e.Name, scope) {
			staged[e.Name] = e
		}
	}
	if p.Staged {
		res.To = "index"
	}
	for _, name := range sortedKeys(tree, staged) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, inTree := tree[name]
		e, inIndex := staged[name]
		a := side{present: inTree, mode: t.mode, hash: t.hash}
		var b side
		switch {
		case !inIndex:
		case p.Staged:
			b = side{present: true, mode: e.Mode, hash: e.Hash}
		default:
			state, info, _ := repo.worktreeState(e, indexTime)
			switch {
			case info == nil && state == "deleted":
			case state == "" && inTree && e.Hash == t.hash && e.Mode == t.mode:
				continue // the same in the tree, the index and the working tree
			case state == "":
				b = side{present: true, mode: e.Mode, hash: e.Hash}
			default:
				b = side{present: true, mode: worktreeMode(info), worktree: true}
				if h, err := repo.worktreeHash(name, info); err == nil {
					b.hash = h
				}
			}
		}
		if a.present == b.present && (!a.present || (a.hash == b.hash && a.mode == b.mode)) {
			continue
		}
		if err := d.file(name, a, b); err != nil {
			return nil, err
		}
	}
	return g.diffResult(res, d), nil
}

// diffResult fills res from d, secrets redacted.
func (g *Git) diffResult(res *definitions.GitDiffResult, d *differ) *definitions.GitDiffResult {
	res.Diff, res.Redacted = g.redactor().String(d.buf.String())
	res.Files, res.Added, res.Removed, res.Truncated = d.files, d.added, d.removed, d.truncated
	if res.Files == nil {
		res.Files = []definitions.GitFileChange{}
	}
	return res
}

// GitLog lists commits, newest first (by committer date).
func (g *Git) GitLog(ctx context.Context, p definitions.GitLogParams) (*definitions.GitLogResult, error) {
	repo, scope, err := openGitAt(g.Root, g.Git, p.Path)
	if err != nil {
		return nil, err
	}
	res := &definitions.GitLogResult{Commits: []definitions.GitCommit{}}
	from, err := repo.base(p.Ref)
	if err != nil || from == nil {
		return res, err
	}
	var iter object.CommitIter = object.NewCommitIterCTime(from, nil, nil)
	if scope != "" {
		iter = object.NewCommitPathIterFromIter(func(f string) bool { return inScope(f, scope) }, iter, true)
	}
	defer iter.Close()
	red := g.redactor()
	err = iter.ForEach(func(c *object.Commit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(res.Commits) == max(p.MaxCount, 1) {
			res.More = true
			return storer.ErrStop
		}
		gc := gitCommit(c)
		gc.Subject, _ = red.String(gc.Subject)
		gc.Body, _ = red.String(gc.Body)
		res.Commits = append(res.Commits, gc)
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return nil, err
	}
	res.Count = len(res.Commits)
	return res, nil
}

// GitShow shows a commit and its diff against its first parent, or a file's content at a
// commit.
func (g *Git) GitShow(ctx context.Context, p definitions.GitShowParams) (*definitions.GitShowResult, error) {
	repo, err := openGit(g.Root, g.Git)
	if err != nil {
		return nil, err
	}
	ref := p.Ref
	if ref == "" {
		ref = "HEAD"
	}
	c, err := repo.commit(ref)
	if err != nil {
		return nil, err
	}
	if p.Path != "" {
		return g.showFile(repo, c, ref, p.Path)
	}
	gc := gitCommit(c)
	var parent *object.Commit
	if len(c.ParentHashes) > 0 {
		if parent, err = object.GetCommit(repo.st, c.ParentHashes[0]); err != nil {
			return nil, err
		}
	}
	before, err := treeFiles(parent, "")
	if err != nil {
		return nil, err
	}
	after, err := treeFiles(c, "")
	if err != nil {
		return nil, err
	}
	d := &differ{g: repo, context: 3}
	for _, name := range sortedKeys(before, after) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, inA := before[name]
		b, inB := after[name]
		if inA && inB && a == b {
			continue
		}
		if err := d.file(name, side{present: inA, mode: a.mode, hash: a.hash}, side{present: inB, mode: b.mode, hash: b.hash}); err != nil {
			return nil, err
		}
	}
	red := g.redactor()
	gc.Subject, _ = red.String(gc.Subject)
	gc.Body, _ = red.String(gc.Body)
	res := &definitions.GitShowResult{Commit: &gc, Files: d.files, Truncated: d.truncated}
	res.Diff, res.Redacted = red.String(d.buf.String())
	if res.Files == nil {
		res.Files = []definitions.GitFileChange{}
	}
	return res, nil
}

// showFile gives the content of the file name at commit c: text only, a secret refused
// like read_file refuses it, over the Root's size cap refused, and cut at gitMaxContent.
func (g *Git) showFile(repo *gitRepo, c *object.Commit, ref, name string) (*definitions.GitShowResult, error) {
	p, err := repo.scope(name)
	if err != nil {
		return nil, err
	}
	if p == "" {
		return nil, definitions.NewError(definitions.ValidationError, "path names the project root, not a file").Hint("Name a file, or leave path out to show the commit")
	}
	if repo.root.IsSecret(p) {
		return nil, &fs.PathError{Op: "show", Path: p, Err: security.ErrSecret}
	}
	files, err := treeFiles(c, p)
	if err != nil {
		return nil, err
	}
	t, ok := files[p]
	switch {
	case !ok && len(files) > 0:
		return nil, definitions.NewError(definitions.FileError, "%s is a directory at %s", p, ref).With("path", p).
			Hint("Name a file; git_log with path lists the commits that changed the directory")
	case !ok:
		return nil, definitions.NewError(definitions.FileError, "%s does not exist at %s", p, ref).With("path", p).With("ref", ref).
			Hint("git_log with path lists the commits that changed it")
	case t.mode == filemode.Submodule:
		return nil, definitions.NewError(definitions.FileError, "%s is a submodule at %s (commit %s)", p, ref, t.hash).With("path", p)
	}
	data, size, large, err := repo.blob(t.hash, repo.root.MaxFileSize())
	if err != nil {
		return nil, err
	}
	if large {
		return nil, &fs.PathError{Op: "show", Path: p, Err: fmt.Errorf("%w: %d bytes at %s, the limit is %d", security.ErrTooLarge, size, ref, repo.root.MaxFileSize())}
	}
	if bytesHasNUL(data) {
		return nil, definitions.NewError(definitions.FileError, "%s is a binary file at %s", p, ref).With("path", p).With("size", size).
			Hint("git_show shows text files only")
	}
	res := &definitions.GitShowResult{Path: p, Size: size}
	text := string(data)
	if len(text) > gitMaxContent {
		res.Truncated = true
		text = text[:gitMaxContent]
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			text = text[:i+1]
		}
	}
	text, res.Redacted = g.redactor().String(text)
	res.Content = &text
	return res, nil
}

// bytesHasNUL reports whether data looks binary: a NUL byte in its first 8000 bytes, as
// git decides.
func bytesHasNUL(data []byte) bool {
	return strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0
}
