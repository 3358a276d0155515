package manager

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// carry is what a CLI does between two processes: the state of one session, through
// JSON, into a new session of a new manager on the same root.
func carry(t *testing.T, st SessionState, cfg Config, opts ...SessionOption) (*Session, error) {
	t.Helper()
	data, err := json.Marshal(st)
	require.NoError(t, err)
	var back SessionState
	require.NoError(t, json.Unmarshal(data, &back))
	m, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "", append(opts, WithState(back))...)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

func editA(from, to string) ToolCall {
	return ToolCall{Name: "edit_file", Args: map[string]any{"path": "a.txt", "old_string": from, "new_string": to}}
}

// TestSessionStateCarriesReads: a file read in one session can be edited in the next
// one that restores its state, and not in a session without it; a file changed on disk in
// between is refused as stale, as within one session.
func TestSessionStateCarriesReads(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\n"), 0o644))
	cfg := Config{Root: root}

	first := testSession(t, cfg)
	require.True(t, first.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}).OK)
	st := first.State()
	require.Len(t, st.Reads, 1)
	assert.Equal(t, "a.txt", st.Reads[0].Path)
	assert.NotZero(t, st.Reads[0].Ino, "the version's identity is kept")
	assert.Equal(t, int64(4), st.Reads[0].Size)
	require.NoError(t, first.Close())

	fresh := testSession(t, cfg)
	r := fresh.Call(t.Context(), editA("one", "two"))
	assert.Equal(t, "conflict-error", errType(r), "without the state: not read in this session")

	second, err := carry(t, st, cfg)
	require.NoError(t, err)
	r = second.Call(t.Context(), editA("one", "two"))
	require.True(t, r.OK, "read in the session it carries on: %+v", r.Error)
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "two\n", string(data))

	// The edit recorded the new version: the next process may edit again.
	third, err := carry(t, second.State(), cfg)
	require.NoError(t, err)
	require.True(t, third.Call(t.Context(), editA("two", "three")).OK)

	// Changed on disk since the last session saw it: stale.
	st = third.State()
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("four\n"), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(root, "a.txt"), future, future))
	fourth, err := carry(t, st, cfg)
	require.NoError(t, err)
	r = fourth.Call(t.Context(), editA("four", "five"))
	assert.Equal(t, "conflict-error", errType(r), "changed since it was read: %+v", r)
	r = fourth.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "a.txt", "content": "x\n"}})
	assert.False(t, r.OK, "nor overwritten")
	data, err = os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "four\n", string(data))
}

// TestSessionStateVersionRoundTrip: every field of the read log's versions survives JSON,
// exactly (nanoseconds of the modification time included).
func TestSessionStateVersionRoundTrip(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a.txt")
	require.NoError(t, os.WriteFile(path, []byte("x\n"), 0o640))
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	require.NoError(t, os.Chtimes(path, at, at))
	s := testSession(t, Config{Root: root})
	require.True(t, s.Call(t.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}).OK)
	before := s.reads.Versions()

	again, err := carry(t, s.State(), Config{Root: root})
	require.NoError(t, err)
	after := again.reads.Versions()
	require.Len(t, after, 1)
	assert.True(t, before["a.txt"].Equal(after["a.txt"]), "%+v != %+v", before["a.txt"], after["a.txt"])
	assert.Equal(t, before["a.txt"].Mode, after["a.txt"].Mode)
	assert.Equal(t, at.UnixNano(), after["a.txt"].ModTime.UnixNano())
}

