package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wire is a jido process (jido mcp, jido serve --stdio) driven through its raw standard
// input and output, as a client that sends what it likes.
type wire struct {
	t      *testing.T
	cmd    *exec.Cmd
	writes chan string // written to its input in order
	out    *bufio.Reader
	stderr *lines
	exited chan int // its exit status, once it has exited
}

// startWire starts `jido args...` in dir with env; it is killed at the end of the test if
// still running.
func startWire(t *testing.T, dir string, env []string, args ...string) *wire {
	t.Helper()
	cmd := exec.Command(jidoBin, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	w := &wire{t: t, cmd: cmd, writes: make(chan string, 100), out: bufio.NewReaderSize(stdout, 1<<20), stderr: &lines{}, exited: make(chan int, 1)}
	go func() {
		for data := range w.writes {
			if _, err := io.WriteString(stdin, data); err != nil {
				break
			}
		}
		stdin.Close()
	}()
	stderrRead := make(chan struct{})
	go func() {
		defer close(stderrRead)
		scan := bufio.NewScanner(stderr)
		for scan.Scan() {
			w.stderr.add(scan.Text())
		}
	}()
	go func() {
		<-stderrRead
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		w.exited <- code
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
	})
	return w
}

// send writes data to the process's input after what was sent before.
func (w *wire) send(data string) { w.writes <- data }

// end closes the process's input after what was sent, and returns its exit status.
func (w *wire) end() int {
	w.t.Helper()
	close(w.writes)
	select {
	case code := <-w.exited:
		return code
	case <-time.After(30 * time.Second):
		w.t.Fatalf("jido did not exit; stderr:\n%s", w.stderr.String())
		return -1
	}
}

// await runs read, failing the test when nothing comes within 30 s.
func (w *wire) await(read func() ([]byte, error)) map[string]any {
	w.t.Helper()
	type result struct {
		data []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		data, err := read()
		got <- result{data, err}
	}()
	select {
	case r := <-got:
		require.NoError(w.t, r.err, "stderr:\n%s", w.stderr.String())
		var m map[string]any
		require.NoError(w.t, json.Unmarshal(r.data, &m), "%s", r.data)
		return m
	case <-time.After(30 * time.Second):
		w.t.Fatalf("jido answers nothing; stderr:\n%s", w.stderr.String())
		return nil
	}
}

// line is the next line jido mcp writes, decoded.
func (w *wire) line() map[string]any {
	w.t.Helper()
	return w.await(func() ([]byte, error) { return w.out.ReadBytes('\n') })
}

// frame is the next message jido serve writes, decoded.
func (w *wire) frame() map[string]any {
	w.t.Helper()
	return w.await(func() ([]byte, error) {
		length := -1
		for {
			header, err := w.out.ReadString('\n')
			if err != nil {
				return nil, err
			}
			header = strings.TrimRight(header, "\r\n")
			if header == "" {
				break
			}
			if value, ok := strings.CutPrefix(header, "Content-Length: "); ok {
				if length, err = strconv.Atoi(value); err != nil {
					return nil, err
				}
			}
		}
		body := make([]byte, length)
		_, err := io.ReadFull(w.out, body)
		return body, err
	})
}

// rpcError is the code and message of an error answer.
func rpcError(t *testing.T, m map[string]any) (int, string) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "an error answer: %v", m)
	return int(e["code"].(float64)), e["message"].(string)
}

