package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitAttackRepo makes a repository with one commit, and a marker path outside it that a
// planted program would create if the host's git ran it.
func gitAttackRepo(t *testing.T) (dir, marker string) {
	t.Helper()
	testenv.Program(t, "git")
	dir = t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "# project\n", "a.txt": "a\n"})
	hostGit(t, dir, "init", "-q", "-b", "main")
	hostGit(t, dir, "add", "-A")
	hostGit(t, dir, "commit", "-q", "-m", "first")
	return dir, filepath.Join(t.TempDir(), "pwned")
}

// hostGit runs git on the host as a user would after the command (no global config of
// the user's), and returns its output; it fails the test only when asked.
func hostGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// sandboxed runs a command line in the project through the binary and returns its result
// (or error) object.
func sandboxed(t *testing.T, dir, command string) map[string]any {
	t.Helper()
	raw, err := jsonString(map[string]any{"command": command})
	require.NoError(t, err)
	r := runJido(t, "", "call", "--root", dir, "--yes", "run_shell", raw)
	out := decodeJSON(t, r.stdout)
	if res, ok := out["result"].(map[string]any); ok {
		return res
	}
	return out["error"].(map[string]any)["details"].(map[string]any)
}

// TestGitDirectoryIsAnAllowList: what a command writes in a repository's git directory
// beyond what everyday git work changes does not outlive it, so nothing it planted runs
// when the user's git runs on the host: a commondir pointing at a planted repository, a new
// config.worktree with worktree config switched on, a rebase stopped with exec lines, a .git
// link to a planted directory, alternates, hooks under a core.hooksPath in the tree.
func TestGitDirectoryIsAnAllowList(t *testing.T) {
	plant := func(marker string) string { // a repository whose config runs a program
		return `mkdir -p evil/hooks evil/refs evil/objects && git rev-parse HEAD >/dev/null && ` +
			`printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ` + marker + `"\n' > evil/config && ` +
			`printf '#!/bin/sh\ntouch ` + marker + `\n' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit`
	}
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir string) // before the command, as the user
		command func(marker string) string
		gone    []string // paths the command made that must not outlive it
		then    [][]string
	}{
		{name: "commondir", command: func(m string) string { return plant(m) + ` && echo ../evil > .git/commondir` },
			gone: []string{".git/commondir"}, then: [][]string{{"status"}, {"commit", "--allow-empty", "-m", "x"}}},
		{name: "config.worktree", command: func(m string) string {
			return `printf '[core]\n\tfsmonitor = "touch ` + m + `"\n' > .git/config.worktree`
		}, gone: []string{".git/config.worktree"}, then: [][]string{{"-c", "extensions.worktreeConfig=true", "status"}}},
		{name: "rebase with exec lines", command: func(m string) string {
			return `mkdir -p .git/rebase-merge && git rev-parse HEAD > .git/rebase-merge/orig-head && ` +
				`echo refs/heads/main > .git/rebase-merge/head-name && git rev-parse HEAD > .git/rebase-merge/onto && ` +
				`printf 'exec touch ` + m + `\nx touch ` + m + `\n' > .git/rebase-merge/git-rebase-todo && echo 1 > .git/rebase-merge/interactive`
		}, then: [][]string{{"rebase", "--continue"}}},
		{name: "a .git link to a planted directory", command: func(m string) string {
			return plant(m) + ` && mkdir -p sub && cp -r .git/objects .git/refs .git/HEAD evil/ && ln -s ../evil sub/.git`
		}, gone: []string{"sub/.git"}, then: [][]string{{"-C", "sub", "status"}}},
		{name: "hooks directory", command: func(m string) string {
			return `printf '#!/bin/sh\ntouch ` + m + `\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; true`
		}, gone: []string{".git/hooks/pre-commit"}, then: [][]string{{"commit", "--allow-empty", "-m", "x"}}},
		{name: "core.hooksPath in the tree", setup: func(t *testing.T, dir string) {
			writeTree(t, dir, map[string]string{".husky/pre-commit": "#!/bin/sh\nexit 0\n"})
			require.NoError(t, os.Chmod(filepath.Join(dir, ".husky/pre-commit"), 0o755))
			hostGit(t, dir, "config", "core.hooksPath", ".husky")
		}, command: func(m string) string {
			return `printf '#!/bin/sh\ntouch ` + m + `\n' > .husky/pre-commit; printf '#!/bin/sh\ntouch ` + m + `\n' > .husky/post-commit; chmod +x .husky/*; true`
		}, gone: []string{".husky/post-commit"}, then: [][]string{{"commit", "--allow-empty", "-m", "x"}}},
		{name: "alternates", command: func(m string) string { return `echo /tmp > .git/objects/info/alternates` },
			gone: []string{".git/objects/info/alternates"}},
		{name: "a new hooks directory entry in a nested repository", command: func(m string) string {
			return `git init -q nested && printf '#!/bin/sh\ntouch ` + m + `\n' > nested/.git/hooks/pre-commit && chmod +x nested/.git/hooks/pre-commit && ` +
				`git -C nested config core.fsmonitor "touch ` + m + `"`
		}, gone: []string{"nested/.git/hooks/pre-commit"}, then: [][]string{{"-C", "nested", "status"}, {"-C", "nested", "commit", "--allow-empty", "-m", "x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, marker := gitAttackRepo(t)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			res := sandboxed(t, dir, tc.command(marker))
			for _, p := range tc.gone {
				_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
				assert.ErrorIs(t, err, os.ErrNotExist, "%s outlived the command: %v", p, res)
			}
			for _, args := range tc.then {
				out := hostGit(t, dir, args...)
				_, err := os.Stat(marker)
				assert.ErrorIs(t, err, os.ErrNotExist, "host git %v ran what the command planted: %s", args, out)
			}
			_, err := os.Stat(marker)
			assert.ErrorIs(t, err, os.ErrNotExist)
		})
	}
}

