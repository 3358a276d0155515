package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/tools/export"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolsListHasAnnotationsAndSchemas(t *testing.T) {
	srv, _ := newServer(t, manager.Config{Web: &manager.WebConfig{}}, Options{}, nil)
	cs := connect(t, srv, nil)
	tools := listTools(t, cs)

	var want []string
	for _, d := range definitions.All() {
		if !strings.HasPrefix(d.Name, "plan_") { // plan mode's own tools
			want = append(want, d.Name)
		}
	}
	assert.ElementsMatch(t, want, slices.Collect(maps.Keys(tools)))
	for _, d := range definitions.All() {
		tool := tools[d.Name]
		if tool == nil {
			continue
		}
		exported := export.MCPTool(d)
		assert.Equal(t, d.Description, tool.Description, d.Name)
		assert.Equal(t, exported.Annotations, tool.Annotations, d.Name)
		require.NotNil(t, tool.Annotations.DestructiveHint, d.Name)
		assert.Equal(t, d.Destructive, *tool.Annotations.DestructiveHint, d.Name)
		assert.Equal(t, d.ReadOnly, tool.Annotations.ReadOnlyHint, d.Name)
		assert.Equal(t, d.Idempotent, tool.Annotations.IdempotentHint, d.Name)
		input := tool.InputSchema.(map[string]any)
		assert.Equal(t, "object", input["type"], d.Name)
		_, ok := builtin.ResultType(d.Name)
		require.True(t, ok, "built-in tool %s has a result type (bridge/results.go)", d.Name)
		output, isMap := tool.OutputSchema.(map[string]any)
		require.True(t, isMap, "%s has an output schema", d.Name)
		assert.Equal(t, "object", output["type"], d.Name)
		resolved(t, tool.OutputSchema)
	}
	assert.Equal(t, true, *tools["delete_file"].Annotations.DestructiveHint)
	assert.True(t, tools["read_file"].Annotations.ReadOnlyHint)
}

// outputCase is one call of TestEveryBuiltinToolMatchesItsOutputSchema; args may read the
// results of the calls before it.
type outputCase struct {
	tool string
	args func(prev map[string]map[string]any) map[string]any
}

// fixed returns args as they are.
func fixed(args map[string]any) func(map[string]map[string]any) map[string]any {
	return func(map[string]map[string]any) map[string]any { return args }
}

