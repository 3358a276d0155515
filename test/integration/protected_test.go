package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigProtectedListThroughTheBinary: an untrusted project config's protected globs
// add to the defaults for every tool that writes, through `jido call` and `jido eval`;
// what they do not match stays writable, reading stays allowed, and a bad glob is a config
// error naming the file and line.
func TestConfigProtectedListThroughTheBinary(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".jido/config.toml": "# the repository's own config, not trusted\nprotected = [\"deploy/**\", \"*.lock\"]\n",
		"deploy/prod.sh":    "echo deploy\n",
		"stage/prod.sh":     "echo stage\n",
		"go.lock":           "v1\n",
		"src/main.go":       "package main\n",
	})
	call := func(tool, args string) runResult {
		t.Helper()
		return runJido(t, "", "call", "--root", root, "--yes", tool, args)
	}
	refused := []struct{ tool, args string }{
		{"write_file", `{"path":"deploy/x","content":"curl evil\n"}`},
		{"write_file", `{"path":"deploy/prod.sh","content":"curl evil\n"}`},
		{"write_file", `{"path":"deploy/new/run.json","content":"not json"}`},
		{"write_file", `{"path":"go.lock","content":"v2\n"}`},
		{"write_file", `{"path":"Deploy/prod.sh","content":"curl evil\n"}`},
		{"delete_file", `{"path":"deploy/prod.sh"}`},
		{"delete_file", `{"path":"deploy","recursive":true}`},
		{"move_file", `{"source":"deploy/prod.sh","destination":"prod.sh"}`},
		{"move_file", `{"source":"stage","destination":"deploy/stage"}`},
		{"move_file", `{"source":"stage/prod.sh","destination":"deploy/prod.sh","overwrite":true}`},
		{"write_file", `{"path":".jido/config.toml","content":"protected = []\n"}`},
	}
	for _, tc := range refused {
		r := call(tc.tool, tc.args)
		assert.Equal(t, 1, r.code, "%s %s: %s %s", tc.tool, tc.args, r.stdout, r.stderr)
		res := decodeJSON(t, strings.TrimSpace(r.stdout))
		e, _ := res["error"].(map[string]any)
		require.NotNil(t, e, "%s %s: %s", tc.tool, tc.args, r.stdout)
		assert.Equal(t, "permission-error", e["type"], "%s %s", tc.tool, tc.args)
		assert.Contains(t, e["message"], "protected path", "%s %s", tc.tool, tc.args)
		assert.Contains(t, r.stdout, "ask the user to make this change themselves", "%s %s: the recovery", tc.tool, tc.args)
	}

	r := runJido(t, "", "eval", "--root", root, "--yes", "-e", `
		assert(jido.read_file{path="deploy/prod.sh"})
		local out = {}
		for _, call in ipairs{
			function() return jido.edit_file{path="deploy/prod.sh", old_string="deploy", new_string="evil"} end,
			function() return jido.multi_edit{path="deploy/prod.sh", edits={{old_string="deploy", new_string="evil"}}} end,
			function() return jido.edit_region{path="deploy/prod.sh", start_line=1, end_line=1, new_content="evil\n"} end,
			function() return jido.write_file{path="deploy/prod.sh", content="evil\n", append=true} end,
		} do
			local res, err = call()
			out[#out+1] = err and err.type or "ok"
		end
		return out`)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, `{"ok":true,"value":["permission-error","permission-error","permission-error","permission-error"]}`, strings.TrimSpace(r.stdout))

	data, err := os.ReadFile(filepath.Join(root, "deploy/prod.sh"))
	require.NoError(t, err)
	assert.Equal(t, "echo deploy\n", string(data))
	assert.NoFileExists(t, filepath.Join(root, "deploy/x"))
	assert.NoDirExists(t, filepath.Join(root, "deploy/stage"))
	assert.FileExists(t, filepath.Join(root, "stage/prod.sh"))

	r = call("read_file", `{"path":"deploy/prod.sh"}`)
	assert.Equal(t, 0, r.code, "reading stays allowed: %s", r.stdout)
	for _, ok := range []string{`{"path":"src/x.lock","content":"v1\n"}`, `{"path":"deployment/x","content":"x\n"}`} {
		r = call("write_file", ok)
		assert.Equal(t, 0, r.code, "a path the globs do not match: %s %s", ok, r.stdout)
	}

	require.NoError(t, os.WriteFile(filepath.Join(root, ".jido/config.toml"), []byte("mode = \"default\"\nprotected = [\n  \"deploy/**\",\n  \"/etc/**\",\n]\n"), 0o644))
	r = call("read_file", `{"path":"src/main.go"}`)
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, filepath.Join(".jido", "config.toml")+`:4:3: protected: "/etc/**" is absolute`)
}
