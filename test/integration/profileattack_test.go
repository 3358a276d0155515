package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outsideSecret is the content of a file beside the project that no call may reveal.
const outsideSecret = "TOPSECRET-outside-the-root"

// TestProfileAttacks sends each profile's tools what an attacker would: paths out of the
// root in the dialect's own arguments (file_path, directory_path, workdir, a patch's
// headers, a glob), secret and protected files, a role's forbidden tools (directly, through
// jido.call and through the bridge), a patch routed through Codex's shell in read-only mode,
// and the forge plan. Each must be refused (or, for a search, find nothing outside), and
// neither the project nor what lies beside it may change.
func TestProfileAttacks(t *testing.T) {
	type attack struct {
		name, profile, role string
		mode                policy.Mode
		tool                string
		args                map[string]any
		eval                string // or a snippet, whose values must be nil and an error
		found               bool   // a search or listing that may succeed, but must show nothing outside
	}
	patch := func(body string) string { return "*** Begin Patch\n" + body + "\n*** End Patch\n" }
	attacks := []attack{
		{name: "claude Read absolute", profile: "claude", tool: "Read", args: map[string]any{"file_path": "/etc/passwd"}},
		{name: "claude Read ..", profile: "claude", tool: "Read", args: map[string]any{"file_path": "../outside/secret.txt"}},
		{name: "claude Read secret", profile: "claude", tool: "Read", args: map[string]any{"file_path": ".env"}},
		{name: "claude Write ..", profile: "claude", tool: "Write", args: map[string]any{"file_path": "../outside/new.txt", "content": "x"}},
		{name: "claude Write hook", profile: "claude", tool: "Write", args: map[string]any{"file_path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}},
		{name: "claude Write config", profile: "claude", tool: "Write", args: map[string]any{"file_path": ".jido/config.toml", "content": "mode = \"yolo\"\n"}},
		{name: "claude LS root of host", profile: "claude", tool: "LS", args: map[string]any{"path": "/"}},
		{name: "claude Glob ..", profile: "claude", tool: "Glob", args: map[string]any{"pattern": "../outside/*"}},
		{name: "claude Grep path ..", profile: "claude", tool: "Grep", args: map[string]any{"pattern": "TOPSECRET", "path": ".."}},
		{name: "claude Grep glob ..", profile: "claude", tool: "Grep", args: map[string]any{"pattern": "TOPSECRET", "glob": "../**"}, found: true},
		{name: "claude Bash cat ..", profile: "claude", tool: "Bash", args: map[string]any{"command": "cat ../outside/secret.txt"}, found: true},
		{name: "codex shell workdir ..", profile: "codex", tool: "shell", args: map[string]any{"command": []any{"ls"}, "workdir": "../outside"}},
		{name: "codex patch adds outside", profile: "codex", tool: "shell", args: map[string]any{"command": []any{"apply_patch", patch("*** Add File: ../outside/new.txt\n+x")}}},
		{name: "codex patch edits git config", profile: "codex", tool: "apply_patch", args: map[string]any{"input": patch("*** Update File: .git/config\n@@\n-[core]\n+[core]\n+\thooksPath = /tmp")}},
		{name: "codex patch moves out", profile: "codex", tool: "apply_patch", args: map[string]any{"input": patch("*** Update File: a.txt\n*** Move to: ../outside/a.txt\n@@\n-one\n+uno")}},
		{name: "codex patch in read-only mode", profile: "codex", mode: policy.ModeReadOnly, tool: "shell", args: map[string]any{"command": []any{"apply_patch", patch("*** Add File: new.txt\n+x")}}},
		{name: "forj read ..", profile: "forj", tool: "read_file", args: map[string]any{"path": "../outside/secret.txt"}},
		{name: "forj multi_edit ..", profile: "forj", tool: "multi_edit", args: map[string]any{"edits": []any{map[string]any{"path": "../outside/secret.txt", "start_line": 1.0, "end_line": 1.0, "new_content": "x"}}}},
		{name: "forj smuggled force", profile: "forj", eval: `jido.call("read_file", {path="a.json"}) return jido.call("write_file", {path="a.json", content="{", force=true})`},
		{name: "emacs directory_list ..", profile: "emacs", tool: "directory_list", args: map[string]any{"directory_path": "..", "recursive": true}},
		{name: "emacs directory_list pattern ..", profile: "emacs", tool: "directory_list", args: map[string]any{"pattern": "../outside/*"}},
		{name: "emacs file_write absolute", profile: "emacs", tool: "file_write", args: map[string]any{"file_path": "/tmp/jido-attack.txt", "content": "x"}},
		{name: "emacs route key smuggled", profile: "emacs", tool: "directory_list", args: map[string]any{"\x00pattern": "../*"}},
		{name: "jidocode delete ..", profile: "jidocode", tool: "delete_file", args: map[string]any{"path": ".."}},
		{name: "jidocode glob outside", profile: "jidocode", tool: "glob_search", args: map[string]any{"pattern": "**/*", "path": "../outside"}},
		{name: "forge read absolute", profile: "forge", tool: "read", args: map[string]any{"path": "/etc/shadow"}},
		{name: "forge plan_write ..", profile: "forge", role: "captain", tool: "plan_write", args: map[string]any{"path": "../outside/new.txt", "content": "x"}},
		{name: "forge plan_bash cat ..", profile: "forge", role: "captain", tool: "plan_bash", args: map[string]any{"command": "cat ../outside/secret.txt"}, found: true},
		{name: "forge type1 plan_write", profile: "forge", role: "type1", tool: "plan_write", args: map[string]any{"path": "p.md", "content": "x"}},
		{name: "forge type1 run_tests", profile: "forge", role: "type1", tool: "run_tests", args: map[string]any{}},
		{name: "forge executor read", profile: "forge", role: "executor", tool: "read", args: map[string]any{"path": "a.txt"}},
		{name: "forge type1 jido.call plan_write", profile: "forge", role: "type1", eval: `return jido.call("plan_write", {path="p.md", content="x"})`},
		{name: "forge type1 direct delete", profile: "forge", role: "type1", eval: `return jido.delete_file{path="a.txt"}`},
		{name: "forge executor direct read", profile: "forge", role: "executor", eval: `return jido.read_file{path="a.txt"}`},
		{name: "forge type1 canonical name", profile: "forge", role: "type1", eval: `return jido.call("write_file", {path="a.txt", content="x"})`},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
			writeTree(t, root, map[string]string{"a.txt": "one\n", "a.json": "{}\n", ".env": "KEY=value\n", ".git/config": "[core]\n", ".git/hooks/.keep": ""})
			writeTree(t, outside, map[string]string{"secret.txt": outsideSecret + "\n"})
			skip := []string{filepath.Join(root, ".jido"), filepath.Join(root, ".git", "info")} // the sandbox makes .git/info to bind it read-only
			before := snapshot(t, base, skip, false)

			p, err := profile.Get(a.profile)
			require.NoError(t, err)
			mode := a.mode
			if mode == "" {
				mode = policy.ModeYolo // nothing is refused for want of an approval: the sandbox must refuse
			}
			m, err := manager.New(manager.Config{Root: root, Profile: p, Role: a.role, Permissions: policy.New(mode), JournalDir: t.TempDir()})
			require.NoError(t, err)
			defer m.Close()
			s, err := m.Open(t.Context(), "")
			require.NoError(t, err)

			var shown []byte
			if a.eval != "" {
				vals, terr := s.Eval(t.Context(), a.eval)
				require.Nil(t, terr, "the snippet runs; its call must fail")
				require.Len(t, vals, 2, "nil and an error: %v", vals)
				assert.Nil(t, vals[0])
				shown, _ = json.Marshal(vals)
			} else {
				res := s.Call(t.Context(), manager.ToolCall{Name: a.tool, Args: a.args})
				shown, _ = json.Marshal(res)
				if a.found {
					t.Log(string(shown))
				} else {
					assert.False(t, res.OK, "refused: %s", shown)
				}
			}
			assert.NotContains(t, string(shown), "TOPSECRET", "nothing outside the root is shown")
			if a.found {
				assert.NotContains(t, string(shown), "secret.txt\"", "a listing shows not even its name")
			}
			assert.Empty(t, diffSnapshots(before, snapshot(t, base, skip, false)), "nothing changed")
			_, err = os.Stat("/tmp/jido-attack.txt")
			assert.True(t, os.IsNotExist(err))
		})
	}
}
