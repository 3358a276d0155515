package instructions

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeReader serves files from a map and counts the reads.
type fakeReader struct {
	files map[string]string
	reads map[string]int
}

func (f *fakeReader) read(_ context.Context, p string) (string, error) {
	f.reads[p]++
	text, ok := f.files[p]
	if !ok {
		return "", fs.ErrNotExist
	}
	return text, nil
}

func newFake(files map[string]string) *fakeReader {
	return &fakeReader{files: files, reads: map[string]int{}}
}

func TestRootAndNestedFiles(t *testing.T) {
	r := newFake(map[string]string{
		"AGENTS.md":            "Run go test ./... after changes.\n",
		"CLAUDE.md":            "Run go test ./... after changes.\n", // a copy: not repeated
		"web/AGENTS.md":        "Use pnpm, not npm.\n",
		"web/src/ui/GEMINI.md": "Components are function components.",
		"docs/AGENTS.md":       "never loaded: no file of docs/ is touched\n",
	})
	s := New(r.read, 0)
	assert.Empty(t, s.Prompt(), "nothing loaded yet")
	require.True(t, s.LoadRoot(t.Context()))
	assert.False(t, s.LoadRoot(t.Context()), "each directory is read once")

	assert.True(t, s.Touch(t.Context(), "web/src/ui/button.tsx", "./web/src/ui/card.tsx"))
	assert.False(t, s.Touch(t.Context(), "web/src/ui/button.tsx", "README.md"), "nothing new")
	assert.False(t, s.Touch(t.Context(), "../outside/AGENTS.md", "/etc/passwd", `a\b`), "paths outside the root are ignored")
	assert.Equal(t, 1, r.reads["web/AGENTS.md"])
	assert.Zero(t, r.reads["docs/AGENTS.md"])

	assert.Equal(t, []File{
		{Path: "web/src/ui/GEMINI.md", Dir: "web/src/ui", Size: 35, Included: 35},
		{Path: "web/AGENTS.md", Dir: "web", Size: 19, Included: 19},
		{Path: "AGENTS.md", Dir: ".", Size: 33, Included: 33},
		{Path: "CLAUDE.md", Dir: ".", Size: 33, Duplicate: true},
	}, s.Loaded(), "nearest first")

	p := s.Prompt()
	root := strings.Index(p, "## AGENTS.md (applies to the whole project)")
	web := strings.Index(p, "## web/AGENTS.md (applies to web/ and below)\n\nUse pnpm, not npm.\n")
	ui := strings.Index(p, "## web/src/ui/GEMINI.md (applies to web/src/ui/ and below)\n\nComponents are function components.\n")
	require.True(t, root > 0 && web > 0 && ui > 0, p)
	assert.True(t, root < web && web < ui, "from the most general to the most specific")
	assert.NotContains(t, p, "CLAUDE.md", "a copy is not repeated")
	assert.Equal(t, 1, strings.Count(p, "Run go test"))

	d := s.Describe()
	assert.Contains(t, d, "web/AGENTS.md (19 bytes)\n")
	assert.Contains(t, d, "CLAUDE.md (33 bytes, same text as another file: not repeated)\n")
}

func TestBudgetNearestFirst(t *testing.T) {
	root := strings.Repeat("root rule\n", 10) // 100 bytes
	r := newFake(map[string]string{
		"AGENTS.md":       root,
		"a/AGENTS.md":     strings.Repeat("a rule\n", 5), // 35 bytes
		"a/b/AGENTS.md":   strings.Repeat("b rule\n", 5), // 35 bytes
		"z/AGENTS.md":     "z\n",
		"a/b/c/CLAUDE.md": "",
	})
	s := New(r.read, 100)
	s.LoadRoot(t.Context())
	s.Touch(t.Context(), "a/b/c/x.go")
	files := s.Loaded()
	require.Len(t, files, 3, "an empty file is not loaded")
	assert.Equal(t, File{Path: "a/b/AGENTS.md", Dir: "a/b", Size: 35, Included: 35}, files[0])
	assert.Equal(t, File{Path: "a/AGENTS.md", Dir: "a", Size: 35, Included: 35}, files[1])
	assert.Equal(t, File{Path: "AGENTS.md", Dir: ".", Size: 100, Included: 30, Truncated: true}, files[2], "cut at a line")

	p := s.Prompt()
	assert.Contains(t, p, "root rule\nroot rule\nroot rule\n[cut: 30 of 100 bytes shown, as the instructions are limited to 100 bytes; read the rest of AGENTS.md with read_file if you need it]\n")
	assert.Contains(t, s.Describe(), "AGENTS.md (100 bytes, cut to 30 (budget))")

	s = New(r.read, 50)
	s.LoadRoot(t.Context())
	s.Touch(t.Context(), "a/b/c/x.go")
	files = s.Loaded()
	assert.Equal(t, 0, files[2].Included)
	assert.True(t, files[2].Truncated)
	assert.Contains(t, s.Prompt(), "## AGENTS.md (applies to the whole project)\n\n[left out: the instructions are limited to 50 bytes")
	assert.LessOrEqual(t, files[0].Included+files[1].Included, 50)
}

func TestCutAt(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		n          int
		want       string
	}{
		{"fits", "ab\ncd\n", 10, "ab\ncd\n"},
		{"at a line", "ab\ncd\n", 5, "ab\n"},
		{"a line too long for a small budget", "héllo", 2, ""},
		{"one long line, at a rune", strings.Repeat("é", 200), 257, strings.Repeat("é", 128)},
		{"nothing left", "ab", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, cutAt(tc.text, tc.n)) })
	}
}

func TestDraft(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":               {Data: []byte("module github.com/acme/widget\n\ngo 1.24\n")},
		"widget.go":            {Data: []byte("package widget\n")},
		"widget_test.go":       {Data: []byte("package widget\n")},
		"cmd/widget/main.go":   {Data: []byte("package main\n")},
		"internal/x/x.go":      {Data: []byte("package x\n")},
		"node_modules/a/a.js":  {Data: []byte("")},
		".github/workflows/ci": {Data: []byte("")},
	}
	d := Draft(fsys, "fallback")
	assert.Contains(t, d, "# github.com/acme/widget\n")
	assert.Contains(t, d, "## Languages\n\nGo.\n")
	assert.Contains(t, d, "- Build: `go build ./...`\n- Build: `go vet ./...`\n- Test: `go test ./...`")
	assert.Contains(t, d, "## Layout\n\n- `cmd/`\n- `internal/`\n")
	assert.NotContains(t, d, "node_modules")
	assert.NotContains(t, d, ".github")

	d = Draft(fstest.MapFS{
		"package.json":  {Data: []byte(`{"name":"shop","scripts":{"build":"tsc","test":"vitest run"}}`)},
		"tsconfig.json": {Data: []byte("{}")},
		"src/index.ts":  {Data: []byte("")},
	}, "fallback")
	assert.Contains(t, d, "# shop\n")
	assert.Contains(t, d, "TypeScript.")
	assert.Contains(t, d, "- Build: `npm run build`\n- Test: `npm test`")

	d = Draft(fstest.MapFS{"notes.txt": {Data: []byte("hi")}}, "fallback")
	assert.Contains(t, d, "# fallback\n")
	assert.NotContains(t, d, "## Build and test")
}
