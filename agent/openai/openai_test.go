package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/openai/openaitest"
)

var readFile = agent.ToolSpec{
	Name:        "read_file",
	Description: "Reads a file.",
	Parameters:  map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
}

func newProvider(t *testing.T, srv *openaitest.Server, key string) *Provider {
	t.Helper()
	p, err := New(Config{BaseURL: srv.BaseURL(), APIKey: key, Model: "qwen"})
	require.NoError(t, err)
	return p
}

func ask(text string) agent.Request {
	return agent.Request{System: "Be brief.", Tools: []agent.ToolSpec{readFile}, Messages: []agent.Message{{Role: agent.User, Text: text}}}
}

func TestStreamsText(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	srv := openaitest.NewServer(openaitest.Step{Text: []string{"Hel", "lo"}}, openaitest.Step{Text: []string{"again"}})
	defer srv.Close()

	p := newProvider(t, srv, "")
	assert.Equal(t, "openai-compatible (qwen)", p.Name())
	var pieces []string
	reply, err := p.Complete(t.Context(), ask("hi"), func(s string) { pieces = append(pieces, s) })
	require.NoError(t, err)
	assert.Equal(t, agent.Message{Role: agent.Assistant, Text: "Hello"}, reply)
	assert.Equal(t, []string{"Hel", "lo"}, pieces)

	req := srv.Requests()[0]
	assert.Empty(t, req.Header.Get("Authorization"), "no key is taken from the environment")
	assert.Equal(t, "qwen", req.Model)
	assert.True(t, req.Stream)
	require.Len(t, req.Messages, 2)
	assert.Equal(t, openaitest.Message{Role: "system", Content: "Be brief."}, req.Messages[0])
	assert.Equal(t, openaitest.Message{Role: "user", Content: "hi"}, req.Messages[1])
	require.Len(t, req.Tools, 1)
	assert.Equal(t, "function", req.Tools[0].Type)
	assert.Equal(t, "read_file", req.Tools[0].Function.Name)
	assert.Equal(t, "Reads a file.", req.Tools[0].Function.Description)
	assert.Equal(t, readFile.Parameters, req.Tools[0].Function.Parameters)

	keyed := newProvider(t, srv, "sk-local")
	_, err = keyed.Complete(t.Context(), ask("hi"), nil)
	require.NoError(t, err)
	assert.Equal(t, "Bearer sk-local", srv.Requests()[1].Header.Get("Authorization"))
}

func TestToolCallRoundTrip(t *testing.T) {
	srv := openaitest.NewServer(
		openaitest.Step{Text: []string{"Reading."}, Calls: []openaitest.Call{
			{ID: "c1", Name: "read_file", Args: `{"path": "a.go"}`},
			{ID: "c2", Name: "read_file", Args: `{"path": "b.go"}`},
		}},
		openaitest.Step{Text: []string{"Both are empty."}},
	)
	defer srv.Close()
	p := newProvider(t, srv, "")

	req := ask("read a.go and b.go")
	reply, err := p.Complete(t.Context(), req, nil)
	require.NoError(t, err)
	assert.Equal(t, agent.Message{Role: agent.Assistant, Text: "Reading.", Calls: []agent.ToolCall{
		{ID: "c1", Name: "read_file", Args: map[string]any{"path": "a.go"}},
		{ID: "c2", Name: "read_file", Args: map[string]any{"path": "b.go"}},
	}}, reply)

	results := []agent.ToolResult{
		{CallID: "c1", Name: "read_file", OK: true, Content: json.RawMessage(`{"content":""}`)},
		{CallID: "c2", Name: "read_file", Content: json.RawMessage(`{"type":"file-error","message":"no such file"}`)},
	}
	req.Messages = append(req.Messages, reply, agent.Message{Role: agent.User, Results: results})
	reply, err = p.Complete(t.Context(), req, nil)
	require.NoError(t, err)
	assert.Equal(t, "Both are empty.", reply.Text)

	sent := srv.Requests()[1].Messages
	require.Len(t, sent, 5)
	asst := sent[2]
	assert.Equal(t, "assistant", asst.Role)
	assert.Equal(t, openaitest.Content("Reading."), asst.Content)
	require.Len(t, asst.ToolCalls, 2)
	assert.Equal(t, "c1", asst.ToolCalls[0].ID)
	assert.Equal(t, "function", asst.ToolCalls[0].Type)
	assert.Equal(t, "read_file", asst.ToolCalls[0].Function.Name)
	assert.JSONEq(t, `{"path":"a.go"}`, asst.ToolCalls[0].Function.Arguments)
	for i, r := range results {
		tool := sent[3+i]
		assert.Equal(t, "tool", tool.Role)
		assert.Equal(t, r.CallID, tool.ToolCallID)
		assert.Equal(t, string(agent.RenderResult(r)), string(tool.Content))
	}
	assert.Contains(t, string(sent[4].Content), `"ok":false,"error":{"type":"file-error"`)
}

