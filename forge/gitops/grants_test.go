package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxReads: what a task's commands may read of the repository is its own
// administrative directory and the common parts git reads, nothing else: not hooks, not
// another task's administrative directory or work tree, not a symbolic link planted in
// the git directory; the main work tree and a stranger directory are refused.
func TestSandboxReads(t *testing.T) {
	r, dir := newRepo(t)
	common := filepath.Join(dir, ".git")
	base := filepath.Join(common, "forge-worktrees")
	a, err := r.PrepareBranch("A", 1, "main", nil, base)
	require.NoError(t, err)
	_, err = r.PrepareBranch("B", 1, "main", nil, base)
	require.NoError(t, err)
	require.NoError(t, os.Symlink("/etc", filepath.Join(common, "shallow")))

	reads, err := r.SandboxReads(a.Dir)
	require.NoError(t, err)
	admin := filepath.Join(common, "worktrees", "A-1")
	assert.Contains(t, reads, admin)
	for _, name := range []string{"config", "HEAD", "objects", "refs"} {
		assert.Contains(t, reads, filepath.Join(common, name))
	}
	for _, p := range reads {
		rel, err := filepath.Rel(common, p)
		require.NoError(t, err)
		assert.True(t, p == admin || !strings.Contains(rel, "/") && rel != "hooks" && rel != "shallow" && rel != "worktrees" && rel != "forge-worktrees",
			"%s is not the repository's to read", rel)
	}

	for _, dir := range []string{dir, t.TempDir()} { // the main work tree, a stranger
		_, err := r.SandboxReads(dir)
		requireToolError(t, err, definitions.ValidationError)
	}
}

// TestExclude: the pattern is added to info/exclude once, after the lines there, keeping
// the file's mode, and git then ignores what it names; info and the file are made when
// missing.
func TestExclude(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(t *testing.T, info string)
		want    string
		mode    os.FileMode
		added   bool
		comment string
	}{
		{name: "no file", setup: func(t *testing.T, info string) { require.NoError(t, os.Remove(filepath.Join(info, "exclude"))) },
			want: "# a comment\n/artifacts/r1/\n", mode: 0o644, added: true, comment: "a comment"},
		{name: "no info directory", setup: func(t *testing.T, info string) { require.NoError(t, os.RemoveAll(info)) },
			want: "/artifacts/r1/\n", mode: 0o644, added: true},
		{name: "last line without newline", setup: func(t *testing.T, info string) { writeFile(t, info, "exclude", "*.o") },
			want: "*.o\n# c\n/artifacts/r1/\n", mode: 0o644, added: true, comment: "c"},
		{name: "mode kept", setup: func(t *testing.T, info string) {
			writeFile(t, info, "exclude", "*.o\n")
			require.NoError(t, os.Chmod(filepath.Join(info, "exclude"), 0o600))
		}, want: "*.o\n/artifacts/r1/\n", mode: 0o600, added: true},
		{name: "already there", setup: func(t *testing.T, info string) { writeFile(t, info, "exclude", "*.o\n/artifacts/r1/  \n") },
			want: "*.o\n/artifacts/r1/  \n", mode: 0o644},
		{name: "another pattern", setup: func(t *testing.T, info string) { writeFile(t, info, "exclude", " /artifacts/r1/\n") },
			want: " /artifacts/r1/\n/artifacts/r1/\n", mode: 0o644, added: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, dir := newRepo(t)
			info := filepath.Join(dir, ".git", "info")
			require.NoError(t, os.MkdirAll(info, 0o755))
			writeFile(t, info, "exclude", "")
			c.setup(t, info)
			writeFile(t, dir, "artifacts/r1/state.json", "{}")
			writeFile(t, dir, "artifacts/r2/state.json", "{}")

			added, err := r.Exclude("/artifacts/r1/", c.comment)
			require.NoError(t, err)
			assert.Equal(t, c.added, added)
			assert.Equal(t, c.want, readFile(t, info, "exclude"))
			st, err := os.Stat(filepath.Join(info, "exclude"))
			require.NoError(t, err)
			assert.Equal(t, c.mode, st.Mode().Perm())
			assert.Equal(t, "?? artifacts/r2/state.json", gitT(t, dir, "status", "--porcelain", "--untracked-files=all"), "only the run named is ignored")

			added, err = r.Exclude("/artifacts/r1/", c.comment)
			require.NoError(t, err)
			assert.False(t, added, "a second time adds nothing")
			assert.Equal(t, c.want, readFile(t, info, "exclude"))
			entries, err := os.ReadDir(info)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary file is left")
		})
	}
}

// TestExcludeRefuses: Exclude never follows a symbolic link (info/exclude, or info
// itself), never reads a FIFO (it would hang) nor a huge file, and takes no pattern that
// would add a line of its own; what it refuses it leaves as it was.
func TestExcludeRefuses(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name    string
		setup   func(t *testing.T, info string)
		pattern string
		typ     string
	}{
		{name: "exclude is a link", setup: func(t *testing.T, info string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "target"), filepath.Join(info, "exclude")))
		}, pattern: "/artifacts/", typ: definitions.FileError},
		{name: "info is a link", setup: func(t *testing.T, info string) {
			require.NoError(t, os.RemoveAll(info))
			require.NoError(t, os.Symlink(outside, info))
		}, pattern: "/artifacts/", typ: definitions.FileError},
		{name: "exclude is a FIFO", setup: func(t *testing.T, info string) {
			require.NoError(t, mkfifo(filepath.Join(info, "exclude")))
		}, pattern: "/artifacts/", typ: definitions.FileError},
		{name: "exclude is huge", setup: func(t *testing.T, info string) {
			writeFile(t, info, "exclude", strings.Repeat("x", maxExclude+1))
		}, pattern: "/artifacts/", typ: definitions.FileError},
		{name: "pattern with a newline", setup: func(*testing.T, string) {}, pattern: "/artifacts/\n!/secret", typ: definitions.ValidationError},
		{name: "empty pattern", setup: func(*testing.T, string) {}, pattern: "", typ: definitions.ValidationError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, dir := newRepo(t)
			info := filepath.Join(dir, ".git", "info")
			require.NoError(t, os.RemoveAll(info))
			require.NoError(t, os.Mkdir(info, 0o755))
			writeFile(t, outside, "target", "outside\n")
			c.setup(t, info)
			_, err := r.Exclude(c.pattern, "")
			requireToolError(t, err, c.typ)
			assert.Equal(t, "outside\n", readFile(t, outside, "target"), "nothing is written through a link")
			entries, err := os.ReadDir(outside)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "nothing is made through a link")
		})
	}
}
