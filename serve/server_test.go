package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/openai"
	"github.com/jido-run/jido/agent/openai/openaitest"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// client is a scripted front end: a Peer on the other side of two pipes, which answers
// approve with answer, keeps buffers as an editor would, and records events.
type client struct {
	*Peer
	t      *testing.T
	toJido *io.PipeWriter
	served chan error         // Run's result
	model  *openaitest.Server // the scripted model

	mu      sync.Mutex
	answer  string
	events  []map[string]any
	buffers map[string]*editorBuffer
	saved   []string
	asked   []map[string]any // approve requests
}

// start runs a server on a project dir with a scripted model, and returns its client.
func start(t *testing.T, dir string, steps ...openaitest.Step) *client {
	srv := openaitest.NewServer(steps...)
	t.Cleanup(srv.Close)
	m, err := manager.New(manager.Config{Root: dir, Permissions: policy.New(policy.ModeDefault), NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	cfg := Config{
		Open: func(ctx context.Context, opts ...manager.SessionOption) (*manager.Session, error) {
			return m.Open(ctx, "", opts...)
		},
		NewAgent: func(ctx context.Context, s *manager.Session) (*agent.Agent, error) {
			p, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "fake"})
			if err != nil {
				return nil, err
			}
			return &agent.Agent{Provider: p, Exec: chat.NewExecutor(s), Tools: agent.Specs(s.Tools())}, nil
		},
		Version: "test", Root: dir,
	}
	jidoIn, toJido := io.Pipe()
	fromJido, jidoOut := io.Pipe()
	c := &client{t: t, toJido: toJido, served: make(chan error, 1), model: srv, answer: "once", buffers: map[string]*editorBuffer{}}
	go func() {
		c.served <- Run(t.Context(), cfg, jidoIn, jidoOut)
		jidoOut.Close()
	}()
	c.Peer = NewPeer(fromJido, toJido, c.handle, func(string) bool { return false }) // in order, as an editor takes them
	go c.Serve(context.Background())
	t.Cleanup(func() { toJido.Close() })
	return c
}

// handle answers jido's requests and records its notifications.
func (c *client) handle(_ context.Context, method string, params json.RawMessage) (any, error) {
	var p map[string]any
	json.Unmarshal(params, &p)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch method {
	case "event":
		c.events = append(c.events, p)
		return nil, nil
	case "approve":
		c.asked = append(c.asked, p)
		return map[string]string{"answer": c.answer}, nil
	case "buffer":
		return c.buffer(p)
	}
	return nil, &Error{Code: CodeMethodNotFound, Message: method}
}

// buffer plays an editor's buffers.
func (c *client) buffer(p map[string]any) (any, error) {
	name, _ := p["name"].(string)
	switch p["op"] {
	case "list":
		var list []map[string]any
		for n, b := range c.buffers {
			list = append(list, map[string]any{"name": n, "size": len(b.Text), "file": b.File, "modified": b.Modified})
		}
		return map[string]any{"buffers": list}, nil
	case "get":
		return c.buffers[name], nil
	case "set":
		switch name {
		case "locked": // an editor's refusal with a ToolError, passed on as it is
			return nil, &Error{Code: CodeInvalidParams, Message: "read-only", Data: map[string]any{"type": "permission-error", "message": "buffer locked is read-only"}}
		case "broken": // a refusal without one
			return nil, &Error{Code: CodeInternalError, Message: "it broke"}
		}
		b := c.buffers[name]
		if b == nil {
			b = &editorBuffer{Name: name, Mode: p["mode"].(string)}
			c.buffers[name] = b
		}
		b.Text, b.Version, b.Modified = p["text"].(string), b.Version+1, true
		return map[string]any{"version": b.Version}, nil
	case "saved":
		b := c.buffers[name]
		b.File, b.Modified = p["path"].(string), false
		c.saved = append(c.saved, name+" -> "+b.File)
		return nil, nil
	}
	return nil, &Error{Code: CodeInvalidParams, Message: "unknown op"}
}