// TestEveryBuiltinToolMatchesItsOutputSchema calls every built-in tool through MCP, in the
// shapes its result takes (nil embedded parts included), and validates each structured
// result against the output schema the client was given.
func TestEveryBuiltinToolMatchesItsOutputSchema(t *testing.T) {
	files := map[string]string{
		"a.txt":      "alpha\nbeta\ngamma\n",
		"b.txt":      "one\ntwo\n",
		"go.mod":     "module example.com/x\n\ngo 1.21\n",
		"src/x.go":   "package x\n\nfunc X() {}\n",
		".gitignore": "ignored/\n",
	}
	work := []outputCase{
		{"read_file", fixed(map[string]any{"path": "a.txt"})},
		{"read_file", fixed(map[string]any{"path": "b.txt", "limit": 1})},
		{"file_exists", fixed(map[string]any{"path": "a.txt"})},
		{"file_exists", fixed(map[string]any{"path": "missing.txt"})},
		{"list_dir", fixed(map[string]any{"path": "."})},
		{"list_dir", fixed(map[string]any{"path": "src", "ignore_patterns": []any{"*.go"}})},
		{"list_files", fixed(map[string]any{})},
		{"glob", fixed(map[string]any{"pattern": "**/*.go"})},
		{"glob", fixed(map[string]any{"pattern": "*.none"})},
		{"search", fixed(map[string]any{"query": "alpha", "context": 1})},
		{"search", fixed(map[string]any{"query": "a", "output_mode": "files_with_matches"})},
		{"search", fixed(map[string]any{"query": "a", "output_mode": "count"})},
		{"write_file", fixed(map[string]any{"path": "new.txt", "content": "new\n", "dry_run": true})},
		{"write_file", fixed(map[string]any{"path": "new.txt", "content": "new\n"})},
		{"edit_file", fixed(map[string]any{"path": "a.txt", "old_string": "alpha", "new_string": "ALPHA", "dry_run": true})},
		{"edit_file", fixed(map[string]any{"path": "a.txt", "old_string": "alpha", "new_string": "ALPHA"})},
		{"edit_region", fixed(map[string]any{"path": "a.txt", "start_line": 2, "end_line": 2, "new_content": "BETA\n"})},
		{"multi_edit", fixed(map[string]any{"path": "b.txt", "edits": []any{
			map[string]any{"old_string": "one", "new_string": "1"}, map[string]any{"old_string": "two", "new_string": "2"},
		}})},
		{"apply_patch", fixed(map[string]any{"input": "*** Begin Patch\n*** Add File: added.txt\n+x\n*** Update File: b.txt\n@@\n-1\n+one\n*** End Patch", "dry_run": true})},
		{"apply_patch", fixed(map[string]any{"input": "*** Begin Patch\n*** Add File: added.txt\n+x\n*** End Patch"})},
		{"move_file", fixed(map[string]any{"source": "new.txt", "destination": "moved.txt", "dry_run": true})},
		{"move_file", fixed(map[string]any{"source": "new.txt", "destination": "moved.txt"})},
		{"delete_file", fixed(map[string]any{"path": "moved.txt", "dry_run": true})},
		{"delete_file", fixed(map[string]any{"path": "moved.txt"})},
		{"create_directory", fixed(map[string]any{"path": "made/deep", "dry_run": true})},
		{"create_directory", fixed(map[string]any{"path": "made/deep"})},
		{"create_directory", fixed(map[string]any{"path": "made"})},
		{"run_shell", fixed(map[string]any{"command": "echo hi; echo there >&2"})},
		{"run_shell", fixed(map[string]any{"command": "rm -rf src", "dry_run": true})},
		{"run_shell", fixed(map[string]any{"command": "sleep 30", "background": true})},
		{"job_output", func(prev map[string]map[string]any) map[string]any {
			return map[string]any{"job_id": prev["run_shell"]["job_id"]}
		}},
		{"job_kill", func(prev map[string]map[string]any) map[string]any {
			return map[string]any{"job_id": prev["run_shell"]["job_id"]}
		}},
		{"job_output", func(prev map[string]map[string]any) map[string]any {
			return map[string]any{"job_id": prev["job_kill"]["job_id"], "wait": 5}
		}},
		{"run_tests", fixed(map[string]any{"dry_run": true})},
		{"run_tests", fixed(map[string]any{"runner": "go", "command": []any{"echo", "ok"}})},
		{"undo", fixed(map[string]any{"list": true})},
		{"undo", fixed(map[string]any{})},
		{"todo_write", fixed(map[string]any{"action": "create", "title": "tidy", "location": map[string]any{"path": "a.txt", "line": 1}})},
		{"todo_write", fixed(map[string]any{"action": "complete", "id": "todo-1"})},
		{"todo_write", fixed(map[string]any{"action": "list"})},
		{"todo_write", fixed(map[string]any{"action": "export"})},
		{"todo_write", fixed(map[string]any{"action": "delete", "id": "todo-1"})},
		{"task", fixed(map[string]any{"action": "create", "title": "ship", "acceptance": []any{"tests pass"}, "priority": "high"})},
		{"task", fixed(map[string]any{"action": "add_subtask", "id": "task-1", "subtask": map[string]any{"title": "write it"}})},
		{"task", fixed(map[string]any{"action": "list", "filter": map[string]any{"status": "open"}})},
		{"task", fixed(map[string]any{"action": "export"})},
		{"task", fixed(map[string]any{"action": "delete", "id": "task-1"})},
		{"buffer_create", fixed(map[string]any{"buffer_name": "hello.py", "content": "def hello():\n    print('hi')\n", "mode": "python-mode"})},
		{"buffer_create", fixed(map[string]any{"buffer_name": " hidden", "content": ""})},
		{"buffer_append", fixed(map[string]any{"buffer_name": "hello.py", "text": "\nhello()\n"})},
		{"buffer_edit", fixed(map[string]any{"buffer_name": "hello.py", "old_text": "print('hi')", "new_text": "print('Hello')"})},
		{"buffer_get_content", fixed(map[string]any{"buffer_name": "hello.py", "max_lines": 2})},
		{"buffer_list", fixed(map[string]any{"include_hidden": true})},
		{"goto_line", fixed(map[string]any{"buffer_name": "hello.py", "line_number": 2})},
		{"search_in_buffer", fixed(map[string]any{"buffer_name": "hello.py", "search_text": "HELLO"})},
		{"buffer_save", fixed(map[string]any{"buffer_name": "hello.py", "file_path": "hello.py", "dry_run": true})},
		{"buffer_save", fixed(map[string]any{"buffer_name": "hello.py", "file_path": "./hello.py"})},
		{"current_directory", fixed(map[string]any{})},
	}
	plan := []outputCase{
		{"write_file", fixed(map[string]any{"path": "planned.txt", "content": "plan\n"})},
		{"buffer_create", fixed(map[string]any{"buffer_name": "notes", "content": "planned\n"})},
		{"buffer_save", fixed(map[string]any{"buffer_name": "notes", "file_path": "notes.txt"})},
		{"plan_diff", fixed(map[string]any{})},
		{"plan_apply", fixed(map[string]any{"dry_run": true})},
		{"plan_apply", fixed(map[string]any{})},
		{"plan_discard", fixed(map[string]any{})},
	}
	gitCases := []outputCase{
		{"git_status", fixed(map[string]any{})},
		{"git_status", fixed(map[string]any{"path": "src"})},
		{"git_diff", fixed(map[string]any{})},
		{"git_diff", fixed(map[string]any{"staged": true, "path": "src"})},
		{"git_log", fixed(map[string]any{"max_count": 5})},
		{"git_show", fixed(map[string]any{})},
		{"git_show", fixed(map[string]any{"ref": "HEAD", "path": "a.txt"})},
	}
	called := map[string]bool{}
	runOutputCases(t, manager.Config{Root: gitRepo(t, files)}, map[string]string{"a.txt": "changed\n", "new.txt": "n\n"}, gitCases, called)
	runOutputCases(t, manager.Config{JournalDir: t.TempDir()}, files, work, called)
	runOutputCases(t, manager.Config{Permissions: policy.New(policy.ModePlan), Yes: true}, files, plan, called)
	webCfg, base := loopbackWeb(t)
	webCases := []outputCase{
		{"web_fetch", fixed(map[string]any{"url": base + "/page"})},
		{"web_search", fixed(map[string]any{"query": "go"})},
	}
	runOutputCases(t, manager.Config{Web: webCfg}, files, webCases, called)
	var all []string
	for _, d := range definitions.All() {
		all = append(all, d.Name)
	}
	assert.ElementsMatch(t, all, slices.Collect(maps.Keys(called)), "every built-in tool is checked")
}

