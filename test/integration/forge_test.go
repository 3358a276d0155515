package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forgeAgent reads which agent a request comes from out of its system prompt's first
// line, "Forge <role> agent, task <id>, run <run>.": "<role>:<id>".
var forgeAgent = regexp.MustCompile(`^Forge (\S+) agent, task (\S+), run`)

func routeForge(r openaitest.Request) string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			if g := forgeAgent.FindStringSubmatch(string(m.Content)); g != nil {
				return g[1] + ":" + g[2]
			}
		}
	}
	return "?"
}

// calls is one model step calling tools, given as name and JSON arguments in pairs.
func calls(pairs ...string) openaitest.Step {
	var s openaitest.Step
	for i := 0; i+1 < len(pairs); i += 2 {
		s.Calls = append(s.Calls, openaitest.Call{ID: pairs[i] + "-" + string(rune('a'+i/2)), Name: pairs[i], Args: pairs[i+1]})
	}
	return s
}

// answer is a model step answering in text.
func answer(text string) openaitest.Step { return openaitest.Step{Text: []string{text}} }

// taskDoc is a task document with its front matter.
func taskDoc(id string, deps ...string) string {
	d, _ := json.Marshal(deps)
	doc := "---\nid: " + id + "\ntype: 1\ndependencies: " + string(d) + "\ntitle: write " + strings.ToLower(id) + ".txt\n---\nCreate " + strings.ToLower(id) + ".txt.\n"
	arg, _ := json.Marshal(map[string]string{"taskId": id, "content": doc})
	return string(arg)
}

// workStep is a task agent's work: write its file, run the checks, emit its walkthrough.
func workStep(id string) openaitest.Step {
	file := strings.ToLower(id) + ".txt"
	return calls(
		"write", `{"path":"`+file+`","content":"from `+id+`\n"}`,
		"bash", `{"command":"sh check.sh"}`,
		"emit_walkthrough", `{"walkthrough":{"summary":"wrote `+file+`","filesTouched":["`+file+`"]}}`,
	)
}

// forgeRepo makes a git repository with one commit on main and a check script.
func forgeRepo(t *testing.T) string {
	testenv.Program(t, "git")
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "# project\n", "check.sh": "test -f README.md\n"})
	gitInit(t, dir)
	return dir
}

// gitInit makes dir a git repository whose branch main holds all its files in one commit.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
}