// TestEverydayGitStillWorksInTheSandbox: add, commit, branch, stash, a rebase and a merge
// work inside the sandbox, and their results are the user's.
func TestEverydayGitStillWorksInTheSandbox(t *testing.T) {
	dir, _ := gitAttackRepo(t)
	res := sandboxed(t, dir, strings.Join([]string{
		"git -c user.name=a -c user.email=a@example.com checkout -q -b feature",
		"echo b > b.txt && git add b.txt && git -c user.name=a -c user.email=a@example.com commit -q -m b",
		"git checkout -q main && echo c > c.txt && git add c.txt && git -c user.name=a -c user.email=a@example.com commit -q -m c",
		"echo d >> a.txt && git stash -q && git stash pop -q && git checkout -q a.txt",
		"git checkout -q feature && git -c user.name=a -c user.email=a@example.com rebase -q main",
		"git checkout -q main && git -c user.name=a -c user.email=a@example.com merge -q --ff-only feature",
		"git log --oneline | wc -l",
	}, " && "))
	require.Equal(t, float64(0), res["exit_code"], "%v", res)
	assert.Equal(t, "3\n", res["stdout"])
	assert.Contains(t, hostGit(t, dir, "log", "--oneline", "main"), " b")
	assert.Empty(t, strings.TrimSpace(hostGit(t, dir, "status", "--porcelain")))
}

// TestATreeTooLargeToCheckRunsNoCommand: a command that makes more directories than the
// look before each command can cover does not switch the protection off for the next one:
// that one is refused, and the secret it would read stays unread.
func TestATreeTooLargeToCheckRunsNoCommand(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"config/.env": "API_TOKEN=do-not-read-me\n"})
	res := sandboxed(t, dir, "seq -f 'many/d%g' 1 50001 | xargs mkdir -p")
	require.Equal(t, float64(0), res["exit_code"], "%v", res)
	raw, err := jsonString(map[string]any{"command": "base64 config/.env"})
	require.NoError(t, err)
	r := runJido(t, "", "call", "--root", dir, "--yes", "run_shell", raw)
	e, _ := decodeJSON(t, r.stdout)["error"].(map[string]any)
	require.NotNil(t, e, "the command ran: %s", r.stdout)
	assert.Equal(t, "process-error", e["type"])
	assert.Contains(t, e["message"], "more than 50000 directories")
	assert.NotContains(t, r.stdout, "QVBJX1RPS0VO", "the secret was not read")
}