// gitRepo returns a directory holding files as a git repository's first commit.
func gitRepo(t *testing.T, files map[string]string) string {
	testenv.Program(t, "git")
	dir := t.TempDir()
	writeTree(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return dir
}

// runOutputCases runs cases in one session of a server with cfg on files, validating each
// result against its tool's output schema, and marks the tools called.
func runOutputCases(t *testing.T, cfg manager.Config, files map[string]string, cases []outputCase, called map[string]bool) {
	srv, _ := newServer(t, cfg, Options{}, files)
	cs := connect(t, srv, nil)
	tools := listTools(t, cs)
	prev := map[string]map[string]any{}
	for i, c := range cases {
		require.Contains(t, tools, c.tool)
		res := ok(t, call(t, cs, c.tool, c.args(prev)))
		if err := resolved(t, tools[c.tool].OutputSchema).Validate(res); err != nil {
			data, _ := json.MarshalIndent(res, "", "  ")
			t.Errorf("case %d: %s: the result does not match the output schema: %v\n%s", i, c.tool, err, data)
		}
		prev[c.tool] = res
		called[c.tool] = true
	}
}

func TestToolErrorsAreResults(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, map[string]string{"a.txt": "x\n"})
	cs := connect(t, srv, nil)
	cases := []struct {
		name    string
		tool    string
		args    any
		errType string
		message string // in the error's message
		detail  string // a key of the error's details
	}{
		{"missing file", "read_file", map[string]any{"path": "missing.txt"}, definitions.FileError, "missing.txt", ""},
		{"outside the root", "read_file", map[string]any{"path": "../x"}, definitions.PermissionError, "", ""},
		{"unknown tool", "read_fiel", map[string]any{"path": "a.txt"}, definitions.ValidationError, "unknown tool", "did_you_mean"},
		{"unknown argument", "read_file", map[string]any{"pth": "a.txt"}, definitions.ValidationError, "unknown argument", "did_you_mean"},
		{"missing argument", "read_file", map[string]any{}, definitions.ValidationError, "missing required argument", "field"},
		{"wrong type", "read_file", map[string]any{"path": 3}, definitions.ValidationError, "must be a string", "field"},
		{"arguments an array", "read_file", []any{"a.txt"}, definitions.ValidationError, "must be a JSON object, got an array", ""},
		{"arguments a string", "read_file", "a.txt", definitions.ValidationError, "must be a JSON object, got a string", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, c.tool, c.args)
			e := toolError(t, res)
			assert.Equal(t, c.errType, e["type"], e["message"])
			assert.Contains(t, e["message"], c.message)
			assert.NotEmpty(t, e["recovery"], "every error says how to recover")
			if c.detail != "" {
				assert.Contains(t, e["details"], c.detail)
			}
			assert.Nil(t, res.StructuredContent)
		})
	}
	ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt"})) // the session lives on
}

