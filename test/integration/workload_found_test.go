package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bugs the workload suite ran into, each shown on its own, small.

// TestCommandOutputsStayOutOfGitStatus: the full output of a command (and a test run's
// report) that jido keeps in .jido/output/ is jido's, not the project's: git status stays
// clean, so that an agent's `git add -A` or commit does not take it.
func TestCommandOutputsStayOutOfGitStatus(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "a\n"})
	gitInit(t, dir)
	r := runJidoIn(t, dir, nil, "", "call", "--yes", "run_shell", `{"command":"seq 100000","max_output":100}`)
	require.Equal(t, 0, r.code, r.stdout)
	res := decodeJSON(t, r.stdout)["result"].(map[string]any)
	require.NotEmpty(t, res["output_files"], "the whole output went to a file: %v", res)
	for _, path := range res["output_files"].(map[string]any) {
		assert.FileExists(t, filepath.Join(dir, path.(string)))
	}
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain"))
	r = runJidoIn(t, dir, nil, "", "call", "git_status", `{}`)
	assert.Equal(t, true, decodeJSON(t, r.stdout)["result"].(map[string]any)["clean"], r.stdout)
}

// TestNamedSessionUndoesItsLastChange: a session named with --session goes on across
// processes (what it read, its approvals); its undo takes back the change it made in the
// process before, through jido call and through jido eval.
func TestNamedSessionUndoesItsLastChange(t *testing.T) {
	for name, undo := range map[string][]string{
		"call": {"call", "--session", "s", "--yes", "undo", "{}"},
		"eval": {"eval", "--session", "s", "--yes", "-e", "local r, e = jido.undo{} if not r then error(e.message) end return r"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			env := []string{"XDG_STATE_HOME=" + t.TempDir()}
			r := runJidoIn(t, dir, env, "", "call", "--session", "s", "--yes", "write_file", `{"path":"a.txt","content":"new\n"}`)
			require.Equal(t, 0, r.code, r.stdout)
			r = runJidoIn(t, dir, env, "", undo...)
			assert.Equal(t, 0, r.code, "%s%s", r.stdout, r.stderr)
			_, err := os.Stat(filepath.Join(dir, "a.txt"))
			assert.ErrorIs(t, err, os.ErrNotExist, "the session's write is undone")
		})
	}
}

// TestAssertKeepsTheToolError: `assert(jido.read_file{...})`, the README's idiom, fails
// with the tool's error (its type and message), as error(e) does, not with a complaint
// about assert's argument.
func TestAssertKeepsTheToolError(t *testing.T) {
	r := runJidoIn(t, t.TempDir(), nil, "", "eval", "-e", `return assert(jido.read_file{path="missing.txt"})`)
	assert.Equal(t, 1, r.code)
	e, _ := decodeJSON(t, r.stdout)["error"].(map[string]any)
	assert.Equal(t, "file-error", e["type"], r.stdout)
	assert.Contains(t, e["message"], "missing.txt", r.stdout)
}

// TestForgeAgentsGitToolsWork: a Forge agent's role offers git_status and git_diff, and
// they work in the agent's worktree (a linked worktree of the project's repository, whose
// .git is a file), showing the agent's own change.
func TestForgeAgentsGitToolsWork(t *testing.T) {
	dir := forgeRepo(t)
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-": planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]}]}}`, taskDoc("A")),
		"type1:A": {
			calls("read", `{"path":"README.md"}`, "write", `{"path":"README.md","content":"# project, changed\n"}`, "git_status", `{}`, "git_diff", `{}`),
			workStep("A"), answer("A done."),
		},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/1"],"targetBranch":"main"}`), answer("Merged.")},
	})
	require.Equal(t, 0, forge(t, model, "plan", "one task").code)
	r := forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	r = forge(t, model, "events")
	found := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e struct {
			Event, Tool string
			OK          bool
			Result      map[string]any
			Error       map[string]any
		}
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		if e.Event != "tool.result" || (e.Tool != "git_status" && e.Tool != "git_diff") {
			continue
		}
		found++
		assert.True(t, e.OK, "%s works in the agent's worktree: %v", e.Tool, e.Error)
		assert.Contains(t, fmt.Sprint(e.Result), "README.md", "%s shows the agent's change", e.Tool)
	}
	assert.Equal(t, 2, found, "both calls ran")
}
