package gitops

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitT runs git in dir for a test's setup, isolated from the host's configuration and
// never running hooks, and returns its trimmed stdout.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	full := append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.hooksPath=/dev/null"}, args...)
	cmd := exec.Command("git", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	require.NoError(t, err, "git %v", args)
	return strings.TrimSpace(string(out))
}

// writeFile writes content to name under dir, making its directories.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// readFile returns the content of name under dir.
func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return string(data)
}

// newRepo makes a repository on branch main with one commit of a.txt and b.txt, and
// opens it; it skips the test when git is missing.
func newRepo(t *testing.T) (*Repo, string) {
	t.Helper()
	testenv.Program(t, "git")
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	writeFile(t, dir, "a.txt", "one\n")
	writeFile(t, dir, "b.txt", "two\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "initial")
	r, err := Open(dir)
	require.NoError(t, err)
	return r, r.Dir()
}

// worktreeBase returns a directory for worktrees outside the repository.
func worktreeBase(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return base
}

// taskBranch prepares task's attempt 1 from main, writes files in its worktree and
// commits them, returning the Prepared.
func taskBranch(t *testing.T, r *Repo, base, task string, files map[string]string) *Prepared {
	t.Helper()
	p, err := r.PrepareBranch(task, 1, "main", nil, base)
	require.NoError(t, err)
	require.True(t, filepath.IsAbs(p.Dir), "files are written in the worktree, nowhere else")
	for name, content := range files {
		writeFile(t, p.Dir, name, content)
	}
	_, changed, err := r.CommitAll(p.Dir, "work of "+task)
	require.NoError(t, err)
	require.True(t, changed)
	return p
}

// requireToolError asserts err is a *definitions.ToolError of type typ and returns it.
func requireToolError(t *testing.T, err error, typ string) *definitions.ToolError {
	t.Helper()
	require.Error(t, err)
	terr, ok := err.(*definitions.ToolError)
	require.True(t, ok, "want a *ToolError, got %T: %v", err, err)
	assert.Equal(t, typ, terr.Type, terr.Message)
	return terr
}
