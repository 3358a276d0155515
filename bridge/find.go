package bridge

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// maxDirEntries caps the entries list_dir returns.
const maxDirEntries = 2000

// Find is the bridge module of the tools that list and find files.
type Find struct{ Deps }

// Library exposes the module's functions to snippets.
func (f *Find) Library() runtime.Library {
	return runtime.Library{Name: LibraryName, Funcs: map[string]lua.LGFunction{
		"list_dir": toolFunc(definitions.ListDir, f.Limits, f.ListDir),
		"glob":     toolFunc(definitions.Glob, f.Limits, f.Glob),
	}}
}

// DirEntry is one entry of list_dir.
type DirEntry struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size int64  `json:"size"`
}

// ListDirResult is the result of list_dir.
type ListDirResult struct {
	Path      string     `json:"path"`
	Entries   []DirEntry `json:"entries"`
	Listing   string     `json:"listing"`
	Truncated bool       `json:"truncated"`
}

// ListDir lists one directory, directories first, with type marks.
func (f *Find) ListDir(_ context.Context, p definitions.ListDirParams) (*ListDirResult, error) {
	for _, pat := range p.IgnorePatterns {
		if !doublestar.ValidatePattern(pat) {
			return nil, definitions.NewError(definitions.ValidationError, "ignore pattern %q is not a valid glob", pat).
				With("field", "ignore_patterns").Hint("Use globs such as *.log or build")
		}
	}
	canon, err := f.Root.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	entries, err := f.Root.ReadDir(canon)
	if err != nil {
		return nil, err
	}
	res := &ListDirResult{Path: canon, Entries: []DirEntry{}}
	for _, e := range entries {
		if security.IsTempName(e.Name()) || ignored(e.Name(), p.IgnorePatterns) {
			continue
		}
		de := DirEntry{Name: e.Name(), Type: entryType(e.Type())}
		if info, err := e.Info(); err == nil && de.Type == "file" {
			de.Size = info.Size()
		}
		res.Entries = append(res.Entries, de)
	}
	slices.SortFunc(res.Entries, func(a, b DirEntry) int {
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
	res.Listing = b.String()
	return res, nil
}

func ignored(name string, patterns []string) bool {
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

// FileInfo describes one file found by glob.
type FileInfo struct {
	Path  string    `json:"path"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
	Type  string    `json:"type"`
}

// GlobResult is the result of glob.
type GlobResult struct {
	Files     []FileInfo `json:"files"`
	Count     int        `json:"count"`
	Truncated bool       `json:"truncated"`
}

// Glob finds the files under path matching any pattern, newest first, never following
// symlinked directories and skipping hidden entries unless asked for (or named by a pattern).
func (f *Find) Glob(ctx context.Context, p definitions.GlobParams) (*GlobResult, error) {
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
	base, err := f.Root.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var files []FileInfo
	for _, pat := range patterns {
		hidden := p.IncludeHidden || namesHidden(pat)
		if err := f.walkGlob(ctx, base, pat, hidden, func(fi FileInfo) {
			if !seen[fi.Path] {
				seen[fi.Path] = true
				files = append(files, fi)
			}
		}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(files, func(a, b FileInfo) int {
		if c := b.MTime.Compare(a.MTime); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	res := &GlobResult{Files: files, Count: len(files)}
	if res.Files == nil {
		res.Files = []FileInfo{}
	}
	if len(files) > p.MaxResults {
		res.Files, res.Truncated = files[:p.MaxResults], true
	}
	return res, nil
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
	for _, seg := range strings.FieldsFunc(pat, func(r rune) bool { return r == '/' || r == ',' || r == '{' || r == '}' }) {
		if seg == ".." {
			return "", bad("contains `..`").Hint("Patterns are relative to the project root and cannot climb out of it; use the path argument for a subdirectory")
		}
	}
	if strings.HasPrefix(pat, "/") {
		rel, err := f.Root.Clean(pat)
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

// walkGlob walks base from the static prefix of pat and reports every file that matches.
func (f *Find) walkGlob(ctx context.Context, base, pat string, hidden bool, found func(FileInfo)) error {
	prefix, _ := doublestar.SplitPattern(pat)
	start := path.Join(base, prefix)
	fsys := f.Root.FS()
	err := fs.WalkDir(fsys, start, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == start {
				return fs.SkipAll // the prefix does not exist: nothing matches
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel := relTo(base, name)
		if d.IsDir() {
			if name != start && skipDir(d.Name(), hidden) {
				return fs.SkipDir
			}
			return nil
		}
		if security.IsTempName(d.Name()) || (!hidden && strings.HasPrefix(d.Name(), ".")) {
			return nil
		}
		if ok, _ := doublestar.Match(pat, rel); !ok {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		found(FileInfo{Path: name, Size: info.Size(), MTime: info.ModTime().UTC(), Type: entryType(d.Type())})
		return nil
	})
	return err
}

// skipDir reports whether a walk leaves out a directory: .git always, hidden ones unless asked.
func skipDir(name string, hidden bool) bool {
	return name == ".git" || (!hidden && strings.HasPrefix(name, "."))
}

// relTo makes name (a path from the root) relative to base.
func relTo(base, name string) string {
	if base == "." {
		return name
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, base), "/")
}
