package manager

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scripted answers approvals from a list and records what it was shown.
type scripted struct {
	answers []Answer
	seen    []ApprovalRequest
}

func (s *scripted) Approve(_ context.Context, r ApprovalRequest) (Answer, error) {
	s.seen = append(s.seen, r)
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

// gatedSession opens a session over a root holding a.txt under engine.
func gatedSession(t *testing.T, o Config) (*Session, string) {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	o.Root = root
	return testSession(t, o), root
}

func errType(r ToolResult) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Type
}

func TestModesHeadless(t *testing.T) {
	calls := []ToolCall{
		{Name: "read_file", Args: map[string]any{"path": "a.txt"}},
		{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "new\n"}},
		{Name: "run_shell", Args: map[string]any{"command": "ls"}},
		{Name: "run_shell", Args: map[string]any{"command": "rm -rf a.txt"}},
		{Name: "plan_apply"},
	}
	for mode, want := range map[policy.Mode][]string{
		policy.ModeDefault:  {"", "permission-error", "permission-error", "permission-error", "permission-error"},
		policy.ModeAutoEdit: {"", "", "", "permission-error", "permission-error"},
		policy.ModeYolo:     {"", "", "", "", "validation-error"}, // runs, but there is no plan
		policy.ModeReadOnly: {"", "permission-error", "permission-error", "permission-error", "permission-error"},
		policy.ModePlan:     {"", "", "", "", "permission-error"}, // changes go to the plan; writing it asks
	} {
		t.Run(string(mode), func(t *testing.T) {
			s, _ := gatedSession(t, Config{Permissions: policy.New(mode)})
			for i, c := range calls {
				r := s.Call(t.Context(), c)
				assert.Equal(t, want[i], errType(r), "%s %v: %+v", c.Name, c.Args, r.Error)
			}
		})
	}
}

func TestHeadlessAskSaysWhichRuleToAdd(t *testing.T) {
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault)})
	r := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	require.NotNil(t, r.Error)
	assert.Contains(t, r.Error.Message, "needs approval")
	assert.Contains(t, r.Error.Details["rule"], "[[allow]]")
	assert.NoFileExists(t, filepath.Join(root, "b.txt"))

	yes, root2 := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Yes: true})
	r = yes.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	assert.True(t, r.OK, "%+v", r.Error)
	assert.FileExists(t, filepath.Join(root2, "b.txt"))
}

func TestDenyRuleHasNoBypass(t *testing.T) {
	engine := policy.New(policy.ModeYolo)
	_, err := engine.Remember(policy.Rule{Action: policy.Deny, Tool: "*", Paths: []string{"a.txt"}}, policy.ScopeSession)
	require.NoError(t, err)
	s, root := gatedSession(t, Config{Permissions: engine, Yes: true})
	for _, src := range []string{
		`return jido.write_file{path="a.txt", content="x"}`,
		`return jido.call("write_file", {path="a.txt", content="x"})`,
		`return jido.call("delete_file", {path="a.txt"})`,
		`return jido.call("move_file", {source="a.txt", destination="c.txt"})`,
		`return pcall(jido.delete_file, {path="a.txt"})`,
	} {
		_, terr := s.Eval(t.Context(), src)
		assert.Nil(t, terr, src)
	}
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(data), "deny wins over yolo and --yes, on every route")
	assert.NoFileExists(t, filepath.Join(root, "c.txt"))
}

// TestMultiEditPreviewShowsEveryDiff checks that the approver of a multi_edit sees the
// diffs of its files, not its arguments.
func TestMultiEditPreviewShowsEveryDiff(t *testing.T) {
	approver := &scripted{answers: []Answer{Deny}}
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Approver: approver})
	require.NoError(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("one\n"), 0o644))
	for _, p := range []string{"a.txt", "b.txt"} {
		require.True(t, s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": p}}).OK)
	}
	r := s.Call(t.Context(), ToolCall{Name: "multi_edit", Args: map[string]any{"edits": []any{
		map[string]any{"path": "a.txt", "old_string": "old", "new_string": "new"},
		map[string]any{"path": "b.txt", "old_string": "one", "new_string": "two"},
	}}})
	assert.Equal(t, "permission-error", errType(r))
	require.Len(t, approver.seen, 1)
	assert.Contains(t, approver.seen[0].Preview, "+new")
	assert.Contains(t, approver.seen[0].Preview, "+two")
}

