package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/jido-run/jido/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The fronts of jido a trajectory runs through. Each starts on a project (in the
// environment given) and returns how to call one tool there; a front that needs the whole
// script in advance (a fake model's) gets the trajectory's steps.

// callTool calls one tool through a front and returns its result.
type callTool func(t *testing.T, tool string, args map[string]any) toolResult

// workloadFront is one face of jido.
type workloadFront struct {
	name  string
	start func(t *testing.T, dir string, env []string, steps []trajectoryStep) callTool
}

// callFront: one `jido call` per step, in the project, in a session of the trajectory's
// own (edit_file wants the file read in the same session).
var callFront = workloadFront{"call", func(t *testing.T, dir string, env []string, _ []trajectoryStep) callTool {
	return func(t *testing.T, tool string, args map[string]any) toolResult {
		a, err := json.Marshal(args)
		require.NoError(t, err)
		r := runJidoIn(t, dir, env, "", "call", "--session", "workload", "--yes", tool, string(a))
		var res toolResult
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &res), "jido call %s: %s\n%s", tool, r.stdout, r.stderr)
		return res
	}
}}

// evalFront: one `jido eval` per step, whose snippet calls the tool with jido.call.
var evalFront = workloadFront{"eval", func(t *testing.T, dir string, env []string, _ []trajectoryStep) callTool {
	return func(t *testing.T, tool string, args map[string]any) toolResult {
		snippet := fmt.Sprintf("local r, e = jido.call(%s, %s)\nif r == nil then return {ok = false, error = e} end\nreturn {ok = true, result = r}",
			luaValue(tool), luaValue(args))
		r := runJidoIn(t, dir, env, "", "eval", "--session", "workload", "--yes", "-e", snippet)
		var out struct {
			OK    bool
			Value toolResult
			Error map[string]any
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "jido eval: %s\n%s", r.stdout, r.stderr)
		require.True(t, out.OK, "the snippet ran: %v", out.Error)
		return out.Value
	}
}}

