package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return dir
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

	r = forgeCmd("run", runID)
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)

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
