package bridge

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPositionalCalls checks seed 003's bridge calls: a tool's positional parameters in
// order, then a table of the others, and the errors of a call that mixes them badly.
func TestPositionalCalls(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644))
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	defer root.Close()
	vm, err := runtime.New(runtime.Options{Libraries: Libraries(Deps{Tools: builtin.Deps{Root: root, Reads: builtin.NewReadLog()}})})
	require.NoError(t, err)
	defer vm.Close()

	for _, c := range []struct{ src, want string }{
		{`return jido.read_file("a.txt").total_lines`, "1"},
		{`return jido.read_file("a.txt", {line_numbers = false}).content`, "old\n"},
		{`return jido.edit_file("a.txt", "old", "new").lines_added`, "1"},
		{`jido.write_file("b/c.txt", "x\n") return jido.file_exists("b/c.txt").exists`, "true"},
		{`return #jido.glob("**/*.txt", ".").files`, "2"},
		{`return jido.multi_edit("a.txt", {{old_string = "new", new_string = "newer"}}).applied`, "1"},
		{`return jido.list_dir("b").listing`, "c.txt\n"},
		{`return jido.delete_file("b/c.txt").deleted`, "true"},
		{`local r, e = jido.read_file("a.txt", "more") return e.message`, "read_file takes at most 1 arguments by position (path), then a table of the others"},
		{`local r, e = jido.read_file("a.txt", {path = "b"}) return e.message`, "read_file: `path` is given by position and by name"},
		{`local r, e = jido.undo("x") return e`, "raises"},
		{`local r = jido.mkdir_p("d/e/f") return tostring(r.created) .. " " .. r.path`, "true d/e/f"},
		{`return jido.mkdir_p("d/e", {dry_run = true}).created`, "false"},
		{`return jido.create_directory("d/e/f").created`, "false"},
		{`local r, e = jido.mkdir_p("a.txt") return e.type`, "conflict-error"},
		{`local r, e = jido.call("mkdir_p", {path = "x"}) return e.type`, "validation-error"},
	} {
		vals, err := vm.Call(t.Context(), "test", c.src)
		if c.want == "raises" {
			assert.Error(t, err, "a tool without positional parameters takes one table")
			continue
		}
		require.NoError(t, err, c.src)
		assert.Equal(t, c.want, fmt.Sprint(vals[0]), c.src)
	}
}
