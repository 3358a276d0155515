package builtin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadOnlyFilesAreRefusedUnlessForced checks seed 000's rule: a file without its
// owner's write bit is not written or edited, every route; force writes it and keeps the
// mode.
func TestReadOnlyFilesAreRefusedUnlessForced(t *testing.T) {
	f, dir := newFiles(t)
	a := filepath.Join(dir, "a.txt")
	require.NoError(t, os.Chmod(a, 0o444))
	_, err := f.ReadFile(t.Context(), definitions.ReadFileParams{Path: "a.txt", Limit: 10, MaxBytes: 1000})
	require.NoError(t, err, "read again: the mode change is a change of the file")
	for name, call := range map[string]func(force bool) error{
		"write_file": func(force bool) error {
			_, err := f.WriteFile(t.Context(), definitions.WriteFileParams{Path: "a.txt", Content: "new\n", Force: force})
			return err
		},
		"append": func(force bool) error {
			_, err := f.WriteFile(t.Context(), definitions.WriteFileParams{Path: "a.txt", Content: "more\n", Append: true, Force: force})
			return err
		},
		"edit_file": func(force bool) error {
			_, err := f.EditFile(t.Context(), definitions.EditFileParams{Path: "a.txt", OldString: "old", NewString: "new", Force: force})
			return err
		},
		"edit_region": func(force bool) error {
			_, err := f.EditRegion(t.Context(), definitions.EditRegionParams{Path: "a.txt", StartLine: 1, EndLine: 1, NewContent: "new", Force: force})
			return err
		},
		"multi_edit": func(force bool) error {
			old, repl := "old", "new"
			_, err := f.MultiEdit(t.Context(), definitions.MultiEditParams{Path: "a.txt", StopOnError: true, Force: force,
				Edits: []definitions.EditOp{{OldString: &old, NewString: &repl}}})
			return err
		},
	} {
		err := call(false)
		var te *definitions.ToolError
		require.ErrorAs(t, err, &te, name)
		assert.Equal(t, definitions.PermissionError, te.Type, name)
		assert.Contains(t, te.Message, "read-only (mode 0444)", name)
		data, _ := os.ReadFile(a)
		assert.Equal(t, "old\n", string(data), "%s: the file is unchanged", name)
	}
	_, err = f.WriteFile(t.Context(), definitions.WriteFileParams{Path: "a.txt", Content: "forced\n", Force: true})
	require.NoError(t, err)
	info, err := os.Stat(a)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o444), info.Mode().Perm(), "a forced write keeps the mode")
	data, _ := os.ReadFile(a)
	assert.Equal(t, "forced\n", string(data))
}

// git runs git in dir for a test, failing it on error.
func git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

// TestWritesSayWhenTheFileHadUncommittedChanges checks seed 000's git awareness: a change
// to a tracked file that already differed from git's index says so; a clean tracked file
// and an untracked one do not.
func TestWritesSayWhenTheFileHadUncommittedChanges(t *testing.T) {
	testenv.Program(t, "git")
	f, dir := newFiles(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "clean.txt"), []byte("clean\n"), 0o644))
	git(t, dir, "init", "-q")
	git(t, dir, "add", "a.txt", "clean.txt")
	git(t, dir, "commit", "-q", "-m", "init")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("mine\n"), 0o644)) // the user's own change
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new.txt"), []byte("untracked\n"), 0o644))
	for _, p := range []string{"a.txt", "clean.txt", "new.txt"} {
		_, err := f.ReadFile(t.Context(), definitions.ReadFileParams{Path: p, Limit: 10, MaxBytes: 1000})
		require.NoError(t, err)
	}

	res, err := f.EditFile(t.Context(), definitions.EditFileParams{Path: "a.txt", OldString: "mine", NewString: "agent"})
	require.NoError(t, err)
	assert.True(t, res.UncommittedChanges, "the user's change was not committed")
	res, err = f.EditFile(t.Context(), definitions.EditFileParams{Path: "clean.txt", OldString: "clean", NewString: "agent"})
	require.NoError(t, err)
	assert.False(t, res.UncommittedChanges, "a clean tracked file")
	w, err := f.WriteFile(t.Context(), definitions.WriteFileParams{Path: "new.txt", Content: "x\n"})
	require.NoError(t, err)
	assert.False(t, w.UncommittedChanges, "git does not track it")
	w, err = f.WriteFile(t.Context(), definitions.WriteFileParams{Path: "clean.txt", Content: "again\n"})
	require.NoError(t, err)
	assert.True(t, w.UncommittedChanges, "the agent's own edit above is uncommitted too")
}
