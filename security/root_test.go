package security

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	r, err := Open(dir, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(10<<20), r.MaxFileSize())
	assert.Equal(t, real, r.Path())
	require.NoError(t, r.Close())

	writeFiles(t, dir, map[string]string{"file": "x"})
	for name, in := range map[string]string{"missing": dir + "/nope", "file": dir + "/file"} {
		t.Run(name, func(t *testing.T) {
			_, err := Open(in, Options{})
			assert.Error(t, err)
		})
	}
}
