package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskServerThatIsNoCompletion: a server whose answer is no chat completion (a web
// page, an empty stream, a 501) is an error that says what to check, and ask fails.
func TestAskServerThatIsNoCompletion(t *testing.T) {
	for _, tc := range []struct {
		name string
		step openaitest.Step
		want []string
	}{
		{"an HTML page", openaitest.Step{Raw: "<!DOCTYPE html><html><body>It works!</body></html>", ContentType: "text/html"},
			[]string{"answered with an HTML page, not a chat completion", "check --base-url (it usually ends in /v1)"}},
		{"an empty stream", openaitest.Step{Raw: "data: [DONE]\n\n"},
			[]string{"answered with a stream without any choice (an empty stream, or only [DONE]), not a chat completion", "check --base-url"}},
		{"a 501", openaitest.Step{Status: 501, Body: "Not Implemented"},
			[]string{"HTTP 501: Not Implemented", "the server does not serve chat completions at", "/v1/chat/completions: check --base-url"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"README.md": "hi\n"})
			steps := []openaitest.Step{tc.step, tc.step, tc.step, tc.step} // a 501 is retried like any 5xx
			srv := openaitest.NewServer(steps...)
			defer srv.Close()
			r := runJidoEnv(t, dir, offlineEnv, "ask", "--provider", "openai", "--base-url", srv.BaseURL(), "--model", "m", "what is here?")
			assert.Equal(t, 1, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Contains(t, r.stderr, srv.URL)
		})
	}
}

// TestModelFromTheUserConfig: the user's [model] chooses the provider, model, URL and the
// variable holding the key; a flag overrides it; a key written in it is refused.
func TestModelFromTheUserConfig(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hi\n"})
	srv := openaitest.NewServer(openaitest.Step{Text: []string{"from the config"}}, openaitest.Step{Text: []string{"from the flag"}})
	defer srv.Close()
	config := t.TempDir()
	writeTree(t, config, map[string]string{"jido/config.toml": "[model]\nprovider = \"openai\"\nname = \"qwen\"\nbase_url = \"" + srv.BaseURL() + "\"\napi_key_env = \"MY_LLM_KEY\"\n"})
	env := append([]string{"XDG_CONFIG_HOME=" + config, "MY_LLM_KEY=k-123", "OPENAI_API_KEY=not-this-one"}, offlineEnv...)

	r := runJidoEnv(t, dir, env, "ask", "hello")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "from the config")
	r = runJidoEnv(t, dir, env, "ask", "--model", "llama", "hello")
	require.Equal(t, 0, r.code, r.stderr)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "qwen", reqs[0].Model)
	assert.Equal(t, "Bearer k-123", reqs[0].Header.Get("Authorization"))
	assert.Equal(t, "llama", reqs[1].Model, "the flag over the config")

	r = runJidoEnv(t, dir, append(env[:len(env):len(env)], "MY_LLM_KEY="), "ask", "hello")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "api_key_env names $MY_LLM_KEY, which is not set")

	writeTree(t, config, map[string]string{"jido/config.toml": "[model]\nprovider = \"openai\"\napi_key_env = \"sk-proj-0123456789abcdef\"\n"})
	r = runJidoEnv(t, dir, env, "ask", "hello")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "config.toml:3:1: [model] api_key_env: looks like an API key")
	assert.NotContains(t, r.stdout, "sk-proj")
}

// TestAgentsMDInTheSystemPrompt: the root's AGENTS.md is in the first request's system
// prompt; a nested one joins once a file of its directory is read; secrets in them are
// redacted as tool results are.
func TestAgentsMDInTheSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"AGENTS.md":      "Always run go vet.\ntoken = ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\n",
		"web/AGENTS.md":  "Use pnpm.\n",
		"web/app.js":     "console.log(1)\n",
		"docs/AGENTS.md": "Docs are in British English.\n",
	})
	srv := openaitest.NewServer(
		openaitest.Step{Calls: []openaitest.Call{{ID: "a", Name: "read_file", Args: `{"path":"web/app.js"}`}}},
		openaitest.Step{Text: []string{"done"}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, offlineEnv, "ask", "--provider", "openai", "--base-url", srv.BaseURL(), "--model", "m", "look at the app")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	first, second := string(reqs[0].Messages[0].Content), string(reqs[1].Messages[0].Content)
	assert.Contains(t, first, "## AGENTS.md (applies to the whole project)\n\nAlways run go vet.")
	assert.NotContains(t, first, "ghp_0123456789abcdef", "redacted")
	assert.Contains(t, first, "[REDACTED")
	assert.NotContains(t, first, "Use pnpm.")
	assert.Contains(t, second, "## web/AGENTS.md (applies to web/ and below)\n\nUse pnpm.")
	assert.NotContains(t, second, "British English", "docs/ was not touched")
}

func TestHelpThroughTheBinary(t *testing.T) {
	for _, cmd := range []string{"chat", "ask", "call", "eval", "mcp", "undo", "rules", "trust", "tools", "version"} {
		r := runJido(t, "", cmd, "--help")
		assert.Equal(t, 0, r.code, cmd)
		assert.Empty(t, r.stderr, cmd)
		assert.True(t, strings.HasPrefix(r.stdout, "Usage: jido "+cmd+" [flags]"), "%s: %s", cmd, r.stdout)
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "x\n"})
	r := runJido(t, "", "call", "read_file", `{"path":"a.txt"}`, "--root", root)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"ok":true`, "flags after the arguments")
}

// TestOfflineNoticeOncePerTerminal: the offline notice shows once per terminal session,
// never with --provider offline, and never on a non-terminal.
func TestOfflineNoticeOncePerTerminal(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	state := t.TempDir()
	ask := func(session string, args ...string) string {
		t.Helper()
		env := append([]string{"XDG_STATE_HOME=" + state, "TERM_SESSION_ID=" + session}, offlineEnv...)
		term := startTerminal(t, dir, env, append([]string{"ask"}, args...)...)
		term.expect("README.md")
		require.Equal(t, 0, term.waitExit())
		term.mu.Lock()
		defer term.mu.Unlock()
		return term.out.String()
	}
	assert.Contains(t, ask("tab-1", "list files"), "No GEMINI_API_KEY set")
	assert.NotContains(t, ask("tab-1", "list files"), "No GEMINI_API_KEY", "once per terminal session")
	assert.NotContains(t, ask("tab-2", "--provider", "offline", "list files"), "No GEMINI_API_KEY", "not when offline is asked for")
	assert.Contains(t, ask("tab-2", "list files"), "No GEMINI_API_KEY", "another terminal session")
	markers, err := os.ReadDir(filepath.Join(state, "jido", "notices"))
	require.NoError(t, err)
	assert.Len(t, markers, 2)

	r := runJidoEnv(t, dir, append([]string{"XDG_STATE_HOME=" + t.TempDir()}, offlineEnv...), "ask", "list files")
	require.Equal(t, 0, r.code)
	assert.NotContains(t, r.stderr, "No GEMINI_API_KEY", "not on a non-terminal")
}