// mcpLine is a request of jido mcp's stdio: one line.
func mcpLine(id any, method string, params string) string {
	idJSON, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`+"\n", idJSON, method, params)
}

// TestMCPStdioAnswersMalformedMessages drives jido mcp over its raw standard input: each
// line that is not an MCP message gets one JSON-RPC error (-32700 for what is not JSON,
// -32600 for JSON that is not a request, with a null id when it has no valid one), a
// 20 MiB line an error naming the cap, an unknown logging level -32602, and after each
// the next request is answered; the process ends cleanly when its input does.
func TestMCPStdioAnswersMalformedMessages(t *testing.T) {
	root := t.TempDir()
	w := startWire(t, root, nil, "mcp", "--root", root)
	w.send(mcpLine("init", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`))
	require.Equal(t, "init", w.line()["id"])
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

	cases := []struct {
		name, line string
		code       int
		id         any
	}{
		{"not JSON", `{not json`, jsonrpc.CodeParseError, nil},
		{"no jsonrpc", `{"id":1,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 1.0},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 2.0},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":7}`, jsonrpc.CodeInvalidRequest, 3.0},
		{"id an object", `{"jsonrpc":"2.0","id":{"n":4},"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"id a fraction", `{"jsonrpc":"2.0","id":5.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, nil},
		{"not an object", `"ping"`, jsonrpc.CodeInvalidRequest, nil},
		{"20 MiB", `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"` + strings.Repeat("x", 20<<20) + `"}}`, jsonrpc.CodeInvalidRequest, nil},
		{"unknown logging level", strings.TrimSuffix(mcpLine(8, "logging/setLevel", `{"level":"bogus"}`), "\n"), jsonrpc.CodeInvalidParams, 8.0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			w.send(c.line + "\n")
			m := w.line()
			code, msg := rpcError(t, m)
			assert.Equal(t, c.code, code, msg)
			assert.Contains(t, m, "id")
			assert.Equal(t, c.id, m["id"])
			if c.name == "20 MiB" {
				assert.Contains(t, msg, "16 MiB", "the message names the cap")
			}
			next := fmt.Sprint("after-", i)
			w.send(mcpLine(next, "ping", "{}"))
			assert.Equal(t, map[string]any{"jsonrpc": "2.0", "id": next, "result": map[string]any{}}, w.line(), "the next request is answered")
		})
	}
	w.t = t
	w.send(mcpLine("list", "tools/list", "{}"))
	m := w.line()
	require.Equal(t, "list", m["id"], "%v", m)
	assert.NotEmpty(t, m["result"].(map[string]any)["tools"])
	assert.Equal(t, 0, w.end(), "jido mcp ends cleanly with its input; stderr:\n%s", w.stderr.String())
}

// TestMCPServedProtocolErrors: over HTTP and over the socket, a POST without
// Mcp-Session-Id that is not initialize gets 400 with a JSON-RPC error, and an unknown
// logging level -32602; over HTTP a 401 carries RFC 6750's challenge.
func TestMCPServedProtocolErrors(t *testing.T) {
	root := t.TempDir()
	httpSrv := mcpHTTP(t, "--root", root)
	sock := mcpSocket(t, filepath.Join(t.TempDir(), "jido.sock"), "--root", root)
	targets := []struct {
		name      string
		url       string
		client    *http.Client
		transport func() mcp.Transport
	}{
		{"http", httpSrv.url, &http.Client{Transport: bearerTransport(httpSrv.token)}, httpSrv.transport},
		{"socket", "http://jido/mcp", socketTransport(sock.path).HTTPClient, sock.transport},
	}
	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			status, header, body := rawPost(t, target.client, target.url, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			assert.Equal(t, http.StatusBadRequest, status, body)
			assert.Equal(t, "application/json", header.Get("Content-Type"))
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(body), &m), body)
			code, msg := rpcError(t, m)
			assert.Equal(t, jsonrpc.CodeInvalidRequest, code)
			assert.Contains(t, msg, "Mcp-Session-Id")

			cs := mcpConnect(t, target.transport(), nil, nil)
			err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "bogus"})
			e, isWire := errors.AsType[*jsonrpc.Error](err)
			require.True(t, isWire, "a JSON-RPC error: %v", err)
			assert.Equal(t, int64(jsonrpc.CodeInvalidParams), e.Code)
			require.NoError(t, cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "warning"}))
		})
	}
	t.Run("401", func(t *testing.T) {
		for name, c := range map[string]struct {
			client    *http.Client
			challenge string
		}{
			"no token":    {http.DefaultClient, `Bearer realm="jido mcp"`},
			"wrong token": {&http.Client{Transport: bearerTransport(strings.Repeat("0", 64))}, `Bearer realm="jido mcp", error="invalid_token"`},
		} {
			status, header, _ := rawPost(t, c.client, httpSrv.url, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			assert.Equal(t, http.StatusUnauthorized, status, name)
			got := header.Get("WWW-Authenticate")
			assert.True(t, strings.HasPrefix(got, c.challenge), "%s: %s", name, got)
			if name == "no token" {
				assert.NotContains(t, got, "error=", "RFC 6750: no error code for a request without a token")
			}
		}
	})
}

// rawPost posts body to url as an MCP client would, without a session; it returns the
// status, the headers and the body of the answer.
func rawPost(t *testing.T, client *http.Client, url, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header, string(data)
}

