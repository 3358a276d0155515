package offline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/manager"
)

// The plans of issue 21 whose results need more than the tool's plain output (a line
// count, the largest or newest files, the last lines, a bare name found first), and the
// searches whose query is a generated regex, against a real session.
func TestHintsWithRealSession(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for name, content := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.26\n",
		"main.go":         "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { lib.Lib() }\n",
		"lib/lib.go":      "package lib\n\n// Lib does it.\nfunc Lib() {}\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestLib(t *testing.T) { Lib() }\n",
		"docs/notes.txt":  "one\ntwo\nthree\nfour\nfive\n",
		"big.txt":         string(make([]byte, 5000)),
	} {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		require.NoError(t, os.Chtimes(p, old, old))
	}
	require.NoError(t, os.Chtimes(filepath.Join(root, "docs/notes.txt"), time.Now(), time.Now()))
	m, err := manager.New(manager.Config{Root: root, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	var offered []agent.ToolSpec
	for _, tool := range s.Tools() {
		offered = append(offered, agent.ToolSpec{Name: tool.Name})
	}
	c := &conversation{t: t, p: New(&interpret.Interpreter{Tools: s.Tools()}), tools: offered, exec: sessionExecutor(t, s)}

	steps := []struct {
		query string
		want  []string
		not   []string
	}{
		{query: "how many lines in main.go", want: []string{"main.go has 5 lines (68 bytes)."}, not: []string{"package main"}},
		{query: "wc -l docs/notes.txt", want: []string{"docs/notes.txt has 5 lines"}},
		{query: "tail -n 2 docs/notes.txt", want: []string{"docs/notes.txt (lines 4-5 of 5)", "     4\tfour\n     5\tfive"}, not: []string{"three"}},
		{query: "the last line of docs/notes.txt", want: []string{"     5\tfive"}, not: []string{"four"}},
		{query: "how many lines in notes", want: []string{"docs/notes.txt has 5 lines"}},
		{query: "first 2 lines of notes", want: []string{"     1\tone\n     2\ttwo"}, not: []string{"three"}},
		{query: "last 2 lines of notes", want: []string{"     4\tfour\n     5\tfive"}, not: []string{"three"}},
		{query: "read nothere", want: []string{"No file is named nothere."}},
		{query: "read lib", want: []string{"lib/lib.go (4 lines)"}},
		{query: "largest files", want: []string{"largest files under ., largest first:", "4.9 KB  big.txt"}},
		{query: "show me the 1 largest files", want: []string{"big.txt"}, not: []string{"main.go"}},
		{query: "newest files", want: []string{"changed most recently, newest first:", "  docs/notes.txt\n"}},
		{query: "where is Lib defined", want: []string{"lib/lib.go:4: func Lib() {}", "1 match for the declarations of Lib"}, not: []string{"main.go"}},
		{query: "who calls Lib", want: []string{"main.go:5:", "lib/lib_test.go:5:", "for the calls of Lib"}},
		{query: "what tests are there", want: []string{"lib/lib_test.go:5: func TestLib", "1 match for the test declarations"}},
	}
	for _, st := range steps {
		text := c.ask(st.query)
		for _, w := range st.want {
			assert.Contains(t, text, w, st.query)
		}
		for _, n := range st.not {
			assert.NotContains(t, text, n, st.query)
		}
	}
}

func TestHintsWithCannedResults(t *testing.T) {
	mtime := time.Date(2026, 11, 27, 10, 30, 0, 0, time.Local)
	cases := []struct {
		name   string
		query  string
		result agent.ToolResult
		want   []string
	}{
		{
			name: "several files of a bare name", query: "read client",
			result: ok(map[string]any{"files": []map[string]any{{"path": "a/client.go", "type": "file"}, {"path": "b/client.py", "type": "file"}}, "count": 2}),
			want:   []string{"2 files are named client; say which one:\na/client.go\nb/client.py"},
		},
		{
			name: "newest", query: "newest files",
			result: ok(map[string]any{"files": []map[string]any{{"path": "x.go", "type": "file", "mtime": mtime}}, "count": 1}),
			want:   []string{"The 1 file changed most recently, newest first:\n2026-11-27 10:30  x.go"},
		},
		{
			name: "git status", query: "git status",
			result: ok(map[string]any{"branch": "main", "entries": []map[string]any{{"path": "a.go", "worktree": "modified"}, {"path": "b.go", "index": "added"}}, "staged": 1, "unstaged": 1}),
			want:   []string{"On branch main: 1 staged, 1 unstaged, 0 untracked.\na.go: modified\nb.go: added (staged)"},
		},
		{
			name: "git status, clean", query: "is the working tree clean",
			result: ok(map[string]any{"branch": "main", "entries": []any{}, "clean": true}),
			want:   []string{"On branch main: nothing changed"},
		},
		{
			name: "git diff", query: "what did I change",
			result: ok(map[string]any{"from": "0123456789012345678901234567890123456789", "to": "worktree", "diff": "--- a/a.go\n+++ b/a.go\n", "files": []map[string]any{{"path": "a.go", "status": "modified", "added": 1}}, "added": 1}),
			want:   []string{"1 file changed, +1 -0 (0123456 to worktree):\n--- a/a.go"},
		},
		{
			name: "git log", query: "git log -1",
			result: ok(map[string]any{"commits": []map[string]any{{"hash": "h", "short": "abc1234", "author": "Ann", "date": "2026-11-26T09:00:00Z", "subject": "Fix it"}}, "count": 1, "more": true}),
			want:   []string{"abc1234 2026-11-26 Ann: Fix it", "older commits exist"},
		},
		{
			name: "git show", query: "show the last commit",
			result: ok(map[string]any{"commit": map[string]any{"hash": "h1", "short": "h1", "author": "Ann", "email": "a@x", "date": "2026-11-26T09:00:00Z", "subject": "Fix it"}, "diff": "+x\n"}),
			want:   []string{"commit h1\nAuthor: Ann <a@x>", "    Fix it\n+x"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &conversation{t: t, p: New(nil), tools: specs(), exec: func(agent.ToolCall) agent.ToolResult { return tc.result }}
			text := c.ask(tc.query)
			for _, w := range tc.want {
				assert.Contains(t, text, w)
			}
		})
	}
}
