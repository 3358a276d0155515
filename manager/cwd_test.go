package manager

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cwdTree makes a project with a sub directory, and returns its root.
func cwdTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range map[string]string{"a.txt": "top\n", "sub/a.txt": "in sub\n", "sub/b.txt": "bee\n"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	return root
}

// TestMetaCwdRebasesPaths checks that a call's meta.cwd is the directory its relative
// paths name, through a real session, and that results keep root-relative paths.
func TestMetaCwdRebasesPaths(t *testing.T) {
	root := cwdTree(t)
	s := rootSession(t, root, nil)
	sub := CallMeta{Cwd: "sub"}

	res := s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt", "line_numbers": false}, Meta: sub})
	r, err := ResultAs[definitions.ReadFileResult](res)
	require.NoError(t, err)
	assert.Equal(t, "in sub\n", r.Content)
	assert.Equal(t, "sub/a.txt", r.Path, "the result names the root-relative path")

	res = s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "../a.txt", "line_numbers": false}, Meta: sub})
	r, err = ResultAs[definitions.ReadFileResult](res)
	require.NoError(t, err, "a path may climb out of the cwd, not out of the root")
	assert.Equal(t, "top\n", r.Content)

	abs := filepath.Join(s.p.root.Path(), "a.txt")
	res = s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": abs, "line_numbers": false}, Meta: sub})
	r, err = ResultAs[definitions.ReadFileResult](res)
	require.NoError(t, err, "an absolute path is left as it is")
	assert.Equal(t, "top\n", r.Content)

	res = s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "../../etc/passwd"}, Meta: sub})
	require.False(t, res.OK, "rebasing cannot take a path out of the root")
	assert.Equal(t, definitions.PermissionError, res.Error.Type)

	res = s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "new/c.txt", "content": "see\n"}, Meta: sub})
	require.True(t, res.OK, "%+v", res.Error)
	data, err := os.ReadFile(filepath.Join(root, "sub", "new", "c.txt"))
	require.NoError(t, err)
	assert.Equal(t, "see\n", string(data))
	assert.NoFileExists(t, filepath.Join(root, "new", "c.txt"))

	res = s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "b.txt"}, Meta: sub})
	require.True(t, res.OK, "%+v", res.Error)
	res = s.Call(t.Context(), ToolCall{Name: "multi_edit", Args: map[string]any{"edits": []any{
		map[string]any{"path": "a.txt", "old_string": "in sub", "new_string": "edited"},
		map[string]any{"path": "b.txt", "old_string": "bee", "new_string": "wasp"},
	}}, Meta: sub})
	require.True(t, res.OK, "%+v", res.Error)
	for name, want := range map[string]string{"sub/a.txt": "edited\n", "sub/b.txt": "wasp\n", "a.txt": "top\n"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		assert.Equal(t, want, string(data), name)
	}

	res = s.Call(t.Context(), ToolCall{Name: "list_dir", Meta: sub})
	require.True(t, res.OK, "%+v", res.Error)
	var listing struct{ Path string }
	require.NoError(t, res.Decode(&listing))
	assert.Equal(t, "sub", listing.Path, "a defaulted directory is the cwd")
}

// TestMetaCwdRunsCommandsThere checks that a command runs in meta.cwd, or in its own cwd
// taken relative to it.
func TestMetaCwdRunsCommandsThere(t *testing.T) {
	root := cwdTree(t)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "deep", "d.txt"), nil, 0o644))
	s := rootSession(t, root, nil)
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{name: "argv", args: map[string]any{"cmd": []any{"ls"}}, want: "a.txt\nb.txt\ndeep\n"},
		{name: "shell line", args: map[string]any{"command": "ls"}, want: "a.txt\nb.txt\ndeep\n"},
		{name: "own cwd relative to it", args: map[string]any{"cmd": []any{"ls"}, "cwd": "deep"}, want: "d.txt\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: c.args, Meta: CallMeta{Cwd: "sub"}})
			require.True(t, res.OK, "%+v", res.Error)
			var out struct{ Stdout string }
			require.NoError(t, res.Decode(&out))
			assert.Equal(t, c.want, out.Stdout)
		})
	}
}

// TestMetaCwdRefused checks the meta.cwd values a call is refused for, before anything runs.
func TestMetaCwdRefused(t *testing.T) {
	root := cwdTree(t)
	outside := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "out")))
	require.NoError(t, os.Symlink("sub/a.txt", filepath.Join(root, "filelink")))
	s := rootSession(t, root, nil)
	cases := []struct {
		name, cwd, why string
	}{
		{name: "parent", cwd: "..", why: "is outside the project root"},
		{name: "parent's child", cwd: "../x", why: "is outside the project root"},
		{name: "climbing back", cwd: "sub/../../x", why: "is outside the project root"},
		{name: "absolute outside", cwd: "/etc", why: "is outside the project root"},
		{name: "symlink to outside", cwd: "out", why: "is outside the project root"},
		{name: "file", cwd: "a.txt", why: "is not a directory"},
		{name: "symlink to a file", cwd: "filelink", why: "is not a directory"},
		{name: "under a file", cwd: "a.txt/x", why: "is not a directory"},
		{name: "missing", cwd: "nope", why: "does not exist"},
		{name: "NUL", cwd: "sub\x00", why: "is not a valid path"},
		{name: "tilde", cwd: "~", why: "is not a valid path"},
		{name: "backslash", cwd: `sub\..\..`, why: "is not a valid path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "planted.txt", "content": "x"}, Meta: CallMeta{Cwd: c.cwd}})
			require.False(t, res.OK)
			assert.Equal(t, definitions.ValidationError, res.Error.Type)
			assert.Contains(t, res.Error.Message, "meta.cwd")
			assert.Contains(t, res.Error.Message, c.why)
			assert.NotContains(t, res.Error.Message, "\x00")
			assert.Contains(t, res.Error.Recovery, cwdHint)
		})
	}
	for _, dir := range []string{root, outside, filepath.Join(root, "sub")} {
		assert.NoFileExists(t, filepath.Join(dir, "planted.txt"), "no call ran")
	}
}

