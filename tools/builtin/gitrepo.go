package builtin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	gitdir "github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// Limits of the git tools' results.
const (
	gitMaxDiff     = 100_000 // bytes of diff text in one result
	gitMaxBlobDiff = 1 << 20 // a larger file is listed like a binary one, its lines not diffed
	gitMaxContent  = 100_000 // bytes of a file's content shown by git_show
	gitMaxEntries  = 1000    // entries of git_status
	gitMaxAncestry = 5000    // commits walked on each side to count ahead/behind
)

// gitRepo is the repository of a project root, read through Roots by go-git: objects, refs
// and config through gitFS over the git directory, the working tree directly.
type gitRepo struct {
	root   *security.Root // the working tree
	own    gitFS          // the work tree's git directory: HEAD, the index
	common gitFS          // the repository's common git directory: info/exclude (own, but for a linked worktree)
	st     *filesystem.Storage
}

// notRepo is the validation error of a root without a repository git_* can read.
func notRepo(why string) error {
	return definitions.NewError(definitions.ValidationError, "not a git repository: %s", why).
		Hint("The git tools read the repository whose .git directory is at the project root; run them in a project that has one")
}

// openGit opens the repository at root. A .git that is a file (a linked worktree or a
// submodule, whose git directory lies elsewhere) is read where gd says, when the embedder
// said (a .git file is never followed: the session may have written it), else refused, as
// is a symlink.
func openGit(root *security.Root, gd *GitDir) (*gitRepo, error) {
	if root == nil {
		return nil, notRepo("this session has no project root")
	}
	info, err := root.Lstat(".git")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, notRepo("the project root has no .git directory")
	case err != nil:
		return nil, err
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, notRepo(".git is a symbolic link, which the git tools do not follow")
	case !info.IsDir() && gd == nil:
		return nil, notRepo(".git is a file (a linked worktree or submodule whose git directory lies elsewhere), which the git tools do not follow")
	}
	g := &gitRepo{root: root, own: gitFS{root: root, base: ".git"}}
	g.common = g.own
	var dotgit billy.Filesystem = g.own
	if !info.IsDir() {
		g.own, g.common = gitFS{root: gd.Root, base: gd.Worktree}, gitFS{root: gd.Root, base: gd.Common}
		dotgit = gitdir.NewRepositoryFilesystem(g.own, g.common)
	}
	g.st = filesystem.NewStorageWithOptions(dotgit, cache.NewObjectLRUDefault(), filesystem.Options{})
	if _, err := g.st.Reference(plumbing.HEAD); err != nil {
		return nil, notRepo("the git directory has no readable HEAD")
	}
	return g, nil
}

// openGitAt opens the root's repository and the scope a tool's path argument names in it.
func openGitAt(root *security.Root, gd *GitDir, path string) (*gitRepo, string, error) {
	repo, err := openGit(root, gd)
	if err != nil {
		return nil, "", err
	}
	scope, err := repo.scope(path)
	if err != nil {
		return nil, "", err
	}
	return repo, scope, nil
}

// index returns the repository's index (empty before the first git add).
func (g *gitRepo) index() (*index.Index, error) {
	name := g.own.name("index")
	if _, err := g.own.root.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		return &index.Index{Version: 2}, nil
	}
	idx := readIndex(g.own.root, name)
	if idx == nil {
		return nil, definitions.NewError(definitions.FileError, "cannot read git's index (%s)", name).
			Hint("The index may be too large, or in a format go-git does not read")
	}
	return idx, nil
}

// refPattern is what a ref may look like: branch, tag and remote names, hashes, HEAD and
// the suffixes ~N, ^N and @{...}. It cannot start with "-", so it can never be an option.
var refPattern = regexp.MustCompile(`^[A-Za-z0-9_./@{}~^+][A-Za-z0-9_./@{}~^+-]*$`)

// checkRef refuses a ref that is not a plain revision.
func checkRef(ref string) error {
	if len(ref) <= 256 && refPattern.MatchString(ref) && !strings.Contains(ref, "..") {
		return nil
	}
	return definitions.NewError(definitions.ValidationError, "ref %q is not a revision", ref).With("ref", ref).
		Hint("Pass a branch, tag or commit hash, optionally with ~N or ^N (HEAD~2); ranges and options are not supported")
}

// commit resolves ref to its commit.
func (g *gitRepo) commit(ref string) (*object.Commit, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	c, err := g.resolve(ref)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "unknown revision %q: %v", ref, err).With("ref", ref).
			Hint("List commits with git_log, or name a branch or tag that exists")
	}
	return c, nil
}