func TestApproverAnswers(t *testing.T) {
	approver := &scripted{answers: []Answer{Deny, AllowOnce, AllowSession}}
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Approver: approver})
	write := ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "b\n"}}
	r := s.Call(t.Context(), write)
	assert.Equal(t, "permission-error", errType(r), "denied")
	assert.NoFileExists(t, filepath.Join(root, "b.txt"))
	require.Len(t, approver.seen, 1)
	assert.Contains(t, approver.seen[0].Preview, "+b", "the approver sees the diff")

	r = s.Call(t.Context(), write)
	assert.True(t, r.OK, "allowed once: %+v", r.Error)

	shell := ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo hi > c.txt"}}
	r = s.Call(t.Context(), shell)
	assert.True(t, r.OK, "%+v", r.Error)
	assert.Equal(t, "echo hi > c.txt", approver.seen[2].Preview)
	assert.Equal(t, "mutating", approver.seen[2].Class)
	r = s.Call(t.Context(), shell)
	assert.True(t, r.OK, "remembered for the session: %+v", r.Error)
	assert.Len(t, approver.seen, 3, "no fourth question")
}

func TestRoles(t *testing.T) {
	s, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeYolo), Role: "reader"})
	assert.True(t, s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}).OK)
	r := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "a.txt", "content": "x"}})
	assert.Equal(t, "permission-error", errType(r))
	assert.Contains(t, r.Error.Message, "reader role")

	var names []string
	for _, tool := range s.Tools() {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"buffer_append", "buffer_create", "buffer_edit", "buffer_get_content", "buffer_list", "current_directory", "file_exists", "git_diff", "git_log", "git_show", "git_status", "glob", "goto_line", "list_dir", "list_files", "read_file", "search", "search_in_buffer", "task", "todo_write"}, names, "only the role's tools are offered")
	full, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault)})
	assert.Len(t, full.Tools(), len(definitions.All())-5, "every tool but plan_diff, plan_apply and plan_discard, and the web tools (no Config.Web)")
	online, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Web: &WebConfig{}})
	assert.Len(t, online.Tools(), len(definitions.All())-3, "with web access, web_fetch and web_search too")
	planner, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModePlan)})
	names = names[:0]
	for _, tool := range planner.Tools() {
		names = append(names, tool.Name)
	}
	assert.Subset(t, names, []string{"plan_apply", "plan_diff", "plan_discard", "run_shell", "write_file"})
	assert.NotContains(t, names, "run_tests", "plan mode runs no programs")
	assert.NotContains(t, names, "undo", "plan mode does not change the disk")

	_, err := New(Config{Root: t.TempDir(), Permissions: policy.New(policy.ModeDefault), Role: "nobody"})
	assert.ErrorContains(t, err, "unknown role")
}

// treeHash describes every file under root (path, mode, content) for before/after checks.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", p, info.Mode())
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteString("\n")
		return nil
	})
	require.NoError(t, err)
	return b.String()
}

// relayTool is a user tool that calls any tool it is given: the route a user's Lua tool
// offers around the gate, if there were one.
const relayTool = `return jido.tool{
  name = "relay", description = "Calls any tool.", destructive = true,
  params = {type = "object", properties = {tool = {type = "string"}, args = {type = "object"}}, required = {"tool"}},
  run = function(a) return jido.call(a.tool, a.args or {}) end,
}`

