package integration

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartedInASubdirectory: a command started in a subdirectory of a project works on the
// project as git finds it: its config's deny rules apply (jido rules lists them), relative
// paths resolve from where the user stands, and results name paths from the root.
func TestStartedInASubdirectory(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		".jido/config.toml":   "[[deny]]\ntool = \"*\"\npaths = [\"internal/keys.txt\"]\n",
		"internal/keys.txt":   "not for the model\n",
		"internal/main.go":    "package internal\n",
		"internal/pkg/a.go":   "package pkg\n",
		"internal/.jido/x.md": "jido's own output from an old run here: no project\n",
	})
	sub := filepath.Join(root, "internal")

	e, _ := callError(t, sub, "read_file", `{"path":"keys.txt"}`)
	require.NotNil(t, e, "the deny rule of the project's config applies")
	assert.Equal(t, "permission-error", e["type"])

	e, res := callError(t, sub, "read_file", `{"path":"main.go"}`)
	require.Nil(t, e)
	assert.Equal(t, "internal/main.go", res["path"], "results name paths from the root")

	e, res = callError(t, sub, "list_dir", `{}`)
	require.Nil(t, e)
	assert.Equal(t, "internal", res["path"])

	e, res = callError(t, sub, "--yes", "run_shell", `{"command":"pwd"}`)
	require.Nil(t, e)
	assert.Equal(t, sub+"\n", res["stdout"], "commands start where the user stands")

	r := runJidoIn(t, sub, nil, "", "rules")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "internal/keys.txt")

	e, res = callError(t, sub, "--root", root, "read_file", `{"path":"README.md"}`)
	require.NotNil(t, e, "with --root, paths are the root's: there is no README.md")
	assert.Equal(t, "file-error", e["type"])
	assert.Nil(t, res)
}
