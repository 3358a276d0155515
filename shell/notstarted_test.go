package shell

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotStarted runs commands whose program cannot start, and ones that start and fail,
// through the real sandbox and shell.
func TestNotStarted(t *testing.T) {
	r, dir := newRunner(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data.txt"), []byte("x\n"), 0o644))
	for _, tc := range []struct {
		name string
		req  Request
		code int
		why  string // "" when the program started
	}{
		{"an argv whose program is missing", Request{Argv: []string{"no-such-program-jido"}}, 127, "no-such-program-jido"},
		{"an argv whose file is no program", Request{Argv: []string{"./data.txt"}}, 126, "permission denied"},
		{"a command line whose program is missing", Request{Command: "no-such-program-jido --flag"}, 127, "no-such-program-jido: command not found"},
		{"a command line running no program", Request{Command: "./data.txt"}, 126, "./data.txt: Permission denied"},
		{"a missing program after output", Request{Command: "echo building; no-such-program-jido"}, 127, "no-such-program-jido: command not found"},
		{"a program that exits 127 itself", Request{Command: "echo failing >&2; exit 127"}, 127, ""},
		{"a failing program", Request{Command: "ls /no/such/dir"}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.Run(t.Context(), tc.req)
			require.NoError(t, err)
			assert.Equal(t, tc.code, res.ExitCode, res.Stderr)
			why, ok := res.NotStarted()
			assert.Equal(t, tc.why != "", ok, "%q", res.Stderr)
			assert.Contains(t, why, tc.why)
		})
	}
}