// call calls jido and returns its result, or the error.
func (c *client) call(method string, params any) (map[string]any, error) {
	var res map[string]any
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := c.Call(ctx, method, params, &res)
	return res, err
}

// rpcCode is the JSON-RPC code of err, 0 when it is not an *Error.
func rpcCode(err error) int {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return 0
}

func TestMethodsAndErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644))
	c := start(t, dir)

	_, err := c.call("call", map[string]any{"name": "read_file", "args": map[string]any{"path": "a.txt"}})
	assert.Equal(t, CodeInvalidRequest, rpcCode(err), "before initialize: %v", err)

	info, err := c.call("initialize", map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "jido", info["server"])
	assert.Equal(t, "jido", info["profile"])
	assert.Contains(t, info["tools"], "read_file")
	_, err = c.call("initialize", nil)
	assert.Equal(t, CodeInvalidRequest, rpcCode(err), "twice")

	res, err := c.call("call", map[string]any{"name": "read_file", "args": map[string]any{"path": "a.txt"}})
	require.NoError(t, err)
	assert.Equal(t, true, res["ok"])
	assert.Contains(t, res["result"].(map[string]any)["content"], "alpha")
	res, err = c.call("call", map[string]any{"name": "read_file", "args": map[string]any{"path": "../x"}})
	require.NoError(t, err, "a tool's error is a result")
	assert.Equal(t, false, res["ok"])

	_, err = c.call("nope", nil)
	assert.Equal(t, CodeMethodNotFound, rpcCode(err))
	_, err = c.call("call", map[string]any{"args": 3})
	assert.Equal(t, CodeInvalidParams, rpcCode(err))
	_, err = c.call("message", map[string]any{"text": ""})
	assert.Equal(t, CodeInvalidParams, rpcCode(err))

	res, err = c.call("undo", map[string]any{})
	require.NoError(t, err, "still served")
	assert.Equal(t, false, res["ok"], "nothing to undo")

	_, err = c.call("shutdown", nil)
	require.NoError(t, err)
	require.NoError(t, c.Notify("exit", nil))
	select {
	case err := <-c.served:
		assert.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("exit did not end the server")
	}
}

// wire is a Peer serving an echo handler on pipes, seen from the other end: the raw bytes
// sent to it and the frames it writes.
type wire struct {
	t      *testing.T
	toPeer *io.PipeWriter
	writes chan string // written to the peer in order
	end    func()      // ends the peer's input after the writes
	frames *Peer       // reads the peer's output
	served chan error
}

// newWire starts a peer whose "echo" returns its params.
func newWire(t *testing.T) *wire {
	in, toPeer := io.Pipe()
	fromPeer, out := io.Pipe()
	p := NewPeer(in, out, func(_ context.Context, method string, params json.RawMessage) (any, error) {
		if method == "echo" {
			return params, nil
		}
		return nil, &Error{Code: CodeMethodNotFound, Message: method}
	}, func(string) bool { return false })
	writes := make(chan string, 100)
	w := &wire{t: t, toPeer: toPeer, writes: writes, end: sync.OnceFunc(func() { close(writes) }),
		frames: &Peer{r: bufio.NewReader(fromPeer)}, served: make(chan error, 1)}
	go func() { w.served <- p.Serve(t.Context()); out.Close() }()
	go func() {
		for data := range writes {
			_, _ = io.WriteString(toPeer, data)
		}
		toPeer.Close()
	}()
	t.Cleanup(func() { w.end(); toPeer.Close(); fromPeer.Close() })
	return w
}

// raw writes bytes to the peer after those written before, without waiting for it to
// read them.
func (w *wire) raw(data string) { w.writes <- data }

// send writes one framed message.
func (w *wire) send(body string) { w.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)) }

// next is the next message the peer writes.
func (w *wire) next() map[string]any {
	w.t.Helper()
	type frame struct {
		body []byte
		err  error
	}
	got := make(chan frame, 1)
	go func() {
		body, err := w.frames.readFrame()
		got <- frame{body, err}
	}()
	var f frame
	select {
	case f = <-got:
	case <-time.After(30 * time.Second):
		w.t.Fatal("the peer answers nothing")
	}
	require.NoError(w.t, f.err)
	var m map[string]any
	require.NoError(w.t, json.Unmarshal(f.body, &m))
	return m
}

