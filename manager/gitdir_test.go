package manager

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitToolsInALinkedWorktree: with Config.GitDir and GitCommonDir naming a linked
// worktree's git directories, the git tools read its repository there (its branch, its
// own index and changes); without them they refuse the .git file, and a .git file pointed
// elsewhere changes nothing of where they read.
func TestGitToolsInALinkedWorktree(t *testing.T) {
	testenv.Program(t, "git")
	top := t.TempDir()
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	require.NoError(t, os.WriteFile(filepath.Join(top, "README.md"), []byte("# main\n"), 0o644))
	git(top, "init", "-q", "-b", "main")
	git(top, "add", "-A")
	git(top, "commit", "-qm", "first")
	wt := filepath.Join(t.TempDir(), "wt")
	git(top, "worktree", "add", "-q", "-b", "task", wt)
	require.NoError(t, os.WriteFile(filepath.Join(wt, "README.md"), []byte("# changed in the task\n"), 0o644))

	s := testSession(t, Config{Root: wt})
	res := s.Call(t.Context(), ToolCall{Name: "git_status"})
	require.False(t, res.OK, "without the git directories, a .git file is not followed")
	assert.Contains(t, res.Error.Message, ".git is a file")

	own := filepath.Join(top, ".git", "worktrees", "wt")
	s = testSession(t, Config{Root: wt, GitDir: own, GitCommonDir: filepath.Join(top, ".git")})
	res = s.Call(t.Context(), ToolCall{Name: "git_status"})
	require.True(t, res.OK, "%+v", res.Error)
	var st struct {
		Branch  string
		Entries []struct{ Path, Worktree string }
	}
	require.NoError(t, res.Decode(&st))
	assert.Equal(t, "task", st.Branch)
	require.Len(t, st.Entries, 1, "%+v", st)
	assert.Equal(t, "README.md", st.Entries[0].Path)
	res = s.Call(t.Context(), ToolCall{Name: "git_diff"})
	require.True(t, res.OK, "%+v", res.Error)
	var diff struct{ Diff string }
	require.NoError(t, res.Decode(&diff))
	assert.Contains(t, diff.Diff, "+# changed in the task")

	// The session's commands may rewrite the .git file; the tools still read where the
	// embedder said.
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /etc\n"), 0o644))
	res = s.Call(t.Context(), ToolCall{Name: "git_status"})
	require.True(t, res.OK, "%+v", res.Error)
	require.NoError(t, res.Decode(&st))
	assert.Equal(t, "task", st.Branch)

	_, err := New(Config{Root: wt, GitDir: "/etc", GitCommonDir: filepath.Join(top, ".git")})
	assert.Error(t, err, "a git directory outside the repository is refused")
}
