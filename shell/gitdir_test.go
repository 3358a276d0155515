package shell

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitRepoFixture is a project whose .git holds what git init and one commit leave.
func gitRepoFixture(t *testing.T) (*security.Root, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n\tbare = false\n", ".git/description": "d\n",
		".git/hooks/pre-commit.sample": "#!/bin/sh\n", ".git/info/exclude": "", ".git/objects/info/packs": "",
		".git/refs/heads/main": "0000000000000000000000000000000000000000\n", ".git/index": "DIRC",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return root, dir
}

// TestGitAllowList writes every kind of entry in a git directory between the look before
// a command and the audit after it: what everyday git work writes stays; everything else
// made anew is moved away, and what existed is protected (read-only to the command) and,
// changed in place, restored.
func TestGitAllowList(t *testing.T) {
	stays := []string{"objects/ab/cdef", "objects/pack/pack-1.pack", "refs/heads/topic", "refs/stash", "logs/HEAD",
		"logs/refs/heads/topic", "index", "HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "MERGE_MODE", "MERGE_MSG",
		"CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD", "AUTO_MERGE", "BISECT_LOG", "COMMIT_EDITMSG", "SQUASH_MSG",
		"TAG_EDITMSG", "packed-refs", "index.lock", "HEAD.lock", "packed-refs.lock", "gc.pid", "gc.log", "rr-cache/x/preimage",
		"index.stash.1234", "next-index-99.lock", "rebase-merge/git-rebase-todo", "rebase-apply/patch", "sequencer/todo",
		"NOTES_MERGE_REF", "lost-found/commit/x", "objects/info/commit-graph"}
	goes := []string{"commondir", "config.worktree", "shallow", "gitdir", "worktrees/w/commondir", "modules/m/config",
		"objects/info/alternates", "objects/info/http-alternates", "anything-git-adds-next", "branches/x", "remotes/x"}
	root, dir := gitRepoFixture(t)
	before := scanProject(root)
	for _, name := range []string{"config", "description", "hooks", "info"} {
		assert.Contains(t, before.Paths.Protected, filepath.Join(dir, ".git", name), "existing %s is read-only to the command", name)
	}
	for _, name := range append(slices.Clone(stays), goes...) {
		p := filepath.Join(dir, ".git", filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), 0o644))
	}
	notes := audit(root, before, "c1")
	for _, name := range stays {
		assert.FileExists(t, filepath.Join(dir, ".git", filepath.FromSlash(name)), "%s is everyday git work", name)
	}
	for _, name := range goes {
		_, err := os.Lstat(filepath.Join(dir, ".git", filepath.FromSlash(name)))
		assert.ErrorIs(t, err, os.ErrNotExist, "%s does not outlive the command", name)
	}
	assert.NotEmpty(t, notes)
	assert.FileExists(t, filepath.Join(dir, QuarantineDir, "c1", ".git", "commondir"), "moved away, kept for the user to see")

	before = scanProject(root)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "description"), []byte("changed\n"), 0o644))
	notes = audit(root, before, "c2")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "description"))
	require.NoError(t, err)
	assert.Equal(t, "d\n", string(data), "restored byte for byte")
	assert.Len(t, notes, 1)
}

// TestSequencerLosesItsExecLines: a rebase's todo list keeps its steps but the lines that
// run a program.
func TestSequencerLosesItsExecLines(t *testing.T) {
	root, dir := gitRepoFixture(t)
	before := scanProject(root)
	todo := filepath.Join(dir, ".git", "rebase-merge", "git-rebase-todo")
	require.NoError(t, os.MkdirAll(filepath.Dir(todo), 0o755))
	require.NoError(t, os.WriteFile(todo, []byte("pick 1234 one\nexec touch /tmp/x\n  x make\npick 5678 two\nexecute-not\n"), 0o644))
	notes := audit(root, before, "c1")
	data, err := os.ReadFile(todo)
	require.NoError(t, err)
	assert.Equal(t, "pick 1234 one\npick 5678 two\nexecute-not\n", string(data))
	assert.True(t, slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "exec lines") }), "%v", notes)
}

