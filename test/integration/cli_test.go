package integration

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/scripts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCallPrintsOneToolResult(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "alpha\nbeta\n"})

	r := runJido(t, "", "call", "--root", root, "read_file", `{"path":"a.txt"}`)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 1, strings.Count(r.stdout, "\n"), "exactly one JSON line")
	res := decodeJSON(t, r.stdout)
	assert.Equal(t, true, res["ok"])
	assert.Equal(t, "read_file", res["name"])
	assert.Equal(t, "     1\talpha\n     2\tbeta\n", res["result"].(map[string]any)["content"])

	r = runJido(t, "", "call", "--root", root, "read_file", `{"path":"missing.txt"}`)
	assert.Equal(t, 1, r.code)
	res = decodeJSON(t, r.stdout)
	assert.Equal(t, false, res["ok"])
	errObj := res["error"].(map[string]any)
	assert.Equal(t, "file-error", errObj["type"])
	assert.NotEmpty(t, errObj["recovery"])
}

func TestCallReadsArgsFromStdin(t *testing.T) {
	root := t.TempDir()
	r := runJido(t, `{"path":"new/dir/n.txt","content":"hi\n"}`, "call", "--root", root, "--yes", "write_file", "-")
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	got, err := os.ReadFile(filepath.Join(root, "new", "dir", "n.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hi\n", string(got))
}

func TestCallExitCodes(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		name    string
		args    []string
		code    int
		errType string
	}{
		{"no tool", []string{"call", "--root", root}, 2, ""},
		{"too many args", []string{"call", "--root", root, "read_file", "{}", "x"}, 2, ""},
		{"bad flag", []string{"call", "--nope", "read_file"}, 2, ""},
		{"bad json", []string{"call", "--root", root, "read_file", "{"}, 2, "validation-error"},
		{"missing root", []string{"call", "--root", filepath.Join(root, "nope"), "list_dir"}, 2, ""},
		{"unknown tool", []string{"call", "--root", root, "read_fiel", "{}"}, 1, "validation-error"},
		{"bad argument", []string{"call", "--root", root, "read_file", `{"pth":"a"}`}, 1, "validation-error"},
		{"outside", []string{"call", "--root", root, "read_file", `{"path":"../x"}`}, 1, "permission-error"},
		{"ok", []string{"call", "--root", root, "list_dir"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runJido(t, "", c.args...)
			assert.Equal(t, c.code, r.code, "stdout %q stderr %q", r.stdout, r.stderr)
			if c.errType != "" {
				res := decodeJSON(t, r.stdout)
				assert.Equal(t, c.errType, res["error"].(map[string]any)["type"])
			}
			assert.NotContains(t, r.stderr, "panic")
		})
	}
}

func TestEvalPrintsOneLinePerSnippet(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"go.mod": "module x\n"})
	r := runJido(t, "", "eval", "--root", root, "--timeout", "2s",
		"-e", "return 1 + 1",
		"-e", "return 'a', 2",
		"-e", "x = 1",
		"-e", "return x",
		"-e", "error('boom')",
		"-e", "return jido.read_file{path='go.mod'}.total_lines",
		"-e", "while true do end",
		"-e", "return (",
	)
	assert.Equal(t, 1, r.code)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, 8, r.stdout)
	want := []string{
		`{"ok":true,"value":2}`,
		`{"ok":true,"value":["a",2]}`,
		`{"ok":true,"value":null}`,
		`{"ok":true,"value":null}`,
		"",
		`{"ok":true,"value":1}`,
		"",
		"",
	}
	errTypes := map[int]string{4: "lua-error", 6: "timeout-error", 7: "validation-error"}
	for i, line := range lines {
		if want[i] != "" {
			assert.JSONEq(t, want[i], line, "snippet %d", i)
			continue
		}
		var v struct {
			OK    bool `json:"ok"`
			Error struct{ Type, Message string }
		}
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		assert.False(t, v.OK)
		assert.Equal(t, errTypes[i], v.Error.Type, "snippet %d: %s", i, line)
	}
	assert.Contains(t, lines[4], "boom")
}

func TestEvalUsageErrors(t *testing.T) {
	assert.Equal(t, 2, runJido(t, "", "eval").code)
	assert.Equal(t, 2, runJido(t, "", "eval", "--root", t.TempDir(), "stray").code)
	r := runJido(t, "", "eval", "--root", t.TempDir(), "-e", "return 1")
	assert.Equal(t, 0, r.code)
}

