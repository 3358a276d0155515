package manager

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newManager opens a manager on a fresh root holding a.txt, shut down at the end of the test.
func newManager(t *testing.T, cfg Config) *Manager {
	t.Helper()
	if cfg.Root == "" {
		cfg.Root = t.TempDir()
	}
	require.NoError(t, os.WriteFile(filepath.Join(cfg.Root, "a.txt"), []byte("old\n"), 0o644))
	m, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return m
}

var readA = ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}

func TestOpenNamesSessions(t *testing.T) {
	m := newManager(t, Config{MaxSessions: 2})
	a, err := m.Open(t.Context(), "alpha")
	require.NoError(t, err)
	assert.Equal(t, "alpha", a.ID())
	_, err = m.Open(t.Context(), "alpha")
	assert.ErrorIs(t, err, ErrSessionExists)
	b, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	assert.Len(t, b.ID(), 16, "a random id")
	assert.ElementsMatch(t, []string{"alpha", b.ID()}, m.Sessions())

	_, err = m.Open(t.Context(), "gamma")
	assert.ErrorIs(t, err, ErrTooManySessions)
	assert.ErrorContains(t, err, "the cap is 2")
	got, ok := m.Session("alpha")
	require.True(t, ok)
	assert.Same(t, a, got)

	require.NoError(t, a.Close())
	require.NoError(t, a.Close(), "Close is idempotent")
	_, ok = m.Session("alpha")
	assert.False(t, ok, "a closed session is forgotten")
	_, err = m.Open(t.Context(), "alpha")
	require.NoError(t, err, "its id and its place are free again")
	res := a.Call(t.Context(), readA)
	require.NotNil(t, res.Error)
	assert.Contains(t, res.Error.Message, "the session is closed")
}

func TestIdleSessionsExpire(t *testing.T) {
	m := newManager(t, Config{IdleTTL: 50 * time.Millisecond})
	idle, err := m.Open(t.Context(), "idle")
	require.NoError(t, err)
	busy, err := m.Open(t.Context(), "busy")
	require.NoError(t, err)
	deadline := time.Now().Add(400 * time.Millisecond)
	for time.Now().Before(deadline) {
		require.True(t, busy.Call(t.Context(), readA).OK, "a session in use stays open")
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, []string{"busy"}, m.Sessions())
	res := idle.Call(t.Context(), readA)
	require.NotNil(t, res.Error)
	assert.Contains(t, res.Error.Message, "the session expired after 50ms without a call")
	assert.Equal(t, []string{"Open a new session"}, res.Error.Recovery)
}

func TestShutdownWaitsThenKills(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	started := make(chan struct{})
	result := make(chan ToolResult, 1)
	go func() {
		close(started)
		result <- s.Call(context.Background(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo $$ > pid; sleep 30"}})
	}()
	<-started
	pidFile := filepath.Join(m.Root(), "pid")
	require.Eventually(t, func() bool { data, _ := os.ReadFile(pidFile); return len(data) > 0 }, 10*time.Second, 10*time.Millisecond)

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = m.Shutdown(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "the call did not end by itself within the grace")
	assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond, "Shutdown waited for the running call first")
	res := <-result
	assert.False(t, res.OK, "the call was cancelled")
	data, _ := os.ReadFile(pidFile)
	assert.False(t, processAlive(strings.TrimSpace(string(data))), "its command was killed")

	_, err = m.Open(t.Context(), "")
	assert.ErrorIs(t, err, ErrClosed)
	res = s.Call(t.Context(), readA)
	require.NotNil(t, res.Error)
	assert.Empty(t, m.Sessions())
	require.NoError(t, m.Shutdown(t.Context()), "a second Shutdown returns once the first is done")
}

func TestShutdownLetsQuickCallsFinish(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	result := make(chan ToolResult, 1)
	go func() {
		result <- s.Call(context.Background(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "sleep 0.3; echo done"}})
	}()
	require.Eventually(t, func() bool { return s.busy.Load() > 0 }, 5*time.Second, time.Millisecond)
	require.NoError(t, m.Shutdown(t.Context()))
	res := <-result
	require.True(t, res.OK, "%+v", res.Error)
	var out struct{ Stdout string }
	require.NoError(t, res.Decode(&out))
	assert.Equal(t, "done\n", out.Stdout)
}