// revSuffix is a trailing ~N or ^N of a revision.
var revSuffix = regexp.MustCompile(`[~^][0-9]*$`)

// resolve resolves a revision: a ref name or (abbreviated) hash, then any ~N and ^N,
// as git does (an annotated tag is peeled to its commit).
func (g *gitRepo) resolve(rev string) (*object.Commit, error) {
	if loc := revSuffix.FindStringIndex(rev); loc != nil && loc[0] > 0 {
		c, err := g.resolve(rev[:loc[0]])
		if err != nil {
			return nil, err
		}
		op, num := rev[loc[0]], rev[loc[0]+1:]
		n := 1
		if num != "" {
			if n, err = strconv.Atoi(num); err != nil {
				return nil, err
			}
		}
		if op == '^' {
			if n == 0 {
				return c, nil
			}
			if n > len(c.ParentHashes) {
				return nil, fmt.Errorf("%s has no parent %d", short(c.Hash), n)
			}
			return object.GetCommit(g.st, c.ParentHashes[n-1])
		}
		for range n {
			if len(c.ParentHashes) == 0 {
				return nil, fmt.Errorf("%s has no parent", short(c.Hash))
			}
			if c, err = object.GetCommit(g.st, c.ParentHashes[0]); err != nil {
				return nil, err
			}
		}
		return c, nil
	}
	for _, name := range []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
		ref, err := storer.ResolveReference(g.st, plumbing.ReferenceName(fmt.Sprintf(name, rev)))
		if err == nil {
			return g.peel(ref.Hash())
		}
	}
	if len(rev) >= 4 && len(rev) <= 40 && isHex(rev) {
		if len(rev)%2 == 1 {
			rev = rev[:len(rev)-1] // HashesWithPrefix takes whole bytes; checked below
		}
		prefix, _ := hexDecode(rev)
		hashes, err := g.st.HashesWithPrefix(prefix)
		if err != nil {
			return nil, err
		}
		var found []plumbing.Hash
		for _, h := range hashes {
			if strings.HasPrefix(h.String(), rev) {
				if _, err := object.GetCommit(g.st, h); err == nil {
					found = append(found, h)
				}
			}
		}
		switch len(found) {
		case 1:
			return object.GetCommit(g.st, found[0])
		case 0:
		default:
			return nil, fmt.Errorf("the short hash is ambiguous")
		}
	}
	return nil, plumbing.ErrReferenceNotFound
}

// peel returns the commit an object names, through annotated tags.
func (g *gitRepo) peel(h plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		o, err := g.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, err
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(g.st, o)
		case plumbing.TagObject:
			t, err := object.DecodeTag(g.st, o)
			if err != nil {
				return nil, err
			}
			h = t.Target
		default:
			return nil, fmt.Errorf("%s is a %s, not a commit", short(h), o.Type())
		}
	}
	return nil, fmt.Errorf("too many nested tags")
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func hexDecode(s string) ([]byte, error) {
	out := make([]byte, len(s)/2)
	for i := range out {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, err
		}
		out[i] = byte(v)
	}
	return out, nil
}

