package shell

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditSeesAReplacedConfig: a protected path that existed before the command but is
// another file after it (here .git/config renamed over, as a command can do where
// commands run under Landlock alone) is audited as a new one: its dangerous keys go.
func TestAuditSeesAReplacedConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, ".git", "config")
	require.NoError(t, os.MkdirAll(filepath.Dir(config), 0o755))
	require.NoError(t, os.WriteFile(config, []byte("[core]\n\tbare = false\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	defer root.Close()
	before := scanProject(root)
	assert.Empty(t, audit(root, before, "same"), "nothing changed: nothing to undo")

	require.NoError(t, os.WriteFile(config+".new", []byte("[core]\n\tbare = false\n\tfsmonitor = touch /tmp/pwned\n"), 0o644))
	require.NoError(t, os.Rename(config+".new", config))
	notes := audit(root, before, "replaced")
	assert.Equal(t, []string{".git/config: jido removed core.fsmonitor, set by the command (it would run a program outside the sandbox)"}, notes)
	data, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "fsmonitor")
}