func TestMessagesOfEveryShape(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{
		{Role: agent.User, Text: "go"},
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c1", Name: "invalid", Invalid: "bad JSON"}}},
		{Role: agent.User, Results: []agent.ToolResult{{CallID: "c1", Name: "invalid", Content: json.RawMessage(`{}`)}}, Text: "stop"},
		{Role: agent.Assistant},
	}}
	data, err := json.Marshal(messages(req))
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"role":"user","content":"go"},
		{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"invalid","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"{\"id\":\"c1\",\"name\":\"invalid\",\"ok\":false,\"error\":{}}"},
		{"role":"user","content":"stop"},
		{"role":"assistant","content":""}
	]`, string(data))
}

func TestMalformedArguments(t *testing.T) {
	cases := []struct {
		name    string
		call    openaitest.Call
		args    map[string]any
		invalid string
	}{
		{name: "cut short", call: openaitest.Call{ID: "c", Name: "read_file", Args: `{"path": "a.go"`}, invalid: `the arguments of read_file are not a JSON object: {"path": "a.go" (unexpected end of JSON input)`},
		{name: "an array", call: openaitest.Call{ID: "c", Name: "read_file", Args: `["a.go"]`}, invalid: `the arguments of read_file are not a JSON object: ["a.go"] (json: cannot unmarshal array`},
		{name: "null", call: openaitest.Call{ID: "c", Name: "read_file", Args: `null`}, invalid: "the arguments of read_file are not a JSON object: null"},
		{name: "no name", call: openaitest.Call{ID: "c", Args: `{}`}, invalid: "the call names no tool"},
		{name: "none", call: openaitest.Call{ID: "c", Name: "list_dir"}, args: map[string]any{}},
		{name: "no id", call: openaitest.Call{Name: "list_dir", Args: `{"path": "."}`}, args: map[string]any{"path": "."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.NewServer(openaitest.Step{Calls: []openaitest.Call{tc.call}})
			defer srv.Close()
			reply, err := newProvider(t, srv, "").Complete(t.Context(), ask("go"), nil)
			require.NoError(t, err, "a malformed call is not an error of the service")
			require.Len(t, reply.Calls, 1)
			c := reply.Calls[0]
			assert.Equal(t, tc.args, c.Args)
			assert.NotEmpty(t, c.ID)
			assert.NotEmpty(t, c.Name)
			if tc.invalid == "" {
				assert.Empty(t, c.Invalid)
			} else {
				assert.Contains(t, c.Invalid, tc.invalid)
			}
		})
	}
}

func TestCallsSentAtOneIndex(t *testing.T) {
	var a accumulator
	for _, d := range []toolCallDelta{
		{Index: 0, ID: "a", Function: functionCall{Name: "read_file", Arguments: `{"path":`}},
		{Index: 0, Function: functionCall{Arguments: `"x"}`}},
		{Index: 0, ID: "b", Function: functionCall{Name: "list_dir", Arguments: `{}`}},
	} {
		a.add(d)
	}
	assert.Equal(t, []agent.ToolCall{
		{ID: "a", Name: "read_file", Args: map[string]any{"path": "x"}},
		{ID: "b", Name: "list_dir", Args: map[string]any{}},
	}, a.calls())
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name      string
		step      openaitest.Step
		path      string // appended to the base URL
		status    int
		message   string
		hint      string
		retry     time.Duration
		retryable bool
	}{
		{
			name:   "429 with Retry-After",
			step:   openaitest.Step{Status: 429, Body: `{"error":{"message":"slow down","type":"rate_limit"}}`, Header: http.Header{"Retry-After": {"7"}}},
			status: 429, message: "slow down", retry: 7 * time.Second, retryable: true,
		},
		{
			name:   "401",
			step:   openaitest.Step{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`},
			status: 401, message: "Incorrect API key provided", hint: "check the API key",
		},
		{
			name:   "403 with the default body",
			step:   openaitest.Step{Status: 403},
			status: 403, message: "Forbidden", hint: "check the API key",
		},
		{
			name:   "404 of a wrong base URL",
			path:   "/nope",
			status: 404, message: "404 page not found", hint: `unknown model "qwen", or no chat completions at http://`,
		},
		{
			name:   "an error that is a string",
			step:   openaitest.Step{Status: 503, Body: `{"error":"model is loading"}`},
			status: 503, message: "model is loading", retryable: true,
		},
		{
			name:   "a top-level message (vLLM)",
			step:   openaitest.Step{Status: 400, Body: `{"object":"error","message":"context too long","code":400}`},
			status: 400, message: "context too long",
		},
		{
			name:   "a plain text body",
			step:   openaitest.Step{Status: 502, Body: "<html>Bad Gateway</html>"},
			status: 502, message: "Bad Gateway (an HTML page)", hint: "check --base-url", retryable: true,
		},
		{
			name:   "a web page instead of the API (a base URL without /v1)",
			step:   openaitest.Step{Raw: "<!DOCTYPE html>\n<html><body>Welcome to nginx!</body></html>\n", ContentType: "text/html; charset=utf-8"},
			status: 200, message: "answered with an HTML page, not a chat completion", hint: "check --base-url (it usually ends in /v1)",
		},
		{
			name:   "a web page sent as text/plain",
			step:   openaitest.Step{Raw: "  <html><head><title>Login</title></head></html>", ContentType: "text/plain"},
			status: 200, message: "answered with an HTML page", hint: "check --base-url",
		},
		{
			name:   "an empty stream",
			step:   openaitest.Step{Raw: "data: [DONE]\n\n"},
			status: 200, message: "answered with a stream without any choice (an empty stream, or only [DONE]), not a chat completion", hint: "check --base-url",
		},
		{
			name:   "chunks without choices",
			step:   openaitest.Step{Raw: "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\ndata: [DONE]\n\n"},
			status: 200, message: "a stream without any choice", hint: "check --base-url",
		},
		{
			name:   "a completion that is not streamed",
			step:   openaitest.Step{Raw: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}`, ContentType: "application/json"},
			status: 200, message: "a completion that is not streamed", hint: "check --base-url",
		},
		{
			name:   "an error object with status 200",
			step:   openaitest.Step{Raw: `{"error":{"message":"model not loaded"}}`, ContentType: "application/json"},
			status: 200, message: "model not loaded",
		},
		{
			name:   "501 of a server without chat completions",
			step:   openaitest.Step{Status: 501, Body: "Not Implemented"},
			status: 501, message: "Not Implemented", hint: "the server does not serve chat completions at http://",
		},
		{
			name:   "405",
			step:   openaitest.Step{Status: 405, Body: `{"detail":"Method Not Allowed"}`},
			status: 405, message: `{"detail":"Method Not Allowed"}`, hint: "check --base-url (it usually ends in /v1)",
		},
		{
			name:    "an error in the stream",
			step:    openaitest.Step{Text: []string{"I will"}, Fail: "overloaded"},
			message: "overloaded", retryable: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.NewServer(tc.step)
			defer srv.Close()
			p, err := New(Config{BaseURL: srv.BaseURL() + tc.path, Model: "qwen"})
			require.NoError(t, err)
			_, err = p.Complete(t.Context(), ask("hi"), nil)
			var apiErr *agent.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, "openai-compatible (qwen)", apiErr.Provider)
			assert.Equal(t, tc.status, apiErr.Status)
			assert.Contains(t, apiErr.Message, tc.message)
			assert.Contains(t, apiErr.Hint, tc.hint)
			assert.Equal(t, tc.retry, apiErr.RetryAfter)
			assert.Equal(t, tc.retryable, apiErr.Retryable())
			assert.LessOrEqual(t, len(srv.Requests()), 1, "the SDK does not retry: the loop does")
		})
	}
}

func TestServerUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1"
	srv.Close()
	p, err := New(Config{BaseURL: base})
	require.NoError(t, err)
	assert.Equal(t, "openai-compatible ("+strings.TrimPrefix(srv.URL, "http://")+")", p.Name())
	_, err = p.Complete(t.Context(), ask("hi"), nil)
	var apiErr *agent.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Zero(t, apiErr.Status)
	assert.Equal(t, "is the server running at "+base+"?", apiErr.Hint)
	assert.True(t, apiErr.Retryable(), "the server may be starting")
}

func TestCancelWhileStreaming(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(`data: {"choices":[{"index":0,"delta":{"content":"thinking"}}]}` + "\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	p, err := New(Config{BaseURL: srv.URL + "/v1"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	_, err = p.Complete(ctx, ask("hi"), func(string) { cancel() })
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

func TestNewRejectsBadBaseURLs(t *testing.T) {
	for _, base := range []string{"", "localhost:11434/v1", "ftp://example.com/v1", "http://"} {
		_, err := New(Config{BaseURL: base})
		assert.ErrorContains(t, err, "want an http or https URL", base)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{name: "none", header: http.Header{}},
		{name: "seconds", header: http.Header{"Retry-After": {"20"}}, want: 20 * time.Second},
		{name: "fractional seconds", header: http.Header{"Retry-After": {"0.5"}}, want: 500 * time.Millisecond},
		{name: "milliseconds first", header: http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"2"}}, want: 1500 * time.Millisecond},
		{name: "a date", header: http.Header{"Retry-After": {now.Add(time.Minute).Format(http.TimeFormat)}}, want: time.Minute},
		{name: "a past date", header: http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}},
		{name: "garbage", header: http.Header{"Retry-After": {"soon"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, retryAfter(tc.header, now))
		})
	}
}

// TestInTheLoop runs a whole turn of the agent against the fake server: a rate limit, a
// tool call, the answer.
func TestInTheLoop(t *testing.T) {
	srv := openaitest.NewServer(
		openaitest.Step{Status: 429, Header: http.Header{"Retry-After-Ms": {"1"}}},
		openaitest.Step{Calls: []openaitest.Call{{ID: "c1", Name: "read_file", Args: `{"path":"go.mod"}`}}},
		openaitest.Step{Text: []string{"module x"}},
	)
	defer srv.Close()
	var retries []string
	a := &agent.Agent{
		Provider: newProvider(t, srv, ""),
		Exec: execFunc(func(_ context.Context, c agent.ToolCall) agent.ToolResult {
			return agent.ToolResult{OK: true, Content: json.RawMessage(`{"content":"module x"}`)}
		}),
		Tools: []agent.ToolSpec{readFile},
		Retry: agent.RetryPolicy{Base: time.Millisecond, Max: time.Second},
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.EventRetry {
				retries = append(retries, e.Text)
			}
		},
	}
	answer, err := a.Send(t.Context(), "which module?")
	require.NoError(t, err)
	assert.Equal(t, "module x", answer)
	assert.Equal(t, []string{"rate limited (HTTP 429); retrying in 1ms (attempt 2 of 4)"}, retries)
	assert.Len(t, srv.Requests(), 3)
}

type execFunc func(ctx context.Context, call agent.ToolCall) agent.ToolResult

func (f execFunc) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	return f(ctx, call)
}
