package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitSpare waits until sb has a spare (started after its last command) and returns its pid.
func waitSpare(t *testing.T, sb *Sandbox) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		sb.mu.Lock()
		sp := sb.spare
		sb.mu.Unlock()
		if sp != nil {
			return sp.cmd.Process.Pid
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no spare was started")
	return 0
}

// start starts a bash script with paths and waits for it: its stdout, stderr, exit code,
// and whether a spare ran it.
func start(t *testing.T, sb *Sandbox, dir, script, stdin string, env []string, paths Paths) (string, string, int, bool) {
	t.Helper()
	var out, errOut bytes.Buffer
	p, err := sb.Start(Options{Argv: []string{"bash", "-c", script}, Dir: dir, Env: env, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, paths)
	require.NoError(t, err)
	p.Cmd.Wait()
	p.Release()
	return out.String(), errOut.String(), p.Cmd.ProcessState.ExitCode(), p.Spare
}

func TestLaterCommandsRunInTheSpare(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	sub := filepath.Join(f.root, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	pid := waitSpare(t, sb)
	env := []string{"PATH=" + os.Getenv("PATH"), "GREETING=first", "GREETING=hello"}
	out, errOut, code, spare := start(t, sb, sub, `pwd; echo "$GREETING $$"; cat; echo oops >&2; exit 7`, "from stdin\n", env, Paths{})
	assert.True(t, spare, "the spare ran the command")
	assert.Equal(t, sub+"\nhello "+strconv.Itoa(pid)+"\nfrom stdin\n", out, "its directory, environment (the last value wins, as with exec.Cmd), pid and stdin")
	assert.Equal(t, "oops\n", errOut)
	assert.Equal(t, 7, code)

	waitSpare(t, sb)
	var both bytes.Buffer
	p, err := sb.Start(Options{Argv: []string{"bash", "-c", "echo 1; echo 2 >&2; echo 3; env"}, Dir: f.root, Env: []string{"PATH=" + os.Getenv("PATH")}, Stdout: &both, Stderr: &both}, Paths{})
	require.NoError(t, err)
	require.NoError(t, p.Cmd.Wait())
	p.Release()
	assert.True(t, p.Spare)
	assert.True(t, strings.HasPrefix(both.String(), "1\n2\n3\n"), "one writer for both streams keeps their order: %q", both.String())
	assert.NotContains(t, both.String(), "GREETING", "nothing of the command before")
}

// TestBackToBackCommandsWaitForTheSpare: a command started right after another was
// released waits for the spare that release started, rather than starting a helper of its
// own beside it.
func TestBackToBackCommandsWaitForTheSpare(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	env := []string{"PATH=" + os.Getenv("PATH")}
	start(t, sb, f.root, "true", "", env, Paths{})
	for range 3 {
		_, _, code, spare := start(t, sb, f.root, "true", "", env, Paths{})
		assert.Zero(t, code)
		assert.True(t, spare, "the spare started by the previous release ran the command")
	}
}

// TestSpareNeverUnmasks: a secret or protected path that appears, or is replaced on the
// host (which detaches a spare's mount over it), between two commands is masked in the
// second as in the first, by a helper started for it.
func TestSpareNeverUnmasks(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	env := []string{"PATH=" + os.Getenv("PATH")}
	secret, config := filepath.Join(f.root, ".env"), filepath.Join(f.root, ".git/config")
	require.NoError(t, os.MkdirAll(filepath.Dir(config), 0o755))
	require.NoError(t, os.WriteFile(config, []byte("[core]\n"), 0o644))
	replace := func(path, content string) { // as an editor or git saves: a new file renamed over
		require.NoError(t, os.WriteFile(path+".new", []byte(content), 0o644))
		require.NoError(t, os.Rename(path+".new", path))
	}
	paths := Paths{Protected: []string{config}}
	write := "cat .env; echo '[core] fsmonitor = evil' >> .git/config"

	_, _, _, _ = start(t, sb, f.root, "true", "", env, paths)
	waitSpare(t, sb)
	require.NoError(t, os.WriteFile(secret, []byte("API_KEY=new-secret\n"), 0o644))
	paths.Hidden = []string{secret} // the scan before the command finds it
	out, _, code, spare := start(t, sb, f.root, write, "", env, paths)
	assert.False(t, spare, "the spare's root was built without the secret")
	assert.NotEqual(t, 0, code)
	assert.NotContains(t, out, "new-secret")

	for name, change := range map[string]func(){
		"secret replaced":    func() { replace(secret, "API_KEY=replaced-secret\n") },
		"protected replaced": func() { replace(config, "[core]\n") },
		"directory moved": func() {
			require.NoError(t, os.Rename(filepath.Join(f.root, ".git"), filepath.Join(f.root, ".git-old")))
			require.NoError(t, os.MkdirAll(filepath.Dir(config), 0o755))
			require.NoError(t, os.WriteFile(config, []byte("[core]\n"), 0o644))
		},
	} {
		t.Run(name, func(t *testing.T) {
			waitSpare(t, sb)
			change()
			out, errOut, code, spare := start(t, sb, f.root, write, "", env, paths)
			assert.False(t, spare, "the spare's mounts no longer mask the paths")
			assert.NotEqual(t, 0, code, out)
			assert.NotContains(t, out, "secret")
			assert.Contains(t, errOut, "Read-only file system")
			got, err := os.ReadFile(config)
			require.NoError(t, err)
			assert.Equal(t, "[core]\n", string(got))
		})
	}

	waitSpare(t, sb)
	out, _, _, spare = start(t, sb, f.root, write, "", env, paths)
	assert.True(t, spare, "unchanged paths: the spare runs the command")
	assert.Empty(t, out, "and masks as well")
	got, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, "[core]\n", string(got))
}

func TestDeadSpareFallsBack(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	require.NoError(t, syscall.Kill(waitSpare(t, sb), syscall.SIGKILL))
	out, _, code, spare := start(t, sb, f.root, "echo ran", "", []string{"PATH=" + os.Getenv("PATH")}, Paths{})
	assert.False(t, spare)
	assert.Equal(t, 0, code)
	assert.Equal(t, "ran\n", out)
}

// TestCloseLeavesNothing: commands and a Close leave no spare process, goroutine or open
// file behind.
func TestCloseLeavesNothing(t *testing.T) {
	f := newFixture(t)
	session := func() int {
		sb, err := New("", Policy{Root: f.root, TempDir: f.tmp})
		require.NoError(t, err)
		for range 3 {
			start(t, sb, f.root, "true", "", nil, Paths{})
		}
		pid := waitSpare(t, sb)
		sb.Close()
		return pid
	}
	session() // warm up: lazily made runtime goroutines and files
	goroutines, fds := goruntime.NumGoroutine(), openFDs(t)
	var pids []int
	for range 3 {
		pids = append(pids, session())
	}
	deadline := time.Now().Add(5 * time.Second) // not assert.Eventually: it runs goroutines of its own
	for time.Now().Before(deadline) && (goruntime.NumGoroutine() > goroutines || openFDs(t) > fds) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, goruntime.NumGoroutine(), goroutines, "goroutines")
	assert.LessOrEqual(t, openFDs(t), fds, "open files")
	for _, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "the spare %d is gone when Close returns", pid)
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(entries)
}

