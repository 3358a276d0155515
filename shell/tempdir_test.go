package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionTempIsStablePerProject: a project's sessions one after the other get the same
// temp dir, empty; while one holds it another gets a random one; what is not this user's
// directory at the stable path (a planted link) is left alone and not used.
func TestSessionTempIsStablePerProject(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := "/projects/one"
	first, release, err := sessionTemp(root)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(os.TempDir(), "jido-session-"+shortHash(root)), first)
	require.NoError(t, os.WriteFile(filepath.Join(first, "left"), nil, 0o600))

	second, release2, err := sessionTemp(root)
	require.NoError(t, err)
	assert.NotEqual(t, first, second, "held by the first session")
	assert.True(t, strings.HasPrefix(filepath.Base(second), "jido-session-"))
	require.NoError(t, os.RemoveAll(second))
	release2()

	other, release3, err := sessionTemp("/projects/two")
	require.NoError(t, err)
	assert.NotEqual(t, first, other, "another project")
	release3()

	release() // a crash: not removed
	again, release, err := sessionTemp(root)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	entries, err := os.ReadDir(again)
	require.NoError(t, err)
	assert.Empty(t, entries, "what the last session left went")
	require.NoError(t, os.RemoveAll(again))
	release()

	target := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o600))
	require.NoError(t, os.Symlink(target, first))
	planted, release, err := sessionTemp(root)
	require.NoError(t, err)
	defer release()
	assert.NotEqual(t, first, planted, "a link at the stable path is not used")
	assert.FileExists(t, filepath.Join(target, "keep"), "nor followed")
}
