package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offeredTools are the names of the tools a model was offered in a request.
func offeredTools(r openaitest.Request) []string {
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Function.Name)
	}
	slices.Sort(names)
	return names
}

// TestAskProfiles drives `jido ask --profile P` with a fake OpenAI-compatible model that
// knows only P's dialect: it is offered exactly P's tools, reads and edits the buggy
// module with P's names and arguments, gets P's result shapes back, and the file is fixed.
func TestAskProfiles(t *testing.T) {
	tests := []struct {
		profile string
		offered []string
		steps   []openaitest.Step
		result  string // what the model gets back from its edit, in part
	}{
		{"claude", []string{"Bash", "BashOutput", "Edit", "Glob", "Grep", "KillShell", "LS", "MultiEdit", "Read", "TodoWrite", "WebFetch", "WebSearch", "Write", "apply_patch", "git_diff", "git_log", "git_show", "git_status"},
			[]openaitest.Step{
				{Calls: []openaitest.Call{{ID: "a", Name: "Grep", Args: `{"pattern":"func Add","output_mode":"content"}`}}},
				{Calls: []openaitest.Call{{ID: "b", Name: "Read", Args: `{"file_path":"calc.go"}`}}},
				{Calls: []openaitest.Call{{ID: "c", Name: "Edit", Args: `{"file_path":"calc.go","old_string":"a - b","new_string":"a + b"}`}}},
				{Text: []string{"Fixed."}},
			}, `The file calc.go has been updated (1 replacement)`},
		{"forge", []string{"apply_patch", "bash", "edit", "git_diff", "git_log", "git_show", "git_status", "plan_apply", "plan_bash", "plan_diff", "plan_edit", "plan_read", "plan_write", "read", "run_tests", "web_fetch", "web_search", "write"},
			[]openaitest.Step{
				{Calls: []openaitest.Call{{ID: "a", Name: "read", Args: `{"path":"calc.go","range":[4,4]}`}}},
				{Calls: []openaitest.Call{{ID: "b", Name: "edit", Args: `{"path":"calc.go","oldStr":"a - b","newStr":"a + b"}`}}},
				{Text: []string{"Fixed."}},
			}, `"success":true`},
		{"codex", []string{"apply_patch", "git_diff", "git_log", "git_show", "git_status", "shell", "update_plan", "web_fetch", "web_search"},
			[]openaitest.Step{
				{Calls: []openaitest.Call{{ID: "a", Name: "shell", Args: `{"command":["cat","calc.go"],"timeout_ms":10000}`}}},
				{Calls: []openaitest.Call{{ID: "b", Name: "shell", Args: `{"command":["apply_patch","*** Begin Patch\n*** Update File: calc.go\n@@\n-func Add(a, b int) int { return a - b }\n+func Add(a, b int) int { return a + b }\n*** End Patch\n"]}`}}},
				{Text: []string{"Fixed."}},
			}, `"lines_added":1`},
	}
	for _, tc := range tests {
		t.Run(tc.profile, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, buggyModule)
			srv := openaitest.NewServer(tc.steps...)
			defer srv.Close()
			r := runJidoEnv(t, dir, append(offlineEnv, "OPENAI_API_KEY=local-key"),
				"ask", "--yes", "--profile", tc.profile, "--provider", "openai", "--base-url", srv.BaseURL(), "--model", "m", "fix Add")
			require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout, "Fixed.")
			data, err := os.ReadFile(filepath.Join(dir, "calc.go"))
			require.NoError(t, err)
			assert.Contains(t, string(data), "return a + b")

			reqs := srv.Requests()
			require.Len(t, reqs, len(tc.steps))
			assert.Equal(t, tc.offered, offeredTools(reqs[0]))
			last := reqs[len(reqs)-1].Messages
			var edit string
			for _, m := range last {
				if m.Role == "tool" {
					edit = string(m.Content) // the last tool result: the edit's
				}
			}
			assert.Contains(t, edit, tc.result)
			assert.NotContains(t, edit, `"ok":false`)
		})
	}
}

