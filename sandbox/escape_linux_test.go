package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requirePrivateRoot skips where the kernel refuses the namespaces (the result then says
// so, and jido asks before every command).
func requirePrivateRoot(t *testing.T, sb *Sandbox, f fixture) {
	t.Helper()
	requireLandlock(t)
	_, _, conf := run(t, sb, f.root, "true")
	if !conf.Isolated() {
		t.Skip("this kernel refuses mount namespaces here: commands see the host through Landlock only")
	}
}

func TestProtectedPathsAreReadOnlyAndSecretsHidden(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	for name, content := range map[string]string{
		".git/config": "[core]\n", ".git/hooks/pre-commit.sample": "#!/bin/sh\n", ".git/HEAD": "ref: refs/heads/main\n",
		".jido/config.toml": "mode = \"default\"\n", ".env": "API_KEY=sk-very-secret\n", "src/main.go": "package main\n",
	} {
		p := filepath.Join(f.root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	paths := Paths{
		Protected: []string{filepath.Join(f.root, ".git/config"), filepath.Join(f.root, ".git/hooks"), filepath.Join(f.root, ".jido")},
		Hidden:    []string{filepath.Join(f.root, ".env")},
	}
	for name, script := range map[string]string{
		"git config":         "echo '[core] fsmonitor = evil' >> .git/config",
		"replace git config": "mv .git/config .git/c2",
		"git hook":           "echo evil > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
		"jido config":        "echo 'mode = \"yolo\"' > .jido/config.toml",
		"jido tool":          "mkdir -p .jido/tools && echo x > .jido/tools/t.lua",
		"remove jido dir":    "rm -rf .jido",
		"write the secret":   "echo x > .env",
	} {
		t.Run(name, func(t *testing.T) {
			out, code, _ := runWith(t, sb, f.root, script, paths)
			assert.NotEqual(t, 0, code, out)
		})
	}
	out, code, _ := runWith(t, sb, f.root, "echo ref > .git/HEAD && echo x >> src/main.go && cat .env; cat .git/config", paths)
	assert.Equal(t, 0, code, out)
	assert.NotContains(t, out, "sk-very-secret", "the secret file reads empty")
	assert.Equal(t, "[core]\n", out)
	got, err := os.ReadFile(filepath.Join(f.root, ".env"))
	require.NoError(t, err)
	assert.Equal(t, "API_KEY=sk-very-secret\n", string(got), "the host's file is untouched")
	_, err = os.Stat(filepath.Join(f.root, ".git/hooks/pre-commit"))
	assert.True(t, os.IsNotExist(err))
}

func TestNoPrivilegeInside(t *testing.T) {
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	out, code, conf := run(t, sb, f.root, "grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status")
	assert.Equal(t, 0, code, out)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		assert.True(t, strings.HasSuffix(line, "0000000000000000"), line)
	}
	assert.True(t, conf.Seccomp)
	for name, script := range map[string]string{
		"hostname":         "hostname jido-escaped",
		"shadow":           "test -s /etc/shadow && cat /etc/shadow",
		"host sockets":     "ls /run /var/run 2>/dev/null | grep -q . ",
		"host /dev/shm":    "ls -A /dev/shm | grep -q .",
		"terminal":         "exec 3<>/dev/tty",
		"pts":              "ls /dev/pts",
		"unshare":          "unshare -U true",
		"mount":            "mount -t tmpfs none " + f.tmp,
		"home of the user": "ls " + filepath.Dir(f.key),
	} {
		t.Run(name, func(t *testing.T) {
			out, code, _ := run(t, sb, f.root, script)
			assert.NotEqual(t, 0, code, out)
		})
	}
	// SSH host keys, where the machine has them (elsewhere the case could not fail; the
	// hiding itself is proven by /etc/shadow above).
	if keys, _ := filepath.Glob("/etc/ssh/ssh_host_*_key"); len(keys) > 0 && os.Getuid() == 0 {
		out, code, _ := run(t, sb, f.root, "grep -q PRIVATE "+keys[0])
		assert.NotEqual(t, 0, code, "an SSH host key reads empty: %s", out)
	}
}

func TestNoUnixSocketOutsideTheProject(t *testing.T) {
	testenv.Program(t, "python3") // the probes are Python: without it they would pass having tried nothing
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp, Network: true})
	requirePrivateRoot(t, sb, f)
	sock := filepath.Join(f.base, "outside.sock")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer ln.Close()
	abstract, err := net.Listen("unix", "@jido-test-"+filepath.Base(f.base))
	require.NoError(t, err)
	defer abstract.Close()
	for _, s := range []*Sandbox{sb, mustNew(t, Policy{Root: f.root, TempDir: f.tmp})} {
		out, code, _ := run(t, s, f.root, fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(%q)' || exit 1; echo connected", sock))
		assert.NotContains(t, out, "connected")
		assert.NotEqual(t, 0, code)
		out, code, _ = run(t, s, f.root, fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0jido-test-%s\")' || exit 1; echo connected", filepath.Base(f.base)))
		assert.NotContains(t, out, "connected", "abstract socket")
		assert.NotEqual(t, 0, code)
	}
}

