package integration

import (
	"strings"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrackedFilesAreNeverHidden: git never ignores a file it tracks, so neither do the
// tools that list and search the tree. A committed fixture.log and build/keep.txt, which
// .gitignore's *.log and build/ match, are listed, globbed and searched; the untracked
// files the same rules match are not, and a .jidoignore still hides a tracked file.
func TestTrackedFilesAreNeverHidden(t *testing.T) {
	testenv.Program(t, "git")
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":      "*.log\nbuild/\n",
		"fixture.log":     "needle in a committed log\n",
		"debug.log":       "needle in an ignored log\n",
		"build/keep.txt":  "needle kept in an ignored directory\n",
		"build/other.txt": "needle in an ignored directory\n",
		"main.go":         "package main // needle\n",
		"private.log":     "needle committed, hidden by .jidoignore\n",
		".jidoignore":     "private.log\n",
	})
	gitOut(t, root, "init", "-q")
	gitOut(t, root, "add", "-f", ".gitignore", "fixture.log", "build/keep.txt", "main.go", "private.log")
	gitOut(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "files")

	listed := []string{"fixture.log", "build/keep.txt", "main.go"}
	hidden := []string{"debug.log", "build/other.txt", "private.log"}
	cases := []struct {
		tool, args string
		listed     []string // the listed files the call reports
	}{
		{"list_files", `{}`, listed},
		{"glob", `{"pattern":"**/*.log"}`, []string{"fixture.log"}},
		{"glob", `{"pattern":"**/*.txt"}`, []string{"build/keep.txt"}},
		{"search", `{"query":"needle"}`, listed},
		{"search", `{"query":"needle","output_mode":"files_with_matches"}`, listed},
	}
	for _, tc := range cases {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			r := runJido(t, "", "call", "--root", root, tc.tool, tc.args)
			require.Equal(t, 0, r.code, "stdout %s stderr %s", r.stdout, r.stderr)
			paths := resultPaths(t, r.stdout)
			for _, f := range tc.listed {
				assert.Contains(t, paths, f)
			}
			for _, f := range hidden {
				assert.NotContains(t, paths, f)
			}
		})
	}

	r := runJido(t, "", "call", "--root", root, "list_dir", `{}`)
	require.Equal(t, 0, r.code, r.stderr)
	res := decodeJSON(t, r.stdout)["result"].(map[string]any)
	assert.Contains(t, res["listing"], "fixture.log\n")
	assert.Contains(t, res["listing"], "build/\n", "build holds a tracked file")
	assert.EqualValues(t, 3, res["ignored"], ".git, debug.log and private.log: %v", res)
}

// resultPaths returns every "path" of a tool result (files, matches).
func resultPaths(t *testing.T, stdout string) []string {
	t.Helper()
	res := decodeJSON(t, stdout)["result"].(map[string]any)
	var paths []string
	for _, key := range []string{"files", "matches"} {
		items, _ := res[key].([]any)
		for _, it := range items {
			switch v := it.(type) {
			case map[string]any:
				paths = append(paths, v["path"].(string))
			case string:
				paths = append(paths, v)
			}
		}
	}
	require.NotEmpty(t, paths, "no paths in %s", strings.TrimSpace(stdout))
	return paths
}
