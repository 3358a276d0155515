package integration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedSessionFile is where the jido binary keeps the state of session name of root:
// $XDG_STATE_HOME/jido/sessions/<root hash>/<name>.json (TestMain sets XDG_STATE_HOME).
func namedSessionFile(t *testing.T, root, name string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(os.Getenv("XDG_STATE_HOME"), "jido", "sessions", hex.EncodeToString(sum[:])[:16], name+".json")
}

// editArgs is an edit_file call's arguments on a.txt.
func editArgs(from, to string) string {
	return `{"path":"a.txt","old_string":"` + from + `","new_string":"` + to + `"}`
}

// TestCallSessionReadThenEdit drives the binary: `jido call --session s read_file` then
// `jido call --session s edit_file` edits the file; without --session, or after the file
// changed on disk, the edit is refused.
func TestCallSessionReadThenEdit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n"})

	r := runJido(t, "", "call", "--root", root, "--session", "s", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)

	r = runJido(t, "", "call", "--root", root, "--yes", "edit_file", editArgs("one", "two"))
	assert.Equal(t, 1, r.code, "without --session: a new session that has read nothing")
	assert.Equal(t, "conflict-error", decodeJSON(t, r.stdout)["error"].(map[string]any)["type"])

	r = runJido(t, "", "call", "--root", root, "--yes", "--session", "s", "edit_file", editArgs("one", "two"))
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, true, decodeJSON(t, r.stdout)["ok"])
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "two\n", string(data))

	// Changed on disk since the session last saw it: refused as stale, file untouched.
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed\n"), 0o644))
	r = runJido(t, "", "call", "--root", root, "--yes", "--session", "s", "edit_file", editArgs("changed", "three"))
	assert.Equal(t, 1, r.code, r.stdout)
	assert.Equal(t, "conflict-error", decodeJSON(t, r.stdout)["error"].(map[string]any)["type"])
	r = runJido(t, "", "call", "--root", root, "--yes", "--session", "s", "write_file", `{"path":"a.txt","content":"x\n"}`)
	assert.Equal(t, 1, r.code, "nor overwritten: %s", r.stdout)
	data, err = os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "changed\n", string(data))

	// eval carries the same session.
	r = runJido(t, "", "eval", "--root", root, "--session", "s", "-e", `return jido.read_file({path = "a.txt"}).path`)
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	r = runJido(t, "", "call", "--root", root, "--yes", "--session", "s", "edit_file", editArgs("changed", "three"))
	assert.Equal(t, 0, r.code, "read again, by eval: %s", r.stdout)

	info, err := os.Stat(namedSessionFile(t, root, "s"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

// TestCallSessionExpires: a session unused for more than a day (its state file's mtime,
// faked) is not restored, with a note on stderr.
func TestCallSessionExpires(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n"})
	r := runJido(t, "", "call", "--root", root, "--session", "old", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, 0, r.code, r.stderr)
	longAgo := time.Now().Add(-25 * time.Hour)
	require.NoError(t, os.Chtimes(namedSessionFile(t, root, "old"), longAgo, longAgo))

	r = runJido(t, "", "call", "--root", root, "--yes", "--session", "old", "edit_file", editArgs("one", "two"))
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "conflict-error", decodeJSON(t, r.stdout)["error"].(map[string]any)["type"])
	assert.Contains(t, r.stderr, "session old expired")
}

// TestCallSessionCorruptState: a corrupt state file is a clear error naming the file and
// the way out; deleting it, as it says, recovers.
func TestCallSessionCorruptState(t *testing.T) {
	root := t.TempDir()
	r := runJido(t, "", "call", "--root", root, "--session", "c", "list_dir")
	require.Equal(t, 0, r.code, r.stderr)
	path := namedSessionFile(t, root, "c")
	require.NoError(t, os.WriteFile(path, []byte(`{"version":1,"name":"c","state":{"reads":[`), 0o600))

	r = runJido(t, "", "call", "--root", root, "--session", "c", "list_dir")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, path)
	assert.Contains(t, r.stderr, "corrupt")
	assert.Contains(t, r.stderr, "rm "+path)
	assert.NotContains(t, r.stderr, "panic")

	require.NoError(t, os.Remove(path))
	r = runJido(t, "", "call", "--root", root, "--session", "c", "list_dir")
	assert.Equal(t, 0, r.code, r.stderr)

	r = runJido(t, "", "call", "--root", root, "--session", "../c", "list_dir")
	assert.Equal(t, 2, r.code, "a name with a path separator is a usage error")
	assert.Contains(t, r.stderr, "bad --session name")
}

// TestCallSessionWaitsForItsHolder: while another process holds a session, a call on it
// waits (and says so on stderr), then runs when the holder lets go.
func TestCallSessionWaitsForItsHolder(t *testing.T) {
	root := t.TempDir()
	r := runJido(t, "", "call", "--root", root, "--session", "w", "list_dir")
	require.Equal(t, 0, r.code, r.stderr)
	lock, err := os.OpenFile(strings.TrimSuffix(namedSessionFile(t, root, "w"), ".json")+".lock", os.O_RDWR, 0)
	require.NoError(t, err)
	defer lock.Close()
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_EX))

	cmd := exec.CommandContext(t.Context(), jidoBin, "call", "--root", root, "--session", "w", "list_dir")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("the call did not wait for the session's holder: %v %s %s", err, out.String(), errb.String())
	case <-time.After(700 * time.Millisecond):
	}
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_UN))
	select {
	case err := <-exited:
		require.NoError(t, err, errb.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not run once the session was free")
	}
	assert.Contains(t, errb.String(), "session w is in use by another jido process")
	assert.Equal(t, true, decodeJSON(t, out.String())["ok"])
}

// TestCallSessionStateHiddenFromCommands: a sandboxed command can neither read nor write
// the session's state file (the sandbox shows commands a private root: no home directory,
// a private /tmp), so it cannot forge the files read or the approvals.
func TestCallSessionStateHiddenFromCommands(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n"})
	r := runJido(t, "", "call", "--root", root, "--session", "h", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, 0, r.code, r.stderr)
	path := namedSessionFile(t, root, "h")
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	args, err := json.Marshal(map[string]any{"command": "cat " + path + "; echo forged > " + path + "; ls " + filepath.Dir(path)})
	require.NoError(t, err)
	r = runJido(t, "", "call", "--root", root, "--yes", "run_shell", string(args))
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	res := decodeJSON(t, r.stdout)["result"].(map[string]any)
	if sb, _ := res["sandbox"].(map[string]any); sb == nil || sb["confined"] != true {
		t.Skipf("commands are not confined here: %v", res["sandbox"])
	}
	assert.NotContains(t, res["stdout"], `"version"`, "the command did not read the state")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nor write it")
}
