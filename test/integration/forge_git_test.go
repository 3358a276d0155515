package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolResults are the results of the run's tool calls, by session and call id ("bash-a"
// names the first call of every step that calls bash first), in order.
func toolResults(t *testing.T, model []string) map[string][]map[string]any {
	r := forge(t, model, "events")
	require.Equal(t, 0, r.code, r.stderr)
	out := map[string][]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &e))
		if e["event"] == "tool.result" {
			key := e["session"].(string) + "/" + e["call_id"].(string)
			out[key] = append(out[key], e)
		}
	}
	return out
}

// forgeStatus is jido forge status --json.
type forgeStatus struct {
	Failed bool
	Tasks  []struct{ ID, Status, Branch, Why string }
}

// statusOf reads the run's status.
func statusOf(t *testing.T, model []string) forgeStatus {
	r := forge(t, model, "status", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var st forgeStatus
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &st), r.stdout)
	return st
}

// TestForgeGitInTaskWorktree: a task agent's own commands run git in its worktree (the
// current branch, status, log, diff), and every write that would reach the repository
// fails: its config, hooks and info, another task's administrative directory, its own
// (HEAD, commondir), main's ref, the object store; a commit too (Forge commits the work).
// B runs first, so that its worktree exists while A's commands run.
func TestForgeGitInTaskWorktree(t *testing.T) {
	dir := forgeRepo(t)
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	require.NoError(t, err)
	read := `git branch --show-current && git status --porcelain && git log -1 --format=%s && git diff --stat HEAD~1 HEAD && echo READ-OK`
	attack := strings.Join([]string{
		`g=$(git rev-parse --path-format=absolute --git-common-dir); w=$(git rev-parse --path-format=absolute --git-dir)`,
		`(echo '[alias]' >> "$g/config") 2>/dev/null && echo "BREACH config"`,
		`(mkdir -p "$g/hooks" && printf '#!/bin/sh\ntouch /tmp/pwned\n' > "$g/hooks/post-merge") 2>/dev/null && echo "BREACH hooks"`,
		`(echo '*' >> "$g/info/exclude") 2>/dev/null && echo "BREACH info"`,
		`(cat "$g/worktrees/B-1/HEAD") 2>/dev/null && echo "BREACH read another gitdir"`,
		`(echo 'ref: refs/heads/main' > "$g/worktrees/B-1/HEAD") 2>/dev/null && echo "BREACH write another gitdir"`,
		`(echo 'ref: refs/heads/main' > "$w/HEAD") 2>/dev/null && echo "BREACH own HEAD"`,
		`(echo /tmp > "$w/commondir") 2>/dev/null && echo "BREACH own commondir"`,
		`(git update-ref refs/heads/main HEAD) 2>/dev/null && echo "BREACH update-ref main"`,
		`(git rev-parse HEAD > "$g/refs/heads/main") 2>/dev/null && echo "BREACH write main's ref"`,
		`(touch "$g/objects/planted") 2>/dev/null && echo "BREACH objects"`,
		`(git add a.txt && git commit -q -m mine) 2>/dev/null && echo "BREACH commit"`,
		`for p in hooks logs modules worktrees/B-1 forge-worktrees/B-1; do test -e "$g/$p" && echo "BREACH sees $p"; done`,
		`for p in config HEAD objects refs info worktrees/A-1; do test -e "$g/$p" || echo "MISSING $p"; done`,
		`echo END`,
	}, "\n")
	arg := func(cmd string) string { b, _ := json.Marshal(map[string]string{"command": cmd}); return string(b) }
	model := forgeModel(t, dir, map[string][]openaitest.Step{
		"captain:-": planOf(`{"dag":{"tasks":[{"id":"B","dependencies":[]},{"id":"A","dependencies":["B"]}]}}`, taskDoc("B"), taskDoc("A", "B")),
		"type1:B":   {workStep("B"), answer("B done.")},
		"type1:A": {calls("write", `{"path":"a.txt","content":"from A\n"}`), calls("bash", arg(read)), calls("bash", arg(attack)),
			calls("emit_walkthrough", `{"walkthrough":{"summary":"wrote a.txt"}}`), answer("A done.")},
		"refinery:-": {calls("merge_branches", `{"sourceBranches":["forge/B/1","forge/A/1"],"targetBranch":"main"}`), answer("Merged.")},
	})
	require.Equal(t, 0, forge(t, model, "plan", "git").code)
	r := forge(t, model, "run")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)

	results := toolResults(t, model)
	bash := results["type1-A-1/bash-a"]
	require.Len(t, bash, 2)
	out := func(n int) (string, float64) {
		res, _ := bash[n]["result"].(map[string]any)
		require.NotNil(t, res, "command %d ran: %v", n, bash[n])
		code, _ := res["exit_code"].(float64)
		return fmtAny(res["stdout"]) + fmtAny(res["stderr"]), code
	}
	got, code := out(0)
	assert.Equal(t, 0.0, code, got)
	assert.Equal(t, "forge/A/1\n?? a.txt\nMerge branch 'forge/B/1' into forge/A/1\n b.txt | 1 +\n 1 file changed, 1 insertion(+)\nREAD-OK\n", got)

	got, _ = out(1)
	assert.NotContains(t, got, "BREACH")
	assert.NotContains(t, got, "MISSING", "of the git directory, a task sees what git reads, and nothing else")
	require.Contains(t, got, "END", "the attacks ran to their end")

	after, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	require.NoError(t, err)
	assert.Equal(t, string(config), string(after))
	assert.NoFileExists(t, filepath.Join(dir, ".git", "hooks", "post-merge"))
	assert.NoFileExists(t, filepath.Join(dir, ".git", "objects", "planted"))
	assert.Equal(t, "Merge branch 'forge/A/1' into main\nMerge branch 'forge/B/1' into main\nfirst",
		gitOut(t, dir, "log", "--first-parent", "--format=%s", "main"), "main moved only by the Refinery's merges")
	for _, task := range statusOf(t, model).Tasks {
		assert.Equal(t, "MERGED", task.Status, task.ID)
	}
}

// fmtAny is v as text ("" for nil).
func fmtAny(v any) string {
	if v == nil {
		return ""
	}
	s, _ := v.(string)
	return s
}