// elicitations answers approval forms with a fixed decision and records what it was shown.
type elicitations struct {
	action, decision string
	mu               sync.Mutex
	asked            []*sdk.ElicitParams
}

// handler is the client's elicitation handler.
func (e *elicitations) handler(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params)
	if e.action != "accept" {
		return &sdk.ElicitResult{Action: e.action}, nil
	}
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"decision": e.decision}}, nil
}

// count is the number of forms shown.
func (e *elicitations) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.asked)
}

// projectPolicy loads the default-mode policy of root as jido's CLI does: the project's
// .jido/config.toml, where "always" answers are written.
func projectPolicy(t *testing.T, root string) *policy.Engine {
	t.Helper()
	e, err := policy.Load("", filepath.Join(root, ".jido", "config.toml"))
	require.NoError(t, err)
	return e
}

func TestApprovalByElicitation(t *testing.T) {
	cases := []struct {
		name, action, decision string
		written                bool // the first write happens
		againAsks              bool // a second write of the same file asks again
		rule                   bool // the project config holds an allow rule after
	}{
		{"allow once", "accept", "allow_once", true, true, false},
		{"allow for the session", "accept", "allow_session", true, false, false},
		{"allow always", "accept", "allow_always", true, false, true},
		{"deny", "accept", "deny", false, true, false},
		{"decline", "decline", "", false, true, false},
		{"cancel", "cancel", "", false, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			srv, _ := newServer(t, manager.Config{Root: root, Permissions: projectPolicy(t, root)}, Options{}, map[string]string{"a.txt": "old\n"})
			answers := &elicitations{action: c.action, decision: c.decision}
			cs := connect(t, srv, &sdk.ClientOptions{ElicitationHandler: answers.handler})
			ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt"}))
			assert.Zero(t, answers.count(), "reading needs no approval")

			res := call(t, cs, "write_file", map[string]any{"path": "a.txt", "content": "new\n"})
			require.Equal(t, 1, answers.count())
			msg := answers.asked[0].Message
			assert.Contains(t, msg, "write_file")
			assert.Contains(t, msg, "a.txt")
			assert.Contains(t, msg, "Why: ")
			assert.Contains(t, msg, "-old\n+new", "the form shows the diff")
			data, err := os.ReadFile(filepath.Join(root, "a.txt"))
			require.NoError(t, err)
			if c.written {
				ok(t, res)
				assert.Equal(t, "new\n", string(data))
			} else {
				e := toolError(t, res)
				assert.Equal(t, definitions.PermissionError, e["type"])
				assert.Contains(t, e["message"], "denied")
				assert.Equal(t, "old\n", string(data), "a denied write leaves the file as it was")
			}

			ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt"}))
			call(t, cs, "write_file", map[string]any{"path": "a.txt", "content": "newer\n"})
			assert.Equal(t, map[bool]int{true: 2, false: 1}[c.againAsks], answers.count())
			config, _ := os.ReadFile(filepath.Join(root, ".jido", "config.toml"))
			assert.Equal(t, c.rule, strings.Contains(string(config), "write_file"), "config:\n%s", config)
		})
	}
}

