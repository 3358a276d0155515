package shell

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditSeesAReplacedConfig: a git file that existed before the command but is another
// file after it (here .git/config renamed over, as a command can do where commands run
// under Landlock alone) is restored byte for byte.
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
	assert.Equal(t, []string{".git/config: jido restored it as it was before the command (commands may not change it)"}, notes)
	data, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, "[core]\n\tbare = false\n", string(data))
}