func TestCloseCancelsTheRunningCall(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	result := make(chan ToolResult, 1)
	go func() {
		result <- s.Call(context.Background(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "sleep 30"}})
	}()
	require.Eventually(t, func() bool { return s.busy.Load() > 0 }, 5*time.Second, time.Millisecond)
	time.Sleep(100 * time.Millisecond) // the command is running
	start := time.Now()
	require.NoError(t, s.Close())
	assert.Less(t, time.Since(start), 10*time.Second, "Close did not wait for the 30 s command")
	assert.False(t, (<-result).OK)
}

func TestSessionsOnOtherRoots(t *testing.T) {
	m := newManager(t, Config{})
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "a.txt"), []byte("other\n"), 0o644))
	_, err := m.Open(t.Context(), "", WithRoot(other))
	assert.ErrorContains(t, err, "Config.OpenRoot is not set")

	opened := 0
	m = newManager(t, Config{OpenRoot: func(root string) (RootSetup, error) {
		opened++
		return RootSetup{Permissions: policy.New(policy.ModeReadOnly)}, nil
	}})
	s1, err := m.Open(t.Context(), "", WithRoot(other))
	require.NoError(t, err)
	s2, err := m.Open(t.Context(), "", WithRoot(other+"/."))
	require.NoError(t, err)
	assert.Equal(t, 1, opened, "sessions on one root share its project")
	res := s1.Call(t.Context(), readA)
	require.True(t, res.OK)
	var r struct{ Content string }
	require.NoError(t, res.Decode(&r))
	assert.Contains(t, r.Content, "other")
	res = s2.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	require.NotNil(t, res.Error)
	assert.Equal(t, "permission-error", res.Error.Type, "the root's own policy applies")
	main, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	assert.True(t, main.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}}).OK, "not to the default root")

	s1.Close()
	s2.Close()
	m.mu.Lock()
	assert.Len(t, m.projects, 1, "the other root is released with its last session")
	m.mu.Unlock()
	_, err = m.Open(t.Context(), "", WithRoot(other))
	require.NoError(t, err)
	assert.Equal(t, 2, opened)
}