// TestMCPToolListChangesOnlyWhenTheToolsDo: on each transport, listing and calling tools
// brings no notifications/tools/list_changed; a tool file added to a --tools directory
// brings one, after which the list has the tool.
func TestMCPToolListChangesOnlyWhenTheToolsDo(t *testing.T) {
	start := map[string]func(t *testing.T, root, tools string) func() mcp.Transport{
		"stdio": func(t *testing.T, root, tools string) func() mcp.Transport {
			return func() mcp.Transport {
				return &mcp.CommandTransport{Command: exec.Command(jidoBin, "mcp", "--root", root, "--tools", tools)}
			}
		},
		"http": func(t *testing.T, root, tools string) func() mcp.Transport {
			return mcpHTTP(t, "--root", root, "--tools", tools).transport
		},
		"socket": func(t *testing.T, root, tools string) func() mcp.Transport {
			return mcpSocket(t, filepath.Join(t.TempDir(), "jido.sock"), "--root", root, "--tools", tools).transport
		},
	}
	for name, start := range start {
		t.Run(name, func(t *testing.T) {
			root, tools := t.TempDir(), t.TempDir()
			writeTree(t, root, map[string]string{"a.txt": "a\n"})
			changed := make(chan struct{}, 10)
			cs := mcpConnect(t, start(t, root, tools)(), &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			}, nil)
			list := func() map[string]bool {
				res, err := cs.ListTools(t.Context(), nil)
				require.NoError(t, err)
				names := map[string]bool{}
				for _, tool := range res.Tools {
					names[tool.Name] = true
				}
				return names
			}
			require.True(t, list()["read_file"])
			require.False(t, mcpCall(t, cs, "read_file", map[string]any{"path": "a.txt"}).IsError)
			writeTree(t, tools, map[string]string{"say_hi.lua": `return jido.tool{name = "say_hi", description = "Says hi.",
  params = {properties = {name = {type = "string"}}, required = {"name"}}, run = function(a) return {hi = a.name} end}`})
			select {
			case <-changed:
			case <-time.After(30 * time.Second):
				t.Fatal("adding a tool file sent no notifications/tools/list_changed")
			}
			assert.True(t, list()["say_hi"], "the first notification is the one of the new tool")
			assert.Empty(t, changed, "one notification")
		})
	}
}

// serveFrame is one message of jido serve's framing.
func serveFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestServeStdioAnswersMalformedFrames drives jido serve --stdio over its raw standard
// input: a body that is not JSON gets -32700, JSON that is not a request -32600, a body
// over the cap -32600 and is skipped, and after each the next request is answered; a
// header that cannot be read gets -32700, then jido exits with status 1 and the reason
// on stderr.
func TestServeStdioAnswersMalformedFrames(t *testing.T) {
	root := t.TempDir()
	w := startWire(t, root, offlineEnv, "serve", "--stdio", "--root", root)
	w.send(serveFrame(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}`))
	require.Equal(t, "init", w.frame()["id"])
	cases := []struct {
		name, body string
		code       int
		id         any
	}{
		{"not JSON", `{not json`, jsonrpc.CodeParseError, nil},
		{"no jsonrpc", `{"id":1,"method":"call"}`, jsonrpc.CodeInvalidRequest, 1.0},
		{"method not a string", `{"jsonrpc":"2.0","id":2,"method":["call"]}`, jsonrpc.CodeInvalidRequest, 2.0},
		{"id an object", `{"jsonrpc":"2.0","id":{"n":3},"method":"call"}`, jsonrpc.CodeInvalidRequest, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":4,"method":"call"}]`, jsonrpc.CodeInvalidRequest, nil},
		{"unknown method", `{"jsonrpc":"2.0","id":5,"method":"nope"}`, jsonrpc.CodeMethodNotFound, 5.0},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			w.send(serveFrame(c.body))
			m := w.frame()
			code, msg := rpcError(t, m)
			assert.Equal(t, c.code, code, msg)
			assert.Contains(t, m, "id")
			assert.Equal(t, c.id, m["id"])
			w.send(serveFrame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"cancel"}`, 100+i)))
			assert.Equal(t, float64(100+i), w.frame()["id"], "the next request is answered")
		})
	}
	w.t = t
	const over = 64<<20 + 1
	w.send(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", over, strings.Repeat("x", over)))
	code, msg := rpcError(t, w.frame())
	assert.Equal(t, jsonrpc.CodeInvalidRequest, code)
	assert.Contains(t, msg, "64 MiB")
	w.send(serveFrame(`{"jsonrpc":"2.0","id":"after","method":"cancel"}`))
	assert.Equal(t, "after", w.frame()["id"], "the body over the cap was skipped")

	w.send("Content-Length: many\r\n\r\n{}")
	m := w.frame()
	code, msg = rpcError(t, m)
	assert.Equal(t, jsonrpc.CodeParseError, code)
	assert.Nil(t, m["id"])
	assert.Contains(t, msg, "Content-Length")
	assert.Equal(t, 1, w.end(), "a header jido cannot read ends the session with an error")
	assert.Contains(t, w.stderr.String(), `jido serve: Parse error: a bad Content-Length: "many"`)
}