func TestHeadlessClientGetsThePolicyRule(t *testing.T) {
	root := t.TempDir()
	srv, _ := newServer(t, manager.Config{Root: root, Permissions: projectPolicy(t, root)}, Options{}, nil)
	cs := connect(t, srv, nil) // no elicitation handler: no elicitation capability
	e := toolError(t, call(t, cs, "write_file", map[string]any{"path": "n.txt", "content": "x"}))
	assert.Equal(t, definitions.PermissionError, e["type"])
	assert.Contains(t, e["message"], "needs approval and no one can give it here")
	assert.Contains(t, e["details"].(map[string]any)["rule"], "write_file", "the error names the rule to add")
	assert.NoFileExists(t, filepath.Join(root, "n.txt"))
}

func TestYesApprovesAllButDenyRules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".jido/config.toml": "[[deny]]\ntool = \"write_file\"\npaths = [\"secret/**\"]\n"})
	srv, _ := newServer(t, manager.Config{Root: root, Permissions: projectPolicy(t, root), Yes: true}, Options{}, nil)
	answers := &elicitations{action: "accept", decision: "deny"}
	cs := connect(t, srv, &sdk.ClientOptions{ElicitationHandler: answers.handler})
	ok(t, call(t, cs, "write_file", map[string]any{"path": "n.txt", "content": "x"}))
	e := toolError(t, call(t, cs, "write_file", map[string]any{"path": "secret/k.txt", "content": "x"}))
	assert.Equal(t, definitions.PermissionError, e["type"])
	assert.Zero(t, answers.count(), "--yes asks no one")
}

func TestProgressNotificationsWhileACommandRuns(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{ProgressEvery: 200 * time.Millisecond}, nil)
	var mu sync.Mutex
	var got []*sdk.ProgressNotificationParams
	cs := connect(t, srv, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, req.Params)
	}})
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{
		Name: "run_shell", Arguments: map[string]any{"command": "echo started; sleep 2"},
		Meta: sdk.Meta{"progressToken": "tok-1"},
	})
	require.NoError(t, err)
	ok(t, res)
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(got), 4, "about one notification per 200 ms of a 2 s command")
	last := 0.0
	for _, p := range got {
		assert.Equal(t, "tok-1", p.ProgressToken)
		assert.Greater(t, p.Progress, last, "progress grows")
		last = p.Progress
		assert.Regexp(t, `^run_shell: \d+ s, \d+(\.\d)? (B|KB|MB) of output$`, p.Message)
	}
	assert.Contains(t, got[len(got)-1].Message, "8 B of output", `"started\n" was written`)

	got = nil
	ok(t, call(t, cs, "run_shell", map[string]any{"command": "sleep 0.5"}))
	assert.Empty(t, got, "no progress token, no notifications")
}

func TestRootSelection(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"where.txt": "server root\n", "sub/where.txt": "sub\n"})
	other := t.TempDir()
	writeTree(t, other, map[string]string{"where.txt": "other\n"})
	cases := []struct {
		name    string
		opts    Options
		caps    *sdk.ClientCapabilities // nil: the SDK's default, with roots
		roots   []*sdk.Root
		want    string // content of where.txt in the session's root
		refused bool
	}{
		{"client root", Options{ClientRoots: true}, nil, []*sdk.Root{fileRoot(other)}, "other\n", false},
		{"first file root", Options{ClientRoots: true}, nil, []*sdk.Root{{URI: "https://example.com/x"}, fileRoot(other)}, "other\n", false},
		{"no roots listed", Options{ClientRoots: true}, nil, nil, "server root\n", false},
		{"client without roots", Options{ClientRoots: true}, &sdk.ClientCapabilities{}, []*sdk.Root{fileRoot(other)}, "server root\n", false},
		{"fixed root", Options{}, nil, []*sdk.Root{fileRoot(other)}, "server root\n", false},
		{"confined inside", Options{ClientRoots: true, ConfineRoots: true}, nil, []*sdk.Root{fileRoot(filepath.Join(base, "sub"))}, "sub\n", false},
		{"confined outside", Options{ClientRoots: true, ConfineRoots: true}, nil, []*sdk.Root{fileRoot(other)}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := newServer(t, manager.Config{Root: base, OpenRoot: func(string) (manager.RootSetup, error) { return manager.RootSetup{}, nil }}, c.opts, nil)
			cs := connect(t, srv, &sdk.ClientOptions{Capabilities: c.caps}, c.roots...)
			res := call(t, cs, "read_file", map[string]any{"path": "where.txt"})
			if c.refused {
				e := toolError(t, res)
				assert.Equal(t, definitions.PermissionError, e["type"])
				assert.Contains(t, e["message"], "outside the server's root")
				_, err := cs.ListTools(t.Context(), nil)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "outside the server's root")
				return
			}
			assert.Contains(t, ok(t, res)["content"], c.want)
		})
	}
}

