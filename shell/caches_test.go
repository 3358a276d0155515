package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandEnv runs env in r and returns the command's environment.
func commandEnv(t *testing.T, r *Runner) map[string]string {
	t.Helper()
	res, err := r.Run(t.Context(), Request{Command: "env"})
	require.NoError(t, err)
	env := map[string]string{}
	for line := range strings.Lines(res.Stdout) {
		if k, v, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "="); ok {
			env[k] = v
		}
	}
	return env
}

// TestPackageManagersGetPrivateCachesAndGoOffline: npm and pip get private caches of the
// key, which commands can write and which outlive the session, in place of the host's
// (whatever the case of its variable); without network cargo, npm and pip are told to stay
// offline; the user's Python packages stay importable; the XDG base directories go.
func TestPackageManagersGetPrivateCachesAndGoOffline(t *testing.T) {
	userCaches(t)
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".local", "lib"), 0o700))
	t.Setenv("HOME", home)
	t.Setenv("NPM_CONFIG_CACHE", filepath.Join(home, ".npm"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	offline := map[string]string{"CARGO_NET_OFFLINE": "true", "npm_config_offline": "true", "PIP_NO_INDEX": "1"}
	for name, network := range map[string]bool{"no network": false, "network": true} {
		t.Run(name, func(t *testing.T) {
			r := newRunnerIn(t, t.TempDir(), Options{Network: network, BuildCacheKey: "/repos/one"})
			env := commandEnv(t, r)
			for variable, kind := range downloadCaches {
				want, err := projectCache(kind, "/repos/one")
				require.NoError(t, err)
				assert.Equal(t, want, env[variable])
			}
			assert.NotContains(t, env, "NPM_CONFIG_CACHE", "the host's npm cache")
			assert.NotContains(t, env, "XDG_CONFIG_HOME")
			assert.Equal(t, filepath.Join(home, ".local"), env["PYTHONUSERBASE"])
			assert.Equal(t, "never", env["CARGO_CACHE_AUTO_CLEAN_FREQUENCY"])
			for k, v := range offline {
				if network {
					assert.NotContains(t, env, k)
				} else {
					assert.Equal(t, v, env[k])
				}
			}
			res, err := r.Run(t.Context(), Request{Command: `touch "$npm_config_cache/x" "$PIP_CACHE_DIR/x"`})
			require.NoError(t, err)
			assert.Equal(t, 0, res.ExitCode, res.Stderr)
		})
	}
}
