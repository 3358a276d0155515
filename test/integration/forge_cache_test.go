package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForgeWorktreesShareTheBuildCache: the commands of every task's worktree use the
// repository's private Go build cache, one for all of them, not a cold one per worktree.
func TestForgeWorktreesShareTheBuildCache(t *testing.T) {
	dir := forgeRepo(t)
	cacheOf := func(id string) openaitest.Step {
		file := strings.ToLower(id) + ".txt"
		return calls(
			"bash", `{"command":"echo $GOCACHE > `+file+`"}`,
			"emit_walkthrough", `{"walkthrough":{"summary":"wrote `+file+`","filesTouched":["`+file+`"]}}`,
		)
	}
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-":  planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]},{"id":"B","dependencies":[]}]}}`, taskDoc("A"), taskDoc("B")),
		"type1:A":    {cacheOf("A"), answer("A done.")},
		"type1:B":    {cacheOf("B"), answer("B done.")},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/1"],"targetBranch":"main"}`), answer("Merged.")},
	})
	require.Equal(t, 0, forge(t, model, "plan", "two tasks").code)
	r := forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return strings.TrimSpace(string(data))
	}
	a, b := read("a.txt"), read("b.txt")
	assert.NotEmpty(t, a)
	assert.Equal(t, a, b, "both worktrees build into one cache")
	assert.NotContains(t, a, "forge-worktrees", "the cache is outside the worktrees")
}