// luaValue writes v (JSON-like: maps, lists, strings, numbers, booleans) as a Lua value.
func luaValue(v any) string {
	switch v := v.(type) {
	case string:
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, "\\%03d", c)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
		return b.String()
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []any:
		var items []string
		for _, item := range v {
			items = append(items, luaValue(item))
		}
		return "{" + strings.Join(items, ", ") + "}"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var items []string
		for _, k := range keys {
			items = append(items, "["+luaValue(k)+"] = "+luaValue(v[k]))
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	panic(fmt.Sprintf("luaValue: %T", v))
}

// chatFront: jido chat on a pseudo-terminal with a fake model (OpenAI-compatible) that
// makes each step's call when the user asks for it, then says the step is done. The user
// answers every approval prompt with y, and the result is what the model was sent.
var chatFront = workloadFront{"chat", func(t *testing.T, dir string, env []string, steps []trajectoryStep) callTool {
	var script []openaitest.Step
	for i, s := range steps {
		args, err := json.Marshal(s.args)
		require.NoError(t, err)
		script = append(script,
			openaitest.Step{Calls: []openaitest.Call{{ID: fmt.Sprintf("w%d", i+1), Name: s.tool, Args: string(args)}}},
			answer(fmt.Sprintf("Step %d done.", i+1)))
	}
	srv := openaitest.NewServer(script...)
	t.Cleanup(srv.Close)
	term := startTerminal(t, dir, env, "chat", "--provider", "openai", "--model", "fake", "--base-url", srv.BaseURL())
	term.expect("› ")
	n := 0
	return func(t *testing.T, tool string, args map[string]any) toolResult {
		n++
		done := fmt.Sprintf("Step %d done.", n)
		term.typeLine(fmt.Sprintf("step %d: %s", n, tool))
		for term.waitFor(10*time.Minute, "allow?", done) != done {
			term.typeLine("y")
		}
		id := fmt.Sprintf("w%d", n)
		for _, req := range srv.Requests() {
			for _, m := range req.Messages {
				if m.Role == "tool" && m.ToolCallID == id {
					var res toolResult
					require.NoError(t, json.Unmarshal([]byte(m.Content), &res), "%s", m.Content)
					return res
				}
			}
		}
		require.FailNow(t, "no result", "the model was not sent the result of %s", id)
		return toolResult{}
	}
}}

// waitFor waits until the output after the last match holds one of wants, and returns
// the one that comes first there.
func (term *terminal) waitFor(timeout time.Duration, wants ...string) string {
	term.t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		term.mu.Lock()
		rest := term.out.String()[term.seen:]
		at, found := -1, ""
		for _, w := range wants {
			if i := strings.Index(rest, w); i >= 0 && (at < 0 || i < at) {
				at, found = i, w
			}
		}
		if at >= 0 {
			term.seen += at + len(found)
			term.mu.Unlock()
			return found
		}
		term.mu.Unlock()
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	require.FailNowf(term.t, "terminal output", "none of %q after:\n%s", wants, term.out.String()[term.seen:])
	return ""
}

// allowForSession answers every approval form of jido mcp: allow for the session.
func allowForSession(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow_session"}}, nil
}

// mcpTool calls tools of an MCP session: the structured result, or the error its text
// holds.
func mcpTool(cs *mcp.ClientSession) callTool {
	return func(t *testing.T, tool string, args map[string]any) toolResult {
		res := mcpCall(t, cs, tool, args)
		if res.IsError {
			return toolResult{Error: mcpText(t, res)}
		}
		result, _ := res.StructuredContent.(map[string]any)
		return toolResult{OK: true, Result: result}
	}
}

// mcpStdioFront: jido mcp over stdio, started in the project, with the MCP Go SDK's
// client, which allows each tool for the session when asked.
var mcpStdioFront = workloadFront{"mcp-stdio", func(t *testing.T, dir string, env []string, _ []trajectoryStep) callTool {
	cmd := exec.Command(jidoBin, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return mcpTool(mcpConnect(t, &mcp.CommandTransport{Command: cmd}, &mcp.ClientOptions{ElicitationHandler: allowForSession}, nil))
}}

// mcpHTTPFront: jido mcp --http on the project, with the SDK's streamable HTTP client.
var mcpHTTPFront = workloadFront{"mcp-http", func(t *testing.T, dir string, env []string, _ []trajectoryStep) callTool {
	srv := mcpHTTPEnv(t, env, "--root", dir)
	return mcpTool(mcpConnect(t, srv.transport(), &mcp.ClientOptions{ElicitationHandler: allowForSession}, nil))
}}

// serveFront: jido serve --stdio, the editor protocol, started in the project, driven by
// a scripted editor that answers every approval with "session". The undo step is the
// protocol's own undo method, as an editor's undo command sends it.
var serveFront = workloadFront{"serve", func(t *testing.T, dir string, env []string, _ []trajectoryStep) callTool {
	cmd := exec.Command(jidoBin, "serve", "--stdio")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	errPath := filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	require.NoError(t, err)
	defer errFile.Close() // the process has its own copy
	cmd.Stderr = errFile
	stderr := func() string { data, _ := os.ReadFile(errPath); return string(data) }
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	editor := func(_ context.Context, method string, _ json.RawMessage) (any, error) {
		switch method {
		case "approve":
			return map[string]string{"answer": "session"}, nil
		case "event":
			return nil, nil
		}
		return nil, &serve.Error{Code: serve.CodeMethodNotFound, Message: method}
	}
	peer := serve.NewPeer(out, in, editor, func(string) bool { return false })
	served := make(chan error, 1)
	go func() { served <- peer.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if peer.Call(ctx, "shutdown", nil, nil) == nil {
			peer.Notify("exit", nil)
		}
		if waitExit(t, cmd) != 0 {
			t.Errorf("jido serve exited with an error; stderr:\n%s", stderr())
		}
		<-served
	})
	var info map[string]any
	require.NoError(t, peer.Call(t.Context(), "initialize", map[string]any{"capabilities": map[string]any{}}, &info), "%s", stderr())
	require.Equal(t, "jido", info["server"])
	return func(t *testing.T, tool string, args map[string]any) toolResult {
		method, params := "call", any(map[string]any{"name": tool, "args": args})
		if tool == "undo" {
			method, params = "undo", args
		}
		var res toolResult
		require.NoError(t, peer.Call(t.Context(), method, params, &res), "%s; stderr:\n%s", method, stderr())
		return res
	}
}}