func TestToolsListsTheCatalogue(t *testing.T) {
	r := runJido(t, "", "tools")
	require.Equal(t, 0, r.code)
	var tools []struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
		ReadOnly    *bool          `json:"read_only"`
		Mutating    *bool          `json:"mutating"`
		Destructive *bool          `json:"destructive"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tools))
	names := map[string]bool{}
	for _, tool := range tools {
		names[tool.Name] = true
		assert.NotEmpty(t, tool.Description, tool.Name)
		assert.Equal(t, "object", tool.Parameters["type"], tool.Name)
		require.NotNil(t, tool.ReadOnly, tool.Name)
		require.NotNil(t, tool.Mutating, tool.Name)
		require.NotNil(t, tool.Destructive, tool.Name)
	}
	for _, want := range []string{"read_file", "write_file", "edit_file", "multi_edit", "list_dir", "glob", "delete_file", "move_file"} {
		assert.True(t, names[want], want)
	}
	assert.Equal(t, 2, runJido(t, "", "tools", "--format", "klingon").code)
}

func TestVersionAndUsage(t *testing.T) {
	r := runJido(t, "", "version")
	assert.Equal(t, 0, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "jido "), r.stdout)
	assert.Equal(t, 2, runJido(t, "").code)
	assert.Equal(t, 2, runJido(t, "", "frobnicate").code)
}

func TestEventsAreNDJSON(t *testing.T) {
	root := t.TempDir()
	events := filepath.Join(t.TempDir(), "events.ndjson")
	r := runJido(t, "", "call", "--root", root, "--events", events, "list_dir")
	require.Equal(t, 0, r.code)
	raw, err := os.ReadFile(events)
	require.NoError(t, err)
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		ev := decodeJSON(t, line)
		kinds = append(kinds, ev["event"].(string))
		assert.NotEmpty(t, ev["session"])
		assert.NotEmpty(t, ev["ts"])
		if ev["event"] == "tool.result" {
			assert.Contains(t, ev, "duration_ms")
			assert.Equal(t, true, ev["ok"])
		}
	}
	assert.Equal(t, []string{"session.open", "tool.call", "tool.result", "session.close"}, kinds)
}

func TestUndoThroughTheCLI(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n"})
	r := runJido(t, "", "eval", "--root", root, "--yes", "-e",
		`assert(jido.read_file{path="a.txt"}) return assert(jido.edit_file{path="a.txt", old_string="one", new_string="two"}).change_id`)
	require.Equal(t, 0, r.code, r.stderr)
	r = runJido(t, "", "call", "--root", root, "--yes", "delete_file", `{"path":"a.txt"}`)
	require.Equal(t, 0, r.code, r.stdout)
	assert.NoFileExists(t, filepath.Join(root, "a.txt"))

	r = runJido(t, "", "undo", "--root", root, "--list", "--json")
	require.Equal(t, 0, r.code, r.stdout)
	assert.Contains(t, r.stdout, "delete_file a.txt")
	assert.Contains(t, r.stdout, "edit_file a.txt")

	r = runJido(t, "", "undo", "--root", root)
	require.Equal(t, 0, r.code, r.stdout)
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "two\n", string(data), "the delete is undone")

	r = runJido(t, "", "undo", "--root", root)
	require.Equal(t, 0, r.code, r.stdout)
	data, err = os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "one\n", string(data), "then the edit")

	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed behind jido\n"), 0o644))
	r = runJido(t, "", "call", "--root", root, "--yes", "write_file", `{"path":"b.txt","content":"b"}`)
	require.Equal(t, 0, r.code)
	require.NoError(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("edited after"), 0o644))
	r = runJido(t, "", "undo", "--root", root)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "conflict-error")
	r = runJido(t, "", "undo", "--root", root, "--force")
	assert.Equal(t, 0, r.code, r.stdout)
	assert.NoFileExists(t, filepath.Join(root, "b.txt"), "a forced undo removes the created file")
}

// TestPermissionsFromProjectConfig drives the modes and the project's rules through the
// binary, headless: what runs, what needs approval (with the rule to add) and what is
// denied whatever --yes says.
func TestPermissionsFromProjectConfig(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.txt": "a\n",
		".jido/config.toml": `mode = "auto-edit"
[[allow]]
tool = "run_shell"
command = "touch"
[[deny]]
tool = "*"
paths = ["locked/**"]
`,
	})
	call := func(args ...string) (int, string) {
		r := runJido(t, "", append([]string{"call", "--root", root}, args...)...)
		return r.code, r.stdout
	}
	// A project's config is not the user's: until trusted, it cannot loosen the rules.
	r := runJido(t, "", "call", "--root", root, "run_shell", `{"command":"touch made.txt"}`)
	assert.Equal(t, 1, r.code, "an untrusted allow rule does not apply")
	assert.Contains(t, r.stdout, "needs approval")
	assert.Contains(t, r.stderr, ".jido/config.toml and tools are not trusted, so these parts are ignored")
	assert.Contains(t, r.stderr, `mode = "auto-edit"`)
	assert.Contains(t, r.stderr, `[[allow]] tool = "run_shell", command = "touch"`)
	code, _ := call("--yes", "write_file", `{"path":"locked/x.txt","content":"x"}`)
	assert.Equal(t, 1, code, "its deny rules apply all the same")
	assert.NoFileExists(t, filepath.Join(root, "made.txt"))
	r = runJido(t, "", "trust", "--root", root)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "--- trusted:")

	code, _ = call("write_file", `{"path":"b.txt","content":"b"}`)
	assert.Equal(t, 0, code, "auto-edit runs file changes")
	code, _ = call("run_shell", `{"command":"touch made.txt"}`)
	assert.Equal(t, 0, code, "an allow rule for the command")
	code, out := call("run_shell", `{"command":"rm a.txt"}`)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "needs approval")
	assert.Contains(t, out, `command = \"rm a.txt\"`, "the rule to add")
	assert.FileExists(t, filepath.Join(root, "a.txt"))
	code, out = call("--yes", "write_file", `{"path":"locked/x.txt","content":"x"}`)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "denied")
	assert.NoFileExists(t, filepath.Join(root, "locked/x.txt"))
	code, _ = call("--mode", "read-only", "--yes", "write_file", `{"path":"c.txt","content":"c"}`)
	assert.Equal(t, 1, code, "read-only refuses changes even with --yes")
	code, _ = call("--mode", "read-only", "read_file", `{"path":"a.txt"}`)
	assert.Equal(t, 0, code)

	writeTree(t, root, map[string]string{".jido/config.toml": "mode = \"auto-edit\"\n[[allow]]\ntool = \"run_shell\"\nclass = \"sometimes\"\n"})
	r = runJido(t, "", "call", "--root", root, "read_file", `{"path":"a.txt"}`)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, ".jido/config.toml:4", "a bad config names its file and line")
}

