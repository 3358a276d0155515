package security

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenRootRefusesALinkOnTheWay: the root is opened with no symbolic link in its path,
// so a directory swapped for a link between EvalSymlinks and the open is refused rather
// than followed (openRootDir is what Open calls with the resolved path).
func TestOpenRootRefusesALinkOnTheWay(t *testing.T) {
	base := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(base, "inside", "project"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(base, "outside", "project"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(base, "outside", "project", "secret.txt"), []byte("outside\n"), 0o644))

	r, err := openRootDir(filepath.Join(base, "inside", "project"))
	require.NoError(t, err)
	r.Close()

	// "inside" checked, then swapped for a link to "outside" before the open.
	require.NoError(t, os.Rename(filepath.Join(base, "inside"), filepath.Join(base, "inside.old")))
	require.NoError(t, os.Symlink("outside", filepath.Join(base, "inside")))
	_, err = openRootDir(filepath.Join(base, "inside", "project"))
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrChanged)
}
