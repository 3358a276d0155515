package security

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHardLinksOnlyInNodeModules: a file with a second name outside the project is read
// only under node_modules (pnpm's layout links every package file to its store); anywhere
// else, and for a secret even there, it is refused. A write replaces the project's name
// and leaves the other name's content alone.
func TestHardLinksOnlyInNodeModules(t *testing.T) {
	base := t.TempDir()
	store := filepath.Join(base, "store")
	dir := filepath.Join(base, "project")
	for _, d := range []string{store, filepath.Join(dir, "node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad"), filepath.Join(dir, "src")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(store, "index.js"), []byte("module.exports = pad\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(store, "key"), []byte("-----BEGIN KEY-----\n"), 0o600))
	links := map[string]string{
		"node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js": "index.js",
		"src/index.js":          "index.js",
		"node_modules/x/id_rsa": "key",
	}
	for name, target := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Link(filepath.Join(store, target), p))
	}
	r, err := Open(dir, Options{})
	require.NoError(t, err)
	defer r.Close()

	f, err := r.ReadFile("node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js")
	require.NoError(t, err)
	assert.Equal(t, "module.exports = pad\n", string(f.Data))
	data, err := r.ReadTreeFile("node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js", nil)
	require.NoError(t, err)
	assert.Equal(t, "module.exports = pad\n", string(data))

	_, err = r.ReadFile("src/index.js")
	assert.ErrorIs(t, err, ErrHardLink)
	_, err = r.ReadTreeFile("src/index.js", nil)
	assert.ErrorIs(t, err, ErrHardLink)
	_, err = r.ReadFile("node_modules/x/id_rsa")
	assert.ErrorIs(t, err, ErrSecret)

	_, _, err = r.WriteFile("node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad/index.js", []byte("changed\n"), WriteOptions{})
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(store, "index.js"))
	require.NoError(t, err)
	assert.Equal(t, "module.exports = pad\n", string(got), "the store's copy is untouched")
}

func TestReadSecretFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("DB_PASSWORD=hunter2xyz\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.Symlink("main.go", filepath.Join(dir, ".env.local")))
	r, err := Open(dir, Options{})
	require.NoError(t, err)
	defer r.Close()
	_, err = r.ReadFile(".env")
	require.ErrorIs(t, err, ErrSecret, "the tools still cannot read it")
	data, err := r.ReadSecretFile(".env", 1024)
	require.NoError(t, err)
	assert.Equal(t, "DB_PASSWORD=hunter2xyz\n", string(data))
	_, err = r.ReadSecretFile(".env", 4)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = r.ReadSecretFile("main.go", 1024)
	assert.ErrorIs(t, err, ErrInvalidPath, "only secret files")
	_, err = r.ReadSecretFile(".env.local", 1024)
	assert.ErrorIs(t, err, ErrNotRegular, "a link is not followed")
}

// TestHardLinksInGitObjects: the objects of the root's repository may be shared with
// another repository by hard links (a local git clone makes them), and are read; git's
// other files, and a nested repository's objects, are not.
func TestHardLinksInGitObjects(t *testing.T) {
	base := t.TempDir()
	source := filepath.Join(base, "source")
	dir := filepath.Join(base, "project")
	require.NoError(t, os.MkdirAll(source, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(source, "obj"), []byte("x\x9c object"), 0o444))
	for _, name := range []string{".git/objects/ab/cdef", ".git/objects/pack/pack-1.pack", ".git/config", "sub/.git/objects/ab/cdef"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Link(filepath.Join(source, "obj"), p))
	}
	r, err := Open(dir, Options{})
	require.NoError(t, err)
	defer r.Close()
	for _, name := range []string{".git/objects/ab/cdef", ".git/objects/pack/pack-1.pack"} {
		_, err := r.ReadFile(name)
		assert.NoError(t, err, name)
	}
	for _, name := range []string{".git/config", "sub/.git/objects/ab/cdef"} {
		_, err := r.ReadFile(name)
		assert.ErrorIs(t, err, ErrHardLink, name)
	}
}
