package manager

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/scripts"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryToolIsComplete checks that each definition has a script and a bridge function,
// and each script a definition.
func TestEveryToolIsComplete(t *testing.T) {
	funcs := map[string]bool{}
	for _, lib := range bridge.Libraries(bridge.Deps{}) {
		for name := range lib.Funcs {
			funcs[name] = true
		}
	}
	assert.Equal(t, definitions.Names(), scripts.Names(), "every tool has a script, every script a tool")
	for _, name := range definitions.Names() {
		assert.True(t, funcs[name], "tool %s has no bridge function", name)
	}
	delete(funcs, "call") // jido.call runs any tool by name
	delete(funcs, "tool") // jido.tool declares a user tool
	// Aliases (jido.mkdir_p, seed 003's create_directory) are other names of declared tools.
	for alias, name := range bridge.Aliases() {
		assert.True(t, funcs[alias], "alias %s has no bridge function", alias)
		assert.Contains(t, definitions.Names(), name, "alias %s names no tool", alias)
		delete(funcs, alias)
	}
	assert.ElementsMatch(t, definitions.Names(), slices.Collect(maps.Keys(funcs)), "every bridge function is a declared tool")
}

// rootSession opens a session on root, logging events to events when it is not nil.
func rootSession(t *testing.T, root string, events *bytes.Buffer) *Session {
	t.Helper()
	cfg := Config{Root: root}
	if events != nil {
		cfg.Events = events
	}
	return testSession(t, cfg)
}

func TestCallAssignsIDsAndEmitsEvents(t *testing.T) {
	var events bytes.Buffer
	s := rootSession(t, t.TempDir(), &events)
	res := s.Call(t.Context(), ToolCall{Name: "list_dir"})
	assert.True(t, res.OK)
	assert.Equal(t, "call-1", res.ID)
	res = s.Call(t.Context(), ToolCall{ID: "mine", Name: "nope"})
	assert.Equal(t, "mine", res.ID)
	assert.Equal(t, definitions.ValidationError, res.Error.Type)
	require.NoError(t, s.Close())

	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(events.String()), "\n") {
		var ev Event
		require.NoError(t, json.Unmarshal([]byte(line), &ev))
		assert.Equal(t, s.ID(), ev.Session)
		kinds = append(kinds, ev.Event)
		if ev.Event == "tool.result" {
			require.NotNil(t, ev.DurationMS)
			require.NotNil(t, ev.OK)
		}
	}
	assert.Equal(t, []string{"session.open", "tool.call", "tool.result", "tool.call", "tool.result", "session.close"}, kinds)
}

func TestClosedSessionRefusesCalls(t *testing.T) {
	s := rootSession(t, t.TempDir(), nil)
	require.NoError(t, s.Close())
	res := s.Call(t.Context(), ToolCall{Name: "list_dir"})
	require.False(t, res.OK)
	assert.Contains(t, res.Error.Message, "closed")
	_, terr := s.Eval(t.Context(), "return 1")
	require.NotNil(t, terr)
}

func TestEvalReachesToolsThroughJidoCall(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644))
	s := rootSession(t, root, nil)

	vals, terr := s.Eval(t.Context(), `
		local r, err = jido.call("read_file", {path = "a.txt", line_numbers = false})
		assert(r, err and err.message)
		local w = assert(jido.call("edit_file", {path = "a.txt", old_string = "hello", new_string = "bye"}))
		local _, bad = jido.call("read_fiel", {path = "a.txt"})
		return r.content, w.replacements, bad.type, bad.details.did_you_mean`)
	require.Nil(t, terr)
	assert.Equal(t, []any{"hello\n", int64(1), "validation-error", "read_file"}, vals)
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "bye\n", string(data))
}

func TestRaisedBridgeErrorKeepsItsType(t *testing.T) {
	s := rootSession(t, t.TempDir(), nil)
	_, terr := s.Eval(t.Context(), `local r, err = jido.read_file{path = "../etc/passwd"} error(err)`)
	require.NotNil(t, terr)
	assert.Equal(t, definitions.PermissionError, terr.Type)
	assert.NotEmpty(t, terr.Recovery)
}

func TestCallTimeoutFromMeta(t *testing.T) {
	root := t.TempDir()
	s := rootSession(t, root, nil)
	res := s.Call(t.Context(), ToolCall{Name: "glob", Args: map[string]any{"pattern": "**"}, Meta: CallMeta{Timeout: 1e-9}})
	require.False(t, res.OK)
	assert.Equal(t, definitions.TimeoutError, res.Error.Type)
}

