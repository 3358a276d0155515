package shell

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecretMadeBetweenCommandsIsHidden: a secret file that appears after a session's
// command (whose spare helper built its root without it) is hidden from the next one.
func TestSecretMadeBetweenCommandsIsHidden(t *testing.T) {
	r, dir := newRunner(t)
	res, err := r.Run(t.Context(), Request{Command: "echo first"})
	require.NoError(t, err)
	require.Equal(t, "first\n", res.Stdout)
	if !res.Sandbox.Isolated() {
		t.Skip("no private root here: secrets are hidden only in one")
	}
	time.Sleep(100 * time.Millisecond) // a model's turn: the spare is ready
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("API_KEY=sk-made-later\n"), 0o644))
	res, err = r.Run(t.Context(), Request{Command: "cat .env"})
	require.NoError(t, err)
	assert.NotContains(t, res.Stdout, "sk-made-later")
}
