package integration

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/require"
)

// TestEmacsFrontEnd runs emacs/run-tests.sh: jido.el byte-compiles without a warning and
// passes checkdoc, and its ERT suite passes, the end-to-end tests driving a jido binary
// (jido serve --stdio) against a fake model with real Emacs buffers.
func TestEmacsFrontEnd(t *testing.T) {
	testenv.Program(t, "emacs")
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	cmd := exec.CommandContext(t.Context(), "bash", filepath.Join(repo, "emacs", "run-tests.sh"))
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "0 unexpected")
}