// TestToolsProfileEmacs: `jido tools --profile emacs --format openai` is seed 001's
// function list (with apply_patch and the git tools, in every profile).
func TestToolsProfileEmacs(t *testing.T) {
	r := runJidoEnv(t, t.TempDir(), offlineEnv, "tools", "--profile", "emacs", "--format", "openai")
	require.Equal(t, 0, r.code, r.stderr)
	var tools []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]any `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tools))
	got := map[string][]string{}
	for _, tool := range tools {
		var props []string
		for p := range tool.Function.Parameters.Properties {
			props = append(props, p)
		}
		slices.Sort(props)
		got[tool.Function.Name] = props
	}
	assert.Equal(t, map[string][]string{
		"buffer_append": {"buffer_name", "text"}, "buffer_edit": {"buffer_name", "new_text", "old_text"},
		"buffer_create": {"buffer_name", "content", "mode"}, "buffer_save": {"buffer_name", "file_path"},
		"buffer_list": {"include_hidden"}, "buffer_get_content": {"buffer_name", "max_lines"},
		"file_read": {"file_path"}, "file_write": {"append", "content", "file_path"},
		"directory_list": {"directory_path", "pattern", "recursive"}, "current_directory": nil,
		"file_exists": {"path"}, "goto_line": {"buffer_name", "line_number"},
		"search_in_buffer": {"buffer_name", "case_sensitive", "search_text"},
		"apply_patch":      {"dry_run", "input"}, "git_status": {"path"}, "git_diff": {"context", "path", "ref", "staged"},
		"git_log": {"max_count", "path", "ref"}, "git_show": {"path", "ref"},
		"web_fetch": {"format", "max_chars", "timeout", "url"}, "web_search": {"category", "include_domains", "num_results", "query"},
	}, got)

	r = runJidoEnv(t, t.TempDir(), offlineEnv, "tools", "--profile", "vscode")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `unknown profile "vscode"`)
}

// TestCallProfileFromConfig: `profile = "forge"` in the project's config makes `jido call`
// speak forge; --profile overrides it; eval's jido.call speaks it too.
func TestCallProfileFromConfig(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".jido/config.toml": "profile = \"forge\"\n", "a.txt": "one\ntwo\n"})
	r := runJidoEnv(t, dir, offlineEnv, "call", "read", `{"path":"a.txt","range":[2,2]}`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.JSONEq(t, `{"id":"call-1","name":"read","ok":true,"result":{"content":"two\n","totalLines":2}}`, r.stdout)
	r = runJidoEnv(t, dir, offlineEnv, "call", "--profile", "jido", "read", `{"path":"a.txt"}`)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "`read` is a tool of the forge profile")
	r = runJidoEnv(t, dir, offlineEnv, "eval", "--profile", "claude", "-e", `local r = jido.call("Read", {file_path="a.txt", limit=1}) return r`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, `1\tone`)
	r = runJidoEnv(t, dir, offlineEnv, "eval", "-e", `return jido.call("read", {path="a.txt", range={2, 2}})`,
		"-e", `return jido.call("plan_write", {path="p.md", content="plan"})`, "-e", `return jido.call("plan_read", {path="p.md"})`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, `{"ok":true,"value":{"content":"two\n","totalLines":2}}`+"\n"+`{"ok":true,"value":{"success":true}}`+"\n"+`{"ok":true,"value":{"content":"plan"}}`+"\n", r.stdout)
	assert.NoFileExists(t, filepath.Join(dir, "p.md"), "the plan is beside the files")
	r = runJidoEnv(t, dir, offlineEnv, "eval", "-e", `local r, e = jido.call("read_file", {path="a.txt"}) return e.message`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "is a tool of the jido, forj, jidocode profiles, not of the forge profile")
}

// TestAskOfflineWithProfile: the offline interpreter plans in jido's own names whatever the
// profile (a config may name one for the models of its users).
func TestAskOfflineWithProfile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"main.go": "package main\n", "notes.txt": "n\n"})
	r := runJidoEnv(t, dir, offlineEnv, "ask", "--profile", "claude", "list the go files")
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "main.go")
	assert.NotContains(t, r.stdout, "is a tool of")
}
