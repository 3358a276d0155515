package integration

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// giveUp is a task agent that fails a command, says it gives up and commits nothing.
var giveUp = []openaitest.Step{calls("bash", `{"command":"exit 3"}`), answer("I give up")}

// twice is a task agent's script for both of its attempts.
func twice(steps []openaitest.Step) []openaitest.Step {
	return append(append([]openaitest.Step{}, steps...), steps...)
}

// taskWithTests is taskDoc with a tests command in its front matter.
func taskWithTests(id, tests string) string {
	var arg map[string]string
	_ = json.Unmarshal([]byte(taskDoc(id)), &arg)
	arg["content"] = strings.Replace(arg["content"], "title:", "tests: "+tests+"\ntitle:", 1)
	out, _ := json.Marshal(arg)
	return string(out)
}

// TestForgeAttemptVerdict: a task is DONE only when its agent reported its work with
// emit_walkthrough, ended with an answer, committed a change (or said nothingToChange)
// and passed the task's tests; otherwise both attempts fail, the run fails and nothing is
// merged, and the summary says why.
func TestForgeAttemptVerdict(t *testing.T) {
	cases := []struct {
		name  string
		task  string
		agent []openaitest.Step
		flags []string
		why   []string // "" when the task ends MERGED
	}{
		{name: "gives up", task: taskDoc("A"), agent: twice(giveUp),
			why: []string{"without emit_walkthrough", `"I give up"`}},
		{name: "reports without work", task: taskDoc("A"),
			agent: twice([]openaitest.Step{calls("emit_walkthrough", `{"walkthrough":{"summary":"all done"}}`), answer("Done.")}),
			why:   []string{"changed nothing", "nothingToChange"}},
		{name: "nothing to change", task: taskDoc("A"),
			agent: []openaitest.Step{calls("bash", `{"command":"test -f README.md"}`, "emit_walkthrough", `{"walkthrough":{"summary":"README.md is there already","nothingToChange":true}}`), answer("Nothing to do.")}},
		{name: "tests fail", task: taskWithTests("A", "test -f missing.txt"),
			agent: twice([]openaitest.Step{workStep("A"), answer("A done.")}),
			why:   []string{"tests (test -f missing.txt) failed with exit code 1"}},
		{name: "tests pass", task: taskWithTests("A", "test -f a.txt && sh check.sh"),
			agent: []openaitest.Step{workStep("A"), answer("A done.")}},
		{name: "step budget", task: taskDoc("A"), flags: []string{"--max-steps", "1"},
			agent: twice([]openaitest.Step{calls("write", `{"path":"a.txt","content":"a\n"}`), calls("emit_walkthrough", `{"walkthrough":{"summary":"wrote a.txt"}}`), answer("A done.")}),
			why:   []string{"the agent failed", "too many steps"}},
		{name: "model error", task: taskDoc("A"),
			agent: twice([]openaitest.Step{{Status: 400, Body: `{"error":{"message":"bad request"}}`}}),
			why:   []string{"the agent failed", "bad request"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := forgeRepo(t)
			main := gitOut(t, dir, "rev-parse", "main")
			model, srv := forgeServer(t, dir, map[string][]openaitest.Step{
				"captain:-":  planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]}]}}`, c.task),
				"type1:A":    c.agent,
				"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/1"],"targetBranch":"main"}`), answer("Merged.")},
			})
			require.Equal(t, 0, forge(t, model, "plan", "one task").code)
			r := forge(t, append(model, c.flags...), "run")
			st := statusOf(t, model)
			require.Len(t, st.Tasks, 1)
			task := st.Tasks[0]
			if c.why == nil {
				require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
				assert.Equal(t, "MERGED", task.Status)
				assert.Empty(t, task.Why)
				return
			}
			assert.Equal(t, 1, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			assert.Equal(t, "FAILED", task.Status)
			assert.Equal(t, "forge/A/2", task.Branch, "retried once, on a new branch")
			for _, why := range c.why {
				assert.Contains(t, task.Why, why)
				assert.Contains(t, r.stdout, why, "the summary says why")
			}
			assert.True(t, st.Failed)
			assert.Equal(t, main, gitOut(t, dir, "rev-parse", "main"), "nothing is merged")
			for _, req := range srv.Requests() {
				assert.NotEqual(t, "refinery:-", routeForge(req), "the Refinery does not run")
			}
		})
	}
}

