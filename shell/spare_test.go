package shell

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/security"
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

// TestWarmThenRun: a Lazy runner warmed before its first command makes the runner and runs
// the command as usual; Close right after a Warm waits for it and leaves nothing running.
func TestWarmThenRun(t *testing.T) {
	dir := t.TempDir()
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })

	l := NewLazy(Options{Root: root})
	l.Warm()
	r, err := l.Get()
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond) // a model's turn
	res, err := r.Run(t.Context(), Request{Command: "echo warmed"})
	require.NoError(t, err)
	assert.Equal(t, "warmed\n", res.Stdout)
	require.NoError(t, l.Close())

	closing := NewLazy(Options{Root: root})
	closing.Warm()
	require.NoError(t, closing.Close())
	_, err = closing.Get()
	assert.ErrorIs(t, err, ErrClosed)
}