// head returns HEAD's commit, or nil before the first commit.
func (g *gitRepo) head() (*object.Commit, error) {
	ref, err := storer.ResolveReference(g.st, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return g.peel(ref.Hash())
}

// base returns ref's commit, or HEAD's when ref is empty (nil before the first commit).
func (g *gitRepo) base(ref string) (*object.Commit, error) {
	if ref == "" {
		return g.head()
	}
	return g.commit(ref)
}

// treeEntry is a file of a commit's tree.
type treeEntry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// treeFiles returns the files (blobs, symlinks, submodules) of commit c's tree in scope;
// a nil commit has none.
func treeFiles(c *object.Commit, scope string) (map[string]treeEntry, error) {
	files := map[string]treeEntry{}
	if c == nil {
		return files, nil
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if e.Mode != filemode.Dir && inScope(name, scope) {
			files[name] = treeEntry{hash: e.Hash, mode: e.Mode}
		}
	}
}

// inScope reports whether path is scope or lies under it ("" is the whole repository).
func inScope(path, scope string) bool {
	return scope == "" || path == scope || strings.HasPrefix(path, scope+"/")
}

// gitScope turns a tool's path argument into a scope: a clean root-relative path, "" for
// the whole repository. It is lexical: the path may no longer exist on disk.
func (g *gitRepo) scope(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	c, err := g.root.Clean(path)
	if err != nil {
		return "", err
	}
	c = strings.TrimSuffix(c, "/")
	if c == "." {
		return "", nil
	}
	return c, nil
}

// blob reads the blob of hash, up to max bytes; large is true (and data nil) beyond.
func (g *gitRepo) blob(hash plumbing.Hash, max int64) (data []byte, size int64, large bool, err error) {
	b, err := object.GetBlob(g.st, hash)
	if err != nil {
		return nil, 0, false, err
	}
	if b.Size > max {
		return nil, b.Size, true, nil
	}
	r, err := b.Reader()
	if err != nil {
		return nil, 0, false, err
	}
	defer r.Close()
	data, err = io.ReadAll(io.LimitReader(r, max+1))
	return data, b.Size, false, err
}

// worktreeHash hashes the working tree's file name as git would store it: a regular
// file's content (a secret's too: jido reads it for itself, and only the hash leaves), a
// symlink's target.
func (g *gitRepo) worktreeHash(name string, info fs.FileInfo) (plumbing.Hash, error) {
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := g.root.FS().(fs.ReadLinkFS).ReadLink(name)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), nil
	}
	if g.root.IsSecret(name) {
		data, err := g.root.ReadSecretFile(name, g.root.MaxFileSize())
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ComputeHash(plumbing.BlobObject, data), nil
	}
	f, _, v, err := g.root.OpenFile(name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, v.Size)
	if n, err := io.Copy(h, f); err != nil || n != v.Size {
		return plumbing.ZeroHash, fmt.Errorf("%s changed while it was read", name)
	}
	return h.Sum(), nil
}

// worktreeModes are how git stores a working tree file's type and executable bit.
func worktreeMode(info fs.FileInfo) filemode.FileMode {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return filemode.Symlink
	case info.IsDir():
		return filemode.Dir
	case info.Mode()&0o111 != 0:
		return filemode.Executable
	}
	return filemode.Regular
}

// worktreeState compares index entry e with the working tree: "" (unchanged), "deleted",
// "typechange" or "modified"; unverified says a file that could not be read was taken as
// modified. The file's metadata matching the index's (size, mtime, mode), and an mtime
// older than the index's own, means unchanged without reading it, as git decides.
func (g *gitRepo) worktreeState(e *index.Entry, indexTime int64) (state string, info fs.FileInfo, unverified bool) {
	info, err := g.root.Lstat(e.Name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, security.ErrNotDir) {
		return "deleted", nil, false
	}
	if err != nil {
		return "modified", nil, true
	}
	mode := worktreeMode(info)
	switch {
	case e.Mode == filemode.Submodule:
		if mode != filemode.Dir {
			return "typechange", info, false
		}
		return "", info, false // a submodule's own changes are its repository's
	case mode == filemode.Dir:
		return "deleted", nil, false
	case (mode == filemode.Symlink) != (e.Mode == filemode.Symlink):
		return "typechange", info, false
	case mode != e.Mode:
		return "modified", info, false
	}
	mtime := info.ModTime()
	if uint32(info.Size()) == e.Size && mtime.Equal(e.ModifiedAt) && mtime.UnixNano() < indexTime {
		return "", info, false
	}
	if info.Mode().IsRegular() && uint32(info.Size()) != e.Size {
		return "modified", info, false
	}
	h, err := g.worktreeHash(e.Name, info)
	if err != nil {
		return "modified", info, true
	}
	if h != e.Hash {
		return "modified", info, false
	}
	return "", info, false
}

// indexTime is the index file's mtime, in ns: a file changed in the same instant may not
// show in its metadata ("racily clean"), so git reads it.
func (g *gitRepo) indexTime() int64 {
	info, err := g.own.root.Stat(g.own.name("index"))
	if err != nil {
		return 0
	}
	return info.ModTime().UnixNano()
}

// side is one side of a file's diff: a blob, a working tree file, or nothing.
type side struct {
	present  bool
	mode     filemode.FileMode
	hash     plumbing.Hash // a blob's; zero for a working tree file
	worktree bool          // read the working tree's file
}

// differ renders files' diffs into one capped text with per-file line counts.
type differ struct {
	g         *gitRepo
	context   int
	buf       strings.Builder
	files     []definitions.GitFileChange
	added     int
	removed   int
	truncated bool
}