func TestNoSignalOutside(t *testing.T) {
	f := newFixture(t)
	victim := exec.Command("sleep", "60")
	require.NoError(t, victim.Start())
	defer victim.Process.Kill()
	for _, network := range []bool{false, true} {
		sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp, Network: network})
		requirePrivateRoot(t, sb, f)
		out, code, _ := run(t, sb, f.root, fmt.Sprintf("kill -9 %d", victim.Process.Pid))
		assert.NotEqual(t, 0, code, "network %v: %s", network, out)
	}
	require.NoError(t, victim.Process.Signal(syscall.Signal(0)), "the outside process lives")
}

func TestNoTypingIntoATerminal(t *testing.T) {
	testenv.Program(t, "python3") // the probes are Python: without it they would pass having tried nothing
	f := newFixture(t)
	sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp})
	requirePrivateRoot(t, sb, f)
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	var out bytes.Buffer
	// The command is handed a terminal as its stdin, the worst case: TIOCSTI on it must fail.
	p, err := sb.Start(Options{Argv: []string{"python3", "-c", "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'y'); print('typed')"},
		Dir: f.root, Env: []string{"PATH=" + os.Getenv("PATH")}, Stdin: tty, Stdout: &out, Stderr: &out}, Paths{})
	require.NoError(t, err)
	err = p.Cmd.Wait()
	p.Release()
	assert.Error(t, err, out.String())
	assert.NotContains(t, out.String(), "typed")
	assert.Contains(t, out.String(), "Operation not permitted")
}

// TestAsAnUnprivilegedUser runs the escape tests again as uid 65534, where the helper
// builds the private root inside a user namespace of its own: the path most users take.
// It needs root to switch users, so it runs where the suite runs as root (.ci/run does).
func TestAsAnUnprivilegedUser(t *testing.T) {
	if os.Getuid() != 0 || os.Getenv("JIDO_SANDBOX_UNPRIVILEGED") != "" {
		t.Skip("runs as root only, to start the suite again as uid 65534")
	}
	dir, err := os.MkdirTemp("", "jido-unpriv-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o755))
	bin := filepath.Join(dir, "sandbox.test")
	data, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, data, 0o755))
	cmd := exec.Command(bin, "-test.count=1", "-test.v", "-test.run", "TestProtectedPaths|TestNoPrivilege|TestNoUnix|TestNoSignal|TestNoTyping|TestFilesystemConfinement|TestNetwork|TestForkBomb")
	home := filepath.Join(dir, "home")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.Chown(home, 65534, 65534))
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "TMPDIR=" + home, "PATH=/usr/bin:/bin", "JIDO_SANDBOX_UNPRIVILEGED=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, string(out), "--- SKIP", "every escape test ran unprivileged: %s", out)
	assert.Contains(t, string(out), "--- PASS: TestProtectedPathsAreReadOnlyAndSecretsHidden")
}