// TestForgeFailedTaskStopsTheRun: a task whose agent fails a command, says "I give up" and
// commits nothing is retried once on a new branch, then fails the run: the task after it
// never starts, the task done before it is not merged, run exits 1 and prints every
// task's state, attempts, branch and why, and status says the same.
func TestForgeFailedTaskStopsTheRun(t *testing.T) {
	dir := forgeRepo(t)
	main := gitOut(t, dir, "rev-parse", "main")
	model, srv := forgeServer(t, dir, map[string][]openaitest.Step{
		"captain:-": planOf(`{"dag":{"tasks":[{"id":"G","dependencies":[]},{"id":"A","dependencies":[]},{"id":"B","dependencies":[]}]}}`,
			taskDoc("G"), taskDoc("A"), taskDoc("B")),
		"type1:G":    {workStep("G"), answer("G done.")},
		"type1:A":    twice(giveUp),
		"type1:B":    {workStep("B"), answer("B done.")},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/G/1","forge/A/2"],"targetBranch":"main"}`), answer("Merged.")},
	})
	model = append(model, "--parallel", "1")
	require.Equal(t, 0, forge(t, model, "plan", "three tasks").code)
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=all"), "plan leaves git status clean")

	r := forge(t, model, "run")
	assert.Equal(t, 1, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stderr, "the run failed: task A failed after 2 attempts")
	assert.Regexp(t, `(?m)^run \S+ \(failed\)$`, r.stdout)
	assert.Regexp(t, `(?m)^G\s+1\s+DONE\s+1\s+forge/G/1\s+write g.txt\s*$`, r.stdout)
	assert.Regexp(t, `(?m)^A\s+1\s+FAILED\s+2\s+forge/A/2\s+write a.txt\s+the agent ended without emit_walkthrough, its report of finished work; it said: "I give up"$`, r.stdout)
	assert.Regexp(t, `(?m)^B\s+1\s+PENDING\s+0\s+write b.txt\s*$`, r.stdout, "B never started")

	assert.Equal(t, main, gitOut(t, dir, "rev-parse", "main"), "nothing is merged")
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=all"), "run leaves git status clean")
	for _, req := range srv.Requests() {
		assert.NotContains(t, []string{"refinery:-", "type1:B"}, routeForge(req), "neither the Refinery nor B runs")
	}
	events := forge(t, model, "events").stdout
	assert.Equal(t, 2, strings.Count(events, `"task":"A","from":"RUNNING","to":"FAILED"`), "two attempts failed")
	assert.NotContains(t, events, `"task":"B","from":"PENDING","to":"RUNNING"`)

	st := forge(t, model, "status")
	assert.Equal(t, r.stdout, st.stdout, "status shows what run printed")
	r = forge(t, model, "run")
	assert.Equal(t, 1, r.code, "a failed run stays failed")
	assert.Equal(t, main, gitOut(t, dir, "rev-parse", "main"))
}

// TestForgeRefineryMergesOnlyFinishedWork: A's first attempt commits a file and gives up,
// its second is done. merge_branches refuses the failed attempt's branch (and a branch
// that is no task's); the Refinery that merges it anyway with git in a command fails
// the run.
func TestForgeRefineryMergesOnlyFinishedWork(t *testing.T) {
	cases := []struct {
		name     string
		refinery []openaitest.Step
		code     int
	}{
		{name: "merge_branches refuses", code: 0, refinery: []openaitest.Step{
			calls("merge_branches", `{"sourceBranches":["forge/A/1"],"targetBranch":"main"}`,
				"merge_branches", `{"sourceBranches":["main"],"targetBranch":"forge/A/2"}`),
			calls("merge_branches", `{"sourceBranches":["forge/A/2"],"targetBranch":"main"}`),
			answer("Merged."),
		}},
		{name: "git in a command", code: 1, refinery: []openaitest.Step{
			calls("bash", `{"command":"git merge -q --no-edit forge/A/1"}`),
			calls("merge_branches", `{"sourceBranches":["forge/A/2"],"targetBranch":"main"}`),
			answer("Merged."),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := forgeRepo(t)
			model := forgeModel(t, dir, map[string][]openaitest.Step{
				"captain:-": planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]}]}}`, taskDoc("A")),
				"type1:A": {calls("write", `{"path":"bad.txt","content":"half done\n"}`), answer("I give up"),
					workStep("A"), answer("A done.")},
				"refinery:-": c.refinery,
			})
			require.Equal(t, 0, forge(t, model, "plan", "one task").code)
			r := forge(t, model, "run")
			require.Equal(t, c.code, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			assert.Contains(t, gitOut(t, dir, "show", "--stat", "forge/A/1"), "bad.txt", "the failed attempt's work stays on its branch")
			if c.code != 0 {
				assert.Contains(t, r.stderr, "the Refinery merged forge/A/1 into main: the work of attempts that failed")
				return
			}
			assert.NoFileExists(t, filepath.Join(dir, "bad.txt"))
			assert.FileExists(t, filepath.Join(dir, "a.txt"))
			results := toolResults(t, model)
			for _, id := range []string{"refinery/merge_branches-a", "refinery/merge_branches-b"} {
				require.NotEmpty(t, results[id], id)
				e, _ := results[id][0]["error"].(map[string]any)
				require.NotNil(t, e, "%s is refused: %v", id, results[id][0])
				assert.Equal(t, "permission-error", e["type"])
			}
			assert.Contains(t, results["refinery/merge_branches-a"][0]["error"].(map[string]any)["message"], "forge/A/1 is not the finished work of a task of this run")
		})
	}
}