// file adds path's change from a to b.
func (d *differ) file(path string, a, b side) error {
	fc := definitions.GitFileChange{Path: path, Status: "modified"}
	switch {
	case !a.present:
		fc.Status = "added"
	case !b.present:
		fc.Status = "deleted"
	case (a.mode == filemode.Symlink) != (b.mode == filemode.Symlink) || (a.mode == filemode.Submodule) != (b.mode == filemode.Submodule):
		fc.Status = "typechange"
	}
	var text strings.Builder
	fmt.Fprintf(&text, "diff --git a/%s b/%s\n", path, path)
	switch {
	case !a.present:
		fmt.Fprintf(&text, "new file mode %o\n", uint32(b.mode))
	case !b.present:
		fmt.Fprintf(&text, "deleted file mode %o\n", uint32(a.mode))
	case a.mode != b.mode:
		fmt.Fprintf(&text, "old mode %o\nnew mode %o\n", uint32(a.mode), uint32(b.mode))
	}
	switch {
	case d.g.root.IsSecret(path):
		fc.Secret = true
		text.WriteString("Secret file: its content is not shown\n")
	case a.mode == filemode.Submodule || b.mode == filemode.Submodule:
		fmt.Fprintf(&text, "Submodule %s: %s -> %s\n", path, short(a.hash), short(b.hash))
	default:
		old, oldBin, err := d.content(path, a)
		if err != nil {
			return err
		}
		cur, curBin, err := d.content(path, b)
		if err != nil {
			return err
		}
		if oldBin || curBin {
			fc.Binary = true
			fmt.Fprintf(&text, "Binary files %s and %s differ\n", label("a/", path, a), label("b/", path, b))
			break
		}
		u, err := udiff.ToUnifiedDiff(label("a/", path, a), label("b/", path, b), old, udiff.Lines(old, cur), d.context)
		if err != nil {
			return err
		}
		for _, h := range u.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case udiff.Insert:
					fc.Added++
				case udiff.Delete:
					fc.Removed++
				}
			}
		}
		text.WriteString(u.String())
	}
	d.files = append(d.files, fc)
	d.added += fc.Added
	d.removed += fc.Removed
	switch {
	case d.truncated:
	case d.buf.Len()+text.Len() <= gitMaxDiff:
		d.buf.WriteString(text.String())
	default:
		d.truncated = true
		if room := gitMaxDiff - d.buf.Len(); room > 0 {
			s := text.String()[:room]
			if i := strings.LastIndexByte(s, '\n'); i >= 0 {
				d.buf.WriteString(s[:i+1])
			}
		}
	}
	return nil
}

// label names a side in the diff's header: a/path, or /dev/null for a missing one.
func label(prefix, path string, s side) string {
	if !s.present {
		return "/dev/null"
	}
	return prefix + path
}

// short abbreviates a hash as git does by default.
func short(h plumbing.Hash) string { return h.String()[:7] }

// content returns a side's text; binary is true for a file with a NUL byte, over
// gitMaxBlobDiff, or unreadable through the Root.
func (d *differ) content(path string, s side) (text string, binary bool, err error) {
	if !s.present {
		return "", false, nil
	}
	var data []byte
	if s.worktree {
		if s.mode == filemode.Symlink {
			target, err := d.g.root.FS().(fs.ReadLinkFS).ReadLink(path)
			return target + "\n", false, err
		}
		f, err := d.g.root.ReadFile(path)
		if err != nil {
			return "", true, nil // too large, hard-linked, ...: listed without its lines
		}
		data = f.Data
	} else {
		var large bool
		if data, _, large, err = d.g.blob(s.hash, gitMaxBlobDiff); err != nil || large {
			return "", large, err
		}
		if s.mode == filemode.Symlink {
			return string(data) + "\n", false, nil
		}
	}
	if len(data) > gitMaxBlobDiff || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", true, nil
	}
	return string(data), false, nil
}

// sortedKeys returns the union of the keys of maps, sorted.
func sortedKeys[V, W any](a map[string]V, b map[string]W) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// gitCommit describes commit c.
func gitCommit(c *object.Commit) definitions.GitCommit {
	msg := strings.TrimRight(c.Message, "\n")
	subject, body, _ := strings.Cut(msg, "\n")
	gc := definitions.GitCommit{
		Hash: c.Hash.String(), Short: short(c.Hash), Author: c.Author.Name, Email: c.Author.Email,
		Date: c.Author.When.Format("2006-01-02T15:04:05Z07:00"), Subject: strings.TrimSpace(subject),
		Body: strings.Trim(body, "\n"),
	}
	for _, p := range c.ParentHashes {
		gc.Parents = append(gc.Parents, p.String())
	}
	return gc
}