// TestMetaCwdRoot checks that "." and the root's absolute path are the root.
func TestMetaCwdRoot(t *testing.T) {
	root := cwdTree(t)
	s := rootSession(t, root, nil)
	for _, cwd := range []string{".", "./", s.p.root.Path(), "sub/.."} {
		res := s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt", "line_numbers": false}, Meta: CallMeta{Cwd: cwd}})
		r, err := ResultAs[definitions.ReadFileResult](res)
		require.NoError(t, err, cwd)
		assert.Equal(t, "top\n", r.Content, cwd)
		assert.Equal(t, "a.txt", r.Path, cwd)
	}
}

// TestMetaCwdInPlan checks that in plan mode meta.cwd may name a directory that exists
// only in the plan.
func TestMetaCwdInPlan(t *testing.T) {
	s, root := gatedSession(t, Config{Permissions: policy.New(policy.ModePlan)})
	res := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "planned/x.txt", "content": "x\n"}})
	require.True(t, res.OK, "%+v", res.Error)
	require.NoDirExists(t, filepath.Join(root, "planned"))
	res = s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "x.txt", "line_numbers": false}, Meta: CallMeta{Cwd: "planned"}})
	r, err := ResultAs[definitions.ReadFileResult](res)
	require.NoError(t, err)
	assert.Equal(t, "x\n", r.Content)
}

// TestMetaCwdReachesNestedCalls checks that the calls a user's Lua tool makes take the
// call's working directory.
func TestMetaCwdReachesNestedCalls(t *testing.T) {
	root := toolProject(t, map[string]string{"sub/a.txt": "in sub\n", "a.txt": "top\n"}, map[string]string{
		"cat": `return jido.tool{name = "cat", description = "reads a file", params = {properties = {path = {type = "string"}}},
		  run = function(a) return jido.read_file{path = a.path, line_numbers = false} end}`,
	})
	s := rootSession(t, root, nil)
	require.Empty(t, s.ToolLoadErrors())
	res := s.Call(t.Context(), ToolCall{Name: "cat", Args: map[string]any{"path": "a.txt"}, Meta: CallMeta{Cwd: "sub"}})
	require.True(t, res.OK, "%+v", res.Error)
	var out struct{ Content string }
	require.NoError(t, res.Decode(&out))
	assert.Equal(t, "in sub\n", out.Content)
}

// TestMetaTimeoutCutsACommand checks that meta.timeout ends a long call with a
// timeout-error.
func TestMetaTimeoutCutsACommand(t *testing.T) {
	s := rootSession(t, t.TempDir(), nil)
	start := time.Now()
	res := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"cmd": []any{"sleep", "5"}}, Meta: CallMeta{Timeout: 0.5}})
	require.False(t, res.OK)
	assert.Equal(t, definitions.TimeoutError, res.Error.Type, "%+v", res.Error)
	assert.Less(t, time.Since(start), 4*time.Second)
}

// TestSessionCwd: Config.Cwd (and WithCwd per session) is the working directory of calls
// and evals that name none; a meta.cwd of the call wins; a cwd outside the root or
// missing is refused at Open.
func TestSessionCwd(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("in sub\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("at the root\n"), 0o644))
	m, err := New(Config{Root: root, Cwd: "sub"})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	content := func(res ToolResult) string {
		require.True(t, res.OK, "%+v", res.Error)
		var out struct{ Content, Path string }
		require.NoError(t, res.Decode(&out))
		return out.Path + ": " + out.Content
	}

	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	read := ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt", "line_numbers": false}}
	assert.Equal(t, "sub/a.txt: in sub\n", content(s.Call(t.Context(), read)))
	read.Meta.Cwd = "."
	assert.Equal(t, "a.txt: at the root\n", content(s.Call(t.Context(), read)), "meta.cwd wins")
	vals, terr := s.Eval(t.Context(), `return jido.read_file{path = "a.txt"}.path`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"sub/a.txt"}, vals)

	other, err := m.Open(t.Context(), "", WithCwd("sub/deeper"))
	require.NoError(t, err)
	res := other.Call(t.Context(), ToolCall{Name: "list_dir"})
	require.True(t, res.OK)
	var listing struct{ Path string }
	require.NoError(t, res.Decode(&listing))
	assert.Equal(t, "sub/deeper", listing.Path)

	for _, bad := range []string{"../elsewhere", "missing", "a.txt"} {
		_, err := m.Open(t.Context(), "", WithCwd(bad))
		assert.Error(t, err, bad)
	}
}
