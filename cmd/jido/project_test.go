package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// locatedRoot is the root a command run here finds without --root.
func locatedRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	home, _ := os.UserHomeDir()
	return findProject(wd, home)
}

// TestFindProject: the project around a directory is the nearest one up that is a
// repository (a .git directory or file) or holds jido's configuration; a .jido of command
// outputs only is no project; the search stops below home and /.
func TestFindProject(t *testing.T) {
	top := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(top, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(p, 0o755))
		return p
	}
	touch := func(rel string) {
		p := filepath.Join(top, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, nil, 0o644))
	}
	mk("repo/.git")
	mk("repo/internal/pkg")
	mk("repo/internal/.jido/output") // made by commands run there once: no project
	touch("repo/sub/.git")           // a submodule or worktree: a .git file
	mk("repo/sub/deep")
	touch("repo/tools/.jido/config.toml")
	mk("repo/tools/x")
	mk("home/.git") // a dotfiles repository
	mk("home/projects/scratch")
	mk("plain/a")

	home := filepath.Join(top, "home")
	for _, tc := range []struct{ from, want string }{
		{"repo", "repo"},
		{"repo/internal/pkg", "repo"},
		{"repo/internal", "repo"},
		{"repo/sub/deep", "repo/sub"},
		{"repo/tools/x", "repo/tools"},
		{"home/projects/scratch", "home/projects/scratch"},
		{"home", "home"},
		{"plain/a", "plain/a"},
	} {
		t.Run(tc.from, func(t *testing.T) {
			assert.Equal(t, filepath.Join(top, tc.want), findProject(filepath.Join(top, tc.from), home))
		})
	}
}

// TestLocate: without --root, the flag takes the project around the working directory and
// where it stands in it; with --root, the root given and no working directory.
func TestLocate(t *testing.T) {
	top := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(top, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(top, "internal", "pkg"), 0o755))
	t.Chdir(filepath.Join(top, "internal", "pkg"))

	o, err := parseCall([]string{"list_dir"}, nil)
	require.NoError(t, err)
	want, err := filepath.EvalSymlinks(top)
	require.NoError(t, err)
	got, err := filepath.EvalSymlinks(o.root.dir)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "internal/pkg", o.root.cwd)

	o, err = parseCall([]string{"--root", top, "list_dir"}, nil)
	require.NoError(t, err)
	assert.Equal(t, top, o.root.dir)
	assert.Empty(t, o.root.cwd, "paths resolve from a root given")
}
