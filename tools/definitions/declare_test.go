package definitions

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryPathFieldIsDeclared fails when a params field whose name says it holds a path
// (or asks for a dry run) carries no `jido` tag: such a tool's calls would escape path
// rules and the journal.
func TestEveryPathFieldIsDeclared(t *testing.T) {
	for _, tool := range All() {
		assert.Empty(t, untaggedFields(tool.paramsType), tool.Name)
		if tool.Mutating && tool.Name != "run_shell" && tool.Name != "job_kill" && tool.Name != "plan_apply" && tool.Name != "undo" {
			named := tool.paramsType.Implements(reflect.TypeFor[interface{ NamedPaths() []string }]())
			assert.True(t, len(tool.fields.paths) > 0 || named, "%s changes files but names no path", tool.Name)
		}
	}
}

// TestUntaggedFieldsAreFound shows the completeness check failing: a params type with a
// path field left untagged, at the top level or in a list of edits, and a dry_run flag
// without its tag.
func TestUntaggedFieldsAreFound(t *testing.T) {
	type op struct {
		File string `json:"file"`
	}
	type params struct {
		Target string `json:"target"`
		Out    string `json:"output_file"`
		Name   string `json:"name"`
		Ops    []op   `json:"ops"`
		DryRun bool   `json:"dry_run"`
		Cwd    string `json:"cwd" jido:"workdir"`
	}
	assert.Equal(t, []string{"target", "output_file", "ops[].file", "dry_run"}, untaggedFields(reflect.TypeFor[params]()))
	assert.PanicsWithValue(t, "tool bad: fields [target output_file ops[].file dry_run] look like paths (or a dry run) but carry no jido tag (path, workdir, notpath or dry_run)",
		func() { Declare[params]("bad", "x", Decl{}) }, "declaring it fails")
}

// TestPathsComeFromTheDeclaration checks the paths, for rules and for the journal, that
// calls of the built-in tools name.
func TestPathsComeFromTheDeclaration(t *testing.T) {
	for name, c := range map[string]struct {
		tool          *Tool
		params        any
		rules, actsOn []string
	}{
		"read":            {ReadFile, ReadFileParams{Path: "a.go"}, []string{"a.go"}, []string{"a.go"}},
		"empty is root":   {ReadFile, ReadFileParams{}, []string{"."}, nil},
		"move":            {MoveFile, MoveFileParams{Source: "a", Destination: "b"}, []string{"a", "b"}, []string{"a", "b"}},
		"multi edit":      {MultiEdit, MultiEditParams{Path: "a", Edits: []EditOp{{}, {Path: "b"}}}, []string{"a", "b"}, []string{"a", "b"}},
		"edits only":      {MultiEdit, MultiEditParams{Edits: []EditOp{{Path: "b"}}}, []string{".", "b"}, []string{"b"}},
		"list files":      {ListFiles, ListFilesParams{Directory: "src"}, []string{"src"}, []string{"src"}},
		"shell workdir":   {RunShell, RunShellParams{Command: "ls", Cwd: "web"}, []string{"web"}, nil},
		"tests workdir":   {RunTests, RunTestsParams{Path: "pkg"}, []string{"pkg"}, nil},
		"no paths":        {JobOutput, JobOutputParams{JobID: "j1"}, nil, nil},
		"another tool's":  {ReadFile, WriteFileParams{Path: "x"}, nil, nil},
		"not params":      {ReadFile, nil, nil, nil},
		"pointer refused": {ReadFile, &ReadFileParams{Path: "x"}, nil, nil},
	} {
		assert.Equal(t, c.rules, c.tool.Paths(c.params), name)
		assert.Equal(t, c.actsOn, c.tool.ActedOn(c.params), name)
	}
}

// TestDryRunIsDeclared checks that exactly the tools with a tagged dry_run field have a
// dry run, and that AsDryRun sets it on a copy.
func TestDryRunIsDeclared(t *testing.T) {
	var with []string
	for _, tool := range All() {
		if tool.HasDryRun() {
			with = append(with, tool.Name)
		}
	}
	assert.Equal(t, []string{"apply_patch", "buffer_save", "create_directory", "delete_file", "edit_file", "edit_region", "move_file", "multi_edit", "plan_apply", "run_shell", "run_tests", "write_file"}, with)
	p := WriteFileParams{Path: "a"}
	dry, ok := AsDryRun(WriteFile, p)
	assert.True(t, ok)
	assert.True(t, WriteFile.IsDryRun(dry))
	assert.False(t, WriteFile.IsDryRun(p), "the original is unchanged")
	_, ok = AsDryRun(ReadFile, ReadFileParams{})
	assert.False(t, ok)
	assert.False(t, WriteFile.IsDryRun(DeleteFileParams{DryRun: true}), "another tool's params ask nothing of this one")
}

// TestSessionsAndRoles checks the availability and default role of the declarations.
func TestSessionsAndRoles(t *testing.T) {
	assert.True(t, PlanDiff.InSession(true))
	assert.False(t, PlanDiff.InSession(false))
	assert.False(t, Undo.InSession(true))
	assert.True(t, Undo.InSession(false))
	assert.True(t, ReadFile.InSession(true) && ReadFile.InSession(false))
	assert.Equal(t, RoleReader, Search.Role)
	assert.Equal(t, RoleFull, Undo.Role)
}

// TestPositionalParametersExist checks every declaration's positional parameters against
// its params' JSON names.
func TestPositionalParametersExist(t *testing.T) {
	for _, tool := range All() {
		for _, p := range tool.Positional {
			_, ok := tool.Schema().Properties[p]
			assert.True(t, ok, "%s: positional %q is no parameter", tool.Name, p)
		}
	}
}
