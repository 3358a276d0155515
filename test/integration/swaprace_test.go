package integration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// swapLoop is a background command that keeps swapping s between a directory of the
// project holding a new .bashrc (which the audit after each command moves away) and a
// link to a directory on the host holding one.
const swapLoop = `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
victim = os.environ["VICTIM"]
os.makedirs("s", exist_ok=True)
if not os.path.lexists("t"):
    os.symlink(victim, "t")
while True:
    for d in ("s", "t"):
        if os.path.isdir(d) and not os.path.islink(d) and not os.path.exists(d + "/.bashrc"):
            open(d + "/.bashrc", "w").write("planted\n")
    libc.renameat2(-100, b"s", -100, b"t", 2)  # RENAME_EXCHANGE: s is always there, a directory or the link
`

// TestAuditNeverActsThroughALink: while a background job of the session swaps a directory
// of the project for a link to a host directory, thousands of commands and the audit after
// each run; the audit moves away the .bashrc the job keeps making inside the project, and
// never the host's, which stays where its owner put it.
func TestAuditNeverActsThroughALink(t *testing.T) {
	testenv.Program(t, "python3")
	root, victim := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(victim, ".bashrc"), []byte("export API_KEY=host-secret\n"), 0o600))
	m, err := manager.New(manager.Config{Root: root, Yes: true})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	defer s.Close()
	job := s.Call(t.Context(), manager.ToolCall{Name: "run_shell", Args: map[string]any{
		"command": "python3 -c '" + swapLoop + "'", "background": true, "env": map[string]any{"VICTIM": victim},
	}})
	require.True(t, job.OK, "%+v", job.Error)
	const commands = 1000
	moved, refused := 0, 0
	for range commands {
		res := s.Call(t.Context(), manager.ToolCall{Name: "run_shell", Args: map[string]any{"command": "true"}})
		if !res.OK {
			// A protected path the look before the command found was moved before the
			// sandbox could bind it: the command does not run (it fails safe).
			require.Contains(t, res.Error.Message, "building the private root", "%+v", res.Error)
			refused++
			continue
		}
		var out struct {
			Notes []string `json:"sandbox_notes"`
		}
		require.NoError(t, res.Decode(&out))
		moved += len(out.Notes)
		data, err := os.ReadFile(filepath.Join(victim, ".bashrc"))
		require.NoError(t, err, "the host's .bashrc is where its owner put it")
		require.Equal(t, "export API_KEY=host-secret\n", string(data))
	}
	entries, err := os.ReadDir(victim)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was moved into or out of the host directory")
	assert.Positive(t, moved, "the audit did move the project's own .bashrc away, %d times in %d commands", moved, commands)
	t.Logf("%d commands, %d audit notes, %d refused for a path that moved under the sandbox", commands, moved, refused)
}