// code is the error code of an answer.
func code(t *testing.T, m map[string]any) int {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "an error: %v", m)
	return int(e["code"].(float64))
}

// TestFraming: a body that is not a JSON-RPC 2.0 message is answered with the error
// JSON-RPC calls for (a null id when it has no valid one) and the connection goes on, as
// it does after a body over the cap, which is skipped; a notification is not answered.
func TestFraming(t *testing.T) {
	w := newWire(t)
	cases := []struct {
		name, body string
		code       int
		id         any
	}{
		{"not JSON", `{bad}`, CodeParseError, nil},
		{"not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", CodeParseError, nil},
		{"no jsonrpc", `{"id":"a","method":"echo"}`, CodeInvalidRequest, "a"},
		{"neither method nor id", `{"jsonrpc":"2.0"}`, CodeInvalidRequest, nil},
		{"a response without result", `{"jsonrpc":"2.0","id":3}`, CodeInvalidRequest, 3.0},
		{"method a number", `{"jsonrpc":"2.0","id":"b","method":5}`, CodeInvalidRequest, "b"},
		{"method empty", `{"jsonrpc":"2.0","id":"c","method":""}`, CodeInvalidRequest, "c"},
		{"id an object", `{"jsonrpc":"2.0","id":{"x":1},"method":"echo"}`, CodeInvalidRequest, nil},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"echo"}`, CodeInvalidRequest, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, CodeInvalidRequest, nil},
		{"a number", `42`, CodeInvalidRequest, nil},
		{"unknown method", `{"jsonrpc":"2.0","id":"d","method":"what"}`, CodeMethodNotFound, "d"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.t = t
			w.send(c.body)
			m := w.next()
			assert.Equal(t, c.code, code(t, m))
			assert.Contains(t, m, "id")
			assert.Equal(t, c.id, m["id"])
			w.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"echo","params":{"x":"é"}}`, i))
			assert.Equal(t, map[string]any{"jsonrpc": "2.0", "id": float64(i), "result": map[string]any{"x": "é"}}, w.next(), "the next request is served")
		})
	}
	w.t = t
	w.send(`{"jsonrpc":"2.0","method":"echo","params":[1]}`) // notifications: no answer
	w.send(`{"jsonrpc":"2.0","ID":5,"method":"echo"}`)       // "ID" is not "id"
	w.send(`{"jsonrpc":"2.0","id":null,"method":"echo","params":{}}`)
	assert.Equal(t, map[string]any{"jsonrpc": "2.0", "id": nil, "result": map[string]any{}}, w.next(), "JSON-RPC 2.0 allows a null id")

	w.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n", maxFrame+1))
	m := w.next()
	assert.Equal(t, CodeInvalidRequest, code(t, m))
	assert.Contains(t, m["error"].(map[string]any)["message"], "64 MiB")
	w.raw(strings.Repeat("x", maxFrame+1))
	w.send(`{"jsonrpc":"2.0","id":"after","method":"echo"}`)
	assert.Equal(t, "after", w.next()["id"], "the body over the cap was skipped")
}