// git runs git in dir and returns its output.
func gitOut(t *testing.T, dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// TestForgeEndToEnd drives jido forge against a scripted model, one script per agent: the
// Captain plans a spec, three tasks and a DAG (C after A and B); the Executor runs A and B
// in parallel in worktrees of their own, then C on a branch holding both; the Refinery
// merges the branches into main and runs the checks. Every state change is in the
// events, and main ends with all three files.
func TestForgeEndToEnd(t *testing.T) {
	dir := forgeRepo(t)
	dag := `{"dag":{"tasks":[{"id":"A","dependencies":[]},{"id":"B","dependencies":[]},{"id":"C","dependencies":["A","B"]}]}}`
	srv := openaitest.NewRoutedServer(routeForge, map[string][]openaitest.Step{
		"captain:-": {
			calls("create_spec", `{"filename":"plan.md","content":"# Plan\nThree files.\n"}`,
				"create_task", taskDoc("A"), "create_task", taskDoc("B"), "create_task", taskDoc("C", "A", "B"),
				"set_dag", dag),
			answer("Planned three tasks."),
		},
		"type1:A": {workStep("A"), answer("A done.")},
		"type1:B": {workStep("B"), answer("B done.")},
		"type1:C": {calls("read", `{"path":"a.txt"}`, "read", `{"path":"b.txt"}`), workStep("C"), answer("C done.")},
		"refinery:-": {
			calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/1","forge/C/1"],"targetBranch":"main"}`),
			calls("run_tests", `{"command":"sh check.sh"}`),
			answer("Merged and tested."),
		},
	})
	t.Cleanup(srv.Close)
	model := []string{"--root", dir, "--provider", "openai", "--model", "fake", "--base-url", srv.BaseURL()}
	forgeCmd := func(args ...string) runResult {
		return runJidoIn(t, "", offlineEnv, "", append(append([]string{"forge"}, model...), args...)...)
	}

	r := forgeCmd("plan", "write three files")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	runID := strings.TrimPrefix(strings.TrimSpace(r.stdout), "run ")
	require.FileExists(t, filepath.Join(dir, "artifacts", runID, "dag.json"))
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=all"), "the run's artifacts are not the user's changes")

	r = forgeCmd("run", runID)
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=all"), "the run leaves git status as it found it")
	assert.Regexp(t, `(?m)^C\s+1\s+MERGED\s+1\s+forge/C/1\s+A,B\s+write c.txt\s*$`, r.stdout, "run ends with its summary")

	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		assert.FileExists(t, filepath.Join(dir, f))
		assert.Contains(t, gitOut(t, dir, "log", "--format=%H", "--", f), "", "%s is committed on main", f)
	}
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=no"), "main is clean")
	for _, dep := range []string{"forge/A/1", "forge/B/1"} {
		gitOut(t, dir, "merge-base", "--is-ancestor", dep, "forge/C/1") // C's branch holds A's and B's work
	}

	r = forgeCmd("status", "--json", runID)
	require.Equal(t, 0, r.code, r.stderr)
	var st struct {
		Tasks []struct{ ID, Status string }
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &st))
	require.Len(t, st.Tasks, 3)
	for _, task := range st.Tasks {
		assert.Equal(t, "MERGED", task.Status, task.ID)
	}

	r = forgeCmd("events", runID)
	require.Equal(t, 0, r.code, r.stderr)
	var moves []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e struct{ Type, Task, From, To string }
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		if e.Type == "task.status" {
			moves = append(moves, e.Task+":"+e.From+">"+e.To)
		}
	}
	for _, id := range []string{"A", "B", "C"} {
		for _, m := range []string{"PENDING>RUNNING", "RUNNING>DONE", "DONE>MERGE_READY", "MERGE_READY>MERGED"} {
			assert.Contains(t, moves, id+":"+m)
		}
	}
	startB := indexOf(moves, "B:PENDING>RUNNING")
	assert.Less(t, startB, indexOf(moves, "A:RUNNING>DONE"), "A and B ran at the same time: %v", moves)
	assert.Greater(t, indexOf(moves, "C:PENDING>RUNNING"), indexOf(moves, "B:RUNNING>DONE"), "C waited for B")
	assert.Contains(t, r.stdout, `"tool":"merge_branches"`, "the agents' tool calls are in the events")
	results := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e struct {
			Event, Tool string
			OK          bool
		}
		require.NoError(t, json.Unmarshal([]byte(line), &e))
		if e.Event == "tool.result" {
			results++
			assert.True(t, e.OK, "every call succeeded: %s", line)
		}
	}
	assert.Equal(t, 18, results, "the scripts' calls, each once")

	left, err := os.ReadDir(filepath.Join(dir, ".git", "forge-worktrees"))
	require.NoError(t, err)
	assert.Empty(t, left, "the merged tasks' worktrees are removed")
	assert.Contains(t, gitOut(t, dir, "branch", "--list", "forge/*"), "forge/C/1", "their branches stay")

	walk, err := os.ReadFile(filepath.Join(dir, "artifacts", runID, "A", "1", "walkthrough.md"))
	require.NoError(t, err)
	assert.Contains(t, string(walk), "wrote a.txt")
}

// indexOf is the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// forgeModel starts a routed fake model and returns the flags that point jido at it.
func forgeModel(t *testing.T, dir string, scripts map[string][]openaitest.Step) []string {
	flags, _ := forgeServer(t, dir, scripts)
	return flags
}