func TestToolCallEnvelopeIgnoresUnknownFields(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("x\n"), 0o644))
	var call ToolCall
	raw := `{"id":"7","name":"read_file","args":{"path":"a.txt"},"meta":{"cwd":".","timeout":5,"trace":true},"priority":"high"}`
	require.NoError(t, json.Unmarshal([]byte(raw), &call))
	res := rootSession(t, root, nil).Call(t.Context(), call)
	require.True(t, res.OK, "%+v", res.Error)
	assert.Equal(t, "7", res.ID)
}

func TestSweepTempsIsOptIn(t *testing.T) {
	root := t.TempDir()
	stale := filepath.Join(root, ".a.txt.tmp-0123456789abcdef")
	require.NoError(t, os.WriteFile(stale, []byte("left by a crash"), 0o644))
	old := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(stale, old, old))

	m, err := New(Config{Root: root})
	require.NoError(t, err)
	require.NoError(t, m.Close())
	assert.FileExists(t, stale, "a one-shot manager does not walk the tree")

	m, err = New(Config{Root: root, SweepTemps: true})
	require.NoError(t, err)
	defer m.Close()
	assert.Eventually(t, func() bool {
		_, err := os.Stat(stale)
		return os.IsNotExist(err)
	}, 5*time.Second, 10*time.Millisecond, "the background sweep removes stale temps")
}

func TestToolResultDecode(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644))
	s := testSession(t, Config{Root: root})
	var listing struct {
		Entries []struct{ Name string } `json:"entries"`
	}
	res := s.Call(t.Context(), ToolCall{Name: "list_dir", Args: map[string]any{}})
	require.NoError(t, res.Decode(&listing))
	assert.Equal(t, "a.txt", listing.Entries[0].Name)
	assert.Error(t, ToolResult{Result: func() {}}.Decode(&listing), "a value JSON cannot hold")
}

// TestValuesLeavingASessionAreCapped: a 16 MiB value from an eval or a Lua tool comes back
// as valid JSON within MaxResultBytes, cut in the middle, with a note on a tool result.
func TestValuesLeavingASessionAreCapped(t *testing.T) {
	root := t.TempDir()
	s := testSession(t, Config{Root: root, MaxResultBytes: 64 << 10})
	vals, terr := s.Eval(t.Context(), `return string.rep("x", 16 * 1024 * 1024)`)
	if terr != nil && terr.Type == "validation-error" {
		t.Skipf("the VM refuses a 16 MiB string here: %v", terr)
	}
	require.Nil(t, terr)
	data, err := json.Marshal(vals)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(data), 64<<10+16)
	assert.Contains(t, string(data), "chars cut]")

	r := s.Call(t.Context(), ToolCall{Name: "list_dir", Args: map[string]any{"path": "."}})
	require.True(t, r.OK)
	assert.Empty(t, r.Note, "a small result is untouched")
}

// TestBuiltinResultsHaveTheirType checks that a built-in tool's result is a pointer to its
// declared type whether the VM passed the Go value through or a snippet rebuilt it as a
// table, and that ResultAs refuses another type.
func TestBuiltinResultsHaveTheirType(t *testing.T) {
	s := rootSession(t, t.TempDir(), nil)
	res := s.Call(t.Context(), ToolCall{Name: "list_dir"})
	require.True(t, res.OK)
	_, ok := res.Result.(*definitions.ListDirResult)
	assert.True(t, ok, "%T", res.Result)

	tabled := typedResult("list_dir", map[string]any{"path": ".", "entries": []any{map[string]any{"name": "a", "type": "file"}}})
	l, ok := tabled.(*definitions.ListDirResult)
	require.True(t, ok, "%T", tabled)
	assert.Equal(t, "a", l.Entries[0].Name)
	assert.Equal(t, map[string]any{"x": 1.0}, typedResult("my_tool", map[string]any{"x": 1.0}), "a user tool's value is left as it is")

	_, err := ResultAs[definitions.ReadFileResult](res)
	assert.ErrorContains(t, err, "list_dir returned *definitions.ListDirResult")
	got, err := ResultAs[definitions.ListDirResult](res)
	require.NoError(t, err)
	assert.Equal(t, ".", got.Path)
}
