package manager

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/require"
)

// FuzzCall sends arbitrary arguments to every tool through Session.Call on a small project:
// each call must end in a result or a structured error of a known type, never an internal error.
func FuzzCall(f *testing.F) {
	for _, seed := range []string{
		`{"path":"a.txt"}`, `{"path":"../x"}`, `{"path":"sub/","recursive":true}`, `{"pattern":"**/*"}`,
		`{"source":"a.txt","destination":"b/c.txt"}`, `{"path":"a.txt","content":"x","append":true}`,
		`{"path":"a.txt","old_string":"a","new_string":"b"}`, `{"path":"a.txt","edits":[{"old_string":"a","new_string":"b"}]}`,
		`{"path":"\u0000"}`, `{"path":"a.txt","offset":3,"limit":1}`, `{"patterns":["{a,..}/*"]}`,
	} {
		f.Add(uint8(0), seed)
	}
	root := f.TempDir()
	require.NoError(f, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	require.NoError(f, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\nb\n"), 0o644))
	require.NoError(f, os.Symlink("a.txt", filepath.Join(root, "link")))
	m, err := New(Config{Root: root})
	require.NoError(f, err)
	f.Cleanup(func() { m.Close() })
	s, err := m.Open(f.Context(), "")
	require.NoError(f, err)
	f.Cleanup(func() { s.Close() })
	tools := definitions.All()
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		var args map[string]any
		if json.Unmarshal([]byte(raw), &args) != nil {
			return
		}
		tool := tools[int(which)%len(tools)]
		res := s.Call(t.Context(), ToolCall{Name: tool.Name, Args: args})
		if res.OK {
			return
		}
		if !definitions.IsKnownType(res.Error.Type) || res.Error.Type == definitions.InternalError || res.Error.Message == "" {
			t.Fatalf("%s %s: %+v", tool.Name, raw, res.Error)
		}
	})
}
