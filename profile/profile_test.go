package profile

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/testrun"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfilesAreWellFormed checks every profile's declaration: unique names, a canonical
// tool behind each, schemas that compile, apply_patch everywhere, roles and spawn rules
// naming the profile's own tools and roles.
func TestProfilesAreWellFormed(t *testing.T) {
	assert.Equal(t, []string{"claude", "codex", "emacs", "forge", "forj", "jido", "jidocode"}, Names())
	for _, name := range Names() {
		p, err := Get(name)
		require.NoError(t, err)
		if p.Canonical() {
			assert.Empty(t, p.Tools, "jido maps nothing")
			continue
		}
		seen := map[string]bool{}
		for _, tool := range p.Tools {
			assert.False(t, seen[tool.Name], "%s: %s twice", name, tool.Name)
			seen[tool.Name] = true
			decl, err := tool.Decl()
			require.NoError(t, err, "%s.%s", name, tool.Name)
			assert.NotEmpty(t, decl.Description, "%s.%s", name, tool.Name)
			canon, ok := definitions.Lookup(tool.Canonical)
			require.True(t, ok, "%s.%s: canonical %s", name, tool.Name, tool.Canonical)
			assert.Equal(t, canon.Flags, decl.Flags, "%s.%s keeps the canonical tool's flags", name, tool.Name)
			for _, r := range tool.Routes {
				_, ok := definitions.Lookup(r)
				assert.True(t, ok, "%s.%s routes to %s", name, tool.Name, r)
			}
		}
		for _, tool := range []string{"apply_patch", "git_status", "git_diff", "git_log", "git_show"} {
			assert.True(t, seen[tool], "%s offers %s", name, tool)
		}
		for role, tools := range p.Roles {
			for _, tool := range tools {
				assert.True(t, seen[tool], "%s role %s: no tool %s", name, role, tool)
			}
		}
		for role, tools := range p.Provided {
			assert.True(t, p.HasRole(role), "%s: provided tools of unknown role %s", name, role)
			for _, tool := range tools {
				assert.False(t, seen[tool], "%s role %s: provided tool %s is one of the profile's own", name, role, tool)
				assert.Contains(t, p.RoleTools(role, false), tool)
			}
		}
		for role, spawns := range p.Spawns {
			assert.True(t, p.HasRole(role), "%s: spawn rule of unknown role %s", name, role)
			for _, s := range spawns {
				assert.True(t, p.HasRole(s), "%s: %s spawns unknown role %s", name, role, s)
			}
		}
	}
	_, err := Get("vscode")
	assert.ErrorContains(t, err, `unknown profile "vscode" (want one of claude, codex, emacs, forge, forj, jido, jidocode)`)
}