// TestSessionStateKeepsApprovals: "allow for the session" carries over; "allow once"
// does not; nor does an approval into a session on another root.
func TestSessionStateKeepsApprovals(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	cfg := Config{Root: root, Permissions: policy.New(policy.ModeDefault)}
	approver := &scripted{answers: []Answer{AllowSession, AllowOnce}}
	m, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	first, err := m.Open(t.Context(), "", WithApprover(approver))
	require.NoError(t, err)
	writeB := ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "b\n"}}
	writeC := ToolCall{Name: "write_file", Args: map[string]any{"path": "c.txt", "content": "c\n"}}
	require.True(t, first.Call(t.Context(), writeB).OK)
	require.True(t, first.Call(t.Context(), writeC).OK)
	st := first.State()
	require.Equal(t, []Approval{{Tool: "write_file", Paths: []string{"b.txt"}}}, st.Approvals, "the session approval only")

	// Headless: no one to ask, so only a restored approval lets a write run.
	second, err := carry(t, st, cfg)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(root, "b.txt")))
	r := second.Call(t.Context(), writeB)
	assert.True(t, r.OK, "approved for the session: %+v", r.Error)
	require.NoError(t, os.Remove(filepath.Join(root, "c.txt")))
	r = second.Call(t.Context(), writeC)
	assert.Equal(t, "permission-error", errType(r), "approved once only")
	assert.Equal(t, st.Approvals, second.State().Approvals, "kept for the next process too")
	for _, rule := range second.gate.engine.Rules() {
		if rule.Tool == "write_file" {
			assert.Equal(t, policy.ScopeSession, rule.Scope, "restored as a session rule, never a project one")
		}
	}

	other := t.TempDir()
	_, err = carry(t, st, Config{Root: other, Permissions: policy.New(policy.ModeDefault)})
	require.ErrorIs(t, err, ErrBadState, "another root's state")
	assert.ErrorContains(t, err, root)
}

// TestSessionStateCarriesBoardAndBuffers: the todos and tasks and the buffers carry over.
func TestSessionStateCarriesBoardAndBuffers(t *testing.T) {
	root := t.TempDir()
	cfg := Config{Root: root}
	s := testSession(t, cfg)
	require.True(t, s.Call(t.Context(), ToolCall{Name: "todo_write", Args: map[string]any{"action": "create", "title": "ship it"}}).OK)
	require.True(t, s.Call(t.Context(), ToolCall{Name: "buffer_create", Args: map[string]any{"buffer_name": "notes", "content": "line one\n"}}).OK)
	st := s.State()

	again, err := carry(t, st, cfg)
	require.NoError(t, err)
	assert.Equal(t, s.Board().State(), again.Board().State())
	r := again.Call(t.Context(), ToolCall{Name: "buffer_get_content", Args: map[string]any{"buffer_name": "notes"}})
	require.True(t, r.OK, "%+v", r.Error)
	var content struct{ Content string }
	require.NoError(t, r.Decode(&content))
	assert.Equal(t, "line one\n", content.Content)
	r = again.Call(t.Context(), ToolCall{Name: "todo_write", Args: map[string]any{"action": "create", "title": "then rest"}})
	require.True(t, r.OK)
	todos := again.Board().State().Todos
	require.Len(t, todos, 2)
	assert.NotEqual(t, todos[0].ID, todos[1].ID, "ids go on from the restored board")
}

// TestSessionStateRefusesForgedState: a state no session of this root could have
// recorded is refused with ErrBadState, before the session opens.
func TestSessionStateRefusesForgedState(t *testing.T) {
	root := t.TempDir()
	cfg := Config{Root: root, Permissions: policy.New(policy.ModeDefault)}
	s := testSession(t, cfg)
	good := s.State()
	for _, c := range []struct {
		name  string
		state func(SessionState) SessionState
	}{
		{"no root", func(st SessionState) SessionState { st.Root = ""; return st }},
		{"absolute read", func(st SessionState) SessionState { st.Reads = []FileRead{{Path: "/etc/passwd"}}; return st }},
		{"climbing read", func(st SessionState) SessionState { st.Reads = []FileRead{{Path: "../x"}}; return st }},
		{"glob tool", func(st SessionState) SessionState { st.Approvals = []Approval{{Tool: "*"}}; return st }},
		{"bad rule", func(st SessionState) SessionState {
			st.Approvals = []Approval{{Tool: "run_shell", Class: "godlike"}}
			return st
		}},
		{"duplicate buffers", func(st SessionState) SessionState {
			b := buffers.BufferState{Name: "a", Version: 1}
			st.Buffers = buffers.State{Buffers: []buffers.BufferState{b, b}}
			return st
		}},
		{"huge board", func(st SessionState) SessionState {
			st.Board = tasks.State{Todos: make([]definitions.Todo, tasks.MaxItems+1)}
			return st
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := carry(t, c.state(good), cfg)
			assert.ErrorIs(t, err, ErrBadState)
		})
	}
}