func TestRulesListAndRevoke(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".jido/config.toml": "[[allow]]\ntool = \"run_shell\"\ncommand = \"go test\"\n\n[[deny]]\ntool = \"delete_file\"\n"})
	require.Equal(t, 0, runJido(t, "", "trust", "--root", root).code)
	r := runJido(t, "", "rules", "--root", root)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `(?m)^ID +ACTION +TOOL +MATCHES +SOURCE$`, r.stdout, "people get a table")
	assert.Regexp(t, `(?m)^project-\d+ +allow +run_shell +command "go test" +\S*config.toml:1$`, r.stdout)
	r = runJido(t, "", "rules", "--root", root, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	out := decodeJSON(t, r.stdout)
	rules := out["rules"].([]any)
	require.Len(t, rules, 2)
	first := rules[0].(map[string]any)
	assert.Equal(t, "deny", first["action"], "deny rules are evaluated first")
	assert.Contains(t, first["source"], "config.toml:5")

	r = runJido(t, "", "rules", "--root", root, "--revoke", first["id"].(string), "--json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Len(t, decodeJSON(t, r.stdout)["rules"].([]any), 1)
	data, err := os.ReadFile(filepath.Join(root, ".jido/config.toml"))
	require.NoError(t, err)
	assert.NotContains(t, string(data), "delete_file", "revoked from the file")
	assert.Contains(t, string(data), "go test")
	assert.Equal(t, 1, runJido(t, "", "rules", "--root", root, "--revoke", "nope").code)
}

func TestUserToolsThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.go":                     "package main\n// TODO: one\n// TODO: two\n",
		".jido/tools/count_todos.lua": exampleTool(t, "count_todos.lua"),
		".jido/tools/broken.lua":      "return jido.tool{name = \"broken\"}",
	})
	extra := t.TempDir()
	writeTree(t, extra, map[string]string{"hi.lua": `return jido.tool{name = "say_hi", description = "Says hi.", run = function(a) return {hi = a.name} end,
  params = {properties = {name = {type = "string"}}, required = {"name"}}}`})

	r := runJido(t, "", "call", "--root", dir, "count_todos")
	assert.Equal(t, 1, r.code, "project tools load only once trusted: %s", r.stdout)
	assert.Contains(t, r.stderr, "tool file count_todos.lua (not loaded)")
	require.Equal(t, 0, runJido(t, "", "trust", "--root", dir).code)

	r = runJido(t, "", "call", "--root", dir, "count_todos")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, float64(2), decodeJSON(t, r.stdout)["result"].(map[string]any)["total"])
	assert.Contains(t, r.stderr, "tool file skipped: .jido/tools/broken.lua:1: jido.tool: description is missing")

	r = runJido(t, "", "call", "--root", dir, "--tools", extra, "say_hi", `{"name":"jido"}`)
	require.Equal(t, 0, r.code, r.stderr)
	assert.JSONEq(t, `{"hi":"jido"}`, mustJSON(t, decodeJSON(t, r.stdout)["result"]))
	r = runJido(t, "", "call", "--root", dir, "--tools", extra, "say_hi", `{}`)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "missing required argument `name`")

	r = runJido(t, "", "tools", "--root", dir, "--tools", extra, "--format", "mcp")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"name":"say_hi"`)
	assert.Contains(t, r.stdout, `"name":"count_todos"`)
}

// exampleTool returns the source of a shipped example tool.
func exampleTool(t *testing.T, name string) string {
	data, err := fs.ReadFile(scripts.Examples(), name)
	require.NoError(t, err)
	return string(data)
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}
