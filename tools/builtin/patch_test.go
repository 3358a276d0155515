package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// patchFiles is a root holding a.txt ("old\n", read by the session) and app.py, read too.
func patchFiles(t *testing.T) (*Files, string) {
	t.Helper()
	f, dir := newFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.py"), []byte("def main():\n    a = 1\n    b = 2\n\ndef other():\n    b = 2\n"), 0o644))
	_, err := f.ReadFile(t.Context(), definitions.ReadFileParams{Path: "app.py", Limit: 100, MaxBytes: 10000})
	require.NoError(t, err)
	return f, dir
}

func readTree(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err == nil {
			out[n] = string(data)
		}
	}
	return out
}

// TestApplyPatch applies Codex patches: add, delete, move, anchored and tolerant hunks,
// all files or none.
func TestApplyPatch(t *testing.T) {
	f, dir := patchFiles(t)
	res, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: `*** Begin Patch
*** Add File: docs/notes.md
+# Notes
*** Update File: app.py
*** Move to: main.py
@@ def other():
-    b = 2
+    b = 3
@@
 def main():
-  a = 1
+  a = 10
*** Delete File: a.txt
*** End Patch`})
	require.NoError(t, err)
	assert.Len(t, res.Files, 4, "added, moved from, moved to, deleted")
	assert.Equal(t, map[string]string{
		"docs/notes.md": "# Notes\n",
		"main.py":       "def main():\n    a = 10\n    b = 2\n\ndef other():\n    b = 3\n",
	}, readTree(t, dir, "docs/notes.md", "main.py", "app.py", "a.txt"),
		"the anchor picks other()'s b, the re-indented hunk is re-indented to the file, app.py moved, a.txt deleted")

	for name, c := range map[string]struct{ patch, typ string }{
		"stale hunk":  {"*** Begin Patch\n*** Update File: main.py\n-    a = 99\n+    a = 1\n*** End Patch", definitions.ConflictError},
		"ambiguous":   {"*** Begin Patch\n*** Update File: main.py\n-    b = \n+    b = 0\n*** End Patch", definitions.ConflictError},
		"add exists":  {"*** Begin Patch\n*** Add File: docs/notes.md\n+x\n*** End Patch", definitions.ConflictError},
		"delete gone": {"*** Begin Patch\n*** Add File: ok.txt\n+x\n*** Delete File: gone.txt\n*** End Patch", definitions.FileError},
		"malformed":   {"*** Begin Patch\n*** Update File: main.py\n*** End Patch", definitions.ValidationError},
		"outside":     {"*** Begin Patch\n*** Add File: ../x\n+x\n*** End Patch", ""},
	} {
		_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: c.patch})
		require.Error(t, err, name)
		if c.typ != "" {
			var te *definitions.ToolError
			require.ErrorAs(t, err, &te, name)
			assert.Equal(t, c.typ, te.Type, name)
		}
		assert.NoFileExists(t, filepath.Join(dir, "ok.txt"), "%s: all or none", name)
	}
}

// TestApplyPatchNeedsReadFiles keeps jido's rule: a file is changed only after the session
// read it; a dry run writes nothing.
func TestApplyPatchNeedsReadFiles(t *testing.T) {
	f, dir := newFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "unread.txt"), []byte("x\n"), 0o644))
	_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: unread.txt\n-x\n+y\n*** End Patch"})
	assert.ErrorContains(t, err, "not been read")
	res, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{DryRun: true, Input: "*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n*** End Patch"})
	require.NoError(t, err)
	assert.Contains(t, res.ChangeDiff(), "+new")
	assert.Equal(t, map[string]string{"a.txt": "old\n"}, readTree(t, dir, "a.txt"))
}

// TestApplyPatchNamesItsPaths checks that path rules and the journal see the files the
// patch text names.
func TestApplyPatchNamesItsPaths(t *testing.T) {
	p := definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** Delete File: secrets/k\n*** End Patch"}
	assert.Equal(t, []string{"a.go", "b.go", "secrets/k"}, definitions.ApplyPatch.Paths(p))
	assert.Equal(t, []string{"a.go", "b.go", "secrets/k"}, definitions.ApplyPatch.ActedOn(p))
}

// TestApplyPatchChangedFileRefusesAll checks all or none: a file that changed on disk since
// the session read it refuses the whole patch, so the file it would delete stays.
func TestApplyPatchChangedFileRefusesAll(t *testing.T) {
	f, dir := patchFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.py"), []byte("changed behind the session's back\n"), 0o644))
	_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Delete File: a.txt\n*** Update File: app.py\n@@\n-changed behind the session's back\n+x\n*** End Patch"})
	require.Error(t, err)
	assert.Equal(t, map[string]string{"a.txt": "old\n", "app.py": "changed behind the session's back\n"}, readTree(t, dir, "a.txt", "app.py"))
}

// TestApplyPatchAttacks tries the paths a patch could use to write where a tool may not:
// secrets, git's hooks, jido's own config, a symlink out of the root, a move onto another
// file. Each refuses the whole patch.
func TestApplyPatchAttacks(t *testing.T) {
	f, dir := patchFiles(t)
	outside := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=real\n"), 0o600))
	for name, target := range map[string]string{
		"secret":        "*** Update File: .env\n@@\n-TOKEN=real\n+TOKEN=x",
		"new secret":    "*** Add File: config/.env.local\n+TOKEN=x",
		"git hook":      "*** Add File: .git/hooks/pre-commit\n+rm -rf /",
		"jido config":   "*** Add File: .jido/config.toml\n+mode = \"yolo\"",
		"through link":  "*** Add File: link/planted.sh\n+x",
		"absolute":      "*** Add File: " + filepath.Join(outside, "abs.txt") + "\n+x",
		"move onto":     "*** Update File: app.py\n*** Move to: a.txt\n@@\n-    b = 2\n+    b = 5",
		"delete secret": "*** Delete File: .env",
	} {
		_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Add File: ok.txt\n+x\n" + target + "\n*** End Patch"})
		require.Error(t, err, name)
		assert.NoFileExists(t, filepath.Join(dir, "ok.txt"), "%s: nothing written", name)
	}
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written outside the root")
	assert.NoFileExists(t, filepath.Join(dir, ".git", "hooks", "pre-commit"))
	assert.NoFileExists(t, filepath.Join(dir, ".jido", "config.toml"))
	data, err := os.ReadFile(filepath.Join(dir, ".env"))
	require.NoError(t, err)
	assert.Equal(t, "TOKEN=real\n", string(data), "the secret file is neither changed nor deleted")
}
