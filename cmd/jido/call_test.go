package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCallMeta(t *testing.T) {
	o, err := parseCall([]string{"--cwd", "src", "--timeout", "1.5s", "read_file", `{"path":"a"}`}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "src", o.meta.Cwd)
	assert.InDelta(t, 1.5, o.meta.Timeout, 1e-9)

	o, err = parseCall([]string{"list_dir"}, io.Discard)
	require.NoError(t, err)
	assert.Zero(t, o.meta, "no meta by default")

	for _, bad := range [][]string{{"--timeout", "5", "list_dir"}, {"--timeout", "-1s", "list_dir"}} {
		_, err := parseCall(bad, io.Discard)
		assert.Error(t, err, "%q", bad)
	}
}

func TestRunCallInCwd(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "a.txt"), []byte("in sub\n"), 0o644))
	cases := []struct {
		name string
		cwd  string
		code int
		want string // the content read, or the error type
	}{
		{name: "inside", cwd: "sub", code: exitOK, want: "in sub\n"},
		{name: "outside", cwd: "..", code: exitToolError, want: "validation-error"},
		{name: "missing", cwd: "nope", code: exitToolError, want: "validation-error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run([]string{"call", "--root", root, "--cwd", c.cwd, "read_file", `{"path":"a.txt","line_numbers":false}`}, nil, &out, &errb)
			require.Equal(t, c.code, code, "%s%s", out.String(), errb.String())
			var res struct {
				Result struct{ Path, Content string }
				Error  struct{ Type string }
			}
			require.NoError(t, json.Unmarshal(out.Bytes(), &res))
			if c.code == exitOK {
				assert.Equal(t, c.want, res.Result.Content)
				assert.Equal(t, "sub/a.txt", res.Result.Path, "results name root-relative paths")
			} else {
				assert.Equal(t, c.want, res.Error.Type)
			}
		})
	}
}

// fileList returns a file list of n entries whose paths cover JSON's escapes.
func fileList(n int) *definitions.FileList {
	names := []string{"a.go", `q"uote`, `back\slash`, "new\nline", "tab\there", "ctl\x01x", "del\x7f",
		"<html>&amp;", "héllo", "bad\xffutf8", "line\u2028sep", ""}
	l := &definitions.FileList{Files: []definitions.FileInfo{}, Count: n, Truncated: n%2 == 1}
	for i := range n {
		l.Files = append(l.Files, definitions.FileInfo{Path: "dir/" + names[i%len(names)], Size: int64(i * 1000),
			MTime: time.Date(2026, 11, 27, 4, 5, 6, i*1_000_000, time.UTC), Type: []string{"file", "dir", "symlink"}[i%3]})
	}
	return l
}

func TestWriteResultStreamsAFileListAsWriteJSONDoes(t *testing.T) {
	// writeResult encodes FileList by hand: a new field must be added there too.
	require.Equal(t, 4, reflect.TypeFor[definitions.FileInfo]().NumField())
	require.Equal(t, 3, reflect.TypeFor[definitions.FileList]().NumField())
	cases := []struct {
		name string
		res  manager.ToolResult
	}{
		{name: "glob", res: manager.ToolResult{ID: "call-1", Name: "glob", OK: true, Result: fileList(40)}},
		{name: "empty", res: manager.ToolResult{Name: "list_files", OK: true, Result: fileList(0)}},
		{name: "nil files", res: manager.ToolResult{Name: "glob", OK: true, Result: &definitions.FileList{}}},
		{name: "large", res: manager.ToolResult{ID: `"result":0`, Name: "glob", OK: true, Result: fileList(5000), Note: "x"}},
		{name: "other result", res: manager.ToolResult{Name: "x", OK: true, Result: map[string]any{"a": 1}}},
		{name: "error", res: manager.ToolResult{Name: "glob", Error: definitions.NewError(definitions.ValidationError, "bad")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want, got bytes.Buffer
			writeJSON(&want, c.res)
			writeResult(&got, c.res)
			assert.Equal(t, want.String(), got.String())
		})
	}
}

// TestWriteResultAllocations checks that a file list is encoded without reflection or an
// allocation per entry (encoding/json makes several per entry).
func TestWriteResultAllocations(t *testing.T) {
	list := fileList(2000)
	for i := range list.Files {
		list.Files[i].Path = "src/pkg/file.go" // no escapes: the common case
	}
	res := manager.ToolResult{ID: "call-1", Name: "glob", OK: true, Result: list}
	allocs := testing.AllocsPerRun(5, func() { writeResult(io.Discard, res) })
	assert.Less(t, allocs, 2000.0/4, "allocations for 2000 entries")
}

// gcPercent returns the current GC target.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestOneShotGC(t *testing.T) {
	before := gcPercent()
	t.Setenv("GOGC", "150")
	restore := oneShotGC()
	assert.Equal(t, before, gcPercent(), "GOGC set: left alone")
	restore()

	require.NoError(t, os.Unsetenv("GOGC")) // t.Setenv restores it
	restore = oneShotGC()
	assert.Equal(t, oneShotGCPercent, gcPercent())
	restore()
	assert.Equal(t, before, gcPercent())
}