func TestRequestRoundTrips(t *testing.T) {
	for name, r := range map[string]request{
		"full":  {Paths: Paths{Protected: []string{"/p/.git/config"}, Hidden: []string{"/p/.env", "/p/\xff\xfe"}, Writable: []string{"/p/.jido/output"}}, Dir: "/p", Argv: []string{"bash", "-c", ""}, Env: []string{"A=1", "LATIN=caf\xe9", "E="}, Merge: true},
		"empty": {Paths: Paths{Protected: []string{}, Hidden: []string{}, Writable: []string{}}, Argv: []string{"true"}, Env: []string{}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := decodeRequest(r.encode())
			require.NoError(t, err)
			assert.Equal(t, r, got)
		})
	}
	for _, bad := range []string{"", "x", "2\x00/p\x00\x00", "2\x00/p\x00\x009\x00"} {
		_, err := decodeRequest([]byte(bad))
		assert.ErrorIs(t, err, errBadRequest, "%q", bad)
	}
}

// TestWarmRunsTheFirstCommandInASpare: a sandbox warmed before its first command has a
// spare ready for it, which runs it.
func TestWarmRunsTheFirstCommandInASpare(t *testing.T) {
	requireLandlock(t)
	if !Isolates() {
		t.Skip("this kernel refuses mount namespaces here: spares need a private root")
	}
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	sb.Warm(Paths{})
	pid := waitSpare(t, sb)
	out, _, code, spare := start(t, sb, f.root, "echo $$", "", []string{"PATH=" + os.Getenv("PATH")}, Paths{})
	assert.True(t, spare, "the warmed spare ran the first command")
	assert.Equal(t, strconv.Itoa(pid)+"\n", out)
	assert.Equal(t, 0, code)
	sb.Warm(Paths{}) // a spare is there again (refilled at release): no second one
	waitSpare(t, sb)
}
