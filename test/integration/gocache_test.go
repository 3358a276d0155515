package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// goCacheFixture is a user whose Go build cache (a temp dir, never the real one) holds a
// small module's package, built outside with -trimpath (so that its cache entry does not
// depend on the directory it was built in), and a project that is a copy of that module.
type goCacheFixture struct {
	base, user, root string
	env              []string // the jido process's: the user's Go build cache and cache directory
}

// goModule is the module: one package with no imports, so that warming the user's cache
// compiles that package only.
var goModule = map[string]string{
	"go.mod":     "module example.com/warm\n\ngo 1.24\n",
	"lib/lib.go": "package lib\n\n// Answer is the answer.\nfunc Answer() int { return 42 }\n",
}

// compiled is what `go build -x` prints when it compiles a package.
const compiled = "compile -o"

func newGoCacheFixture(t *testing.T) goCacheFixture {
	t.Helper()
	testenv.Program(t, "go")
	base := t.TempDir()
	f := goCacheFixture{base: base, user: filepath.Join(base, "go-build"), root: filepath.Join(base, "root")}
	// GOENV=off: the user's go env file must not make the builds differ; it is passed on
	// to the commands, whose environment is the jido process's.
	f.env = []string{"GOCACHE=" + f.user, "XDG_CACHE_HOME=" + filepath.Join(base, "xdg"), "GOENV=off", "GOFLAGS="}
	warm := filepath.Join(base, "warm")
	writeTree(t, warm, goModule)
	writeTree(t, f.root, goModule)
	cmd := exec.Command("go", "build", "-x", "-trimpath", "./...")
	cmd.Dir = warm
	cmd.Env = append(os.Environ(), f.env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), compiled, "the warm-up compiled the package into the user's cache")
	return f
}

