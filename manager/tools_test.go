package manager

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/tools/*.txtar")

// TestToolCases runs every testdata/tools/*.txtar case: the files under tree/ make the project
// (in order, each one second newer than the one before), mode (if any) is the session's
// policy mode (with every ask approved), profile and role (if any) the session's profile and
// role, each line of calls is a ToolCall (or a "!write"
// that changes a file behind the session's back, or a "!disk" that shows a file on disk; a
// change_id "!N" names the N-th change set of the case),
// want holds one normalized ToolResult per call, after/ files must have these contents, and each
// line of gone names a path that must not exist afterwards.
func TestToolCases(t *testing.T) {
	files, err := filepath.Glob("testdata/tools/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runToolCase(t, file)
		})
	}
}

func runToolCase(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	require.NoError(t, err)
	root := t.TempDir()
	sections := map[string]string{}
	mtime := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "tree/"); ok {
			p := filepath.Join(root, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, f.Data, 0o644))
			// Later files are newer, one second apart, so "newest first" is deterministic.
			mtime = mtime.Add(time.Second)
			require.NoError(t, os.Chtimes(p, mtime, mtime))
			continue
		}
		sections[f.Name] = string(f.Data)
	}
	opts := Config{Root: root, JournalDir: t.TempDir()}
	if mode := strings.TrimSpace(sections["mode"]); mode != "" {
		m, err := policy.ParseMode(mode)
		require.NoError(t, err)
		opts.Permissions, opts.Yes = policy.New(m), true
	}
	if name := strings.TrimSpace(sections["profile"]); name != "" {
		p, err := profile.Get(name)
		require.NoError(t, err)
		opts.Profile = p
	}
	opts.Role = strings.TrimSpace(sections["role"])
	s := testSession(t, opts)

	var got bytes.Buffer
	var changeIDs []string // of the results so far, for "!N" references
	for _, line := range strings.Split(strings.TrimSpace(sections["calls"]), "\n") {
		var call ToolCall
		require.NoError(t, json.Unmarshal([]byte(line), &call), line)
		switch call.Name {
		case "!write": // change the disk behind the session's back
			p := filepath.Join(root, filepath.FromSlash(call.Args["path"].(string)))
			require.NoError(t, os.WriteFile(p, []byte(call.Args["content"].(string)), 0o644))
			continue
		case "!disk": // show what is on disk now
			p := call.Args["path"].(string)
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			line, _ := json.Marshal(map[string]any{"disk": p, "content": string(data), "exists": err == nil})
			got.WriteString(string(line) + "\n")
			continue
		}
		if ref, ok := call.Args["change_id"].(string); ok && strings.HasPrefix(ref, "!") {
			n, err := strconv.Atoi(ref[1:])
			require.NoError(t, err, ref)
			require.Less(t, n-1, len(changeIDs), "%s: only %d change sets so far", ref, len(changeIDs))
			call.Args["change_id"] = changeIDs[n-1]
		}
		res := s.Call(t.Context(), call)
		var fields map[string]any
		if res.OK && res.Decode(&fields) == nil && fields["change_id"] != nil {
			changeIDs = append(changeIDs, fields["change_id"].(string))
		}
		got.WriteString(strings.ReplaceAll(normalize(t, res), s.Root(), "$ROOT") + "\n")
	}
	if *update {
		writeSection(t, file, ar, "want", got.String())
	} else {
		assert.Equal(t, sections["want"], got.String())
	}
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "after/"); ok {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
			require.NoError(t, err, name)
			assert.Equal(t, string(f.Data), string(data), name)
		}
	}
	for _, name := range strings.Fields(sections["gone"]) {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		assert.True(t, os.IsNotExist(err), "%s should not exist", name)
	}
}

// normalize renders a result as one JSON line without the parts that vary between runs.
func normalize(t *testing.T, res ToolResult) string {
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	dropKeys(v, "mtime", "id", "files_searched", "change_id", "backup_path", "duration_ms", "sandbox", "undo_id", "created_at", "updated_at", "duration_seconds") // how many files a search read before it had enough varies
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return string(out)
}

func dropKeys(v any, keys ...string) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range keys {
			delete(x, k)
		}
		for _, e := range x {
			dropKeys(e, keys...)
		}
	case []any:
		for _, e := range x {
			dropKeys(e, keys...)
		}
	}
}

// writeSection replaces (or adds) a section of a txtar file, for -update.
func writeSection(t *testing.T, file string, ar *txtar.Archive, name, data string) {
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data, found = []byte(data), true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	require.NoError(t, os.WriteFile(file, txtar.Format(ar), 0o644))
}
