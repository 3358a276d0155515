package integration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApprovalCannotBeDodged replays issue 16's reproductions through the binary: each
// call would have run without a prompt (auto-edit runs read-only commands; a user rule
// allows git status); now each is asked about, so a headless jido call refuses it, and the
// tree is unchanged.
func TestApprovalCannotBeDodged(t *testing.T) {
	base := t.TempDir()
	root, config := filepath.Join(base, "root"), filepath.Join(base, "config")
	writeTree(t, base, map[string]string{
		"root/src/main.go":        "package main\n",
		"root/.env":               "API_KEY=sk-live-0123456789\n",
		"config/jido/config.toml": "mode = \"auto-edit\"\n[[allow]]\ntool = \"run_shell\"\ncommand = \"git status\"\n",
	})
	env := []string{"XDG_CONFIG_HOME=" + config}
	for name, args := range map[string]string{
		"BASH_ENV reads stdin":    `{"command":"ls","env":{"BASH_ENV":"/dev/stdin"},"stdin":"rm -rf src"}`,
		"git config through env":  `{"command":"git status","env":{"GIT_CONFIG_COUNT":"1","GIT_CONFIG_KEY_0":"core.fsmonitor","GIT_CONFIG_VALUE_0":"rm -rf src"}}`,
		"sed e command":           `{"command":"sed -n '1e rm -rf src' src/main.go"}`,
		"sed s///e":               `{"command":"echo 'rm -rf src' | sed 's/.*/&/e'"}`,
		"sed w":                   `{"command":"sed -n 'w src/main.go' /dev/null"}`,
		"mapfile callback":        `{"command":"mapfile -C 'rm -rf src #' -c 1 < src/main.go"}`,
		"printf -v PATH":          `{"command":"printf -v PATH ./bin"}`,
		"go list -toolexec":       `{"command":"go list -toolexec='rm -rf src' ./..."}`,
		"reading a secret":        `{"command":"cat .env"}`,
		"echo tick into a file":   `{"command":"echo tick > src/main.go"}`,
		"git -c fsmonitor":        `{"command":"git -c core.fsmonitor='rm -rf src' status"}`,
		"pytest imports conftest": `{"command":"pytest -q"}`,
	} {
		t.Run(name, func(t *testing.T) {
			r := runJidoIn(t, "", env, "", "call", "--root", root, "run_shell", args)
			assert.Equal(t, 1, r.code, "refused: %s %s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout, "permission-error")
			data, err := os.ReadFile(filepath.Join(root, "src/main.go"))
			require.NoError(t, err, "src survives")
			assert.Equal(t, "package main\n", string(data))
		})
	}
	r := runJidoIn(t, "", env, "", "call", "--root", root, "run_shell", `{"command":"ls src"}`)
	assert.Equal(t, 0, r.code, "a read-only command still runs in auto-edit: %s", r.stdout)
}