func TestSessionOptions(t *testing.T) {
	engine := policy.New(policy.ModeDefault)
	var managerLog bytes.Buffer
	m := newManager(t, Config{Permissions: engine, Events: &managerLog})
	write := ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}}

	yolo, err := m.Open(t.Context(), "yolo", WithMode(policy.ModeYolo))
	require.NoError(t, err)
	headless, err := m.Open(t.Context(), "headless")
	require.NoError(t, err)
	assert.True(t, yolo.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "y.txt", "content": "x"}}).OK, "the session's mode")
	assert.Equal(t, "permission-error", headless.Call(t.Context(), write).Error.Type, "the policy's mode, headless")

	approver := &scripted{answers: []Answer{AllowSession}}
	var sessionLog bytes.Buffer
	asker, err := m.Open(t.Context(), "asker", WithApprover(approver), WithEvents(&sessionLog))
	require.NoError(t, err)
	res := asker.Call(t.Context(), write)
	require.True(t, res.OK, "%+v", res.Error)
	res = asker.Call(t.Context(), write)
	assert.True(t, res.OK, "allowed for the session: not asked again: %+v", res.Error)
	assert.Len(t, approver.seen, 1)
	assert.Equal(t, "permission-error", headless.Call(t.Context(), write).Error.Type, "another session's answer does not carry over")
	assert.Contains(t, sessionLog.String(), `"session":"asker"`)
	assert.NotContains(t, sessionLog.String(), `"session":"yolo"`, "a session's sink gets its own events")
	assert.Contains(t, managerLog.String(), `"session":"asker"`, "the manager's log gets them too")
	assert.Contains(t, sessionLog.String(), `"event":"approval.request","session":"asker","call_id":"call-1","tool":"write_file"`)
	assert.Contains(t, sessionLog.String(), `"event":"approval.decision","session":"asker","call_id":"call-1","tool":"write_file","decision":"allow-session","by":"user"`)
	assert.Equal(t, 1, strings.Count(sessionLog.String(), "approval.request"), "the second write was not asked about")
	assert.Contains(t, managerLog.String(), `"event":"approval.decision","session":"headless","call_id":"call-1","tool":"write_file","decision":"deny","by":"none"`)

	reader, err := m.Open(t.Context(), "reader", WithRole("reader"), WithMode(policy.ModeYolo))
	require.NoError(t, err)
	assert.Equal(t, "permission-error", reader.Call(t.Context(), write).Error.Type)
	_, err = m.Open(t.Context(), "", WithRole("nobody"))
	assert.ErrorContains(t, err, `unknown role "nobody"`)
	_, err = m.Open(t.Context(), "", WithMode("fast"))
	assert.ErrorContains(t, err, `unknown mode "fast"`)

	tight, err := m.Open(t.Context(), "tight", WithLimits(runtime.Limits{Instructions: 1000}))
	require.NoError(t, err)
	_, terr := tight.Eval(t.Context(), "local n = 0 for i = 1, 1e6 do n = n + i end return n")
	require.NotNil(t, terr, "the session's limits")
	_, terr = yolo.Eval(t.Context(), "local n = 0 for i = 1, 1e6 do n = n + i end return n")
	assert.Nil(t, terr, "not another's")
}

func TestModeAndRoleWithoutAPolicy(t *testing.T) {
	m := newManager(t, Config{})
	ro, err := m.Open(t.Context(), "", WithMode(policy.ModeReadOnly))
	require.NoError(t, err)
	res := ro.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	require.NotNil(t, res.Error)
	assert.Equal(t, "permission-error", res.Error.Type)
	open, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	assert.True(t, open.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}}).OK, "no policy: every call runs")
}

// processAlive reports whether the process with the given pid exists.
func processAlive(pid string) bool {
	_, err := os.Stat("/proc/" + pid)
	return err == nil
}

func TestProgressOfACommand(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	var reports []Progress
	ctx := WithProgress(t.Context(), 50*time.Millisecond, func(p Progress) { reports = append(reports, p) })
	res := s.Call(ctx, ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo hi; sleep 0.3"}})
	require.True(t, res.OK, "%+v", res.Error)
	require.NotEmpty(t, reports, "the call's context reaches the command")
	assert.Equal(t, int64(3), reports[len(reports)-1].Output)
}

func TestProgressOfACommandInASessionIsRedacted(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	var last Progress
	ctx := s.WithProgress(t.Context(), 50*time.Millisecond, func(p Progress) { last = p })
	res := s.Call(ctx, ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789; sleep 0.3"}})
	require.True(t, res.OK, "%+v", res.Error)
	assert.Contains(t, last.Tail, "token ")
	assert.NotContains(t, last.Tail, "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "the secret is redacted as in the result")
}

func TestCloseKillsBackgroundJobs(t *testing.T) {
	m := newManager(t, Config{})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	res := s.Call(t.Context(), ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo $$ > job.pid; exec sleep 30", "background": true}})
	require.True(t, res.OK, "%+v", res.Error)
	pidFile := filepath.Join(m.Root(), "job.pid")
	require.Eventually(t, func() bool { data, _ := os.ReadFile(pidFile); return len(data) > 0 }, 10*time.Second, 10*time.Millisecond)
	data, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(data))
	require.True(t, processAlive(pid), "the job runs")
	require.NoError(t, s.Close())
	assert.Eventually(t, func() bool { return !processAlive(pid) }, 5*time.Second, 10*time.Millisecond, "the session's jobs end with it")
}
