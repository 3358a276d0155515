package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/walk"
)

// maxDirEntries caps the entries list_dir returns.
const maxDirEntries = 2000

// Find is the bridge module of the tools that list and find files.
type Find struct{ Deps }

// ListDir lists one directory, directories first, with type marks; entries the ignore
// files exclude are counted, not listed, unless no_ignore.
func (f *Find) ListDir(_ context.Context, p definitions.ListDirParams) (*definitions.ListDirResult, error) {
	if terr := checkGlobs("ignore_patterns", p.IgnorePatterns); terr != nil {
		return nil, terr
	}
	canon, err := f.Store.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	entries, err := f.Store.ReadDir(canon)
	if err != nil {
		return nil, err
	}
	ignoredByGit := func(string, bool) bool { return false }
	if !p.NoIgnore {
		ignoredByGit = f.Walker.Ignored(canon)
	}
	res := &definitions.ListDirResult{Path: canon, Entries: []definitions.DirEntry{}}
	for _, e := range entries {
		if security.IsTempName(e.Name()) || matchesAny(p.IgnorePatterns, e.Name()) {
			continue
		}
		if e.Name() == ".git" || ignoredByGit(e.Name(), e.IsDir()) {
			res.Ignored++
			continue
		}
		de := definitions.DirEntry{Name: e.Name(), Type: entryType(e.Type())}
		if info, err := e.Info(); err == nil && de.Type == "file" {
			de.Size = info.Size()
		}
		res.Entries = append(res.Entries, de)
	}
	slices.SortFunc(res.Entries, func(a, b definitions.DirEntry) int {
		if (a.Type == "dir") != (b.Type == "dir") {
			if a.Type == "dir" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	if len(res.Entries) > maxDirEntries {
		res.Entries, res.Truncated = res.Entries[:maxDirEntries], true
	}
	var b strings.Builder
	for _, e := range res.Entries {
		b.WriteString(e.Name + typeMark(e.Type) + "\n")
	}
	if res.Ignored > 0 {
		fmt.Fprintf(&b, "(%d ignored by .gitignore or .jidoignore; no_ignore lists them)\n", res.Ignored)
	}
	res.Listing = b.String()
	return res, nil
}

// checkGlobs validates glob arguments.
func checkGlobs(field string, patterns []string) *definitions.ToolError {
	for _, pat := range patterns {
		bad := func(why string) *definitions.ToolError {
			return definitions.NewError(definitions.ValidationError, "%s: %q %s", field, pat, why).
				With("field", field).Hint("Use globs relative to the project root, such as *.log, build or src/**/*.ts")
		}
		if !doublestar.ValidatePattern(pat) {
			return bad("is not a valid glob")
		}
		if strings.HasPrefix(pat, "/") || slices.Contains(globSegments(pat), "..") {
			return bad("reaches outside the project root (an absolute path or a `..` segment): it would match nothing")
		}
	}
	return nil
}

// globSegments splits a glob into its path segments, alternatives included.
func globSegments(pat string) []string {
	return strings.FieldsFunc(pat, func(r rune) bool { return r == '/' || r == ',' || r == '{' || r == '}' })
}

// matchesAny reports whether name matches one of the (validated) globs.
func matchesAny(patterns []string, name string) bool {
	for _, pat := range patterns {
		if ok, _ := doublestar.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// entryType names a file type for results.
func entryType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

func typeMark(typ string) string {
	switch typ {
	case "dir":
		return "/"
	case "symlink":
		return "@"
	case "other":
		return "|"
	}
	return ""
}

// fileInfo converts a walk entry; a directory's size is 0 (what the file system reports
// for it says nothing useful).
func fileInfo(e walk.Entry) definitions.FileInfo {
	fi := definitions.FileInfo{Path: e.Path, Size: e.Info.Size, MTime: e.Info.ModTime.UTC(), Type: entryType(e.Type)}
	if e.Type.IsDir() {
		fi.Size = 0
	}
	return fi
}

// maxCollected bounds the entries a listing holds before sorting, so that a huge tree
// costs bounded memory; beyond it the result is marked truncated.
const maxCollected = 200_000

// blockLen is the number of entries of one block of a collector.
const blockLen = 1024

// collector gathers walk entries from the walk's goroutines, in blocks that are never
// copied as they fill (a growing slice of ten thousand entries is reallocated and copied
// some twenty times).
type collector struct {
	mu        sync.Mutex
	blocks    [][]definitions.FileInfo
	n         int
	seen      map[string]bool // paths already collected (several glob patterns)
	truncated bool
}

// add records an entry; it stops the walk at maxCollected.
func (c *collector) add(e walk.Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen != nil {
		if c.seen[e.Path] {
			return nil
		}
		c.seen[e.Path] = true
	}
	if c.n >= maxCollected {
		c.truncated = true
		return walk.Stop
	}
	if c.n%blockLen == 0 {
		c.blocks = append(c.blocks, make([]definitions.FileInfo, 0, blockLen))
	}
	last := &c.blocks[len(c.blocks)-1]
	*last = append(*last, fileInfo(e))
	c.n++
	return nil
}

// result sorts the files with cmp (through pointers: an entry is 64 bytes) and copies the
// first limit into the list.
func (c *collector) result(limit int, cmp func(a, b *definitions.FileInfo) int) *definitions.FileList {
	order := make([]*definitions.FileInfo, 0, c.n)
	for _, b := range c.blocks {
		for i := range b {
			order = append(order, &b[i])
		}
	}
	slices.SortFunc(order, cmp)
	res := &definitions.FileList{Count: c.n, Truncated: c.truncated || c.n > limit}
	res.Files = make([]definitions.FileInfo, min(c.n, limit))
	for i := range res.Files {
		res.Files[i] = *order[i]
	}
	return res
}

func byPath(a, b *definitions.FileInfo) int { return strings.Compare(a.Path, b.Path) }

func newestFirst(a, b *definitions.FileInfo) int {
	if c := b.MTime.Compare(a.MTime); c != 0 {
		return c
	}
	return strings.Compare(a.Path, b.Path)
}

// ListFiles lists a directory recursively, with git's ignore rules, sorted by path.
func (f *Find) ListFiles(ctx context.Context, p definitions.ListFilesParams) (*definitions.FileList, error) {
	dir, err := f.directory(p.Directory)
	if err != nil {
		return nil, err
	}
	var c collector
	opts := walk.Options{
		Hidden: p.IncludeHidden, NoIgnore: p.NoIgnore, MaxDepth: p.MaxDepth,
		FollowSymlinks: p.FollowSymlinks, Dirs: true, Stat: true,
	}
	if _, err := f.Walker.Walk(ctx, dir, opts, c.add); err != nil {
		return nil, err
	}
	return c.result(p.MaxResults, byPath), nil
}

// directory resolves a directory argument.
func (f *Find) directory(name string) (string, error) {
	info, err := f.Store.Stat(name)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", &fs.PathError{Op: "list", Path: name, Err: security.ErrNotDir}
	}
	return f.Store.Resolve(name)
}

// Glob finds the files under path matching any pattern, newest first, with git's ignore
// rules, never following symlinks and skipping hidden entries unless asked for (or named
// by a pattern).
func (f *Find) Glob(ctx context.Context, p definitions.GlobParams) (*definitions.FileList, error) {
	patterns := p.Patterns
	if p.Pattern != "" {
		patterns = append([]string{p.Pattern}, patterns...)
	}
	if len(patterns) == 0 {
		return nil, definitions.NewError(definitions.ValidationError, "glob: give `pattern` or `patterns`").
			With("field", "pattern").Hint("Pass a glob such as **/*.go")
	}
	for i, pat := range patterns {
		clean, terr := f.checkPattern(pat)
		if terr != nil {
			return nil, terr
		}
		patterns[i] = clean
	}
	base, err := f.directory(p.Path)
	if err != nil {
		return nil, err
	}
	var c collector
	if len(patterns) > 1 {
		c.seen = map[string]bool{} // a file may match several patterns
	}
	for _, pat := range patterns {
		if err := f.walkGlob(ctx, base, pat, p.IncludeHidden || namesHidden(pat), &c); err != nil {
			return nil, err
		}
	}
	return c.result(p.MaxResults, newestFirst), nil
}

// checkPattern validates a glob: well formed, no `..` segment in any alternative, and an
// absolute pattern only inside the root (it is made relative).
func (f *Find) checkPattern(pat string) (string, *definitions.ToolError) {
	bad := func(why string) *definitions.ToolError {
		return definitions.NewError(definitions.ValidationError, "glob pattern %q %s", pat, why).With("field", "pattern")
	}
	if !doublestar.ValidatePattern(pat) {
		return "", bad("is not a valid glob").Hint("Check brackets and braces, e.g. **/*.{go,md}")
	}
	for _, seg := range globSegments(pat) {
		if seg == ".." {
			return "", bad("contains `..`").Hint("Patterns are relative to the project root and cannot climb out of it; use the path argument for a subdirectory")
		}
	}
	if strings.HasPrefix(pat, "/") {
		rel, err := f.Store.Clean(pat)
		if err != nil {
			return "", bad("is outside the project root").Hint("Use a pattern relative to the project root")
		}
		return rel, nil
	}
	return pat, nil
}

// namesHidden reports whether a pattern names a hidden entry explicitly (a segment starting with a dot).
func namesHidden(pat string) bool {
	for _, seg := range strings.Split(pat, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." {
			return true
		}
	}
	return false
}

// walkGlob walks base from the fixed prefix of pat (which the pattern names, so it is
// entered even when ignored) and collects the non-directories that match, stat'ing only them.
func (f *Find) walkGlob(ctx context.Context, base, pat string, hidden bool, c *collector) error {
	prefix, rest := doublestar.SplitPattern(pat)
	start, err := f.Store.Resolve(path.Join(base, prefix))
	if err != nil {
		return nil // a prefix outside the tree or through a bad link matches nothing
	}
	if info, err := f.Store.Lstat(start); err != nil || !info.IsDir() {
		return nil
	}
	depth := 0
	if !strings.Contains(rest, "**") {
		depth = strings.Count(rest, "/") + 1
	}
	match := globMatcher(pat)
	opts := walk.Options{
		Hidden: hidden, MaxDepth: depth, Stat: true,
		Match: func(p string, typ fs.FileMode) bool { return !typ.IsDir() && match(relTo(base, p)) },
	}
	_, err = f.Walker.Walk(ctx, start, opts, c.add)
	return err
}

// globMatcher returns the matcher of a validated glob against paths relative to its base.
// `**` matches every path, `**/*SUFFIX` (SUFFIX literal, without a slash) is a suffix
// test, and `**/NAME` (NAME without a slash) is matched on the last segment only: the
// common patterns cost no doublestar call, or one on a short name.
func globMatcher(pat string) func(rel string) bool {
	name, anyDir := strings.CutPrefix(pat, "**/")
	suffix, star := strings.CutPrefix(name, "*")
	switch {
	case pat == "**":
		return func(string) bool { return true }
	case !anyDir || name == "**" || strings.Contains(name, "/"):
		return func(rel string) bool { ok, _ := doublestar.Match(pat, rel); return ok }
	case star && !strings.ContainsAny(suffix, `*?[]{}\`):
		return func(rel string) bool { return strings.HasSuffix(rel, suffix) }
	}
	return func(rel string) bool { ok, _ := doublestar.Match(name, path.Base(rel)); return ok }
}

// relTo makes name (a path from the root) relative to base.
func relTo(base, name string) string {
	if base == "." {
		return name
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, base), "/")
}

// FileExists reports whether a path exists in the root, following in-root symlinks.
func (f *Find) FileExists(_ context.Context, p definitions.FileExistsParams) (*definitions.FileExistsResult, error) {
	info, err := f.Store.Stat(p.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return &definitions.FileExistsResult{Path: p.Path, Exists: false}, nil
	}
	if err != nil {
		return nil, err
	}
	canon, err := f.Store.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	mtime := info.ModTime().UTC()
	return &definitions.FileExistsResult{Path: canon, Exists: true, Type: entryType(info.Mode()), Size: info.Size(), MTime: &mtime}, nil
}