// forgeServer is forgeModel, with the server.
func forgeServer(t *testing.T, dir string, scripts map[string][]openaitest.Step) ([]string, *openaitest.Server) {
	srv := openaitest.NewRoutedServer(routeForge, scripts)
	t.Cleanup(srv.Close)
	return []string{"--root", dir, "--provider", "openai", "--model", "fake", "--base-url", srv.BaseURL()}, srv
}

// forge runs jido forge with the model flags and args.
func forge(t *testing.T, model []string, args ...string) runResult {
	return runJidoIn(t, "", offlineEnv, "", append(append([]string{"forge"}, model...), args...)...)
}

// planOf is a Captain's script that files the tasks and the DAG given.
func planOf(dag string, tasks ...string) []openaitest.Step {
	var pairs []string
	for _, task := range tasks {
		pairs = append(pairs, "create_task", task)
	}
	return []openaitest.Step{calls(append(pairs, "set_dag", dag)...), answer("Planned.")}
}

// TestForgeConflict: A and B add the same file with different content; merge_branches
// stops on it and lists it, fix_conflict's agent resolves it, the merge is concluded, the
// checks pass, and main holds the resolution without markers.
func TestForgeConflict(t *testing.T) {
	dir := forgeRepo(t)
	write := func(id string) openaitest.Step {
		return calls("write", `{"path":"shared.txt","content":"from `+id+`\n"}`, "emit_walkthrough", `{"walkthrough":{"summary":"shared.txt"}}`)
	}
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-": planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]},{"id":"B","dependencies":[]}]}}`, taskDoc("A"), taskDoc("B")),
		"type1:A":   {write("A"), answer("A done.")},
		"type1:B":   {write("B"), answer("B done.")},
		"refinery:-": {
			calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/1"],"targetBranch":"main"}`),
			calls("fix_conflict", `{"conflictFiles":["shared.txt"],"sourceBranch":"forge/B/1","targetBranch":"main"}`),
			calls("run_tests", `{"command":"sh check.sh"}`),
			answer("Merged."),
		},
		"type1:-": { // the conflict agent, in the Refinery's work tree
			calls("read", `{"path":"shared.txt"}`),
			calls("write", `{"path":"shared.txt","content":"from A\nfrom B\n"}`),
			answer("Resolved."),
		},
	})
	r := forge(t, model, "plan", "two writers")
	require.Equal(t, 0, r.code, r.stderr)
	r = forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)

	shared, err := os.ReadFile(filepath.Join(dir, "shared.txt"))
	require.NoError(t, err)
	assert.Equal(t, "from A\nfrom B\n", string(shared))
	assert.Empty(t, gitOut(t, dir, "status", "--porcelain", "--untracked-files=no"))
	gitOut(t, dir, "merge-base", "--is-ancestor", "forge/B/1", "main")

	r = forge(t, model, "events")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"result":{"success":false,"conflicts":["shared.txt"]}`)
	assert.Contains(t, r.stdout, `"tool":"fix_conflict","ok":true`)
	r = forge(t, model, "status", "--json")
	assert.Equal(t, 2, strings.Count(r.stdout, `"status": "MERGED"`), r.stdout)
}

// TestForgeRefusals: what an agent may not do is refused with a clear error, and the run
// goes on: a task id with ../, a cyclic DAG, a spawn the role may not make, reading
// another agent's worktree with the file tools or from a command.
func TestForgeRefusals(t *testing.T) {
	dir := forgeRepo(t)
	bad, _ := json.Marshal(map[string]string{"taskId": "../x", "content": "---\nid: ../x\ntype: 1\n---\n"})
	typeTwo := strings.Replace(taskDoc("A", "B"), `type: 1`, `type: 2`, 1)
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-": {
			calls("create_task", string(bad), "create_task", typeTwo, "create_task", taskDoc("B"),
				"set_dag", `{"dag":{"tasks":[{"id":"A","dependencies":["B"]},{"id":"B","dependencies":["A"]}]}}`,
				"set_dag", `{"dag":{"tasks":[{"id":"A","dependencies":["B"]},{"id":"B","dependencies":[]}]}}`),
			answer("Planned."),
		},
		"type1:B": {workStep("B"), answer("B done.")},
		"type2:A": {
			calls("spawn_agent", `{"type":3,"taskId":"A"}`,
				"read", `{"path":"../B-1/b.txt"}`,
				"bash", `{"command":"cat ../B-1/b.txt; ls ..; echo end"}`),
			workStep("A"), answer("A done."),
		},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/1"],"targetBranch":"main"}`), answer("Merged.")},
	})
	r := forge(t, model, "plan", "refusals")
	require.Equal(t, 0, r.code, r.stderr)
	r = forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)

	results := toolResults(t, model)
	errOf := func(id string, n int) map[string]any {
		require.Greater(t, len(results[id]), n, id)
		e, _ := results[id][n]["error"].(map[string]any)
		require.NotNil(t, e, "%s is refused: %v", id, results[id][n])
		return e
	}
	e := errOf("captain/create_task-a", 0)
	assert.Equal(t, "validation-error", e["type"])
	assert.Contains(t, e["message"], "taskId")
	e = errOf("captain/set_dag-d", 0)
	assert.Regexp(t, `cycle.*(A -> B -> A|B -> A -> B)`, e["message"])
	assert.Nil(t, results["captain/set_dag-e"][0]["error"], "the corrected DAG is taken")
	e = errOf("type2-A-1/spawn_agent-a", 0)
	assert.Equal(t, "permission-error", e["type"])
	assert.Contains(t, e["message"], "a type2 agent may not spawn a type3 agent")
	e = errOf("type2-A-1/read-b", 0)
	assert.Equal(t, "permission-error", e["type"], "another worktree is outside the agent's root")
	require.Len(t, results["type2-A-1/bash-c"], 1)
	out, _ := results["type2-A-1/bash-c"][0]["result"].(map[string]any)
	require.Contains(t, fmt.Sprint(out["stdout"]), "end", "the command ran: %v", results["type2-A-1/bash-c"][0])
	assert.NotContains(t, out["stdout"], "from B", "no command reaches another worktree")
	assert.NotContains(t, out["stdout"], "B-1")
	r = forge(t, model, "status", "--json")
	assert.Equal(t, 2, strings.Count(r.stdout, `"status": "MERGED"`), r.stdout)
}

