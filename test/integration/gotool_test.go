package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool added through the Go API from its four parts alone: its params and result types
// (the declaration's), its description, and its implementation; its script is the one every
// Go tool gets (return jido.copy_file(...)). Nothing else in jido names it.

// copyFileParams are copy_file's arguments: the tags say which fields are paths it acts on
// and which one asks for a dry run.
type copyFileParams struct {
	Source      string `json:"source" jido:"path" jsonschema:"file to copy, relative to the project root"`
	Destination string `json:"destination" jido:"path" jsonschema:"the copy's path, relative to the project root"`
	DryRun      bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"say what would be copied without copying"`
}

// copyFileResult is copy_file's result; the embedded Backup receives its undo entry.
type copyFileResult struct {
	definitions.Backup
	Destination string `json:"destination"`
	Bytes       int    `json:"bytes"`
	DryRun      bool   `json:"dry_run,omitempty"`
}

// Outcome says what the copy did, for people.
func (r *copyFileResult) Outcome() string {
	return fmt.Sprintf("copied %d bytes to %s", r.Bytes, r.Destination)
}

var copyFile = definitions.Declare[copyFileParams]("copy_file", "Copies a file of the project to another path.",
	definitions.Decl{Flags: definitions.Flags{Mutating: true}, Role: definitions.RoleEditor})

// copyFileImpl copies through the session's store, so that plan mode plans it.
func copyFileImpl(_ context.Context, d builtin.Deps, p copyFileParams) (*copyFileResult, error) {
	f, err := d.Store.ReadFile(p.Source)
	if err != nil {
		return nil, err
	}
	res := &copyFileResult{Destination: p.Destination, Bytes: len(f.Data), DryRun: p.DryRun}
	if p.DryRun {
		return res, nil
	}
	_, _, err = d.Store.WriteFile(p.Destination, f.Data, security.WriteOptions{})
	return res, err
}

// TestGoToolFromItsDeclaration adds copy_file to a manager and checks that every table
// derived from a declaration covers it: the session offers it, deny rules on its paths
// apply, undo restores what it wrote, plan mode plans it, the chat renders its outcome,
// and its result has its type.
func TestGoToolFromItsDeclaration(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "hello\n"})
	userConfig := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(userConfig, []byte("[[deny]]\ntool = \"*\"\npaths = [\"locked/**\"]\n"), 0o600))
	perms, err := policy.Load(userConfig, "")
	require.NoError(t, err)
	m, err := manager.New(manager.Config{Root: root, Permissions: perms, Yes: true, JournalDir: t.TempDir(),
		Tools: []*builtin.Tool{builtin.New(copyFile, copyFileImpl)}})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })

	var offered []string
	for _, tool := range s.Tools() {
		offered = append(offered, tool.Name)
	}
	assert.Contains(t, offered, "copy_file")

	exec := chat.NewExecutor(s)
	out := exec.Execute(t.Context(), agent.ToolCall{Name: "copy_file", Args: map[string]any{"source": "a.txt", "destination": "b.txt"}})
	require.True(t, out.OK, "%s", out.Content)
	assert.Equal(t, "copied 6 bytes to b.txt", out.Outcome, "the chat renders it")
	assert.FileExists(t, filepath.Join(root, "b.txt"))

	res := s.Call(t.Context(), manager.ToolCall{Name: "copy_file", Args: map[string]any{"source": "a.txt", "destination": "locked/c.txt"}})
	require.False(t, res.OK)
	assert.Equal(t, definitions.PermissionError, res.Error.Type, "a deny rule on its destination applies: %s", res.Error.Message)
	assert.NoFileExists(t, filepath.Join(root, "locked", "c.txt"))

	vals, terr := s.Eval(t.Context(), `return jido.call("copy_file", {source = "a.txt", destination = "d.txt", dry_run = true})`)
	require.Nil(t, terr)
	dry, ok := vals[0].(*copyFileResult)
	require.True(t, ok, "%T", vals[0])
	assert.True(t, dry.DryRun, "jido.call reaches it")
	assert.NoFileExists(t, filepath.Join(root, "d.txt"))

	res = s.Call(t.Context(), manager.ToolCall{Name: "undo"})
	require.True(t, res.OK, "%+v", res.Error)
	assert.NoFileExists(t, filepath.Join(root, "b.txt"), "undo removes the copy")

	planned, err := m.Open(t.Context(), "", manager.WithMode(policy.ModePlan))
	require.NoError(t, err)
	t.Cleanup(func() { planned.Close() })
	res = planned.Call(t.Context(), manager.ToolCall{Name: "copy_file", Args: map[string]any{"source": "a.txt", "destination": "e.txt"}})
	require.True(t, res.OK, "%+v", res.Error)
	typed, err := manager.ResultAs[copyFileResult](res)
	require.NoError(t, err, "its result has its type")
	assert.Equal(t, 6, typed.Bytes)
	assert.NoFileExists(t, filepath.Join(root, "e.txt"), "plan mode only plans it")
	diff, err := manager.ResultAs[definitions.PlanResult](planned.Call(t.Context(), manager.ToolCall{Name: "plan_diff"}))
	require.NoError(t, err)
	assert.Contains(t, diff.Diff, "+hello")
}

// TestGoToolNamesAreChecked refuses a Go tool whose name is taken or is not a tool name.
func TestGoToolNamesAreChecked(t *testing.T) {
	for _, name := range []string{"read_file", "call", "Copy-File"} {
		decl := definitions.Declare[copyFileParams](name, "x", definitions.Decl{Flags: definitions.Flags{Mutating: true}})
		_, err := manager.New(manager.Config{Root: t.TempDir(), Tools: []*builtin.Tool{builtin.New(decl, copyFileImpl)}})
		assert.Error(t, err, name)
	}
}
