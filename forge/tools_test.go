package forge

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newForge opens a new run of a fresh git repository with one commit.
func newForge(t *testing.T) *Forge {
	testenv.Program(t, "git")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("# p\n"), 0o644))
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	f, err := Open(Config{Repo: dir}, "", true)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// call runs the tool named name of tools with args.
func call(t *testing.T, tools []*builtin.Tool, name string, args map[string]any) (any, *definitions.ToolError) {
	t.Helper()
	i := slices.IndexFunc(tools, func(tool *builtin.Tool) bool { return tool.Def.Name == name })
	require.GreaterOrEqual(t, i, 0, "the role has %s", name)
	return tools[i].Run(t.Context(), builtin.Deps{}, args)
}

// TestToolsPerRole: each role gets exactly seed 002's Forge tools for it.
func TestToolsPerRole(t *testing.T) {
	f := newForge(t)
	for role, want := range profile.Forge.Provided {
		var got []string
		for _, tool := range (&scope{f: f, role: role}).Tools() {
			got = append(got, tool.Def.Name)
		}
		assert.ElementsMatch(t, want, got, role)
	}
}

// TestToolRefusals: the Executor's and the Refinery's tools refuse what the run does not
// allow, with structured errors.
func TestToolRefusals(t *testing.T) {
	f := newForge(t)
	captain := (&scope{f: f, role: "captain", dir: f.repo.Dir()}).Tools()
	_, terr := call(t, captain, "create_task", map[string]any{"taskId": "A", "content": "---\nid: A\ntype: 1\n---\nDo A.\n"})
	require.Nil(t, terr)
	_, terr = call(t, captain, "create_task", map[string]any{"taskId": "../A", "content": "---\nid: ../A\ntype: 1\n---\n"})
	require.NotNil(t, terr)
	assert.Equal(t, definitions.ValidationError, terr.Type)

	exec := (&scope{f: f, role: "executor", dir: f.repo.Dir()}).Tools()
	_, terr = call(t, exec, "mark_task_status", map[string]any{"taskId": "A", "status": "DONE"})
	require.NotNil(t, terr, "PENDING cannot go to DONE")
	assert.Equal(t, definitions.ConflictError, terr.Type)
	res, terr := call(t, exec, "mark_task_status", map[string]any{"taskId": "A", "status": "RUNNING"})
	require.Nil(t, terr)
	assert.Equal(t, &MarkTaskStatusResult{Success: true, PreviousStatus: "PENDING"}, res)
	_, terr = call(t, exec, "mark_task_status", map[string]any{"taskId": "A", "status": "WAITING"})
	assert.Equal(t, definitions.ValidationError, terr.Type, "not a state")

	for _, typ := range []any{"captain", "executor", 4.0, "x"} {
		_, terr = call(t, exec, "spawn_agent", map[string]any{"type": typ, "taskId": "A"})
		require.NotNil(t, terr, "%v", typ)
		assert.Equal(t, definitions.ValidationError, terr.Type, "%v", typ)
	}
	_, terr = call(t, exec, "prepare_branch", map[string]any{"taskId": "../A", "attemptId": 1})
	assert.NotNil(t, terr)

	type2 := (&scope{f: f, role: "type2", taskID: "A", attempt: 1, dir: f.repo.Dir()}).Tools()
	_, terr = call(t, type2, "spawn_agent", map[string]any{"type": "refinery", "taskId": "A"})
	require.NotNil(t, terr)
	assert.Equal(t, definitions.PermissionError, terr.Type)

	refinery := (&scope{f: f, role: "refinery", dir: f.repo.Dir()}).Tools()
	for _, file := range []string{"../x", "/etc/passwd", "a/../../x"} {
		_, terr = call(t, refinery, "fix_conflict", map[string]any{"conflictFiles": []any{file}, "sourceBranch": "forge/A/1", "targetBranch": "main"})
		require.NotNil(t, terr, file)
		assert.Equal(t, definitions.ValidationError, terr.Type, file)
	}
	_, terr = call(t, refinery, "merge_branches", map[string]any{"sourceBranches": []any{"--upload-pack=x"}, "targetBranch": "main"})
	assert.NotNil(t, terr)
	_, terr = call(t, refinery, "emit_walkthrough", map[string]any{"walkthrough": map[string]any{"summary": "x"}})
	assert.Equal(t, definitions.ValidationError, terr.Type, "the Refinery works on no task")
}

// TestOneProcessPerRun: a second Forge on the same run cannot plan or execute while the
// first holds it; once it is closed, it can.
func TestOneProcessPerRun(t *testing.T) {
	first := newForge(t)
	require.NoError(t, first.openAgentEvents())
	second, err := Open(first.cfg, first.run.ID(), false)
	require.NoError(t, err)
	defer second.Close()
	assert.ErrorIs(t, second.Execute(t.Context()), errBusy)
	require.NoError(t, first.Close())
	assert.NoError(t, second.lock())
}