// shell runs command through the binary's run_shell on the fixture's project, with the
// sandbox's private root, or with Landlock alone (landlockOnly: jido runs without the
// capability to make namespaces; needs root), and returns the result.
func (f goCacheFixture) shell(t *testing.T, landlockOnly bool, command string) map[string]any {
	t.Helper()
	raw, err := jsonString(map[string]any{"command": command, "timeout": 300})
	require.NoError(t, err)
	args := []string{jidoBin, "call", "--root", f.root, "--yes", "run_shell", raw}
	env := append(os.Environ(), f.env...)
	if landlockOnly {
		argv, err := json.Marshal(args)
		require.NoError(t, err)
		env = append(env, helperEnv+"="+noSysAdminMode, argvEnv+"="+string(argv))
		args = []string{os.Args[0]}
	}
	cmd := exec.CommandContext(t.Context(), args[0], args[1:]...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	res, _ := decodeJSON(t, stdout.String())["result"].(map[string]any)
	require.NotNil(t, res, "stdout: %s\nstderr: %s", stdout.String(), stderr.String())
	sb, _ := res["sandbox"].(map[string]any)
	want := "private-root"
	if landlockOnly {
		want = "landlock"
	}
	require.Equal(t, want, sb["filesystem"], "the sandbox mode this test forces (sandbox: %v)", sb)
	return res
}

// sandboxModes are the two ways the sandbox confines a command's files.
var sandboxModes = map[string]bool{"private root": false, "Landlock only": true}

// requireModeAvailable skips the Landlock-only mode where this test cannot force it: jido
// must run as root to be started without CAP_SYS_ADMIN (as another user, new namespaces
// come with a user namespace of their own).
func requireModeAvailable(t *testing.T, landlockOnly bool) {
	t.Helper()
	requireLandlock(t)
	if landlockOnly && os.Getuid() != 0 {
		t.Skip("forcing Landlock alone needs root, to start jido without CAP_SYS_ADMIN")
	}
}

// TestFirstGoBuildReusesTheUsersCache: the first build in a project with no private cache
// yet takes the package compiled outside from the user's cache (go build -x compiles
// nothing), and leaves the user's cache as it was; with a cold user's cache the same build
// compiles (the evidence works).
func TestFirstGoBuildReusesTheUsersCache(t *testing.T) {
	for name, landlockOnly := range sandboxModes {
		t.Run(name, func(t *testing.T) {
			requireModeAvailable(t, landlockOnly)
			f := newGoCacheFixture(t)
			before := snapshot(t, f.user, nil, true)
			res := f.shell(t, landlockOnly, "go build -x -trimpath ./... 2>&1")
			require.Equal(t, float64(0), res["exit_code"], "%v", res)
			assert.NotContains(t, res["stdout"], compiled, "the package came from the user's cache")
			assert.Equal(t, before, snapshot(t, f.user, nil, true), "the user's cache did not change")

			cold := filepath.Join(f.base, "cold")
			require.NoError(t, os.Mkdir(cold, 0o700))
			f.env = append(f.env, "GOCACHE="+cold, "XDG_CACHE_HOME="+filepath.Join(f.base, "xdg2"))
			res = f.shell(t, landlockOnly, "go build -x -trimpath ./... 2>&1")
			require.Equal(t, float64(0), res["exit_code"], "%v", res)
			assert.Contains(t, res["stdout"], compiled, "with nothing to reuse, the package is compiled")
		})
	}
}

// TestCommandsCannotChangeOrReadTheUsersCache: a command that fills the private cache with
// garbage and links into the user's cache, points GOCACHE or GOCACHEPROG at the user's
// cache, runs a cache program of its own or talks to the server by hand changes no file of
// the user's cache; nor can it list the user's cache or read an entry by its path.
func TestCommandsCannotChangeOrReadTheUsersCache(t *testing.T) {
	for name, landlockOnly := range sandboxModes {
		t.Run(name, func(t *testing.T) {
			requireModeAvailable(t, landlockOnly)
			f := newGoCacheFixture(t)
			entries, err := filepath.Glob(filepath.Join(f.user, "*", "*-a"))
			require.NoError(t, err)
			require.NotEmpty(t, entries)
			entry, err := os.ReadFile(entries[0])
			require.NoError(t, err)
			before := snapshot(t, f.user, nil, true)
			actionID := strings.TrimSuffix(filepath.Base(entries[0]), "-a")
			outDir := strings.Fields(string(entry))[2][:2] // the entry: v1 <action> <output> <size> <time>
			writeTree(t, f.root, map[string]string{"hostile.py": hostileRequests})
			// The program's arguments in this command's session: $1 the helper, $2 its mode,
			// $3 the private cache, $4 the server's socket.
			const args = `eval "set -- $GOCACHEPROG"; `

			for _, tc := range []struct{ name, command string }{
				{"GOCACHE is the user's", "env -u GOCACHEPROG GOCACHE=" + f.user + " go build -a -trimpath ./... 2>&1"},
				{"GOCACHE is the user's, with the program", "GOCACHE=" + f.user + " go build -a -trimpath ./... 2>&1"},
				{"the program on the user's cache", args + `GOCACHEPROG="$1 $2 ` + f.user + ` $4" go build -a -trimpath ./... 2>&1`},
				{"a program of its own", `printf '#!/bin/sh\necho pwned > ` + f.user + `/pwned\n' > evil.sh; chmod +x evil.sh; GOCACHEPROG=$PWD/evil.sh go build ./... 2>&1`},
				{"GOCACHEPROG unset", "env -u GOCACHEPROG go build -a -x -trimpath ./... 2>&1"},
				{"hostile requests to the server", args + `python3 hostile.py "$4"`},
				{"remove the user's cache", "rm -rf " + f.user},
				{"write into the user's cache", "echo x > " + entries[0]},
				{"rename the user's cache entries", "mv " + filepath.Dir(entries[0]) + " " + f.user + "/moved"},
				{"link the user's cache into the project", "ln -s " + f.user + " user && echo x > user/new"},
				// Last: it leaves the private cache broken (its builds then fail, which is
				// the command's own doing), and makes the server's copies meet the links.
				// Last: it breaks the private cache for good (the command's own doing). The
				// server is asked for the entry after the links are planted.
				{"links from the private cache into the user's", "for d in " + filepath.Base(filepath.Dir(entries[0])) + " " + outDir + `; do rm -rf "$GOCACHE/$d"; ln -s ` + f.user + `/$d "$GOCACHE/$d"; done; ` +
					`echo garbage > "$GOCACHE/trim.txt"; ` + args + `python3 hostile.py "$4" ` + actionID},
			} {
				t.Run(tc.name, func(t *testing.T) {
					if strings.Contains(tc.command, "python3") {
						testenv.Program(t, "python3")
					}
					res := f.shell(t, landlockOnly, tc.command)
					t.Logf("exit %v: %v %v", res["exit_code"], res["stdout"], res["stderr"])
				})
			}
			assert.Equal(t, before, snapshot(t, f.user, nil, true), "no file of the user's cache changed")

			for name, command := range map[string]string{
				"list":        "ls -la " + f.user + " " + filepath.Dir(entries[0]),
				"read":        "cat " + entries[0],
				"find":        "find " + f.base + " -name '*-a'",
				"via /proc":   "cat /proc/1/root" + entries[0],
				"via its fds": "ls -l /proc/self/fd/; for fd in /proc/self/fd/*; do ls $fd/ 2>/dev/null; done",
			} {
				t.Run(name, func(t *testing.T) {
					res := f.shell(t, landlockOnly, command)
					out := fmt.Sprint(res["stdout"])
					assert.NotContains(t, out, string(entry[:20]), "an entry's content")
					assert.NotContains(t, out, filepath.Base(entries[0]), "an entry's name")
				})
			}
		})
	}
}

// TestWorktreesShareTheirPrivateCache: two roots with one BuildCacheKey (a repository's
// worktrees) share their private cache, which the first filled; another key does not.
// The user's cache is off, so that only the private cache can hold the package.
func TestWorktreesShareTheirPrivateCache(t *testing.T) {
	requireLandlock(t)
	testenv.Program(t, "go")
	base := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "xdg"))
	t.Setenv("GOCACHE", "off")
	t.Setenv("GOENV", "off")
	t.Setenv("GOFLAGS", "")
	build := func(name, key string) string {
		root := filepath.Join(base, name)
		writeTree(t, root, goModule)
		m, err := manager.New(manager.Config{Root: root, BuildCacheKey: key})
		require.NoError(t, err)
		defer m.Close()
		s, err := m.Open(t.Context(), "")
		require.NoError(t, err)
		defer s.Close()
		r := s.Call(t.Context(), manager.ToolCall{Name: "run_shell", Args: map[string]any{"command": "go build -x -trimpath ./... 2>&1", "timeout": 300}})
		require.True(t, r.OK, "%+v", r)
		var res map[string]any
		require.NoError(t, r.Decode(&res))
		require.Equal(t, float64(0), res["exit_code"], "%v", res)
		return fmt.Sprint(res["stdout"])
	}
	assert.Contains(t, build("main", "repo"), compiled, "the first root compiles")
	assert.NotContains(t, build("worktree", "repo"), compiled, "its worktree reuses what it compiled")
	assert.Contains(t, build("other", "another repo"), compiled, "another key has a cache of its own")
}

