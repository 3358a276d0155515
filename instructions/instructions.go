// Package instructions loads a project's instruction files for the model (AGENTS.md, and
// CLAUDE.md and GEMINI.md where a project has them): the root's, and those of the
// directories of the files a conversation touches, within a size budget, nearest first.
// It reads nothing itself: the caller gives it a ReadFunc, which reads through the
// session's confined file access (and redacts secrets as tool results are redacted).
// It also drafts an AGENTS.md for a project that has none (Draft).
package instructions

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Names are the instruction files looked for in each directory, in this order.
var Names = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// minCut is the least of a line cutAt keeps.
const minCut = 256

// DefaultBudget is the most bytes of instructions put in the system prompt.
const DefaultBudget = 32 << 10

// ReadFunc reads the project file at path (root-relative, slash-separated, such as
// "web/AGENTS.md"). Any error means the file is not loaded: missing, denied, unreadable.
type ReadFunc func(ctx context.Context, path string) (string, error)

// File is an instruction file as loaded.
type File struct {
	Path      string `json:"path"`      // root-relative
	Dir       string `json:"dir"`       // the directory it applies to ("." for the whole project)
	Size      int    `json:"size"`      // bytes read
	Included  int    `json:"included"`  // bytes of it in the prompt (< Size when cut to the budget)
	Truncated bool   `json:"truncated"` // cut to fit the budget (left out when Included is 0)
	Duplicate bool   `json:"duplicate"` // the same text as a nearer file: not repeated
}

// Set is the instruction files of one conversation. It is safe for concurrent use.
type Set struct {
	read   ReadFunc
	budget int

	mu    sync.Mutex
	dirs  map[string]bool   // directories looked into
	texts map[string]string // path -> content, of the files found
}

// New returns a Set reading with read and keeping to budget bytes (0: DefaultBudget).
func New(read ReadFunc, budget int) *Set {
	if budget <= 0 {
		budget = DefaultBudget
	}
	return &Set{read: read, budget: budget, dirs: map[string]bool{}, texts: map[string]string{}}
}

// LoadRoot reads the instruction files of the project root. It reports whether it found
// any new one.
func (s *Set) LoadRoot(ctx context.Context) bool { return s.loadDir(ctx, ".") }

// Touch reads the instruction files of the directories of paths (root-relative files a
// conversation read or changed) and of every directory between them and the root, each
// directory once. Paths that are absolute or leave the root are ignored. It reports
// whether it found any new file, which means the prompt changed.
func (s *Set) Touch(ctx context.Context, paths ...string) bool {
	found := false
	for _, p := range paths {
		p = path.Clean(strings.TrimPrefix(p, "./"))
		if p == "" || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsRune(p, '\\') {
			continue
		}
		for dir := path.Dir(p); ; dir = path.Dir(dir) {
			found = s.loadDir(ctx, dir) || found
			if dir == "." {
				break
			}
		}
	}
	return found
}

// loadDir reads the instruction files of dir unless it did already.
func (s *Set) loadDir(ctx context.Context, dir string) bool {
	s.mu.Lock()
	seen := s.dirs[dir]
	s.dirs[dir] = true
	s.mu.Unlock()
	if seen {
		return false
	}
	found := false
	for _, name := range Names {
		text, err := s.read(ctx, path.Join(dir, name))
		if err != nil || strings.TrimSpace(text) == "" {
			continue
		}
		s.mu.Lock()
		s.texts[path.Join(dir, name)] = text
		s.mu.Unlock()
		found = true
	}
	return found
}

// order is the files found, nearest first: the deepest directories first (their
// instructions are the most specific), in each directory in the order of Names.
func (s *Set) order() []string {
	var paths []string
	for p := range s.texts {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int {
		if da, db := depth(path.Dir(a)), depth(path.Dir(b)); da != db {
			return db - da
		}
		if c := strings.Compare(path.Dir(a), path.Dir(b)); c != 0 {
			return c
		}
		return slices.Index(Names, path.Base(a)) - slices.Index(Names, path.Base(b))
	})
	return paths
}

func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// plan decides how much of each file goes in the prompt: nearest first, each file whole
// while the budget lasts, the one that crosses it cut at a line, the rest left out. A file
// whose text an included one already gives (CLAUDE.md a copy of AGENTS.md) is not repeated.
func (s *Set) plan() (files []File, texts []string) {
	left := s.budget
	given := map[string]bool{}
	for _, p := range s.order() {
		text := s.texts[p]
		f := File{Path: p, Dir: path.Dir(p), Size: len(text)}
		key := strings.TrimSpace(text)
		switch {
		case given[key]:
			f.Duplicate, text = true, ""
		case len(text) <= left:
			f.Included = len(text)
		default:
			text = cutAt(text, left)
			f.Included, f.Truncated = len(text), true
		}
		left -= f.Included
		if f.Included > 0 {
			given[key] = true
		}
		files = append(files, f)
		texts = append(texts, text)
	}
	return files, texts
}

// cutAt returns the longest prefix of text within n bytes that ends at a line; when no
// line fits, a prefix ending at a rune if n is at least minCut bytes, else nothing (a few
// bytes of a line would only mislead).
func cutAt(text string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(text) <= n {
		return text
	}
	cut := text[:n]
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		return cut[:i+1]
	}
	if n < minCut {
		return ""
	}
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut
}

// Loaded lists the instruction files found, nearest first, with how much of each is in
// the prompt: what a chat's /context shows.
func (s *Set) Loaded() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	files, _ := s.plan()
	return files
}

// Prompt is the part of the system prompt that holds the instructions, "" when there are
// none. The files appear from the most general (the root's) to the most specific, each
// under a heading saying where it applies; a file cut to the budget ends with a note.
func (s *Set) Prompt() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	files, texts := s.plan()
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n# Project instructions\n\nThe project's instruction files follow, from the most general to the most specific; where they disagree, the more specific (deeper) file wins. Follow them unless the user says otherwise.\n")
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		scope := "the whole project"
		if f.Dir != "." {
			scope = f.Dir + "/ and below"
		}
		switch {
		case f.Duplicate:
			continue
		case f.Included == 0:
			fmt.Fprintf(&b, "\n## %s (applies to %s)\n\n[left out: the instructions are limited to %d bytes; read the file with read_file if you need it]\n", f.Path, scope, s.budget)
			continue
		}
		fmt.Fprintf(&b, "\n## %s (applies to %s)\n\n%s", f.Path, scope, texts[i])
		if !strings.HasSuffix(texts[i], "\n") {
			b.WriteString("\n")
		}
		if f.Truncated {
			fmt.Fprintf(&b, "[cut: %d of %d bytes shown, as the instructions are limited to %d bytes; read the rest of %s with read_file if you need it]\n", f.Included, f.Size, s.budget, f.Path)
		}
	}
	return b.String()
}

// Describe is the list of loaded files for people, one line each, for a chat's /context.
func (s *Set) Describe() string {
	files := s.Loaded()
	if len(files) == 0 {
		return "no instruction files (AGENTS.md, CLAUDE.md, GEMINI.md) loaded: /init drafts an AGENTS.md\n"
	}
	var b strings.Builder
	for _, f := range files {
		state := fmt.Sprintf("%d bytes", f.Size)
		switch {
		case f.Duplicate:
			state += ", same text as another file: not repeated"
		case f.Included == 0:
			state += ", left out (budget)"
		case f.Truncated:
			state += fmt.Sprintf(", cut to %d (budget)", f.Included)
		}
		fmt.Fprintf(&b, "%s (%s)\n", f.Path, state)
	}
	return b.String()
}
