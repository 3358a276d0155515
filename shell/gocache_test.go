package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/gocache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userCaches points the user's cache directory and Go build cache at temp dirs for the
// test, and returns the build cache.
func userCaches(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "xdg"))
	user := filepath.Join(base, "go-build")
	require.NoError(t, os.Mkdir(user, 0o700))
	t.Setenv("GOCACHE", user)
	return user
}

// goEnv runs env in r and returns the command's GOCACHE and GOCACHEPROG.
func goEnv(t *testing.T, r *Runner) (cache, prog string) {
	t.Helper()
	env := commandEnv(t, r)
	return env["GOCACHE"], env["GOCACHEPROG"]
}

// TestCommandsGetThePrivateCacheAndItsProgram: GOCACHE is the private cache of the key and
// GOCACHEPROG jido's program for it (never the user's own program); runners with one key
// share the cache, others do not.
func TestCommandsGetThePrivateCacheAndItsProgram(t *testing.T) {
	user := userCaches(t)
	t.Setenv("GOCACHEPROG", "/usr/local/bin/the-users-shared-cache")
	a := newRunnerIn(t, t.TempDir(), Options{})
	cache, prog := goEnv(t, a)
	assert.True(t, strings.HasPrefix(cache, filepath.Join(os.Getenv("XDG_CACHE_HOME"), "jido", "gocache")), cache)
	assert.NotEqual(t, user, cache)
	want, err := gocache.Command(a.sb.Helper(), cache, filepath.Join(a.tmp, goCacheSocket))
	require.NoError(t, err)
	assert.Equal(t, want, prog)

	b := newRunnerIn(t, t.TempDir(), Options{})
	other, _ := goEnv(t, b)
	assert.NotEqual(t, cache, other, "another project, another cache")

	shared := newRunnerIn(t, t.TempDir(), Options{BuildCacheKey: "/repos/main"})
	worktree := newRunnerIn(t, t.TempDir(), Options{BuildCacheKey: "/repos/main"})
	c1, _ := goEnv(t, shared)
	c2, _ := goEnv(t, worktree)
	assert.Equal(t, c1, c2, "one key, one cache")
}

// TestNoUserCacheNoProgram: with the user's Go build cache off, commands get the private
// cache alone.
func TestNoUserCacheNoProgram(t *testing.T) {
	userCaches(t)
	t.Setenv("GOCACHE", "off")
	cache, prog := goEnv(t, newRunnerIn(t, t.TempDir(), Options{}))
	assert.NotEmpty(t, cache)
	assert.Empty(t, prog)
}