// TestFramingErrorsCloseTheConnection: a header that cannot be read is answered with
// -32700 (where the next message starts is lost), then Serve ends with the error.
func TestFramingErrorsCloseTheConnection(t *testing.T) {
	cases := []struct{ name, input, reason string }{
		{"no Content-Length", "Content-Type: x\r\n\r\n{}", "without a Content-Length"},
		{"Content-Length not a number", "Content-Length: ten\r\n\r\n{}", "bad Content-Length"},
		{"Content-Length negative", "Content-Length: -2\r\n\r\n{}", "bad Content-Length"},
		{"Content-Length past int64", "Content-Length: 99999999999999999999\r\n\r\n{}", "bad Content-Length"},
		{"two Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "bad Content-Length"},
		{"a line without a colon", "Content-Length 2\r\n\r\n{}", "without a colon"},
		{"a long header", "X-Junk: " + strings.Repeat("j", 5000) + "\r\n\r\n{}", "over 4096 bytes"},
		{"many headers", strings.Repeat("X-Junk: j\r\n", 500) + "\r\n{}", "over 4096 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWire(t)
			w.raw(c.input)
			m := w.next()
			assert.Equal(t, CodeParseError, code(t, m))
			assert.Nil(t, m["id"])
			assert.Contains(t, m["error"].(map[string]any)["message"], c.reason)
			select {
			case err := <-w.served:
				assert.ErrorContains(t, err, c.reason)
			case <-time.After(30 * time.Second):
				t.Fatal("the connection did not end")
			}
		})
	}
	t.Run("the input ends within a header", func(t *testing.T) {
		w := newWire(t)
		w.raw("Content-Length: 2\r\n")
		w.end()
		select {
		case err := <-w.served:
			assert.ErrorContains(t, err, "ended within a message's header")
		case <-time.After(30 * time.Second):
			t.Fatal("the connection did not end")
		}
	})
}

// writeCall is a model step that writes notes.txt.
var writeCall = openaitest.Step{Calls: []openaitest.Call{{ID: "w", Name: "write_file", Args: `{"path":"notes.txt","content":"hi\n","create_if_missing":true}`}}}

// TestMessageWithApproval: a turn whose write the front end approves writes the file, and
// the front end sees the approval's diff, the call, its result and the end of the turn;
// a denied one leaves the file as it was.
func TestMessageWithApproval(t *testing.T) {
	for _, answer := range []string{"once", "deny"} {
		t.Run(answer, func(t *testing.T) {
			dir := t.TempDir()
			c := start(t, dir, writeCall, openaitest.Step{Text: []string{"Wrote ", "it."}})
			c.answer = answer
			_, err := c.call("initialize", nil)
			require.NoError(t, err)
			res, err := c.call("message", map[string]any{"text": "write hi to notes.txt"})
			require.NoError(t, err)
			assert.Equal(t, "Wrote it.", res["text"])

			c.mu.Lock()
			defer c.mu.Unlock()
			require.Len(t, c.asked, 1)
			assert.Equal(t, "write_file", c.asked[0]["tool"])
			assert.Contains(t, c.asked[0]["preview"], "+hi")
			var kinds []string
			for _, e := range c.events {
				kinds = append(kinds, e["kind"].(string))
			}
			assert.Equal(t, []string{"tool_call", "tool_result", "text", "text", "done"}, kinds)
			data, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
			if answer == "once" {
				require.NoError(t, err)
				assert.Equal(t, "hi\n", string(data))
				assert.Equal(t, true, c.events[1]["ok"])
			} else {
				assert.True(t, os.IsNotExist(err), "a denied write writes nothing")
				assert.Equal(t, false, c.events[1]["ok"])
			}
		})
	}
}

