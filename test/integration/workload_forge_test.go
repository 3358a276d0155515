package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forgeTrajectory is one jido forge run with two tasks on toolz (p), against a scripted
// model, following the protocol of forge_test.go: the Captain files the tasks, each naming
// the tests that must pass for it to be DONE; A's agent puts a bug in take, sees its tests
// fail through bash, fixes it, sees them pass and looks at its diff; B's agent adds a test
// file and runs it; both report their work with emit_walkthrough; the Refinery merges both
// branches into main and runs the whole suite. The plain side does the same with git
// branches, edits and pytest, after the run (a run is one process). It is a function of
// its own so that it follows Forge's protocol as that changes.
func forgeTrajectory(t *testing.T, p *workloadProject, row *workloadRow) {
	jdir, pdir := p.layout(t), p.layout(t)
	const (
		newTest     = "toolz/tests/test_take_more.py"
		newTestText = "from toolz import take\n\n\ndef test_take_more_than_there_is():\n    assert list(take(5, [1, 2])) == [1, 2]\n"
		someTests   = "pytest -q toolz/tests/test_itertoolz.py"
	)
	args := func(v map[string]any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	step := func(id, tool string, v map[string]any) openaitest.Step {
		return openaitest.Step{Calls: []openaitest.Call{{ID: id, Name: tool, Args: args(v)}}}
	}
	task := func(id, title, tests, body string) map[string]any {
		return map[string]any{"taskId": id, "content": "---\nid: " + id + "\ntype: 1\ndependencies: []\ntitle: " + title +
			"\ntests: " + tests + "\n---\n" + body + "\n"}
	}
	walkthrough := func(summary string, files ...string) map[string]any {
		return map[string]any{"walkthrough": map[string]any{"summary": summary, "filesTouched": files}}
	}
	scripts := map[string][]openaitest.Step{
		"captain:-": {
			step("c-task-a", "create_task", task("A", "fix take", "pytest -q",
				"take(n, seq) must give the first n items of seq; the tests of itertoolz say so.")),
			step("c-task-b", "create_task", task("B", "test take past the end", "pytest -q "+newTest,
				"Add a test: take(5, [1, 2]) gives both items.")),
			step("c-dag", "set_dag", map[string]any{"dag": map[string]any{"tasks": []any{
				map[string]any{"id": "A", "dependencies": []any{}}, map[string]any{"id": "B", "dependencies": []any{}}}}}),
			answer("Planned two tasks."),
		},
		"type1:A": {
			step("a-read", "read", map[string]any{"path": p.file}),
			step("a-edit-1", "edit", map[string]any{"path": p.file, "oldStr": p.original, "newStr": p.bug}),
			step("a-bash-1", "bash", map[string]any{"command": someTests}),
			step("a-edit-2", "edit", map[string]any{"path": p.file, "oldStr": p.bug, "newStr": p.fix}),
			step("a-bash-2", "bash", map[string]any{"command": "pytest -q"}),
			step("a-diff", "git_diff", map[string]any{}),
			step("a-walk", "emit_walkthrough", walkthrough("take gives the first n items", p.file)),
			answer("A done."),
		},
		"type1:B": {
			step("b-write", "write", map[string]any{"path": newTest, "content": newTestText}),
			step("b-bash", "bash", map[string]any{"command": "pytest -q " + newTest}),
			step("b-walk", "emit_walkthrough", walkthrough("a test of take past the end", newTest)),
			answer("B done."),
		},
		"refinery:-": {
			step("r-merge", "merge_branches", map[string]any{"sourceBranches": []any{"forge/A/1", "forge/B/1"}, "targetBranch": "main"}),
			step("r-tests", "run_tests", map[string]any{}),
			answer("Merged and tested."),
		},
	}
	for _, s := range scripts {
		row.steps += len(s) - 1 // the calls, not the closing answer
	}
	model, _ := forgeServer(t, jdir, scripts)
	env := workloadEnv(t)
	forgeCmd := func(args ...string) runResult { // in the trajectory's own state directory
		return runJidoIn(t, "", env, "", append(append([]string{"forge"}, model...), args...)...)
	}

	start := time.Now()
	r := forgeCmd("plan", "fix take and test it")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	r = forgeCmd("run")
	row.jido = time.Since(start)
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)

	for _, task := range statusOf(t, model).Tasks {
		assert.Equal(t, "MERGED", task.Status, "%s: %s", task.ID, task.Why)
	}
	data, err := os.ReadFile(filepath.Join(jdir, p.file))
	require.NoError(t, err)
	assert.Contains(t, string(data), p.fix, "main has A's fix")
	assert.FileExists(t, filepath.Join(jdir, newTest), "main has B's test")
	assert.Empty(t, gitOut(t, jdir, "ls-files", ".jido"), "nothing of jido's is committed")
	assert.Empty(t, gitOut(t, jdir, "status", "--porcelain"), "main is clean: running the tests leaves nothing behind")

	// What each call did, from the run's events, by the scripts' call ids (unique in the run).
	results := map[string]map[string]any{}
	for key, list := range toolResults(t, model) {
		_, id, _ := strings.Cut(key, "/")
		results[id] = list[0]
	}
	for _, s := range scripts {
		for _, st := range s {
			for _, c := range st.Calls {
				require.Contains(t, results, c.ID, "%s ran", c.ID)
				assert.Equal(t, true, results[c.ID]["ok"], "%s succeeded: %v", c.ID, results[c.ID])
			}
		}
	}
	// The events hold the results as jido's own tools give them, not in Forge's dialect.
	result := func(id string) map[string]any { res, _ := results[id]["result"].(map[string]any); return res }
	assert.NotEqual(t, float64(0), result("a-bash-1")["exit_code"], "the bug fails take's tests")
	assert.Equal(t, float64(0), result("a-bash-2")["exit_code"], "the fix passes them all")
	assert.Equal(t, float64(0), result("b-bash")["exit_code"], "the new test passes")
	assertDiff(t, result("a-diff")["diff"], p.original, p.fix)
	tests := result("r-tests")
	assert.Equal(t, float64(0), tests["exit_code"], "the merged suite passes: %v", tests["report"])
	assert.Equal(t, float64(0), tests["failed"], "%v", tests["report"])
	assert.Greater(t, tests["passed"], float64(0), "%v", tests["report"])
	// The runs of the tests A's agent made, as the events time them.
	var testRuns []time.Duration
	for _, id := range []string{"a-bash-1", "a-bash-2"} {
		d, _ := results[id]["duration_ms"].(float64)
		testRuns = append(testRuns, time.Duration(d*float64(time.Millisecond)))
	}

	// The same plainly: a branch per task, one after the other, merged into main.
	start = time.Now()
	git := func(args ...string) {
		out, code := plainRun(t, pdir, nil, append([]string{"git", "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		require.Equal(t, 0, code, "git %v: %s", args, out)
	}
	edit := func(old, new string) {
		path := filepath.Join(pdir, p.file)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
	}
	pytest := func(args ...string) int {
		_, code := plainRun(t, pdir, p.plainEnv, append([]string{"pytest", "-q"}, args...)...)
		return code
	}
	git("checkout", "-q", "-b", "A")
	edit(p.original, p.bug)
	testsStart := time.Now()
	assert.NotEqual(t, 0, pytest(strings.Fields(someTests)[2:]...))
	row.testRuns = append(row.testRuns, [2]time.Duration{testRuns[0], time.Since(testsStart)})
	edit(p.bug, p.fix)
	testsStart = time.Now()
	assert.Equal(t, 0, pytest())
	row.testRuns = append(row.testRuns, [2]time.Duration{testRuns[1], time.Since(testsStart)})
	out, _ := plainRun(t, pdir, nil, "git", "diff")
	assertDiff(t, out, p.original, p.fix)
	git("commit", "-q", "-am", "fix take")
	git("checkout", "-q", "-b", "B", "main")
	writeTree(t, pdir, map[string]string{newTest: newTestText})
	assert.Equal(t, 0, pytest(newTest))
	git("add", newTest)
	git("commit", "-q", "-m", "test take past the end")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-edit", "A")
	git("merge", "-q", "--no-edit", "B")
	assert.Equal(t, 0, pytest())
	row.plain = time.Since(start)
}
