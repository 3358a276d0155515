package integration

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offlineEnv keeps any real key of the test's environment away from the binary.
var offlineEnv = []string{"GEMINI_API_KEY=", "GOOGLE_API_KEY=", "GOOGLE_GEMINI_BASE_URL="}

// runJidoEnv runs the jido binary in dir with extra environment variables.
func runJidoEnv(t *testing.T, dir string, env []string, args ...string) runResult {
	t.Helper()
	return runJidoIn(t, dir, env, "", args...)
}

// buggyModule is a Go module whose test fails until Add adds.
var buggyModule = map[string]string{
	"go.mod":       "module calc\n\ngo 1.22\n",
	"calc.go":      "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int { return a - b }\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

// functionResponses returns the functionResponse parts of a request's last content.
func functionResponses(t *testing.T, r geminitest.Request) []map[string]any {
	t.Helper()
	require.NotEmpty(t, r.Contents)
	last := r.Contents[len(r.Contents)-1]
	var out []map[string]any
	for _, p := range last.Parts {
		if p.FunctionResponse != nil {
			out = append(out, map[string]any{"name": p.FunctionResponse.Name, "id": p.FunctionResponse.ID, "response": p.FunctionResponse.Response})
		}
	}
	return out
}

func TestAskOffline(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n", "src/main.go": "package main\n"})
	r := runJidoEnv(t, dir, offlineEnv, "ask", "what is in this directory?")
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	assert.NotContains(t, r.stderr, "No GEMINI_API_KEY set", "offline mode is announced on terminals only (TestOfflineNoticeOncePerTerminal)")
	assert.Contains(t, r.stdout, "README.md")
	assert.Contains(t, r.stdout, "src/")

	r = runJidoEnv(t, dir, offlineEnv, "ask", "--json", "read README.md")
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	res := decodeJSON(t, r.stdout)
	assert.Contains(t, res["provider"], "offline")
	calls := res["calls"].([]any)
	require.Len(t, calls, 1)
	assert.Equal(t, "read_file", calls[0].(map[string]any)["name"])
	assert.Contains(t, res["answer"], "hello")
	assert.NotContains(t, r.stderr, "No GEMINI_API_KEY", "--json keeps stderr quiet")

	r = runJidoEnv(t, dir, offlineEnv, "ask", "tell me a joke about compilers")
	require.Equal(t, 0, r.code)
	assert.NotContains(t, r.stdout, "error")
	assert.NotEmpty(t, strings.TrimSpace(r.stdout), "an unmappable question gets suggestions")
}

func TestAskGeminiMultiStep(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, buggyModule)
	srv := geminitest.NewServer(
		geminitest.Step{Text: []string{"Let me look around."}, Calls: []geminitest.Call{{ID: "c1", Name: "list_dir", Args: map[string]any{"path": "."}}}},
		geminitest.Step{Calls: []geminitest.Call{{ID: "c2", Name: "read_file", Args: map[string]any{"path": "calc.go"}}, {ID: "c3", Name: "read_file", Args: map[string]any{"path": "calc_test.go"}}}},
		geminitest.Step{Calls: []geminitest.Call{{ID: "c4", Name: "edit_file", Args: map[string]any{"path": "calc.go", "old_string": "return a - b", "new_string": "return a + b"}}}},
		geminitest.Step{Calls: []geminitest.Call{{ID: "c5", Name: "run_tests", Args: map[string]any{}}}},
		geminitest.Step{Text: []string{"Fixed: ", "Add now ", "adds; the tests pass."}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, srv.Env(), "ask", "--yes", "fix the failing test")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "Let me look around.")
	assert.Contains(t, r.stdout, "● list_dir .")
	assert.Contains(t, r.stdout, "● edit_file calc.go → +1 -1")
	assert.Contains(t, r.stdout, "● run_tests → 1 passed, 0 failed")
	assert.Contains(t, r.stdout, "Fixed: Add now adds; the tests pass.\n", "the streamed pieces make the answer")
	data, err := os.ReadFile(filepath.Join(dir, "calc.go"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "return a + b")

	reqs := srv.Requests()
	require.Len(t, reqs, 5)
	assert.Equal(t, geminitest.APIKey, srv.Key())
	assert.NotEmpty(t, reqs[0].Tools, "the tools are declared")
	resp := functionResponses(t, reqs[4])
	require.Len(t, resp, 1)
	out, _ := json.Marshal(resp[0]["response"])
	assert.Contains(t, string(out), `"passed":1`, "the test results reach the model")
	two := functionResponses(t, reqs[2])
	require.Len(t, two, 2, "both reads of one turn are answered together")
	assert.Equal(t, []string{"c2", "c3"}, []string{two[0]["id"].(string), two[1]["id"].(string)})
}

func TestAskGeminiErrorsReachTheModel(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "alpha\n"})
	srv := geminitest.NewServer(
		geminitest.Step{Status: 429, Message: "Resource has been exhausted", RetryDelay: 1},
		geminitest.Step{Calls: []geminitest.Call{{ID: "w", Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}}}},
		geminitest.Step{FinishReason: "MALFORMED_FUNCTION_CALL", FinishMessage: "Malformed function call: write_file(path=)"},
		geminitest.Step{Text: []string{"I could not write the file."}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, srv.Env(), "ask", "write b.txt") // headless, no --yes: the write is refused
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "429", "the retry is reported")
	assert.Contains(t, r.stdout, "✗ write_file b.txt → permission-error")
	assert.Contains(t, r.stdout, "I could not write the file.")
	assert.NoFileExists(t, filepath.Join(dir, "b.txt"))

	reqs := srv.Requests()
	require.Len(t, reqs, 4, "the 429 was retried")
	denied, _ := json.Marshal(functionResponses(t, reqs[2]))
	assert.Contains(t, string(denied), "permission-error", "the refusal reaches the model as an error")
	malformed, _ := json.Marshal(functionResponses(t, reqs[3]))
	assert.Contains(t, string(malformed), "validation-error", "a malformed call becomes a tool error")
}

