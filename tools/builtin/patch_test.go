package builtin

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jido-run/jido/security"
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

// TestApplyPatchUnreadFiles: as in Codex, a patch may change a file the session has not
// read, since its lines must match the file as it is (a stale view is refused); secret and
// protected files stay refused; a dry run writes nothing.
func TestApplyPatchUnreadFiles(t *testing.T) {
	f, dir := newFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "unread.txt"), []byte("x\n"), 0o644))
	_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: unread.txt\n-stale\n+y\n*** End Patch"})
	assert.ErrorContains(t, err, "not found", "a hunk written against another version of the file")
	_, err = f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: unread.txt\n-x\n+y\n*** End Patch"})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"unread.txt": "y\n"}, readTree(t, dir, "unread.txt"))

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("K=v\n"), 0o644))
	_, err = f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: .env\n-K=v\n+K=w\n*** End Patch"})
	assert.ErrorIs(t, err, security.ErrSecret)

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

// patchTree is a root holding files, every one read by the session.
func patchTree(t *testing.T, files map[string]string) (*Files, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	f := &Files{Deps{Root: root, Store: Disk(root), Reads: NewReadLog()}}
	for name := range files {
		_, err := f.ReadFile(t.Context(), definitions.ReadFileParams{Path: name, Limit: 1000, MaxBytes: 100000})
		require.NoError(t, err, name)
	}
	return f, dir
}

// treeOf returns every regular file under dir by its slash path.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	}))
	return out
}

// twoBlocks is a file with the same block in two functions.
const twoBlocks = "def main():\n    x = 1\n    return x\n\ndef other():\n    x = 1\n    return x\n"

// nested has the same method in two classes.
const nested = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n"