// TestForgeResumesAfterKill: jido forge run killed with SIGKILL, or stopped with SIGINT,
// while B's model thinks (A is DONE)
// resumes when run again: A is not run again, B's cut attempt counts as failed and B runs
// as a new attempt, and the run ends merged.
func TestForgeResumesAfterKill(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) { resumeAfter(t, sig) })
	}
}

// resumeAfter is TestForgeResumesAfterKill with the run ended by sig.
func resumeAfter(t *testing.T, sig syscall.Signal) {
	dir := forgeRepo(t)
	model, srv := forgeServer(t, dir, map[string][]openaitest.Step{
		"captain:-":  planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]},{"id":"B","dependencies":[]}]}}`, taskDoc("A"), taskDoc("B")),
		"type1:A":    {workStep("A"), answer("A done.")},
		"type1:B":    {{Delay: time.Minute, Text: []string{"still thinking"}}, workStep("B"), answer("B done.")},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/1","forge/B/2"],"targetBranch":"main"}`), answer("Merged.")},
	})
	r := forge(t, model, "plan", "two tasks")
	require.Equal(t, 0, r.code, r.stderr)

	cmd := exec.Command(jidoBin, append(append([]string{"forge"}, model...), "run")...)
	cmd.Env = append(os.Environ(), offlineEnv...)
	var killed strings.Builder
	cmd.Stderr = &killed
	require.NoError(t, cmd.Start())
	defer func() { t.Logf("the killed run said: %s", killed.String()) }()
	require.Eventually(t, func() bool {
		asked := slices.ContainsFunc(srv.Requests(), func(r openaitest.Request) bool { return routeForge(r) == "type1:B" })
		r := forge(t, model, "status", "--json")
		return asked && strings.Count(r.stdout, `"status": "DONE"`) == 1 && strings.Contains(r.stdout, `"status": "RUNNING"`)
	}, 30*time.Second, 20*time.Millisecond, "A done while B's model thinks")
	require.NoError(t, cmd.Process.Signal(sig))
	_ = cmd.Wait()
	if sig == syscall.SIGINT {
		assert.Equal(t, 1, cmd.ProcessState.ExitCode(), "stopped, it says so")
		r := forge(t, model, "status", "--json")
		assert.Contains(t, r.stdout, `"status": "RUNNING"`, "the stopped attempt is left running, as a crash leaves it")
		assert.NotContains(t, r.stdout, `"status": "FAILED"`)
	}

	r = forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stderr, "B: its attempt 1 was cut by a crash")
	r = forge(t, model, "events")
	events := r.stdout
	defer func() {
		if t.Failed() {
			t.Logf("events: %s", events)
		}
	}()
	assert.Equal(t, 1, strings.Count(r.stdout, `"task":"A","from":"PENDING","to":"RUNNING"`), "A ran once")
	assert.Equal(t, 2, strings.Count(r.stdout, `"task":"B","from":"PENDING","to":"RUNNING"`), "B ran again")
	assert.Contains(t, r.stdout, `"task":"B","from":"RUNNING","to":"FAILED"`)
	for _, f := range []string{"a.txt", "b.txt"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	r = forge(t, model, "status", "--json")
	assert.Equal(t, 2, strings.Count(r.stdout, `"status": "MERGED"`), r.stdout)
}