// hostileRequests sends the server what the go command never would, a request for an ID
// no one computed, then the IDs of its arguments after the socket, and prints the answers.
const hostileRequests = `import socket, sys
for req in [b"../../../etc/passwd\n", b"%s\n" % (b"0" * 64), b"\xff" * 100000, b"ab" * 32] + [a.encode() + b"\n" for a in sys.argv[2:]]:
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(req)
    s.shutdown(socket.SHUT_WR)
    print(s.recv(200))
`

// TestTestResultsAreCachedAcrossSessions: a project's second go test, in a new session,
// reuses the first's result for a test that reads TMPDIR (os.TempDir), as it does outside:
// the session's temp dir keeps its path. The user's Go build cache is the real one here,
// only read.
func TestTestResultsAreCachedAcrossSessions(t *testing.T) {
	requireLandlock(t)
	testenv.Program(t, "go")
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":      "module example.com/tmp\n\ngo 1.24\n",
		"tmp_test.go": "package tmp\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestTempDir(t *testing.T) {\n\tif _, err := os.Stat(os.TempDir()); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
	})
	user, err := exec.Command("go", "env", "GOCACHE").Output()
	require.NoError(t, err)
	env := []string{"GOCACHE=" + strings.TrimSpace(string(user)), "XDG_CACHE_HOME=" + filepath.Join(t.TempDir(), "xdg")}
	run := func() string {
		raw, err := jsonString(map[string]any{"command": "go test ./... 2>&1", "timeout": 300})
		require.NoError(t, err)
		r := runJidoIn(t, "", env, "", "call", "--root", root, "--yes", "run_shell", raw)
		res, _ := decodeJSON(t, r.stdout)["result"].(map[string]any)
		require.NotNil(t, res, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		require.Equal(t, float64(0), res["exit_code"], "%v", res)
		return fmt.Sprint(res["stdout"])
	}
	assert.NotContains(t, run(), "(cached)")
	assert.Contains(t, run(), "(cached)", "the second session reuses the result")
}

// noSysAdminMode makes the test binary exec the command of argvEnv (JSON) without
// CAP_SYS_ADMIN, which a root process needs to make namespaces: jido's sandbox then
// confines its commands with Landlock alone.
const (
	noSysAdminMode = "no-sys-admin"
	argvEnv        = "JIDO_TEST_ARGV"
)

func init() { helpers[noSysAdminMode] = execWithoutSysAdmin }

func execWithoutSysAdmin() int {
	// The bounding set is per thread: the thread that drops the capability must be the one
	// that execs (else, now and then, jido started with it and made namespaces).
	runtime.LockOSThread()
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv(argvEnv)), &argv); err != nil || len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "no-sys-admin: bad", argvEnv, err)
		return 2
	}
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_ADMIN, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "no-sys-admin:", err)
		return 1
	}
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); name != helperEnv && name != argvEnv {
			env = append(env, kv)
		}
	}
	err := syscall.Exec(argv[0], argv, env)
	fmt.Fprintln(os.Stderr, "no-sys-admin:", err)
	return 1
}