func TestAskGeminiBadKey(t *testing.T) {
	srv := geminitest.NewServer(geminitest.Step{Status: 400, Message: "API key not valid. Please pass a valid API key.", Reason: "API_KEY_INVALID"})
	defer srv.Close()
	r := runJidoEnv(t, t.TempDir(), srv.Env(), "ask", "hello")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "GEMINI_API_KEY", "a bad key says which variable to fix")
	assert.Len(t, srv.Requests(), 1, "a bad key is not retried")
}

func TestAskOpenAICompatible(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, buggyModule)
	srv := openaitest.NewServer(
		openaitest.Step{Text: []string{"Reading."}, Calls: []openaitest.Call{{ID: "a", Name: "read_file", Args: `{"path":"calc.go"}`}}},
		openaitest.Step{Calls: []openaitest.Call{{ID: "b", Name: "edit_file", Args: `{"path":"calc.go","old_string":"a - b","new_string":"a + b"}`}}},
		openaitest.Step{Calls: []openaitest.Call{{ID: "c", Name: "run_tests", Args: `{"path":`}}}, // malformed
		openaitest.Step{Status: 503, Body: `{"error":{"message":"overloaded"}}`, Header: http.Header{"Retry-After": []string{"0"}}},
		openaitest.Step{Calls: []openaitest.Call{{ID: "d", Name: "run_tests", Args: `{}`}}},
		openaitest.Step{Text: []string{"All ", "green."}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, append(offlineEnv, "OPENAI_API_KEY=local-key"),
		"ask", "--yes", "--provider", "openai", "--base-url", srv.BaseURL(), "--model", "qwen-coder", "fix it")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "● edit_file calc.go → +1 -1")
	assert.Contains(t, r.stdout, "✗ run_tests → validation-error")
	assert.Contains(t, r.stdout, "● run_tests → 1 passed, 0 failed")
	assert.Contains(t, r.stdout, "All green.")

	reqs := srv.Requests()
	require.Len(t, reqs, 6)
	assert.Equal(t, "qwen-coder", reqs[0].Model)
	assert.Equal(t, "Bearer local-key", reqs[0].Header.Get("Authorization"))
	last := reqs[3].Messages[len(reqs[3].Messages)-1]
	assert.Equal(t, "tool", last.Role)
	assert.Contains(t, string(last.Content), "validation-error", "the malformed call's error goes back as its tool message")
}

func TestAskTextProtocol(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"notes.txt": "remember the milk\n"})
	srv := openaitest.NewServer(
		openaitest.Step{Text: []string{"I will read it.\n```tool-call\n", `{"id":"1","name":"read_file","args":{"path":"notes.txt"}}`, "\n```\n```tool-call\n{not json}\n```\n"}},
		openaitest.Step{Text: []string{"The note says: remember the milk."}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, offlineEnv, "ask", "--provider", "openai", "--text-protocol", "--base-url", srv.BaseURL(), "--model", "tiny", "what does notes.txt say?")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "● read_file notes.txt → 1 line")
	assert.Contains(t, r.stdout, "The note says: remember the milk.")
	assert.NotContains(t, r.stdout, "```tool-call", "the blocks are not shown as the answer")

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Empty(t, reqs[0].Tools, "no native tools: the protocol is in the prompt")
	assert.Contains(t, string(reqs[0].Messages[0].Content), "tool-call", "the system prompt explains the protocol")
	answer := string(reqs[1].Messages[len(reqs[1].Messages)-1].Content)
	assert.Contains(t, answer, "```tool-result")
	assert.Contains(t, answer, "remember the milk")
	assert.Contains(t, answer, "validation-error", "the malformed block gets an error result")
}

// TestAskTextProtocolMeta checks that a text-protocol call's meta applies: meta.cwd is the
// directory its relative paths name, and a bad one is refused with a hint.
func TestAskTextProtocolMeta(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"todo.txt": "top level\n", "docs/todo.txt": "buy bread\n"})
	srv := openaitest.NewServer(
		openaitest.Step{Text: []string{"```tool-call\n", `{"id":"1","name":"read_file","args":{"path":"todo.txt"},"meta":{"cwd":"docs","timeout":10}}`, "\n```\n",
			"```tool-call\n", `{"id":"2","name":"read_file","args":{"path":"todo.txt"},"meta":{"cwd":"../elsewhere"}}`, "\n```\n"}},
		openaitest.Step{Text: []string{"Buy bread."}},
	)
	defer srv.Close()
	r := runJidoEnv(t, dir, offlineEnv, "ask", "--provider", "openai", "--text-protocol", "--base-url", srv.BaseURL(), "--model", "tiny", "what is in docs/todo.txt?")
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	answer := string(reqs[1].Messages[len(reqs[1].Messages)-1].Content)
	assert.Contains(t, answer, "buy bread")
	assert.Contains(t, answer, "docs/todo.txt", "the result names the root-relative path")
	assert.NotContains(t, answer, "top level")
	assert.Contains(t, answer, `meta.cwd \"../elsewhere\" is outside the project root`)
}
