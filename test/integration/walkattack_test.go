package integration

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWalksStayInsideTheRoot plants every way out of the root that a tree walk could take
// (symlinks to outside files and directories, absolute links, a link to the root's parent,
// a hard link to an outside file, a FIFO, secret files) and runs the walking tools through
// the binary with every option that widens them: the outside canary must never appear, and
// no call may hang.
func TestWalksStayInsideTheRoot(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	const canary = "CANARY-walk-outside"
	writeTree(t, base, map[string]string{
		"outside/secret.txt":     canary + "\n",
		"outside/dir/nested.txt": canary + "\n",
		"root/ok.txt":            "inside\n",
		"root/sub/ok.go":         "package sub\n",
		"root/.env":              canary + " in a secret file\n",
		"root/sub/id_rsa":        canary + " in a key\n",
	})
	for name, target := range map[string]string{
		"root/link_file":     filepath.Join(outside, "secret.txt"),
		"root/link_dir":      outside,
		"root/link_rel":      "../outside",
		"root/sub/link_up":   "../..",
		"root/link_root":     ".",
		"root/link_etc":      "/etc",
		"root/sub/link_proc": "/proc/self/root",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(base, name)))
	}
	require.NoError(t, os.Link(filepath.Join(outside, "dir/nested.txt"), filepath.Join(root, "hard.txt")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))

	calls := map[string]string{
		"list_files":             `{"follow_symlinks":true,"include_hidden":true,"no_ignore":true,"max_depth":20}`,
		"glob":                   `{"pattern":"**","include_hidden":true}`,
		"glob /":                 `{"pattern":"**/*.txt","path":"link_dir"}`,
		"search":                 `{"query":"CANARY","include_hidden":true,"max_results":1000}`,
		"search regex":           `{"query":"C.NARY","is_regex":true,"include_hidden":true,"context":5}`,
		"search files":           `{"query":"canary","output_mode":"files_with_matches","include_hidden":true}`,
		"search count":           `{"query":"canary","output_mode":"count","include_hidden":true}`,
		"search explicit link":   `{"query":"CANARY","path":"link_file"}`,
		"search explicit hard":   `{"query":"CANARY","path":"hard.txt"}`,
		"search explicit secret": `{"query":"CANARY","path":".env"}`,
		"search explicit dir":    `{"query":"CANARY","path":"link_rel"}`,
		"list_dir":               `{"path":".","no_ignore":true}`,
		"file_exists":            `{"path":"link_file"}`,
	}
	for name, args := range calls {
		t.Run(name, func(t *testing.T) {
			tool, _, _ := strings.Cut(name, " ")
			r := runJido(t, "", "call", "--root", root, tool, args)
			assert.NotContains(t, r.stdout, canary, "the canary leaked through %s", name)
			assert.NotContains(t, r.stdout, "outside/", name)
			assert.NotContains(t, r.stderr, "panic", name)
			assert.Contains(t, []int{0, 1}, r.code, "stdout %s stderr %s", r.stdout, r.stderr)
		})
	}
	// What a walk may report: the files inside, and the links as links.
	r := runJido(t, "", "call", "--root", root, "search", `{"query":"inside"}`)
	assert.Contains(t, r.stdout, `"path":"ok.txt"`)
	r = runJido(t, "", "call", "--root", root, "search", `{"query":"CANARY","include_hidden":true}`)
	res := decodeJSON(t, r.stdout)["result"].(map[string]any)
	skipped := res["skipped"].(map[string]any)
	assert.EqualValues(t, 2, skipped["secret"], "the two secret files are counted, not read: %v", res)
	assert.EqualValues(t, 1, skipped["unreadable"], "the hard link is refused: %v", res)
}
