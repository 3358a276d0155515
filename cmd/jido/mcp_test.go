package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/worker"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMCP(t *testing.T) {
	here := locatedRoot(t)
	cases := []struct {
		name    string
		args    []string
		want    mcpOptions // the fields checked: root, rootSet, http, httpAny, socket, yes, mode, role
		wantErr string
	}{
		{name: "stdio defaults", args: nil, want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: here}}}},
		{name: "root given", args: []string{"--root", "/p", "--yes", "--mode", "plan", "--role", "reader"},
			want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: "/p"}, yes: true, mode: "plan", role: "reader"}, rootSet: true}},
		{name: "loopback", args: []string{"--http", "127.0.0.1:8765"}, want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: here}}, http: "127.0.0.1:8765"}},
		{name: "localhost", args: []string{"--http", "localhost:0"}, want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: here}}, http: "localhost:0"}},
		{name: "ipv6 loopback", args: []string{"--http", "[::1]:9000"}, want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: here}}, http: "[::1]:9000"}},
		{name: "any address allowed", args: []string{"--http", "0.0.0.0:8765", "--http-any"},
			want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: here}}, http: "0.0.0.0:8765", httpAny: true}},
		{name: "all interfaces", args: []string{"--http", ":8765"}, wantErr: "not a loopback address"},
		{name: "unspecified", args: []string{"--http", "0.0.0.0:8765"}, wantErr: "not a loopback address"},
		{name: "lan address", args: []string{"--http", "192.168.1.5:8765"}, wantErr: "not a loopback address"},
		{name: "host name", args: []string{"--http", "example.com:8765"}, wantErr: "not a loopback address"},
		{name: "no port", args: []string{"--http", "127.0.0.1"}, wantErr: "host:port"},
		{name: "http-any alone", args: []string{"--http-any"}, wantErr: "--http-any needs --http"},
		{name: "socket", args: []string{"--socket", "/run/user/1000/jido.sock", "--root", "/p"},
			want: mcpOptions{sessionFlags: sessionFlags{root: projectRoot{dir: "/p"}}, rootSet: true, socket: "/run/user/1000/jido.sock"}},
		{name: "socket and http", args: []string{"--socket", "jido.sock", "--http", "127.0.0.1:8765"}, wantErr: "--http and --socket exclude each other"},
		{name: "socket and any http", args: []string{"--http", "0.0.0.0:8765", "--http-any", "--socket", "jido.sock"}, wantErr: "--http and --socket exclude each other"},
		{name: "socket with http-any", args: []string{"--socket", "jido.sock", "--http-any"}, wantErr: "--http-any needs --http"},
		{name: "positional", args: []string{"serve"}, wantErr: "no arguments"},
		{name: "flag after positional", args: []string{"x", "--yes"}, wantErr: "no arguments"},
		{name: "unknown flag", args: []string{"--stdio"}, wantErr: "not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := parseMCP(c.args, io.Discard)
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want.root.dir, o.root.dir)
			assert.Equal(t, c.want.rootSet, o.rootSet)
			assert.Equal(t, c.want.http, o.http)
			assert.Equal(t, c.want.httpAny, o.httpAny)
			assert.Equal(t, c.want.socket, o.socket)
			assert.Equal(t, c.want.yes, o.yes)
			assert.Equal(t, c.want.mode, o.mode)
			assert.Equal(t, c.want.role, o.role)
		})
	}
}

func TestRunMCPUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"mcp", "--http", "0.0.0.0:0"},
		{"mcp", "extra"},
		{"mcp", "--root", t.TempDir() + "/missing"},
		{"mcp", "--root", t.TempDir(), "--mode", "reckless"},
		{"mcp", "--root", t.TempDir(), "--role", "nobody"},
	} {
		var out, errb bytes.Buffer
		assert.Equal(t, exitUsage, run(args, bytes.NewReader(nil), &out, &errb), "%q", args)
		assert.Contains(t, errb.String(), "jido mcp: ", "%q", args)
		assert.Empty(t, out.String(), "%q: stdout is the protocol's", args)
	}
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run([]string{"help"}, nil, &out, &errb))
	assert.Contains(t, out.String(), "jido mcp [--root DIR] [--http ADDR")
}

// TestRunMCPSocketLeavesAFileAlone: --socket on a path that holds a file is refused
// before any session, and the file is kept.
func TestRunMCPSocketLeavesAFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(path, []byte("keep\n"), 0o600))
	var out, errb bytes.Buffer
	assert.Equal(t, exitToolError, run([]string{"mcp", "--socket", path, "--root", t.TempDir()}, bytes.NewReader(nil), &out, &errb))
	assert.Contains(t, errb.String(), "jido mcp: "+path+" exists and is not a socket")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "keep\n", string(data))
}

// TestMCPIsolationFlags: served over HTTP or a socket, sessions' Lua runs in workers by
// default; over stdio in process; sessions are capped; the flags are checked.
func TestMCPIsolationFlags(t *testing.T) {
	o, err := parseMCP([]string{"--http", "127.0.0.1:0"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "worker", o.isolation)
	o, err = parseMCP(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "process", o.isolation)
	o, err = parseMCP([]string{"--http", "127.0.0.1:0", "--isolation", "process", "--worker-memory", "512", "--call-memory", "32"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "process", o.isolation)
	assert.Equal(t, []int{512, 32}, []int{o.workerMemory, o.callMemory})
	assert.Equal(t, defaultMaxSessions, o.maxSessions)
	o, err = parseMCP([]string{"--max-sessions", "0"}, io.Discard)
	require.NoError(t, err)
	assert.Zero(t, o.maxSessions)
	for _, bad := range [][]string{{"--isolation", "vm"}, {"--worker-memory", "-1"}, {"--call-memory", "0"}, {"--max-sessions", "-1"}} {
		_, err := parseMCP(bad, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}

// TestWorkerReporter: a server says how its workers are bounded and confined once, and
// again only when that changes.
func TestWorkerReporter(t *testing.T) {
	var out strings.Builder
	report := workerReporter(&out, 64)
	confined := worker.Started{Pid: 1, Ceiling: worker.CeilingCgroupV2, MaxMemory: 1 << 30, Confinement: sandbox.SelfConfinement{LandlockABI: 7, Seccomp: true, NoNewPrivs: true}}
	report("a", confined)
	confined.Pid = 2
	report("b", confined)
	report("c", worker.Started{Pid: 3, Ceiling: worker.CeilingRlimit, MaxMemory: 512 << 20})
	assert.Equal(t, "jido mcp: sessions' Lua runs in worker processes, memory ceiling 1024 MiB each (cgroup-v2), at most 64 sessions, so at most 65536 MiB for the workers together; confined: Landlock ABI 7 (no file, no network), seccomp (no exec, no new process, no socket), no_new_privs\n"+
		"jido mcp: sessions' Lua runs in worker processes, memory ceiling 512 MiB each (rlimit-as), at most 64 sessions, so at most 32768 MiB for the workers together; NOT confined by the kernel (it has neither Landlock nor seccomp)\n", out.String())
	assert.Contains(t, describeWorker(worker.Started{MaxMemory: 1 << 30}, 0), "no cap on sessions")
}