// TestANewRepositoryIsMadeHarmless: a repository the command made keeps working (its
// objects, refs, config without the keys that run programs, its samples) and loses what
// would run on the host or point git elsewhere.
func TestANewRepositoryIsMadeHarmless(t *testing.T) {
	root, dir := gitRepoFixture(t)
	before := scanProject(root)
	for name, content := range map[string]string{
		"new/.git/HEAD": "ref: refs/heads/main\n", "new/.git/config": "[core]\n\tbare = false\n\tfsmonitor = touch /tmp/x\n[alias]\n\tst = !sh\n",
		"new/.git/hooks/post-checkout": "#!/bin/sh\n", "new/.git/hooks/pre-push.sample": "#!/bin/sh\n", "new/.git/commondir": "../../elsewhere\n",
		"new/.git/objects/ab/cd": "x", "new/.git/modules/sub/HEAD": "x\n", "new/.git/modules/sub/hooks/pre-commit": "#!/bin/sh\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o755))
	}
	audit(root, before, "c1")
	config, err := os.ReadFile(filepath.Join(dir, "new", ".git", "config"))
	require.NoError(t, err)
	assert.Contains(t, string(config), "bare = false")
	assert.NotContains(t, string(config), "fsmonitor")
	assert.NotContains(t, string(config), "!sh")
	assert.FileExists(t, filepath.Join(dir, "new", ".git", "hooks", "pre-push.sample"))
	assert.FileExists(t, filepath.Join(dir, "new", ".git", "objects", "ab", "cd"))
	for _, gone := range []string{"hooks/post-checkout", "commondir", "modules/sub/hooks/pre-commit"} {
		_, err := os.Lstat(filepath.Join(dir, "new", ".git", filepath.FromSlash(gone)))
		assert.ErrorIs(t, err, os.ErrNotExist, gone)
	}
}

// TestRandomWritesUnderGitRunNothing writes, round after round, random entries under a
// repository's git directory (git's own names and others, holding a config that runs a
// program or a hook) between the look before a command and the audit after it, then runs
// host git status and commit: nothing planted ever runs.
func TestRandomWritesUnderGitRunNothing(t *testing.T) {
	gitBin := testenv.Program(t, "git")
	names := []string{"config", "config.worktree", "commondir", "hooks/pre-commit", "hooks/post-commit", "hooks/fsmonitor-watchman",
		"info/attributes", "worktrees/w/commondir", "worktrees/w/config.worktree", "modules/m/config", "objects/info/alternates",
		"rebase-merge/git-rebase-todo", "sequencer/todo", "HEAD.lock", "refs/heads/x", "logs/HEAD", "gitdir", "shallow", "branches/o",
		"remotes/o", "x", "y/z", "config.lock", "index.lock"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		dir := t.TempDir()
		run := func(args ...string) string {
			cmd := exec.Command(gitBin, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
			cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			out, _ := cmd.CombinedOutput()
			return string(out)
		}
		run("init", "-q", "-b", "main")
		run("commit", "-q", "--allow-empty", "-m", "first")
		root, err := security.Open(dir, security.Options{})
		require.NoError(t, err)
		marker := filepath.Join(t.TempDir(), "ran")
		before := scanProject(root)
		payloads := []string{
			"[core]\n\trepositoryformatversion = 0\n\tfsmonitor = \"touch " + marker + "\"\n\thooksPath = planted\n[alias]\n\tstatus = !touch " + marker + "\n",
			"#!/bin/sh\ntouch " + marker + "\n",
			"exec touch " + marker + "\n",
			"../planted\n",
		}
		for range 1 + rng.IntN(6) {
			p := filepath.Join(dir, ".git", filepath.FromSlash(names[rng.IntN(len(names))]))
			if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
				os.WriteFile(p, []byte(payloads[rng.IntN(len(payloads))]), 0o755)
			}
		}
		audit(root, before, "c")
		root.Close()
		out := run("status") + run("commit", "-q", "--allow-empty", "-m", "second") + run("-c", "extensions.worktreeConfig=true", "status")
		_, err = os.Stat(marker)
		require.ErrorIs(t, err, os.ErrNotExist, "round %d: host git ran what was planted: %s", round, out)
	}
}
