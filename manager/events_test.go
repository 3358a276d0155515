package manager

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryCallIsAnEvent checks seed 002's event log: a call, and every call a snippet or a
// user's Lua tool makes inside it, gives one tool.call with its arguments and one
// tool.result with its value or error, nested calls naming their parent, and a planted
// token redacted from both.
func TestEveryCallIsAnEvent(t *testing.T) {
	const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	root, userDir := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("key = "+token+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(userDir, "peek.lua"), []byte(`return jido.tool{name = "peek",
	  description = "reads a path", params = {properties = {path = {type = "string"}, note = {type = "string"}}},
	  run = function(a) return jido.read_file{path = a.path} end}`), 0o644))
	var events bytes.Buffer
	s := testSession(t, Config{Root: root, ToolDirs: []string{userDir}, Events: &events})

	res := s.Call(t.Context(), ToolCall{Name: "peek", Args: map[string]any{"path": "a.txt", "note": token}})
	require.True(t, res.OK, "%+v", res.Error)
	_, terr := s.Eval(t.Context(), `jido.call("file_exists", {path = "a.txt"}) return jido.read_file{path = "missing.txt"}`)
	require.Nil(t, terr)

	type line struct {
		Event, Parent, Tool string
		CallID              string `json:"call_id"`
		OK                  *bool
		Args, Result        json.RawMessage
		Error               *struct{ Type string }
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(events.String()), "\n") {
		assert.NotContains(t, l, token, "redacted")
		var e line
		require.NoError(t, json.Unmarshal([]byte(l), &e))
		if !strings.HasPrefix(e.Event, "tool.") {
			continue
		}
		desc := e.Event + " " + e.CallID + " " + e.Tool
		if e.Parent != "" {
			desc += " in " + e.Parent
		}
		switch {
		case e.Event == "tool.call":
			assert.NotEmpty(t, e.Args, desc)
		case e.OK != nil && *e.OK:
			assert.NotEmpty(t, e.Result, desc)
		default:
			require.NotNil(t, e.Error, desc)
			desc += " " + e.Error.Type
		}
		got = append(got, desc)
	}
	assert.Equal(t, []string{
		"tool.call call-1 peek",
		"tool.call call-1.1 read_file in call-1",
		"tool.result call-1.1 read_file in call-1",
		"tool.result call-1 peek",
		"tool.call eval-2.1 file_exists in eval-2",
		"tool.result eval-2.1 file_exists in eval-2",
		"tool.call eval-2.2 read_file in eval-2",
		"tool.result eval-2.2 read_file in eval-2 file-error",
	}, got)
	assert.Contains(t, events.String(), `"note":"[REDACTED:github-token]"`, "arguments are redacted, not dropped")
}
