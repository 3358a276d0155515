package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

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