// TestDenyCoversEveryMutatingTool denies every built-in mutating tool and calls each one
// directly, through jido.call, and through a user's Lua tool (from a snippet and as a call
// of its own): the tree stays byte-identical.
func TestDenyCoversEveryMutatingTool(t *testing.T) {
	engine := policy.New(policy.ModeYolo)
	for _, tool := range definitions.All() {
		if !tool.ReadOnly {
			_, err := engine.Remember(policy.Rule{Action: policy.Deny, Tool: tool.Name}, policy.ScopeSession)
			require.NoError(t, err)
		}
	}
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, ProjectTools), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ProjectTools, "relay.lua"), []byte(relayTool), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644))
	s := testSession(t, Config{Root: root, Permissions: engine, Yes: true, JournalDir: t.TempDir()})
	before := treeHash(t, root)
	calls := map[string]string{
		"write_file":       `{path="a.txt", content="x"}`,
		"edit_file":        `{path="a.txt", old_string="old", new_string="new"}`,
		"edit_region":      `{path="a.txt", start_line=1, end_line=1, new_content="x"}`,
		"multi_edit":       `{path="a.txt", edits={{old_string="old", new_string="new"}}}`,
		"delete_file":      `{path="a.txt"}`,
		"create_directory": `{path="newdir"}`,
		"move_file":        `{source="a.txt", destination="b.txt"}`,
		"run_shell":        `{command="rm a.txt; touch c.txt"}`,
		"run_tests":        `{}`,
		"job_kill":         `{job_id="job-1"}`,
		"undo":             `{}`,
		"plan_apply":       `{}`,
		"buffer_save":      `{buffer_name="b", file_path="a.txt"}`,
		"apply_patch":      `{input="*** Begin Patch\n*** Delete File: a.txt\n*** End Patch"}`,
	}
	for _, tool := range definitions.All() {
		if tool.ReadOnly {
			continue
		}
		args, ok := calls[tool.Name]
		require.True(t, ok, "a deny case for every mutating tool: %s is missing", tool.Name)
		for _, src := range []string{
			fmt.Sprintf("return jido.%s(%s)", tool.Name, args),
			fmt.Sprintf("return jido.call(%q, %s)", tool.Name, args),
			fmt.Sprintf("return jido.call(\"relay\", {tool = %q, args = %s})", tool.Name, args),
		} {
			vals, terr := s.Eval(t.Context(), src)
			require.Nil(t, terr, src)
			require.Len(t, vals, 2, src)
			assert.Equal(t, "permission-error", vals[1].(map[string]any)["type"], src)
		}
	}
	res := s.Call(t.Context(), ToolCall{Name: "relay", Args: map[string]any{"tool": "write_file", "args": map[string]any{"path": "z.txt", "content": "x"}}})
	require.NotNil(t, res.Error, "a user tool called as a tool of its own")
	assert.Equal(t, "permission-error", res.Error.Type)
	assert.Equal(t, before, treeHash(t, root), "nothing on disk changed")
}

func TestReadOnlyCommandsAskWithoutAPrivateRoot(t *testing.T) {
	ls := ToolCall{Name: "run_shell", Args: map[string]any{"command": "ls"}}
	s, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeAutoEdit)})
	if commandsIsolated() {
		require.Equal(t, "", errType(s.Call(t.Context(), ls)), "auto-edit runs a read-only command")
	}

	old := commandsIsolated
	commandsIsolated = func() bool { return false }
	defer func() { commandsIsolated = old }()
	r := s.Call(t.Context(), ls)
	assert.Equal(t, "permission-error", errType(r), "without a private root even ls asks")
}

// TestRiskyEnvironmentIsAskedAbout: a command's env is part of what is approved. A
// variable that changes what programs load or run raises the class (so auto-edit asks for
// `ls`) and no allow rule covers the call; the approver sees the env and stdin.
func TestRiskyEnvironmentIsAskedAbout(t *testing.T) {
	engine := policy.New(policy.ModeAutoEdit)
	_, err := engine.Remember(policy.Rule{Action: policy.Allow, Tool: "run_shell", Command: "git status"}, policy.ScopeSession)
	require.NoError(t, err)
	s, root := gatedSession(t, Config{Permissions: engine})
	stdin := "rm -f a.txt"
	for name, args := range map[string]map[string]any{
		"BASH_ENV reads stdin": {"command": "ls", "env": map[string]any{"BASH_ENV": "/dev/stdin"}, "stdin": stdin},
		"git injected config":  {"command": "git status", "env": map[string]any{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "rm -f a.txt"}},
		"sh ENV":               {"command": "ls", "env": map[string]any{"ENV": "./evil.sh"}},
		"home of dotfiles":     {"command": "git status", "env": map[string]any{"HOME": "."}},
	} {
		t.Run(name, func(t *testing.T) {
			r := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: args})
			assert.Equal(t, "permission-error", errType(r), "asked, not run: %v", r.Result)
			assert.FileExists(t, filepath.Join(root, "a.txt"))
		})
	}
	assert.Equal(t, "", errType(s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "ls", "env": map[string]any{"LANG": "C"}}})),
		"a harmless variable changes nothing")

	seen := &scripted{answers: []Answer{Deny}}
	s2, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Approver: seen})
	s2.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "ls", "cwd": ".", "env": map[string]any{"BASH_ENV": "/dev/stdin"}, "stdin": stdin}})
	require.Len(t, seen.seen, 1)
	assert.Equal(t, "ls\n  env: BASH_ENV=/dev/stdin\n  stdin: \"rm -f a.txt\"", seen.seen[0].Preview)
	assert.Equal(t, "destructive", seen.seen[0].Class, "BASH_ENV with a stdin script: the class of what the script could do")
}

