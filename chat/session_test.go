package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostOn opens a chat host on a temporary project holding a.txt, in default mode.
func hostOn(t *testing.T) (*SessionHost, string) {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	perms := policy.New(policy.ModeDefault)
	m, err := manager.New(manager.Config{Root: root, Permissions: perms, JournalDir: t.TempDir(), Yes: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	exec := NewExecutor(s)
	t.Cleanup(func() { exec.Session().Close() })
	return &SessionHost{Manager: m, Policy: perms, Exec: exec, Started: time.Now()}, root
}

// TestExecutorCapsResultsAsJSON checks that a result over MaxResultChars reaches the model
// as valid JSON with a note, and an error as the error's JSON.
func TestExecutorCapsResultsAsJSON(t *testing.T) {
	h, root := hostOn(t)
	big := strings.Repeat("line of text\n", 5000)
	require.NoError(t, os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644))
	res := h.Exec.Execute(t.Context(), agent.ToolCall{ID: "c1", Name: "read_file", Args: map[string]any{"path": "big.txt", "limit": 5000, "max_bytes": 100000}})
	require.True(t, res.OK, "%s", res.Content)
	assert.LessOrEqual(t, len(res.Content), MaxResultChars)
	assert.True(t, json.Valid(res.Content))
	assert.NotEmpty(t, res.Note)

	res = h.Exec.Execute(t.Context(), agent.ToolCall{ID: "c2", Name: "read_file", Args: map[string]any{"path": "nope.txt"}})
	assert.False(t, res.OK)
	var e struct{ Type string }
	require.NoError(t, json.Unmarshal(res.Content, &e))
	assert.Equal(t, "file-error", e.Type)
}

// TestHostPlanModeSwapsTheSession checks that entering plan mode gives the chat a new
// session whose changes are only planned, that Diff shows the plan, and that leaving plan
// mode drops it.
func TestHostPlanModeSwapsTheSession(t *testing.T) {
	h, root := hostOn(t)
	before := h.Exec.Session()
	require.NoError(t, h.SetMode("plan"))
	assert.NotSame(t, before, h.Exec.Session())
	assert.Contains(t, h.Tools(), "plan_apply")
	res := h.Exec.Execute(t.Context(), agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "planned\n"}})
	require.True(t, res.OK, "%s", res.Content)
	assert.NoFileExists(t, filepath.Join(root, "b.txt"), "planned, not written")
	d, err := h.Diff(t.Context())
	require.NoError(t, err)
	assert.Contains(t, d, "+planned")
	require.NoError(t, h.SetMode("default"))
	assert.NotContains(t, h.Tools(), "plan_apply")
	assert.Equal(t, "default", h.Mode())
	assert.Error(t, h.SetMode("bogus"))
}

// TestHostUndo checks that Undo reverts the session's last change and says what it did.
func TestHostUndo(t *testing.T) {
	h, root := hostOn(t)
	res := h.Exec.Execute(t.Context(), agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "new\n"}})
	require.True(t, res.OK, "%s", res.Content)
	msg, err := h.Undo(t.Context())
	require.NoError(t, err)
	assert.Regexp(t, `^undo change \S+ \(write_file b.txt\): deletes b.txt\nundone: 0 files restored, 1 removed$`, msg)
	assert.NoFileExists(t, filepath.Join(root, "b.txt"))
	d, err := h.Diff(t.Context())
	require.NoError(t, err)
	assert.Empty(t, d)
}

// TestExecutorInAProfile: the model gets the profile's result, people the canonical
// tool's outcome.
func TestExecutorInAProfile(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	m, err := manager.New(manager.Config{Root: root, Profile: profile.Claude, JournalDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	res := NewExecutor(s).Execute(t.Context(), agent.ToolCall{ID: "c1", Name: "Read", Args: map[string]any{"file_path": "a.txt"}})
	require.True(t, res.OK, "%s", res.Content)
	assert.JSONEq(t, `"     1\told\n"`, string(res.Content))
	assert.Equal(t, "1 line", res.Outcome)
}
