package integration

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shellFixture is a project root, a fake home with an SSH key beside it, and the jido
// process's environment pointing HOME there.
type shellFixture struct {
	base, root, key string
}

func newShellFixture(t *testing.T) shellFixture {
	base := t.TempDir()
	f := shellFixture{base: base, root: filepath.Join(base, "root"), key: filepath.Join(base, "home/.ssh/id_rsa")}
	writeTree(t, base, map[string]string{"root/ok.txt": "inside\n", "home/.ssh/id_rsa": "-----BEGIN FAKE KEY-----\nkey-material-1234\n"})
	return f
}

// shell runs run_shell through the binary and returns the decoded result.
func (f shellFixture) shell(t *testing.T, args map[string]any, flags ...string) (map[string]any, runResult) {
	t.Helper()
	raw, err := jsonString(args)
	require.NoError(t, err)
	r := runJido(t, "", append(append([]string{"call", "--root", f.root, "--yes"}, flags...), "run_shell", raw)...)
	out := decodeJSON(t, r.stdout)
	res, _ := out["result"].(map[string]any)
	return res, r
}

// residentKiB is a process's resident set size, 0 when it is gone.
func residentKiB(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

// jsonString encodes tool arguments for the command line.
func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func requireLandlock(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile("/sys/kernel/security/landlock/abi_version") // absent on many kernels: fall back to the binary's report
	if err == nil && strings.TrimSpace(string(data)) == "0" {
		t.Skip("the kernel has no Landlock")
	}
}

func TestShellConfinement(t *testing.T) {
	requireLandlock(t)
	f := newShellFixture(t)
	res, r := f.shell(t, map[string]any{"command": "cat ok.txt; echo made > new.txt"})
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Equal(t, "inside\n", res["stdout"])
	sb := res["sandbox"].(map[string]any)
	if sb["confined"] != true {
		t.Skip("the kernel has no Landlock: commands run unconfined, and say so")
	}
	assert.FileExists(t, filepath.Join(f.root, "new.txt"))

	for name, cmd := range map[string]string{
		"write outside": "echo x > " + filepath.Join(f.base, "escaped.txt"),
		"read the key":  "cat " + f.key,
		"list home":     "ls " + filepath.Dir(f.key),
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := f.shell(t, map[string]any{"command": cmd})
			assert.NotEqual(t, float64(0), res["exit_code"], "%v", res)
			assert.NotContains(t, fmt.Sprint(res), "key-material")
		})
	}
	assert.NoFileExists(t, filepath.Join(f.base, "escaped.txt"))
}

func TestShellNetwork(t *testing.T) {
	requireLandlock(t)
	f := newShellFixture(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from the test\n"))
			c.Close()
		}
	}()
	cmd := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && cat <&3", ln.Addr().(*net.TCPAddr).Port)
	res, _ := f.shell(t, map[string]any{"command": cmd})
	assert.NotEqual(t, float64(0), res["exit_code"], "%v", res)
	assert.NotContains(t, res["stdout"], "hello")
	res, _ = f.shell(t, map[string]any{"command": cmd}, "--allow-network")
	assert.Equal(t, "hello from the test\n", res["stdout"], "%v", res)
}

func TestShellTimeoutKillsBackgroundChildren(t *testing.T) {
	f := newShellFixture(t)
	raw, err := jsonString(map[string]any{"command": "sleep 1000 & echo $! > bg.pid; wait", "timeout": 0.5})
	require.NoError(t, err)
	e, _ := callError(t, "", "--root", f.root, "--yes", "run_shell", raw)
	require.NotNil(t, e)
	assert.Equal(t, true, e["details"].(map[string]any)["timed_out"], "%v", e)
	data, err := os.ReadFile(filepath.Join(f.root, "bg.pid"))
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	assert.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 3*time.Second, 20*time.Millisecond, "sleep %d is gone", pid)
}

