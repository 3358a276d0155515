package integration

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageManagersInsideTheSandbox: without network, cargo and npm fail at once saying
// they are offline (they retried for seconds to minutes, looking for a network there is
// not), and a package the user installed with pip install --user stays importable
// although HOME is the session's.
func TestPackageManagersInsideTheSandbox(t *testing.T) {
	requireLandlock(t)
	base := t.TempDir()
	home := filepath.Join(base, "home")
	// A home of the test's own, with the user's Rust toolchain where it is.
	env := []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(base, "cache"),
		"CARGO_HOME=" + cmp.Or(os.Getenv("CARGO_HOME"), filepath.Join(os.Getenv("HOME"), ".cargo")),
		"RUSTUP_HOME=" + cmp.Or(os.Getenv("RUSTUP_HOME"), filepath.Join(os.Getenv("HOME"), ".rustup"))}
	run := func(t *testing.T, root, command string) map[string]any {
		t.Helper()
		raw, err := jsonString(map[string]any{"command": command, "timeout": 25})
		require.NoError(t, err)
		r := runJidoIn(t, "", env, "", "call", "--root", root, "--yes", "run_shell", raw)
		res, _ := decodeJSON(t, r.stdout)["result"].(map[string]any)
		require.NotNil(t, res, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		return res
	}
	for _, tc := range []struct {
		name, program string
		files         map[string]string
		command, want string
	}{
		{
			name: "cargo", program: "cargo",
			files: map[string]string{
				"Cargo.toml": "[package]\nname = \"nonet\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nnot-downloaded-crate-for-jido = \"1\"\n",
				"src/lib.rs": "",
			},
			command: "cargo build 2>&1", want: "offline mode",
		},
		{
			name: "npm", program: "npm",
			files:   map[string]string{"package.json": `{"name": "nonet", "version": "1.0.0", "dependencies": {"left-pad": "1.3.0"}}`},
			command: "npm install 2>&1", want: "ENOTCACHED",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testenv.Program(t, tc.program)
			root := filepath.Join(t.TempDir(), "root")
			writeTree(t, root, tc.files)
			res := run(t, root, tc.command)
			assert.NotEqual(t, float64(0), res["exit_code"])
			assert.Contains(t, res["stdout"], tc.want, "%v", res)
		})
	}

	t.Run("pip install --user", func(t *testing.T) {
		python := testenv.Program(t, "python3")
		cmd := exec.Command(python, "-c", "import site; print(site.getusersitepackages())")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err)
		site := strings.TrimSpace(string(out))
		require.True(t, strings.HasPrefix(site, home), site)
		writeTree(t, site, map[string]string{"jido_user_pkg.py": "X = 'from the user site'\n"})
		root := filepath.Join(t.TempDir(), "root")
		writeTree(t, root, map[string]string{"ok.txt": ""})
		res := run(t, root, python+" -c 'import jido_user_pkg; print(jido_user_pkg.X)'")
		assert.Equal(t, "from the user site\n", res["stdout"], fmt.Sprint(res))
	})
}