// TestApplyPatchCases applies patches to trees and checks the tree after, or the refusal
// and a tree left as it was (all files or none).
func TestApplyPatchCases(t *testing.T) {
	base := map[string]string{
		"a.txt":      "one\ntwo\nthree\n",
		"b.txt":      "alpha\nbeta\n",
		"src/app.py": "import os\n\ndef main():\n    print('hi')\n    return 0\n",
	}
	with := func(extra map[string]string) map[string]string {
		out := maps.Clone(base)
		maps.Copy(out, extra)
		return out
	}
	cases := []struct {
		name  string
		files map[string]string // nil: base
		patch string            // the file operations, or with raw the whole input
		raw   bool
		want  map[string]string // the tree after, for a patch that applies
		typ   string            // the error type of a refused patch
		msg   string            // in its message
	}{
		{name: "add", patch: "*** Add File: docs/new/notes.md\n+# Notes\n+\n+text",
			want: with(map[string]string{"docs/new/notes.md": "# Notes\n\ntext\n"})},
		{name: "add an empty file", patch: "*** Add File: empty.txt",
			want: with(map[string]string{"empty.txt": ""})},
		{name: "delete", patch: "*** Delete File: b.txt",
			want: map[string]string{"a.txt": base["a.txt"], "src/app.py": base["src/app.py"]}},
		{name: "move without changes", patch: "*** Update File: b.txt\n*** Move to: lib/b.txt",
			want: map[string]string{"a.txt": base["a.txt"], "lib/b.txt": "alpha\nbeta\n", "src/app.py": base["src/app.py"]}},
		{name: "move with changes", patch: "*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def main():\n-    print('hi')\n+    print('hello')",
			want: map[string]string{"a.txt": base["a.txt"], "b.txt": base["b.txt"], "src/main.py": "import os\n\ndef main():\n    print('hello')\n    return 0\n"}},
		{name: "several hunks in one file", patch: "*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n two\n-three\n+THREE",
			want: with(map[string]string{"a.txt": "ONE\ntwo\nTHREE\n"})},
		{name: "hunks out of order", patch: "*** Update File: a.txt\n-three\n+3\n@@\n-one\n+1",
			want: with(map[string]string{"a.txt": "1\ntwo\n3\n"})},
		{name: "several files", patch: "*** Update File: a.txt\n-two\n+2\n*** Update File: b.txt\n-beta\n+BETA\n*** Add File: c.txt\n+c\n*** Delete File: src/app.py",
			want: map[string]string{"a.txt": "one\n2\nthree\n", "b.txt": "alpha\nBETA\n", "c.txt": "c\n"}},
		{name: "pure addition after an anchor", patch: "*** Update File: src/app.py\n@@ import os\n+import sys",
			want: with(map[string]string{"src/app.py": "import os\nimport sys\n\ndef main():\n    print('hi')\n    return 0\n"})},
		{name: "pure addition without anchor appends", patch: "*** Update File: b.txt\n@@\n+gamma",
			want: with(map[string]string{"b.txt": "alpha\nbeta\ngamma\n"})},
		{name: "pure deletion", patch: "*** Update File: a.txt\n@@\n-two",
			want: with(map[string]string{"a.txt": "one\nthree\n"})},
		{name: "empty line inside a hunk is context", patch: "*** Update File: src/app.py\n@@\n import os\n\n-def main():\n+def run():",
			want: with(map[string]string{"src/app.py": "import os\n\ndef run():\n    print('hi')\n    return 0\n"})},
		{name: "heredoc wrapper", raw: true, patch: "<<'EOF'\n*** Begin Patch\n*** Update File: b.txt\n-beta\n+gamma\n*** End Patch\nEOF\n",
			want: with(map[string]string{"b.txt": "alpha\ngamma\n"})},
		{name: "context with other trailing whitespace", files: map[string]string{"w.py": "def f():   \n    a = 1\t\n    return a\n"},
			patch: "*** Update File: w.py\n@@\n def f():\n-    a = 1\n+    a = 2\n     return a",
			want:  map[string]string{"w.py": "def f():   \n    a = 2\n    return a\n"}},
		{name: "CRLF file keeps its line breaks", files: map[string]string{"w.txt": "a\r\nb\r\n"},
			patch: "*** Update File: w.txt\n-a\n+A\n@@ b\n+c",
			want:  map[string]string{"w.txt": "A\r\nb\r\nc\r\n"}},

		// *** End of File
		{name: "end of file picks the last of two matches", files: map[string]string{"m.go": "func a() {\n}\n\nfunc b() {\n}\n"},
			patch: "*** Update File: m.go\n@@\n-}\n+} // b\n*** End of File",
			want:  map[string]string{"m.go": "func a() {\n}\n\nfunc b() {\n} // b\n"}},
		{name: "end of file without the marker is ambiguous", files: map[string]string{"m.go": "func a() {\n}\n\nfunc b() {\n}\n"},
			patch: "*** Update File: m.go\n@@\n-}\n+} // b", typ: definitions.ConflictError, msg: "2 places"},
		{name: "end of file deletes the last lines", patch: "*** Update File: a.txt\n@@\n two\n-three\n*** End of File",
			want: with(map[string]string{"a.txt": "one\ntwo\n"})},
		{name: "end of file with a file without final newline", files: map[string]string{"n.txt": "x\ny"},
			patch: "*** Update File: n.txt\n@@\n-y\n+z\n*** End of File",
			want:  map[string]string{"n.txt": "x\nz"}},
		{name: "end of file addition after an anchor goes last", patch: "*** Update File: a.txt\n@@ one\n+four\n*** End of File",
			want: with(map[string]string{"a.txt": "one\ntwo\nthree\nfour\n"})},
		{name: "end of file violated", patch: "*** Update File: a.txt\n@@\n-two\n+2\n*** End of File",
			typ: definitions.ConflictError, msg: "*** End of File but its 1 old line(s) are not the last lines"},
		{name: "end of file violated by a line after", patch: "*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End of File",
			typ: definitions.ConflictError, msg: "not the last lines"},

		// @@ headers
		{name: "anchor picks the second block", files: map[string]string{"d.py": twoBlocks},
			patch: "*** Update File: d.py\n@@ def other():\n-    x = 1\n+    x = 2",
			want:  map[string]string{"d.py": strings.Replace(twoBlocks, "def other():\n    x = 1", "def other():\n    x = 2", 1)}},
		{name: "anchor picks the first block", files: map[string]string{"d.py": twoBlocks},
			patch: "*** Update File: d.py\n@@ def main():\n-    x = 1\n+    x = 2",
			want:  map[string]string{"d.py": strings.Replace(twoBlocks, "x = 1", "x = 2", 1)}},
		{name: "without an anchor the two blocks are ambiguous", files: map[string]string{"d.py": twoBlocks},
			patch: "*** Update File: d.py\n@@\n-    x = 1\n+    x = 2", typ: definitions.ConflictError, msg: "2 places"},
		{name: "anchors narrow in turn", files: map[string]string{"n.py": nested},
			patch: "*** Update File: n.py\n@@ class B:\n@@     def f(self):\n-        return 1\n+        return 2",
			want:  map[string]string{"n.py": strings.Replace(nested, "class B:\n    def f(self):\n        return 1", "class B:\n    def f(self):\n        return 2", 1)}},
		{name: "overlapping matches after an anchor stay ambiguous, lines counted from the file's start", files: map[string]string{"o.txt": "f:\nx\nx\nx\n"},
			patch: "*** Update File: o.txt\n@@ f:\n-x\n-x\n+y", typ: definitions.ConflictError, msg: "at lines 2, 3"},
		{name: "stale hunk after an anchor, closest line counted from the file's start", files: map[string]string{"d.py": twoBlocks},
			patch: "*** Update File: d.py\n@@ def other():\n-    x = 5\n+    x = 2", typ: definitions.ConflictError, msg: "starts at line 6"},
		{name: "anchor not in the file", patch: "*** Update File: src/app.py\n@@ def run():\n-    return 0\n+    return 1",
			typ: definitions.ConflictError, msg: `@@ line "def run():" is not a line of the file`},
		{name: "second anchor not after the first", files: map[string]string{"n.py": nested},
			patch: "*** Update File: n.py\n@@ class B:\n@@ class A:\n-        return 1\n+        return 2",
			typ:   definitions.ConflictError, msg: `after the line holding "class B:"`},

		// refusals, all or none
		{name: "stale hunk in the second file", patch: "*** Update File: a.txt\n-one\n+ONE\n*** Update File: b.txt\n-gamma\n+delta",
			typ: definitions.ConflictError, msg: "hunk 1 of b.txt"},
		{name: "stale second hunk", patch: "*** Add File: c.txt\n+c\n*** Update File: a.txt\n@@\n-one\n+ONE\n@@\n-four\n+FOUR",
			typ: definitions.ConflictError, msg: "hunk 2 of a.txt"},
		{name: "delete a missing file", patch: "*** Add File: c.txt\n+c\n*** Delete File: gone.txt", typ: definitions.FileError, msg: "does not exist"},
		{name: "update a missing file", patch: "*** Add File: c.txt\n+c\n*** Update File: gone.txt\n-x\n+y", typ: definitions.FileError, msg: "does not exist"},
		{name: "add onto an existing file", patch: "*** Add File: c.txt\n+c\n*** Add File: b.txt\n+b", typ: definitions.ConflictError, msg: "names a file that exists"},
		{name: "move onto an existing file", patch: "*** Add File: c.txt\n+c\n*** Update File: a.txt\n*** Move to: b.txt", typ: definitions.ConflictError, msg: "names a file that exists"},
		{name: "malformed", patch: "*** Add File: c.txt\n+c\n*** Update File: a.txt\n@@\n one\ntwo", typ: definitions.ValidationError, msg: "patch line 7"},
		{name: "same path twice", patch: "*** Update File: a.txt\n-one\n+1\n*** Delete File: ./a.txt", typ: definitions.ValidationError, msg: "already named"},
		{name: "hunk that changes nothing", patch: "*** Update File: a.txt\n one", typ: definitions.ValidationError, msg: "changes nothing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := c.files
			if files == nil {
				files = base
			}
			f, dir := patchTree(t, files)
			input := c.patch
			if !c.raw {
				input = "*** Begin Patch\n" + c.patch + "\n*** End Patch\n"
			}
			res, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: input})
			if c.typ != "" {
				require.Error(t, err)
				var te *definitions.ToolError
				require.ErrorAs(t, err, &te)
				assert.Equal(t, c.typ, te.Type)
				assert.Contains(t, err.Error(), c.msg)
				assert.Equal(t, files, treeOf(t, dir), "no file changed")
				return
			}
			require.NoError(t, err)
			assert.NotEmpty(t, res.Files)
			assert.Equal(t, c.want, treeOf(t, dir))
		})
	}
}