// TestSearchCannotProbeASecret: search matches the redacted text, so neither a match nor a
// count can reveal a secret or test a guess of one (issue 16).
func TestSearchCannotProbeASecret(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "settings.py"), []byte("DEBUG = True\nDB_PASSWORD=Zx8#kq2LmP9w\n"), 0o644))
	s := testSession(t, Config{Root: root})
	for _, mode := range []string{"content", "count", "files_with_matches"} {
		r := s.Call(t.Context(), ToolCall{Name: "search", Args: map[string]any{"query": "Zx8#kq", "output_mode": mode}})
		require.True(t, r.OK, "%v", r.Error)
		data, err := json.Marshal(r.Result)
		require.NoError(t, err)
		assert.NotContains(t, string(data), "settings.py", "%s: the guess is not confirmed", mode)
	}
	r := s.Call(t.Context(), ToolCall{Name: "search", Args: map[string]any{"query": "DB_PASSWORD"}})
	data, _ := json.Marshal(r.Result)
	assert.Contains(t, string(data), "DB_PASSWORD=[REDACTED:generic-password]")
	assert.NotContains(t, string(data), "Zx8")
}

// TestSecretFileValuesAreRedactedEverywhere: a value from the project's .env, too weak for
// any pattern, is redacted from a command's output and from search (issue 16).
func TestSecretFileValuesAreRedactedEverywhere(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), []byte("DB_PASSWORD=hunter2xyz\nPORT=5432\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "app.log"), []byte("connecting as admin:hunter2xyz on 5432 with deepvalue77x\n"), 0o644))
	// A secret file deeper down, in a directory git ignores: looked at all the same.
	require.NoError(t, os.MkdirAll(filepath.Join(root, "deploy", "prod"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("deploy/\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "deploy", "prod", ".env"), []byte("API_TOKEN=deepvalue77x\n"), 0o644))
	s := testSession(t, Config{Root: root, Permissions: policy.New(policy.ModeYolo)})
	r := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "cat app.log"}})
	require.True(t, r.OK, "%v", r.Error)
	data, _ := json.Marshal(r.Result)
	assert.NotContains(t, string(data), "hunter2xyz")
	assert.Contains(t, string(data), "[REDACTED:project-secret]")
	assert.Contains(t, string(data), "5432", "short values are left alone")
	r = s.Call(t.Context(), ToolCall{Name: "search", Args: map[string]any{"query": "admin"}})
	data, _ = json.Marshal(r.Result)
	assert.Contains(t, string(data), "app.log")
	assert.NotContains(t, string(data), "hunter2xyz")
	assert.NotContains(t, string(data), "deepvalue77x")
}

// TestApprovalListsRedirectionsAsCommands checks that the commands an approver is shown
// name a line's redirections on their own, as the rule will record them.
func TestApprovalListsRedirectionsAsCommands(t *testing.T) {
	approver := &scripted{answers: []Answer{Deny}}
	s, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault), Approver: approver})
	r := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo x > out.txt"}})
	assert.Equal(t, "permission-error", errType(r))
	require.Len(t, approver.seen, 1)
	assert.Equal(t, []string{"echo x", "> out.txt"}, approver.seen[0].Commands)
}

// TestSecretValuesOfALaterFile: the values of a secret file written during a session are
// redacted once the redactor has looked again (secretRefresh), in the same session.
func TestSecretValuesOfALaterFile(t *testing.T) {
	defer func(d time.Duration) { secretRefresh = d }(secretRefresh)
	secretRefresh = 10 * time.Millisecond
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "app.log"), []byte("connecting with lateval88x\n"), 0o644))
	s := testSession(t, Config{Root: root})
	read := func() string {
		r := s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "app.log"}})
		require.True(t, r.OK, "%v", r.Error)
		data, _ := json.Marshal(r.Result)
		return string(data)
	}
	assert.Contains(t, read(), "lateval88x", "no secret file yet")
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), []byte("API_TOKEN=lateval88x\n"), 0o644))
	require.Eventually(t, func() bool { return !strings.Contains(read(), "lateval88x") }, 10*time.Second, 20*time.Millisecond,
		"the new .env's value is redacted without a new session")
}
