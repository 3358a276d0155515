package manager

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarmShellAfterTheFirstCall: with Config.WarmShell, a session's first call (a read)
// prepares its command runner in the background (its private temp dir appears); without
// it, or in a role without run_shell, a session that runs no command makes none.
func TestWarmShellAfterTheFirstCall(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want bool
	}{
		{"warm", Config{WarmShell: true}, true},
		{"default", Config{}, false},
		{"role without run_shell", Config{WarmShell: true, Permissions: policy.New(policy.ModeYolo), Role: "reader"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			m := newManager(t, tc.cfg)
			s, err := m.Open(t.Context(), "")
			require.NoError(t, err)
			require.True(t, s.Call(t.Context(), readA).OK)
			runners := func() []string {
				dirs, _ := filepath.Glob(filepath.Join(tmp, "jido-session-*"))
				return dirs
			}
			if tc.want {
				require.Eventually(t, func() bool { return len(runners()) == 1 }, 10*time.Second, 5*time.Millisecond)
			} else {
				time.Sleep(100 * time.Millisecond) // what a warm-up would have taken
				assert.Empty(t, runners())
			}
			require.NoError(t, s.Close())
			entries, _ := os.ReadDir(tmp)
			for _, e := range entries {
				assert.NotContains(t, e.Name(), "jido-session-", "closing the session removes its runner's temp dir")
			}
		})
	}
}