// TestApplyPatchOneFileTwoNames refuses two operations on one file through a symlink: the
// parser sees two paths, the change set one file.
func TestApplyPatchOneFileTwoNames(t *testing.T) {
	f, dir := patchTree(t, map[string]string{"a.txt": "x\n"})
	require.NoError(t, os.Symlink("a.txt", filepath.Join(dir, "alias.txt")))
	_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: "*** Begin Patch\n*** Update File: a.txt\n-x\n+y\n*** Delete File: alias.txt\n*** End Patch"})
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, definitions.ValidationError, te.Type)
	assert.Contains(t, te.Message, "another operation of the patch names")
	assert.Equal(t, map[string]string{"a.txt": "x\n"}, treeOf(t, dir))
}

// failingWrites is a Store whose writes of one file fail, as a full disk would.
type failingWrites struct {
	Store
	name string
}

func (s failingWrites) WriteFile(name string, data []byte, opts security.WriteOptions) (string, security.Version, error) {
	if name == s.name {
		return name, security.Version{}, &fs.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	return s.Store.WriteFile(name, data, opts)
}

// TestApplyPatchCommitFailureRollsBack makes the last write of a patch fail at commit
// time, after a deletion, a move and a change were done: each is undone, the deleted and
// moved files come back with their content and mode.
func TestApplyPatchCommitFailureRollsBack(t *testing.T) {
	before := map[string]string{"gone.sh": "#!/bin/sh\necho bye\n", "old.txt": "move me\n", "edit.txt": "one\n"}
	f, dir := patchTree(t, before)
	require.NoError(t, os.Chmod(filepath.Join(dir, "gone.sh"), 0o751))
	require.NoError(t, os.Chmod(filepath.Join(dir, "old.txt"), 0o600))
	readAll(t, f, "gone.sh", "old.txt") // the session saw the modes it set
	f.Store = failingWrites{Store: f.Store, name: "last.txt"}

	_, err := f.ApplyPatch(t.Context(), definitions.ApplyPatchParams{Input: `*** Begin Patch
*** Delete File: gone.sh
*** Update File: old.txt
*** Move to: moved/new.txt
*** Update File: edit.txt
-one
+two
*** Add File: last.txt
+last
*** End Patch`})
	require.ErrorIs(t, err, syscall.ENOSPC)
	assert.Equal(t, before, treeOf(t, dir), "every file as it was")
	for name, mode := range map[string]fs.FileMode{"gone.sh": 0o751, "old.txt": 0o600} {
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, mode, info.Mode().Perm(), "%s keeps its mode", name)
	}
}