// fakeTool declares a tool without parameters, as a user's Lua tool is declared.
func fakeTool(t *testing.T, name, description string, flags definitions.Flags) *definitions.Tool {
	t.Helper()
	tool, err := definitions.NewTool(name, description, flags, &jsonschema.Schema{Type: "object"})
	require.NoError(t, err)
	return tool
}

// TestToolListFollowsTheSession checks the sync of a session's tools with a fake: two
// different tool lists in turn, then a list equal to the second.
func TestToolListFollowsTheSession(t *testing.T) {
	alpha := fakeTool(t, "alpha", "first", definitions.Flags{ReadOnly: true})
	beta := fakeTool(t, "beta", "second", definitions.Flags{})
	betaEdited := fakeTool(t, "beta", "second, edited", definitions.Flags{})
	gamma := fakeTool(t, "gamma", "third", definitions.Flags{Mutating: true})

	server := sdk.NewServer(&sdk.Implementation{Name: "fake"}, &sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}})
	ts := toolSet{server: server, call: func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}}
	changed := make(chan struct{}, 10)
	ct, st := sdk.NewInMemoryTransports()
	_, err := server.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	cs := connectClient(t, ct, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	waitChanged := func() { // at least one notification; a sync's changes may send several
		t.Helper()
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatal("no notifications/tools/list_changed")
		}
		for {
			select {
			case <-changed:
			case <-time.After(200 * time.Millisecond):
				return
			}
		}
	}
	descriptions := func() map[string]string {
		out := map[string]string{}
		for name, tool := range listTools(t, cs) {
			out[name] = tool.Description
		}
		return out
	}

	readFile, _ := definitions.Lookup("read_file")
	assert.True(t, ts.sync([]*definitions.Tool{alpha, beta, readFile}))
	waitChanged()
	assert.Equal(t, map[string]string{"alpha": "first", "beta": "second", "read_file": readFile.Description}, descriptions())
	assert.NotNil(t, listTools(t, cs)["read_file"].OutputSchema, "a built-in tool has its output schema")
	assert.Nil(t, listTools(t, cs)["alpha"].OutputSchema, "a user tool has none")

	assert.True(t, ts.sync([]*definitions.Tool{betaEdited, gamma, readFile}))
	waitChanged()
	assert.Equal(t, map[string]string{"beta": "second, edited", "gamma": "third", "read_file": readFile.Description}, descriptions())
	assert.True(t, ts.has("gamma"))
	assert.False(t, ts.has("alpha"))

	same := fakeTool(t, "gamma", "third", definitions.Flags{Mutating: true})
	assert.False(t, ts.sync([]*definitions.Tool{betaEdited, same, readFile}), "a new value of the same declaration is no change")
	select {
	case <-changed:
		t.Fatal("a notification without a change")
	case <-time.After(200 * time.Millisecond):
	}
}