// TestForgeRetriesAFailedAttempt: an attempt whose agent fails (the model refuses its
// request) is FAILED, and the task runs once more as a new attempt, on a new branch.
func TestForgeRetriesAFailedAttempt(t *testing.T) {
	dir := forgeRepo(t)
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-":  planOf(`{"dag":{"tasks":[{"id":"A","dependencies":[]}]}}`, taskDoc("A")),
		"type1:A":    {{Status: 400, Body: `{"error":{"message":"bad request"}}`}, workStep("A"), answer("A done.")},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/A/2"],"targetBranch":"main"}`), answer("Merged.")},
	})
	require.Equal(t, 0, forge(t, model, "plan", "one task").code)
	r := forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stderr, "A: attempt 1 failed")
	r = forge(t, model, "events")
	for _, move := range []string{`"from":"RUNNING","to":"FAILED","attempt":1`, `"from":"FAILED","to":"PENDING"`, `"from":"MERGE_READY","to":"MERGED","attempt":2`} {
		assert.Contains(t, r.stdout, move)
	}
	assert.FileExists(t, filepath.Join(dir, "a.txt"))
}

// TestForgeChangeRequestHalts: a Refinery task's change request halts the run: the task
// after it never starts, run says so and fails, status shows the halt.
func TestForgeChangeRequestHalts(t *testing.T) {
	dir := forgeRepo(t)
	refineryTask := strings.Replace(taskDoc("R"), "type: 1", "type: refinery", 1)
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-": planOf(`{"dag":{"tasks":[{"id":"R","dependencies":[]},{"id":"T","dependencies":["R"]}]}}`, refineryTask, taskDoc("T", "R")),
		"refinery:R": {
			calls("emit_cr", `{"title":"API is wrong","description":"T builds on a wrong API","reason":"spec mismatch","suggestedChanges":"rename"}`),
			answer("Raised a change request."),
		},
	})
	require.Equal(t, 0, forge(t, model, "plan", "halt").code)
	r := forge(t, model, "run")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "halted by a change request")
	r = forge(t, model, "status")
	assert.Contains(t, r.stdout, "halted")
	assert.Regexp(t, `T\s+1\s+PENDING\s+0`, r.stdout, "T never started")
	r = forge(t, model, "events")
	assert.Contains(t, r.stdout, `"type":"run.halted"`)
	assert.NotContains(t, r.stdout, `"task":"T","from":"PENDING","to":"RUNNING"`)
}