func TestShellOutputFloodAndForkBomb(t *testing.T) {
	f := newShellFixture(t)
	raw, _ := jsonString(map[string]any{"command": "head -c 1000000000 /dev/zero | tr '\\0' a", "timeout": 60})
	cmd := exec.Command(jidoBin, "call", "--root", f.root, "--yes", "run_shell", raw)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	require.NoError(t, cmd.Start())
	// Rusage's maxrss would count the test process's memory, which the child shares until
	// it execs: sample the child's own resident set instead.
	rss := int64(0)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for waiting := true; waiting; {
		select {
		case err := <-done:
			require.NoError(t, err)
			waiting = false
		case <-time.After(5 * time.Millisecond):
			rss = max(rss, residentKiB(cmd.Process.Pid))
		}
	}
	out := stdout.String()
	t.Logf("1 GB flood through the binary: peak sampled RSS of jido %d KiB", rss)
	assert.Less(t, rss, int64(100<<10), "bounded memory (KiB)")
	assert.Contains(t, out, "bytes cut of 1000000000")

	start := time.Now()
	res, _ := f.shell(t, map[string]any{"command": "bomb() { bomb | bomb & }; bomb; sleep 1; echo survived", "timeout": 5})
	t.Logf("fork bomb: %v in %v", res["sandbox"], time.Since(start).Round(time.Millisecond))
	assert.Less(t, time.Since(start), 30*time.Second)
	r := runJido(t, "", "call", "--root", f.root, "--yes", "run_shell", `{"command":"echo after the bomb"}`)
	assert.Contains(t, r.stdout, "after the bomb", "the machine still runs commands")
}

func TestShellJobsAndRedaction(t *testing.T) {
	f := newShellFixture(t)
	r := runJido(t, "", "eval", "--root", f.root, "--yes", "-e", `
		local j = assert(jido.run_shell{command = "echo started; sleep 0.3; echo key AKIA".."Q3X7PL2M".."9RTB5VWN; sleep 1000", background = true})
		local first = assert(jido.job_output{job_id = j.job_id, wait = 0})
		local later = assert(jido.job_output{job_id = j.job_id, wait = 1})
		local killed = assert(jido.job_kill{job_id = j.job_id})
		return {first = first.running, later = later.stdout, killed = killed.running, code = killed.exit_code}`)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"first":true`)
	assert.Contains(t, r.stdout, "[REDACTED:aws-access-key-id]", "secrets in job output are redacted")
	assert.NotContains(t, r.stdout, "Q3X7PL2M")
	assert.Contains(t, r.stdout, `"killed":false`)
	assert.Contains(t, r.stdout, `"code":137`)
}

func TestRunTestsGoProject(t *testing.T) {
	f := newShellFixture(t)
	writeTree(t, f.root, map[string]string{
		"go.mod": "module example.com/demo\n\ngo 1.26\n",
		"demo_test.go": `package demo

import "testing"

func TestPasses(t *testing.T) {}

func TestFails(t *testing.T) {
	t.Fatal("boom")
}

func TestSkipped(t *testing.T) { t.Skip("not today") }
`,
	})
	r := runJido(t, "", "call", "--root", f.root, "--yes", "run_tests", `{}`)
	res := decodeJSON(t, r.stdout)["result"].(map[string]any)
	assert.EqualValues(t, "go", res["runner"], "%v", res)
	assert.EqualValues(t, 3, res["total"], "%v", res)
	assert.EqualValues(t, 1, res["passed"])
	assert.EqualValues(t, 1, res["failed"])
	assert.EqualValues(t, 1, res["skipped"])
	failures := res["failures"].([]any)
	require.Len(t, failures, 1)
	fail := failures[0].(map[string]any)
	assert.Equal(t, "TestFails", fail["name"])
	assert.Equal(t, "demo_test.go", fail["file"])
	assert.EqualValues(t, 8, fail["line"])
	assert.Contains(t, fail["message"], "boom")

	r = runJido(t, "", "call", "--root", f.root, "--yes", "run_tests", `{"selector":"TestPasses"}`)
	res = decodeJSON(t, r.stdout)["result"].(map[string]any)
	assert.EqualValues(t, 1, res["total"], "%v", res)
	assert.EqualValues(t, 1, res["passed"])
}