// TestEditorBuffers: with the buffers capability, the buffer tools act on the front end's
// buffers, and buffer_save writes the file through jido and tells the editor.
func TestEditorBuffers(t *testing.T) {
	dir := t.TempDir()
	c := start(t, dir)
	c.answer = "once"
	_, err := c.call("initialize", map[string]any{"capabilities": map[string]any{"buffers": true}})
	require.NoError(t, err)
	tool := func(name string, args map[string]any) map[string]any {
		res, err := c.call("call", map[string]any{"name": name, "args": args})
		require.NoError(t, err)
		return res
	}
	res := tool("buffer_create", map[string]any{"buffer_name": "draft", "content": "one\ntwo\n", "mode": "text"})
	require.Equal(t, true, res["ok"], "%v", res)
	res = tool("buffer_edit", map[string]any{"buffer_name": "draft", "old_text": "two", "new_text": "deux"})
	require.Equal(t, true, res["ok"], "%v", res)
	res = tool("buffer_get_content", map[string]any{"buffer_name": "draft"})
	assert.Contains(t, res["result"].(map[string]any)["content"], "deux")
	res = tool("buffer_list", map[string]any{})
	assert.Contains(t, res["result"].(map[string]any)["buffers"].([]any)[0], "name")
	res = tool("buffer_edit", map[string]any{"buffer_name": "nope", "old_text": "a", "new_text": "b"})
	assert.Equal(t, false, res["ok"], "an unknown buffer is jido's error")
	assert.Contains(t, res["error"].(map[string]any)["message"], `no buffer named "nope"`)

	res = tool("buffer_create", map[string]any{"buffer_name": "locked", "content": "x"})
	assert.Equal(t, map[string]any{"type": "permission-error", "message": "buffer locked is read-only"}, res["error"])
	res = tool("buffer_create", map[string]any{"buffer_name": "broken", "content": "x"})
	assert.Equal(t, "internal-error", res["error"].(map[string]any)["type"])
	assert.Contains(t, res["error"].(map[string]any)["message"], "the editor refused buffer op set: it broke")

	res = tool("buffer_save", map[string]any{"buffer_name": "draft", "file_path": "draft.txt"})
	require.Equal(t, true, res["ok"], "%v", res)
	data, err := os.ReadFile(filepath.Join(dir, "draft.txt"))
	require.NoError(t, err)
	assert.Equal(t, "one\ndeux\n", string(data))
	c.mu.Lock()
	defer c.mu.Unlock()
	assert.Equal(t, "one\ndeux\n", c.buffers["draft"].Text, "the editor's buffer holds the edit")
	assert.Equal(t, []string{"draft -> draft.txt"}, c.saved)
	assert.False(t, c.buffers["draft"].Modified)
}

// TestCancelAndDisappear: cancel ends a running message (the model still thinking) with
// -32800 and the next call works; a front end that goes away mid-message ends the server,
// its call cancelled.
func TestCancelAndDisappear(t *testing.T) {
	dir := t.TempDir()
	slow := openaitest.Step{Delay: time.Minute, Text: []string{"late"}}
	c := start(t, dir, slow, openaitest.Step{Text: []string{"fine"}}, slow)
	_, err := c.call("initialize", nil)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := c.call("message", map[string]any{"text": "think"})
		done <- err
	}()
	require.Eventually(t, func() bool { return len(c.model.Requests()) == 1 }, 10*time.Second, 5*time.Millisecond, "the message is at the model")
	_, err = c.call("call", map[string]any{"name": "file_exists", "args": map[string]any{"path": "x"}})
	assert.Equal(t, CodeBusy, rpcCode(err), "a call while the message runs is refused as busy")
	require.NoError(t, c.Notify("cancel", nil))
	select {
	case err := <-done:
		assert.Equal(t, CodeCancelled, rpcCode(err), "%v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("cancel did not end the message")
	}
	res, err := c.call("message", map[string]any{"text": "again"})
	require.NoError(t, err)
	assert.Equal(t, "fine", res["text"])

	go c.call("message", map[string]any{"text": "think again"})
	require.Eventually(t, func() bool { return len(c.model.Requests()) == 3 }, 10*time.Second, 5*time.Millisecond, "the message is at the model")
	c.toJido.Close()
	select {
	case err := <-c.served:
		assert.NoError(t, err, "the end of input ends the server")
	case <-time.After(30 * time.Second):
		t.Fatal("the server outlived its front end")
	}
}

// TestProgress: a long command of the turn sends progress events naming its call, with
// the tail of its output.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	c := start(t, dir, openaitest.Step{Calls: []openaitest.Call{{ID: "sh", Name: "run_shell", Args: `{"command":"echo started; sleep 2.5"}`}}}, openaitest.Step{Text: []string{"ok"}})
	_, err := c.call("initialize", nil)
	require.NoError(t, err)
	_, err = c.call("message", map[string]any{"text": "run it"})
	require.NoError(t, err)
	c.mu.Lock()
	defer c.mu.Unlock()
	var progress []map[string]any
	for _, e := range c.events {
		if e["kind"] == "progress" {
			progress = append(progress, e)
		}
	}
	require.NotEmpty(t, progress, "%v", c.events)
	assert.Equal(t, "sh", progress[0]["id"])
	assert.Contains(t, progress[len(progress)-1]["tail"], "started")
}