// TestEmacsIsSeed001 compares the emacs profile's declarations with seed 001's function
// list (testdata, copied from the seed): the same tools, descriptions, parameters, types
// and required parameters; apply_patch and the git tools come on top, as in every profile.
func TestEmacsIsSeed001(t *testing.T) {
	data, err := os.ReadFile("testdata/seed001_functions.json")
	require.NoError(t, err)
	var seed []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Parameters  struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"parameters"`
	}
	require.NoError(t, json.Unmarshal(data, &seed))
	require.Len(t, seed, 13)
	var names []string
	for _, tool := range Emacs.Tools {
		names = append(names, tool.Name)
	}
	for _, f := range seed {
		tool, ok := Emacs.Lookup(f.Name)
		require.True(t, ok, f.Name)
		decl, err := tool.Decl()
		require.NoError(t, err)
		assert.Equal(t, f.Description, decl.Description, f.Name)
		schema := decl.Schema()
		assert.ElementsMatch(t, f.Parameters.Required, schema.Required, f.Name)
		require.Len(t, schema.Properties, len(f.Parameters.Properties), f.Name)
		for prop, want := range f.Parameters.Properties {
			got, ok := schema.Properties[prop]
			require.True(t, ok, "%s.%s", f.Name, prop)
			typ := got.Type
			if typ == "" && len(got.Types) > 0 {
				typ = got.Types[0]
			}
			assert.Equal(t, want.Type, typ, "%s.%s", f.Name, prop)
		}
		names = slices.DeleteFunc(names, func(n string) bool { return n == f.Name })
	}
	assert.Equal(t, []string{"apply_patch", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"}, names, "the emacs profile's tools beyond seed 001")
}

// TestMap checks the argument mapping: renames, units, defaults, conversions, fixed
// arguments, unknown arguments (refused, or ignored by forj), and errors in the dialect's
// names.
func TestMap(t *testing.T) {
	tests := []struct {
		profile *Profile
		tool    string
		args    map[string]any
		name    string         // the canonical tool
		canon   map[string]any // or
		err     string
	}{
		{Claude, "Read", map[string]any{"file_path": "a.go", "offset": 3.0}, "read_file", map[string]any{"path": "a.go", "offset": 3.0}, ""},
		{Claude, "Bash", map[string]any{"command": "ls", "timeout": 20000.0, "description": "list"}, "run_shell", map[string]any{"command": "ls", "timeout": 20.0}, ""},
		{Claude, "Bash", map[string]any{"command": "ls", "timeout": 1.5}, "", nil, "`timeout` must be an integer"},
		{Claude, "Grep", map[string]any{"pattern": "x", "-i": true, "glob": "*.go", "type": "py", "-C": 2.0}, "search",
			map[string]any{"query": "x", "is_regex": true, "case_sensitive": false, "include_paths": []any{"*.go", "*.py", "*.pyi"}, "context": 2.0, "output_mode": "files_with_matches"}, ""},
		{Claude, "Edit", map[string]any{"file_path": "a.go", "old_string": "a"}, "", nil, "missing required argument `new_string`"},
		{Claude, "Edit", map[string]any{"path": "a.go", "old_string": "a", "new_string": "b"}, "", nil, "unknown argument `path`"},
		{Claude, "TodoWrite", map[string]any{"todos": []any{map[string]any{"content": "a", "status": "pending", "activeForm": "A"}}}, "todo_write",
			map[string]any{"action": "replace", "todos": []any{map[string]any{"title": "a", "status": "open"}}}, ""},
		{Forj, "search", map[string]any{"query": "x", "nonsense": 1.0}, "search", map[string]any{"query": "x", "case_sensitive": false}, ""},
		{Forj, "read_file", map[string]any{"path": "a.el"}, "read_file", map[string]any{"path": "a.el", "line_numbers": false}, ""},
		{Forj, "write_file", map[string]any{"path": "a.el", "content": "x", "no_backup": true}, "write_file", map[string]any{"path": "a.el", "content": "x"}, ""},
		{Forge, "read", map[string]any{"path": "/p/a.ts", "range": []any{2.0, 5.0}}, "read_file", map[string]any{"path": "/p/a.ts", "start_line": 2.0, "end_line": 5.0, "line_numbers": false}, ""},
		{Forge, "read", map[string]any{"path": "a.ts", "range": []any{2.0}}, "", nil, "range must be [startLine, endLine]"},
		{Forge, "read", map[string]any{"path": "a.ts", "range": []any{0.0, 1.5}}, "", nil, "1-based line numbers"},
		{Forge, "edit", map[string]any{"path": "a", "oldStr": "x", "newStr": "y"}, "edit_file", map[string]any{"path": "a", "old_string": "x", "new_string": "y"}, ""},
		{Forge, "run_tests", map[string]any{"command": "go test -run 'TestA|TestB' ./..."}, "run_tests", map[string]any{"command": []any{"go", "test", "-run", "TestA|TestB", "./..."}}, ""},
		{Forge, "run_tests", map[string]any{"command": "go test $(ls)"}, "", nil, "not a simple command line"},
		{Codex, "shell", map[string]any{"command": []any{"ls", "-l"}, "workdir": "src", "timeout_ms": 1500.0}, "run_shell", map[string]any{"cmd": []any{"ls", "-l"}, "cwd": "src", "timeout": 1.5}, ""},
		{Codex, "shell", map[string]any{"command": []any{"apply_patch", "*** Begin Patch"}}, "apply_patch", map[string]any{"input": "*** Begin Patch"}, ""},
		{Emacs, "directory_list", map[string]any{"directory_path": "src"}, "list_dir", map[string]any{"path": "src"}, ""},
		{Emacs, "directory_list", map[string]any{"directory_path": "src", "recursive": true}, "glob", map[string]any{"path": "src", "pattern": "**/*"}, ""},
		{Emacs, "directory_list", map[string]any{"pattern": "*.txt"}, "glob", map[string]any{"pattern": "*.txt"}, ""},
		{JidoCode, "multi_edit_file", map[string]any{"path": "a.ex", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}, "multi_edit",
			map[string]any{"path": "a.ex", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.profile.Name+"."+tc.tool, func(t *testing.T) {
			tool, ok := tc.profile.Lookup(tc.tool)
			require.True(t, ok)
			c, terr := tc.profile.Map(tool, tc.args)
			if tc.err != "" {
				require.NotNil(t, terr)
				assert.Contains(t, terr.Message, tc.err)
				assert.Equal(t, definitions.ValidationError, terr.Type)
				return
			}
			require.Nil(t, terr)
			assert.Equal(t, tc.name, c.Name)
			assert.Equal(t, tc.canon, c.Canon)
		})
	}
}

// TestUnknown names the profile that has a tool, and this profile's name for it.
func TestUnknown(t *testing.T) {
	e := Claude.Unknown("read_file")
	assert.Equal(t, "`read_file` is a tool of the jido, forj, jidocode profiles, not of the claude profile this session speaks", e.Message)
	assert.Equal(t, "Read", e.Details["did_you_mean"])
	e = Forge.Unknown("plan_write")
	assert.Contains(t, e.Message, "unknown tool `plan_write`", "plan_write is forge's own: Forge.Lookup finds it, Unknown is never asked")
	e = Emacs.Unknown("shell")
	assert.Equal(t, "`shell` is a tool of the codex profile, not of the emacs profile this session speaks", e.Message)
	assert.Nil(t, e.Details["did_you_mean"], "emacs runs no commands")
	e = Codex.Unknown("Reed")
	assert.Contains(t, e.Message, "unknown tool `Reed`")
}

// TestErrors maps errors: forj's sandbox refusals become validation errors, the canonical
// argument names become the dialect's, and emacs wraps every error in its envelope.
func TestErrors(t *testing.T) {
	outside := definitions.NewError(definitions.PermissionError, "open ../x: outside").With("sandbox", "outside-root")
	e, shown := Forj.Error(nil, outside)
	assert.Equal(t, definitions.ValidationError, e.Type)
	assert.Nil(t, shown)
	assert.Equal(t, definitions.PermissionError, outside.Type, "the original is left alone")
	denied := definitions.NewError(definitions.PermissionError, "the user denied write_file")
	e, _ = Forj.Error(nil, denied)
	assert.Equal(t, definitions.PermissionError, e.Type, "a user's denial is not the sandbox's")

	edit, _ := Forge.Lookup("edit")
	notFound := definitions.NewError(definitions.ConflictError, "old_string was not found").With("field", "old_string").Hint("copy `old_string` from the file")
	e, _ = Forge.Error(edit, notFound)
	assert.Equal(t, "oldStr was not found", e.Message)
	assert.Equal(t, []string{"copy `oldStr` from the file"}, e.Recovery)
	assert.Equal(t, "oldStr", e.Details["field"])
	read, _ := Claude.Lookup("Read")
	e, _ = Claude.Error(read, definitions.NewError(definitions.FileError, "the path is a directory").Hint("pass `path` of a file"))
	assert.Equal(t, "the path is a directory", e.Message, "a bare common word is left alone")
	assert.Equal(t, []string{"pass `file_path` of a file"}, e.Recovery)

	edit, _ = Claude.Lookup("Edit")
	e, _ = Claude.Error(edit, definitions.NewError(definitions.ConflictError, "cannot edit a.go: it has not been read in this session").Hint("Read it with read_file first, then retry", "find it with `glob` or search"))
	assert.Equal(t, []string{"Read it with Read first, then retry", "find it with `Glob` or search"}, e.Recovery, "canonical tool names become the dialect's")
	e, _ = Claude.Error(nil, definitions.NewError(definitions.ValidationError, "`read_file` is a tool of the jido profile"))
	assert.Equal(t, "`read_file` is a tool of the jido profile", e.Message, "an error about the dialect itself is left alone")

	_, shown = Emacs.Error(nil, definitions.NewError(definitions.FileError, "open a: no such file").Hint("Check the path"))
	assert.Equal(t, emacsError{Status: "error", Error: "open a: no such file", Details: "file-error: Check the path"}, shown)
}

// TestShapes checks result shapes the txtar cases of package manager cannot show: integer
// mtimes, run_tests' summaries, a dry run's or a background job's result passing through.
func TestShapes(t *testing.T) {
	mtime := time.Unix(1700000000, 5)
	list := &definitions.FileList{Files: []definitions.FileInfo{{Path: "a.el", Size: 3, MTime: mtime, Type: "file"}}}
	lf, _ := Forj.Lookup("list_files")
	data, err := json.Marshal(Forj.Result(&Call{Tool: lf, Result: list}))
	require.NoError(t, err)
	assert.JSONEq(t, `[{"path":"a.el","size":3,"mtime":1700000000,"type":"file"}]`, string(data))

	exit := 1
	tests := &builtin.RunTestsResult{Summary: &testrun.Summary{Total: 3, Passed: 2, Failed: 1, Report: "1 failed",
		Failures: []testrun.Failure{{Name: "TestB"}}}, ExitCode: &exit}
	rt, _ := Forge.Lookup("run_tests")
	data, err = json.Marshal(Forge.Result(&Call{Tool: rt, Result: tests}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"passed":false,"output":"1 failed","testResults":[{"name":"TestB","result":"fail"}]}`, string(data))
	rt, _ = Forj.Lookup("run_tests")
	data, err = json.Marshal(Forj.Result(&Call{Tool: rt, Result: tests}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"total":3,"passed":2,"failed":1,"errors":0,"skipped":0,"report":"1 failed"}`, string(data))

	job := &builtin.ShellResult{JobID: "job-1"}
	bash, _ := Claude.Lookup("Bash")
	assert.Equal(t, "Command running in background with ID: job-1", Claude.Result(&Call{Tool: bash, Result: job}))
	sh, _ := Forge.Lookup("bash")
	assert.Same(t, job, Forge.Result(&Call{Tool: sh, Result: job}), "nothing ran: the canonical result")
	done := &builtin.ShellResult{Result: &shell.Result{ExitCode: 0, Stdout: "ok\n"}}
	assert.Equal(t, forgeBashResult{Stdout: "ok\n"}, Forge.Result(&Call{Tool: sh, Result: done}))
	assert.Equal(t, map[string]any{"x": 1.0}, Forge.Result(&Call{Tool: sh, Result: map[string]any{"x": 1.0}}), "a reshaped result passes")
}

// TestSpawnRules are seed 002's: type 2 spawns type 1; type 3 types 1 and 2; the refinery
// types 1 to 3; the executor every type and the refinery; the others nothing.
func TestSpawnRules(t *testing.T) {
	roles := []string{"captain", "type1", "type2", "type3", "refinery", "executor"}
	may := map[string][]string{"type2": {"type1"}, "type3": {"type1", "type2"}, "refinery": {"type1", "type2", "type3"}, "executor": {"type1", "type2", "type3", "refinery"}}
	for _, parent := range roles {
		for _, child := range roles {
			assert.Equal(t, slices.Contains(may[parent], child), Forge.MaySpawn(parent, child), "%s spawns %s", parent, child)
		}
	}
	assert.False(t, Claude.MaySpawn("type2", "type1"), "only forge has spawn rules")
}
