package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stateHome points jido's state and config directories at the test's own, and returns
// a project root holding a.txt.
func stateHome(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644))
	return root
}

// callIn runs `jido call` in-process and returns its exit code, stdout and stderr.
func callIn(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"call"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

// sessionPath is the state file of the named session of root.
func sessionPath(t *testing.T, root, name string) string {
	t.Helper()
	dir, err := sessionsDir(root)
	require.NoError(t, err)
	return filepath.Join(dir, name+".json")
}

func TestCheckSessionName(t *testing.T) {
	for _, ok := range []string{"s", "build-1", "A.b_c", strings.Repeat("x", 64)} {
		assert.NoError(t, checkSessionName(ok), ok)
	}
	for _, bad := range []string{"", ".", "..", ".hidden", "a/b", "../x", `a\b`, "a b", "é", "-x", strings.Repeat("x", 65), "a\x00"} {
		assert.Error(t, checkSessionName(bad), "%q", bad)
	}
	_, err := parseCall([]string{"--session", "../up", "list_dir"}, io.Discard)
	assert.ErrorContains(t, err, "bad --session name")
	_, err = parseEval([]string{"--session", "a/b", "-e", "return 1"}, io.Discard)
	assert.ErrorContains(t, err, "bad --session name")
	o, err := parseEval([]string{"--session", "s1", "-e", "return 1"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "s1", o.session)
}

// TestCallSessionReadThenEdit: a read in one `jido call --session` lets the next edit the
// file; without the session, or in another one, the edit is refused. The state file is
// private, beside the journal, with its version.
func TestCallSessionReadThenEdit(t *testing.T) {
	root := stateHome(t)
	code, out, errs := callIn(t, "--root", root, "--session", "s", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, exitOK, code, out+errs)
	edit := `{"path":"a.txt","old_string":"one","new_string":"two"}`

	code, out, _ = callIn(t, "--root", root, "--yes", "edit_file", edit)
	assert.Equal(t, exitToolError, code)
	assert.Contains(t, out, "conflict-error", "no session: not read")
	code, out, _ = callIn(t, "--root", root, "--yes", "--session", "other", "edit_file", edit)
	assert.Equal(t, exitToolError, code, "another session did not read it")
	assert.Contains(t, out, "conflict-error")

	code, out, errs = callIn(t, "--root", root, "--yes", "--session", "s", "edit_file", edit)
	require.Equal(t, exitOK, code, out+errs)
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "two\n", string(data))

	path := sessionPath(t, root, "s")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	journalDir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "jido")
	assert.True(t, strings.HasPrefix(path, journalDir+string(filepath.Separator)), "in jido's state dir: %s", path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var file struct {
		Version int                  `json:"version"`
		Name    string               `json:"name"`
		State   manager.SessionState `json:"state"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	assert.Equal(t, 1, file.Version)
	assert.Equal(t, "s", file.Name)
	require.Len(t, file.State.Reads, 1)
	assert.Equal(t, "a.txt", file.State.Reads[0].Path)
}

// TestEvalSession: eval takes --session too; a call's read serves an eval's edit.
func TestEvalSession(t *testing.T) {
	root := stateHome(t)
	code, out, errs := callIn(t, "--root", root, "--session", "e", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, exitOK, code, out+errs)
	var stdout, stderr bytes.Buffer
	code = run([]string{"eval", "--root", root, "--yes", "--session", "e", "-e",
		`local r, err = jido.edit_file({path = "a.txt", old_string = "one", new_string = "two"}) return err == nil`}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, stdout.String()+stderr.String())
	assert.Contains(t, stdout.String(), `"value":true`)
}

// TestSessionStateFileErrors: a corrupt, foreign-version or world-writable state file is
// refused with an error naming the file and the way out, and no panic.
func TestSessionStateFileErrors(t *testing.T) {
	for _, c := range []struct {
		name, content string
		mode          os.FileMode
		want          string
	}{
		{"corrupt", `{"version":1,"state":{`, 0o600, "corrupt"},
		{"not json", "\x00\x01garbage", 0o600, "corrupt"},
		{"future version", `{"version":99,"name":"s","state":{}}`, 0o600, "version is 99"},
		{"no version", `{"name":"s","state":{}}`, 0o600, "version is none"},
		{"other name", `{"version":1,"name":"t","state":{}}`, 0o600, `session "t"`},
		{"other root", `{"version":1,"name":"s","state":{"root":"/elsewhere"}}`, 0o600, "/elsewhere"},
		{"forged read", `{"version":1,"name":"s","state":{"root":"ROOT","reads":[{"path":"../x"}]}}`, 0o600, "root-relative"},
		{"writable by others", `{"version":1,"name":"s","state":{}}`, 0o666, "others may write it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := stateHome(t)
			path := sessionPath(t, root, "s")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
			real, err := filepath.EvalSymlinks(root)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(c.content, "ROOT", real)), 0o600))
			require.NoError(t, os.Chmod(path, c.mode))
			code, out, errs := callIn(t, "--root", root, "--session", "s", "list_dir")
			assert.Equal(t, exitToolError, code)
			assert.Empty(t, out, "no call ran")
			assert.Contains(t, errs, path, "names the file")
			assert.Contains(t, errs, c.want)
			assert.Contains(t, errs, "delete it")
			assert.Contains(t, errs, "another --session name")
			assert.NotContains(t, errs, "panic")
		})
	}
}

// TestSessionExpiry: a session unused for a day starts afresh (a note on stderr), and the
// next use of any session removes the expired state files of every root.
func TestSessionExpiry(t *testing.T) {
	root := stateHome(t)
	code, _, errs := callIn(t, "--root", root, "--session", "old", "read_file", `{"path":"a.txt"}`)
	require.Equal(t, exitOK, code, errs)
	code, _, errs = callIn(t, "--root", root, "--session", "gone", "list_dir")
	require.Equal(t, exitOK, code, errs)
	otherRoot := t.TempDir()
	code, _, errs = callIn(t, "--root", otherRoot, "--session", "elsewhere", "list_dir")
	require.Equal(t, exitOK, code, errs)
	longAgo := time.Now().Add(-25 * time.Hour)
	for _, p := range []string{sessionPath(t, root, "old"), sessionPath(t, root, "gone"), sessionPath(t, otherRoot, "elsewhere")} {
		require.NoError(t, os.Chtimes(p, longAgo, longAgo))
	}

	code, out, errs := callIn(t, "--root", root, "--yes", "--session", "old", "edit_file", `{"path":"a.txt","old_string":"one","new_string":"two"}`)
	assert.Equal(t, exitToolError, code)
	assert.Contains(t, out, "conflict-error", "the expired session's reads are not restored")
	assert.Contains(t, errs, "session old expired")
	assert.NoFileExists(t, sessionPath(t, root, "gone"), "swept")
	assert.NoFileExists(t, strings.TrimSuffix(sessionPath(t, root, "gone"), ".json")+".lock", "with its lock")
	assert.NoFileExists(t, sessionPath(t, otherRoot, "elsewhere"), "any root's")
	assert.FileExists(t, sessionPath(t, root, "old"), "saved again, fresh")
}

// TestSessionLockSerialises: a second process using a session waits while the first holds
// it (saying so), and gives up with a clear error after sessionLockWait; a lock file the
// sweep removed meanwhile does not let two holders in.
func TestSessionLockSerialises(t *testing.T) {
	root := stateHome(t)
	first, err := openSessionStore(t.Context(), root, "s", io.Discard)
	require.NoError(t, err)

	defer func(d time.Duration) { sessionLockWait = d }(sessionLockWait)
	sessionLockWait = 200 * time.Millisecond
	var note bytes.Buffer
	_, err = openSessionStore(t.Context(), root, "s", &note)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "still in use by another jido process")
	assert.Contains(t, err.Error(), "another --session name")
	assert.Contains(t, note.String(), "waiting")

	other, err := openSessionStore(t.Context(), root, "t", io.Discard)
	require.NoError(t, err, "other names are not held")
	require.NoError(t, other.Close())

	sessionLockWait = 10 * time.Second
	var mu sync.Mutex
	var order []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		second, err := openSessionStore(context.Background(), root, "s", io.Discard)
		if !assert.NoError(t, err) {
			return
		}
		mu.Lock()
		order = append(order, "second")
		mu.Unlock()
		second.Close()
	}()
	time.Sleep(150 * time.Millisecond)
	mu.Lock()
	order = append(order, "first done")
	mu.Unlock()
	require.NoError(t, first.Close())
	<-done
	assert.Equal(t, []string{"first done", "second"}, order, "the second waited for the first")

	// The sweep removes a lock file while a process waits on it: the waiter locks the new
	// file, so it and a newcomer never both hold the session.
	held, err := openSessionStore(t.Context(), root, "s", io.Discard)
	require.NoError(t, err)
	lockPath := filepath.Join(held.dir, "s.lock")
	got := make(chan *sessionStore)
	go func() {
		s, err := openSessionStore(context.Background(), root, "s", io.Discard)
		assert.NoError(t, err)
		got <- s
	}()
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, os.Remove(lockPath))
	require.NoError(t, held.Close())
	waiter := <-got
	_, err = lockFile(context.Background(), lockPath, false, nil)
	assert.ErrorIs(t, err, errLocked, "the waiter holds the file the path names")
	require.NoError(t, waiter.Close())
}

// TestStateDirInsideRootRefused: a state directory inside the project root, where the
// session's own commands could forge it, is refused.
func TestStateDirInsideRootRefused(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, ".state"))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	code, _, errs := callIn(t, "--root", root, "--session", "s", "list_dir")
	assert.Equal(t, exitToolError, code)
	assert.Contains(t, errs, "inside the project root")
	code, _, errs = callIn(t, "--root", root, "list_dir")
	assert.Equal(t, exitOK, code, "without --session nothing is stored: %s", errs)
}