// TestUserToolAppearsWhileTheSessionLives: a tool file added while the session lives is
// offered, with one notifications/tools/list_changed; none comes while nothing changes,
// the first listing (which opens the jido session and adds its tools) included.
func TestUserToolAppearsWhileTheSessionLives(t *testing.T) {
	srv, root := newServer(t, manager.Config{}, Options{SyncEvery: 20 * time.Millisecond}, nil)
	changed := make(chan struct{}, 10)
	cs := connect(t, srv, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	assert.NotContains(t, listTools(t, cs), "shout")
	ok(t, call(t, cs, "list_dir", nil))
	select {
	case <-changed:
		t.Fatal("notifications/tools/list_changed without a change")
	case <-time.After(20 * 20 * time.Millisecond): // twenty syncs
	}
	writeTree(t, root, map[string]string{".jido/tools/shout.lua": `return jido.tool{
  name = "shout", description = "Says it louder.",
  params = {type = "object", properties = {text = {type = "string", description = "what to say"}}, required = {"text"}},
  run = function(args) return {text = string.upper(args.text)} end,
}`})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("adding a tool file sends no notifications/tools/list_changed")
	}
	tool := listTools(t, cs)["shout"]
	require.NotNil(t, tool, "the notification tells of the new tool")
	assert.Equal(t, "Says it louder.", tool.Description)
	assert.Equal(t, map[string]any{"text": "HI"}, ok(t, call(t, cs, "shout", map[string]any{"text": "hi"})))
	assert.Empty(t, changed, "one notification")
}

// TestLoggingLevels: logging/setLevel takes the levels of the spec; another is a -32602
// invalid params error.
func TestLoggingLevels(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	cs := connect(t, srv, nil)
	for _, level := range logLevels {
		assert.NoError(t, cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)}), level)
	}
	for _, level := range []string{"bogus", "", "ERROR", "warn", "fatal"} {
		err := cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)})
		e, isWire := errors.AsType[*jsonrpc.Error](err)
		require.True(t, isWire, "%q: a JSON-RPC error, got %v", level, err)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.Code, "%q", level)
		assert.Contains(t, e.Message, "emergency", "the message names the levels")
	}
}

func TestRunAnswersTheLastCallBeforeItEnds(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{ProgressEvery: 50 * time.Millisecond}, nil)
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(t.Context())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx, st) }()
	running := make(chan struct{}, 100)
	cs := connectClient(t, ct, &sdk.ClientOptions{ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
		running <- struct{}{}
	}})
	result := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
			Name: "run_shell", Arguments: map[string]any{"command": "sleep 0.5; echo done"}, Meta: sdk.Meta{"progressToken": 1},
		})
		assert.NoError(t, err)
		result <- res
	}()
	<-running
	cancel()
	assert.Equal(t, "done\n", ok(t, <-result)["stdout"], "the answer of the running call goes out before the session ends")
	select {
	case err := <-ran:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	require.NoError(t, cs.Wait(), "the session ended")
}

// TestProfiles serves a profile's dialect: its tools, with no output schema where the
// profile reshapes the result (forj's read_file is not jido's), Claude Code's text results
// as text, and seed 001's error envelope as the error's content.
func TestProfiles(t *testing.T) {
	srv, _ := newServer(t, manager.Config{Profile: profile.Forj}, Options{}, map[string]string{"a.txt": "x\n"})
	cs := connect(t, srv, nil)
	tools := listTools(t, cs)
	assert.Contains(t, tools, "edit_region")
	assert.NotContains(t, tools, "edit_file", "not a forj tool")
	assert.Nil(t, tools["read_file"].OutputSchema, "forj's read_file result is not jido's")
	res := ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt", "unknown": 1}))
	assert.Equal(t, "x\n", res["content"], "raw content, unknown fields ignored")
	e := toolError(t, call(t, cs, "read_file", map[string]any{"path": "../x"}))
	assert.Equal(t, definitions.ValidationError, e["type"], "forj: a sandbox violation is a validation-error")

	srv, _ = newServer(t, manager.Config{Profile: profile.Claude}, Options{}, map[string]string{"a.txt": "x\n"})
	cs = connect(t, srv, nil)
	r := call(t, cs, "Read", map[string]any{"file_path": "a.txt"})
	require.False(t, r.IsError, text(t, r))
	assert.Equal(t, "     1\tx\n", text(t, r), "a text result is the text")
	assert.Nil(t, r.StructuredContent)

	srv, _ = newServer(t, manager.Config{Profile: profile.Emacs}, Options{}, nil)
	cs = connect(t, srv, nil)
	r = call(t, cs, "file_read", map[string]any{"file_path": "missing.txt"})
	assert.True(t, r.IsError)
	assert.JSONEq(t, `{"status":"error","error":"open missing.txt: file does not exist","details":"file-error: Check the path with directory_list or glob"}`, text(t, r))
}
