package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUndoOfTheLastSession: `jido undo` takes back the last session's change set, naming
// its files first; --list is a table for people (id, when, session, tool, files) and
// --list --json the undo tool's result.
func TestUndoOfTheLastSession(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n"})
	r := runJido(t, "", "call", "--root", root, "--yes", "write_file", `{"path":"first.txt","content":"1"}`)
	require.Equal(t, 0, r.code, r.stdout)
	r = runJido(t, "", "call", "--root", root, "--yes", "write_file", `{"path":"second.txt","content":"2"}`)
	require.Equal(t, 0, r.code, r.stdout)

	r = runJido(t, "", "undo", "--root", root, "--list", "--json")
	require.Equal(t, 0, r.code, r.stdout)
	var listed struct {
		Result struct {
			Changes []struct {
				ID      string `json:"id"`
				Session string `json:"session"`
				Summary string `json:"summary"`
			} `json:"changes"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &listed))
	changes := listed.Result.Changes
	require.Len(t, changes, 2)
	assert.Equal(t, "write_file second.txt", changes[0].Summary)
	require.NotEmpty(t, changes[0].Session)
	assert.NotEqual(t, changes[0].Session, changes[1].Session, "two jido calls, two sessions")

	r = runJido(t, "", "undo", "--root", root, "--list")
	require.Equal(t, 0, r.code, r.stdout)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 3)
	assert.Regexp(t, `^ID\s+WHEN\s+SESSION\s+TOOL\s+FILES$`, lines[0])
	assert.Regexp(t, `^`+regexp.QuoteMeta(changes[0].ID)+`\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+`+changes[0].Session+`\s+write_file\s+second.txt$`, lines[1])

	r = runJido(t, "", "undo", "--root", root)
	require.Equal(t, 0, r.code, r.stdout)
	assert.Contains(t, r.stderr, "undo change "+changes[0].ID+" (write_file second.txt): deletes second.txt")
	assert.NoFileExists(t, filepath.Join(root, "second.txt"))
	assert.FileExists(t, filepath.Join(root, "first.txt"))

	r = runJido(t, "", "undo", "--root", root, "--list")
	assert.Regexp(t, `write_file \(undone\)\s+second.txt`, r.stdout)
	assert.Contains(t, r.stdout, "undo of "+changes[0].ID)

	// The last session has nothing left: the session before it comes next.
	r = runJido(t, "", "undo", "--root", root)
	require.Equal(t, 0, r.code, r.stdout)
	assert.Contains(t, r.stderr, "deletes first.txt")
	assert.NoFileExists(t, filepath.Join(root, "first.txt"))

	r = runJido(t, "", "undo", "--root", root)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "nothing to undo")
}

// TestChatUndoLeavesChangesMadeOutsideIt: a file `jido call` created is not the chat's to
// undo.
func TestChatUndoLeavesChangesMadeOutsideIt(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	r := runJido(t, "", "call", "--root", dir, "--yes", "write_file", `{"path":"outside.txt","content":"made by jido call\n"}`)
	require.Equal(t, 0, r.code, r.stdout)

	term := startTerminal(t, dir, offlineEnv, "chat")
	term.expect("› ")
	term.typeLine("/undo")
	term.expect("nothing of this chat to undo")
	term.expect("› ")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())
	assert.FileExists(t, filepath.Join(dir, "outside.txt"), "the chat's /undo leaves it")
}

// TestTrustHintStepsLetTheCallRun: a headless refusal names every step that lets the call
// run; taking only the first (the rule in the project's config) is not enough, taking
// them all is.
func TestTrustHintStepsLetTheCallRun(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "a\n"})
	call := func() (runResult, map[string]any) {
		r := runJido(t, "", "call", "--root", root, "write_file", `{"path":"b.txt","content":"b"}`)
		var res map[string]any
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &res), r.stdout)
		return r, res
	}
	r, res := call()
	require.Equal(t, 1, r.code, r.stdout)
	e := res["error"].(map[string]any)
	rule := e["details"].(map[string]any)["rule"].(string)
	var hint []string
	for _, h := range e["recovery"].([]any) {
		hint = append(hint, h.(string))
	}
	text := strings.Join(hint, "\n")
	project := filepath.Join(root, ".jido", "config.toml")
	assert.Contains(t, text, "add the rule below to "+project+", then run `jido trust --root "+root+"`")
	assert.Contains(t, text, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "jido", "config.toml")+", the user's own config, which needs no trust")
	trust := regexp.MustCompile("`(jido trust[^`]*)`").FindStringSubmatch(text)
	require.NotNil(t, trust, text)

	writeTree(t, root, map[string]string{".jido/config.toml": rule + "\n"})
	r, _ = call()
	assert.Equal(t, 1, r.code, "the rule alone is ignored: the file is not trusted")
	assert.NoFileExists(t, filepath.Join(root, "b.txt"))

	args := strings.Fields(trust[1])[1:] // the hint's command, as written
	r = runJido(t, "", args...)
	require.Equal(t, 0, r.code, r.stderr)
	r, _ = call()
	assert.Equal(t, 0, r.code, r.stdout)
	assert.FileExists(t, filepath.Join(root, "b.txt"))
}

// TestChatSingleKeyApprovalAndUndo: on a terminal one key answers the approval, which shows
// the rule "always" would write and where; the chat's /undo then takes back its own change
// and names the file, and leaves the one `jido call` made.
func TestChatSingleKeyApprovalAndUndo(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	r := runJido(t, "", "call", "--root", dir, "--yes", "write_file", `{"path":"outside.txt","content":"x\n"}`)
	require.Equal(t, 0, r.code, r.stdout)
	srv := geminitest.NewServer(
		geminitest.Step{Calls: []geminitest.Call{{ID: "w1", Name: "write_file", Args: map[string]any{"path": "hello.txt", "content": "hi\n"}}}},
		geminitest.Step{Text: []string{"Created hello.txt."}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("› ")
	term.typeLine("create hello.txt")
	term.expect(`paths = ["hello.txt"]`)
	term.expect("[a] writes it to .jido/config.toml")
	term.expect("allow?")
	_, err := term.tty.Write([]byte("y")) // one key, no Enter
	require.NoError(t, err)
	term.expect("[n] no: once") // the key, as its word
	term.expect("Created hello.txt.")
	assert.FileExists(t, filepath.Join(dir, "hello.txt"))
	term.expect("› ")
	term.typeLine("/undo")
	term.expect("(write_file hello.txt): deletes hello.txt")
	term.expect("› ")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())
	assert.NoFileExists(t, filepath.Join(dir, "hello.txt"))
	assert.FileExists(t, filepath.Join(dir, "outside.txt"))
}
