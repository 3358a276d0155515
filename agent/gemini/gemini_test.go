package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/gemini"
	"github.com/jido-run/jido/agent/gemini/geminitest"
)

// The tests run the real SDK against geminitest, and none is parallel: some capture the
// standard logger, which the SDK writes to.

const testKey = "test-key"

// newProvider is a provider of model "gemini-test" talking to srv.
func newProvider(t *testing.T, srv *geminitest.Server) *gemini.Provider {
	t.Helper()
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, Model: "gemini-test", BaseURL: srv.URL})
	require.NoError(t, err)
	return p
}

// serve starts a script and closes it after the test.
func serve(t *testing.T, steps ...geminitest.Step) *geminitest.Server {
	t.Helper()
	srv := geminitest.NewServer(steps...)
	t.Cleanup(srv.Close)
	return srv
}

// captureLog sends the standard logger to a buffer for the rest of the test.
func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(&buf)
	t.Cleanup(func() { log.SetOutput(out); log.SetFlags(flags) })
	return &buf
}

// userSays is a conversation of one user message.
func userSays(text string) []agent.Message {
	return []agent.Message{{Role: agent.User, Text: text}}
}

// wireContents is the "contents" of a request as sent, re-encoded for JSONEq.
func wireContents(t *testing.T, req geminitest.Request) string {
	t.Helper()
	var body map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(req.Body, &body))
	return string(body["contents"])
}

// apiError asserts that err is an *agent.APIError and returns it.
func apiError(t *testing.T, err error) *agent.APIError {
	t.Helper()
	var e *agent.APIError
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "gemini", e.Provider)
	return e
}

func TestNewTakesTheKey(t *testing.T) {
	tests := []struct {
		name              string
		config, gem, goog string
		want              string // "" = New fails
	}{
		{name: "config first", config: "from-config", gem: "from-gemini", goog: "from-google", want: "from-config"},
		{name: "GEMINI_API_KEY", gem: "from-gemini", want: "from-gemini"},
		{name: "GOOGLE_API_KEY", goog: "from-google", want: "from-google"},
		{name: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			captureLog(t) // the SDK warns when both variables are set, even if unused
			t.Setenv("GEMINI_API_KEY", tt.gem)
			t.Setenv("GOOGLE_API_KEY", tt.goog)
			srv := serve(t, geminitest.Step{Text: []string{"ok"}})
			p, err := gemini.New(t.Context(), gemini.Config{APIKey: tt.config, BaseURL: srv.URL})
			if tt.want == "" {
				require.ErrorIs(t, err, gemini.ErrNoAPIKey)
				assert.ErrorContains(t, err, "GEMINI_API_KEY")
				return
			}
			require.NoError(t, err)
			_, err = p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, srv.Key(), "x-goog-api-key")
		})
	}
}

func TestEnvPointsAtServer(t *testing.T) {
	srv := serve(t, geminitest.Step{Text: []string{"ok"}})
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	p, err := gemini.New(t.Context(), gemini.Config{})
	require.NoError(t, err)
	msg, err := p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", msg.Text)
	assert.Equal(t, geminitest.APIKey, srv.Key())
}

// countingTransport counts the requests it sends.
type countingTransport struct{ n *int }

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	*c.n++
	return http.DefaultTransport.RoundTrip(r)
}

func TestOwnHTTPClient(t *testing.T) {
	logged := captureLog(t)
	n := 0
	client := &http.Client{Transport: countingTransport{&n}}
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, BaseURL: brokenStream(t), HTTPClient: client})
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	assert.Contains(t, apiError(t, err).Message, "unexpected EOF")
	assert.Equal(t, 1, n, "the request went through the given client")
	assert.Empty(t, logged.String(), "and its bodies were quieted too")
	assert.Equal(t, countingTransport{&n}, client.Transport, "the given client is left as it was")
}

func TestName(t *testing.T) {
	srv := serve(t)
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, BaseURL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "gemini (gemini-2.5-flash)", p.Name())
	assert.Equal(t, "gemini (gemini-test)", newProvider(t, srv).Name())
}

func TestCompleteStreamsText(t *testing.T) {
	srv := serve(t, geminitest.Step{Thought: "thinking...", Text: []string{"Hel", "lo, ", "world"}})
	params := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"path": map[string]any{"type": "string"}},
		"required":             []any{"path"},
		"additionalProperties": false,
	}
	req := agent.Request{
		System:   "You are a coding agent.",
		Messages: userSays("hi"),
		Tools: []agent.ToolSpec{
			{Name: "read_file", Description: "Reads a file.", Parameters: params},
			{Name: "no_params", Description: "Takes nothing."},
		},
	}

	var pieces []string
	msg, err := newProvider(t, srv).Complete(t.Context(), req, func(s string) { pieces = append(pieces, s) })
	require.NoError(t, err)

	assert.Equal(t, []string{"Hel", "lo, ", "world"}, pieces, "one piece per event, the thought left out")
	assert.Equal(t, agent.Message{Role: agent.Assistant, Text: "Hello, world"}, msg)

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	got := reqs[0]
	assert.True(t, got.Stream)
	assert.Equal(t, "gemini-test", got.Model)
	assert.Equal(t, testKey, srv.Key())
	require.NotNil(t, got.SystemInstruction)
	assert.Equal(t, "You are a coding agent.", got.SystemInstruction.Parts[0].Text)
	assert.JSONEq(t, `[{"role":"user","parts":[{"text":"hi"}]}]`, wireContents(t, got))
	require.Len(t, got.Tools, 1)
	decls := got.Tools[0].FunctionDeclarations
	require.Len(t, decls, 2)
	assert.Equal(t, "read_file", decls[0].Name)
	assert.Equal(t, "Reads a file.", decls[0].Description)
	assert.Equal(t, params, decls[0].ParametersJsonSchema, "the schema goes out as is")
	assert.Nil(t, decls[1].ParametersJsonSchema)
	assert.Contains(t, string(got.Body), `"parametersJsonSchema"`)
	assert.NotContains(t, string(got.Body), `"parametersJsonSchema":null`)
	require.NotNil(t, got.ToolConfig)
	assert.Equal(t, genai.FunctionCallingConfigModeAuto, got.ToolConfig.FunctionCallingConfig.Mode)
}

func TestCompleteWithoutToolsOrSystem(t *testing.T) {
	srv := serve(t, geminitest.Step{Text: []string{"ok"}})
	_, err := newProvider(t, srv).Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	require.NoError(t, err)
	got := srv.Requests()[0]
	assert.Nil(t, got.SystemInstruction)
	assert.Nil(t, got.Tools)
	assert.Nil(t, got.ToolConfig, "no function calling config without functions")
}

func TestFunctionCallRoundTrip(t *testing.T) {
	logged := captureLog(t)
	srv := serve(t,
		geminitest.Step{
			Text:  []string{"Let me look."},
			Calls: []geminitest.Call{{ID: "fc-1", Name: "read_file", Args: map[string]any{"path": "a.txt"}, Signature: []byte("sig-1")}},
		},
		geminitest.Step{Text: []string{"It says hi."}},
	)
	p := newProvider(t, srv)

	history := userSays("read a.txt")
	msg, err := p.Complete(t.Context(), agent.Request{Messages: history}, nil)
	require.NoError(t, err)
	assert.Equal(t, "Let me look.", msg.Text)
	require.Len(t, msg.Calls, 1)
	call := msg.Calls[0]
	assert.Equal(t, "fc-1", call.ID)
	assert.Equal(t, "read_file", call.Name)
	assert.Equal(t, map[string]any{"path": "a.txt"}, call.Args)
	assert.Empty(t, call.Invalid)
	assert.NotEmpty(t, call.Opaque, "the thought signature is kept")
	assert.True(t, json.Valid(call.Opaque))

	history = append(history,
		msg,
		agent.Message{Role: agent.User, Results: []agent.ToolResult{
			{CallID: "fc-1", Name: "read_file", OK: true, Content: json.RawMessage(`{"content":"hi"}`)},
		}},
	)
	msg, err = p.Complete(t.Context(), agent.Request{Messages: history}, nil)
	require.NoError(t, err)
	assert.Equal(t, agent.Message{Role: agent.Assistant, Text: "It says hi."}, msg)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.JSONEq(t, `[
		{"role":"user","parts":[{"text":"read a.txt"}]},
		{"role":"model","parts":[
			{"text":"Let me look."},
			{"functionCall":{"id":"fc-1","name":"read_file","args":{"path":"a.txt"}},"thoughtSignature":"c2lnLTE="}
		]},
		{"role":"user","parts":[
			{"functionResponse":{"id":"fc-1","name":"read_file","response":{"output":{"content":"hi"}}}}
		]}
	]`, wireContents(t, reqs[1]))
	assert.Empty(t, logged.String(), "the SDK logged nothing (no 'non-text parts' warning)")
}

func TestSeveralCallsInOneTurn(t *testing.T) {
	srv := serve(t,
		geminitest.Step{Calls: []geminitest.Call{
			{Name: "read_file", Args: map[string]any{"path": "a"}},
			{Name: "read_file", Args: map[string]any{"path": "b"}},
			{ID: "server-id", Name: "list_dir"},
		}},
		geminitest.Step{Text: []string{"done"}},
	)
	p := newProvider(t, srv)

	history := userSays("go")
	msg, err := p.Complete(t.Context(), agent.Request{Messages: history}, nil)
	require.NoError(t, err)
	assert.Empty(t, msg.Text)
	require.Len(t, msg.Calls, 3)
	var ids []string
	for _, c := range msg.Calls {
		ids = append(ids, c.ID)
		assert.Nil(t, c.Opaque, "no signature, no opaque data")
	}
	assert.Equal(t, []string{"call-1", "call-2", "server-id"}, ids, "IDs made up where the server sent none")

	history = append(history,
		msg,
		agent.Message{Role: agent.Assistant}, // says nothing: left out
		agent.Message{Role: agent.User, Results: []agent.ToolResult{
			{CallID: "call-1", Name: "read_file", OK: true, Content: json.RawMessage(`"text of a"`)},
			{CallID: "call-2", Name: "read_file", Content: json.RawMessage(`{"type":"not_found","message":"no b"}`)},
			{CallID: "server-id", Name: "list_dir", OK: true, Content: json.RawMessage(`not json`), Note: "cut to 1 entry"},
		}, Text: "and hurry"},
	)
	_, err = p.Complete(t.Context(), agent.Request{Messages: history}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"role":"user","parts":[{"text":"go"}]},
		{"role":"model","parts":[
			{"functionCall":{"id":"call-1","name":"read_file","args":{"path":"a"}}},
			{"functionCall":{"id":"call-2","name":"read_file","args":{"path":"b"}}},
			{"functionCall":{"id":"server-id","name":"list_dir"}}
		]},
		{"role":"user","parts":[
			{"functionResponse":{"id":"call-1","name":"read_file","response":{"output":"text of a"}}},
			{"functionResponse":{"id":"call-2","name":"read_file","response":{"error":{"type":"not_found","message":"no b"}}}},
			{"functionResponse":{"id":"server-id","name":"list_dir","response":{"output":"not json","note":"cut to 1 entry"}}},
			{"text":"and hurry"}
		]}
	]`, wireContents(t, srv.Requests()[1]))
}

func TestForeignOpaqueIsNotASignature(t *testing.T) {
	srv := serve(t, geminitest.Step{Text: []string{"ok"}})
	history := []agent.Message{
		{Role: agent.User, Text: "go"},
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "c", Name: "f", Opaque: json.RawMessage(`{"other":"provider"}`)}}},
		{Role: agent.User, Results: []agent.ToolResult{{CallID: "c", Name: "f", OK: true, Content: json.RawMessage(`1`)}}},
	}
	_, err := newProvider(t, srv).Complete(t.Context(), agent.Request{Messages: history}, nil)
	require.NoError(t, err)
	assert.NotContains(t, string(srv.Requests()[0].Body), "thoughtSignature")
}

func TestServiceErrors(t *testing.T) {
	tests := []struct {
		name       string
		step       geminitest.Step
		status     int
		retryable  bool
		retryAfter time.Duration
		hint       string
		message    string
	}{
		{
			name:   "rate limited",
			step:   geminitest.Step{Status: 429, Message: "Resource has been exhausted", RetryDelay: 7500 * time.Millisecond},
			status: 429, retryable: true, retryAfter: 7500 * time.Millisecond, hint: "rate limited",
			message: "Resource has been exhausted",
		},
		{
			name:   "unknown model",
			step:   geminitest.Step{Status: 404, Message: "models/gemini-test is not found"},
			status: 404, hint: "unknown model gemini-test: pass --model, e.g. gemini-2.5-flash (or a wrong --base-url)",
			message: "models/gemini-test is not found",
		},
		{
			name:   "invalid key",
			step:   geminitest.Step{Status: 400, Message: "API key not valid. Please pass a valid API key.", Reason: "API_KEY_INVALID"},
			status: 400, hint: "check GEMINI_API_KEY", message: "API key not valid. Please pass a valid API key.",
		},
		{
			name:   "bad request",
			step:   geminitest.Step{Status: 400, Message: "Invalid JSON payload"},
			status: 400, message: "Invalid JSON payload",
		},
		{
			name:   "unauthenticated",
			step:   geminitest.Step{Status: 401},
			status: 401, hint: "check GEMINI_API_KEY", message: "Unauthorized",
		},
		{
			name:   "permission denied",
			step:   geminitest.Step{Status: 403, Message: "denied"},
			status: 403, hint: "check GEMINI_API_KEY", message: "denied",
		},
		{
			name:   "overloaded",
			step:   geminitest.Step{Status: 503, Message: "The model is overloaded."},
			status: 503, retryable: true, message: "The model is overloaded.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.step, tt.step)
			p := newProvider(t, srv)

			_, err := p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
			_, jsonErr := p.AskJSON(t.Context(), "hi", map[string]any{"type": "object"})
			for _, err := range []error{err, jsonErr} {
				e := apiError(t, err)
				assert.Equal(t, tt.status, e.Status)
				assert.Equal(t, tt.retryable, e.Retryable())
				assert.Equal(t, tt.retryAfter, e.RetryAfter)
				assert.Equal(t, tt.hint, e.Hint)
				assert.Equal(t, tt.message, e.Message)
			}
		})
	}
}

func TestScriptRanOut(t *testing.T) {
	srv := serve(t)
	_, err := newProvider(t, srv).Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	e := apiError(t, err)
	assert.Equal(t, 500, e.Status)
	assert.Contains(t, e.Message, "script ran out")
}

func TestServiceUnreachable(t *testing.T) {
	srv := geminitest.NewServer()
	srv.Close()
	p := newProvider(t, srv)
	_, err := p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	e := apiError(t, err)
	assert.Zero(t, e.Status)
	assert.True(t, e.Retryable(), "a service that cannot be reached may be back soon")
	assert.Contains(t, e.Message, "connect")
}

// brokenStream is a server that sends one event of text and then drops the connection.
func brokenStream(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}`+"\r\n\r\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the documented way to drop a response midway
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestStreamBrokenOff(t *testing.T) {
	logged := captureLog(t)
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, BaseURL: brokenStream(t)})
	require.NoError(t, err)

	var pieces []string
	_, err = p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, func(s string) { pieces = append(pieces, s) })
	e := apiError(t, err)
	assert.Zero(t, e.Status)
	assert.Contains(t, e.Message, "unexpected EOF")
	assert.Equal(t, []string{"Hel"}, pieces)
	assert.Empty(t, logged.String(), "the SDK logged nothing")
}

func TestCancelMidStream(t *testing.T) {
	logged := captureLog(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}`+"\r\n\r\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, BaseURL: srv.URL})
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err = p.Complete(ctx, agent.Request{Messages: userSays("hi")}, func(string) { cancel() })
	require.ErrorIs(t, err, context.Canceled)
	var e *agent.APIError
	assert.NotErrorAs(t, err, &e, "a cancellation is not the service's failure")
	assert.Empty(t, logged.String(), "the SDK logged nothing")
}

func TestMalformedFunctionCall(t *testing.T) {
	srv := serve(t, geminitest.Step{
		FinishReason:  "MALFORMED_FUNCTION_CALL",
		FinishMessage: "Malformed function call: print(default_api.read_file(path='a'",
	})
	var pieces []string
	msg, err := newProvider(t, srv).Complete(t.Context(), agent.Request{Messages: userSays("hi")}, func(s string) { pieces = append(pieces, s) })
	require.NoError(t, err)
	// The SDK (v1.77) drops finishMessage from the Gemini API's answers, so the reason
	// alone reaches the provider; reply_test.go covers a message that gets through.
	assert.Equal(t, agent.Message{Role: agent.Assistant, Calls: []agent.ToolCall{{
		ID:      "call-1",
		Name:    "invalid",
		Invalid: "the model produced a malformed function call",
	}}}, msg)
	assert.Empty(t, pieces)
}

func TestStoppedWithoutReply(t *testing.T) {
	tests := []struct {
		name string
		step geminitest.Step
		want string
	}{
		{
			name: "safety",
			step: geminitest.Step{FinishReason: "SAFETY"},
			want: "(the model stopped without a reply: finish reason SAFETY)",
		},
		{
			name: "unexpected tool call",
			step: geminitest.Step{FinishReason: "UNEXPECTED_TOOL_CALL"},
			want: "(the model stopped without a reply: finish reason UNEXPECTED_TOOL_CALL)",
		},
		{
			name: "empty stop",
			step: geminitest.Step{},
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.step)
			var streamed string
			msg, err := newProvider(t, srv).Complete(t.Context(), agent.Request{Messages: userSays("hi")}, func(s string) { streamed += s })
			require.NoError(t, err)
			assert.Equal(t, agent.Message{Role: agent.Assistant, Text: tt.want}, msg)
			assert.Equal(t, tt.want, streamed, "the explanation is streamed too")
		})
	}
}

func TestBlockedPrompt(t *testing.T) {
	srv := serve(t, geminitest.Step{BlockReason: "SAFETY"}, geminitest.Step{BlockReason: "OTHER"})
	p := newProvider(t, srv)

	_, err := p.Complete(t.Context(), agent.Request{Messages: userSays("hi")}, nil)
	e := apiError(t, err)
	assert.Equal(t, "the response has no candidates: the prompt was blocked (SAFETY)", e.Message)
	assert.False(t, e.Retryable())

	_, err = p.AskJSON(t.Context(), "hi", nil)
	assert.Equal(t, "the response has no candidates: the prompt was blocked (OTHER)", apiError(t, err).Message)
}

func TestAskJSON(t *testing.T) {
	schema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"tool": map[string]any{"type": "string"}},
		"required":   []any{"tool"},
	}
	srv := serve(t, geminitest.Step{JSON: `{"tool": "grep"}`})

	got, err := newProvider(t, srv).AskJSON(t.Context(), "find TODOs", schema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"tool": "grep"}`, string(got))

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	req := reqs[0]
	assert.False(t, req.Stream, "one request, not streamed")
	assert.Equal(t, testKey, srv.Key())
	assert.JSONEq(t, `[{"role":"user","parts":[{"text":"find TODOs"}]}]`, wireContents(t, req))
	var body struct {
		GenerationConfig map[string]any `json:"generationConfig"`
	}
	require.NoError(t, json.Unmarshal(req.Body, &body))
	assert.Equal(t, "application/json", body.GenerationConfig["responseMimeType"])
	assert.Equal(t, schema, body.GenerationConfig["responseJsonSchema"])
	assert.Nil(t, req.Tools)
}

func TestAskJSONNotJSON(t *testing.T) {
	srv := serve(t,
		geminitest.Step{Text: []string{"Sorry, I can't."}},
		geminitest.Step{FinishReason: "MAX_TOKENS"},
	)
	p := newProvider(t, srv)

	_, err := p.AskJSON(t.Context(), "q", nil)
	assert.Contains(t, apiError(t, err).Message, `the answer is not JSON (finish reason STOP): "Sorry, I can't."`)
	assert.NotContains(t, string(srv.Requests()[0].Body), "responseJsonSchema", "no schema, no null")

	_, err = p.AskJSON(t.Context(), "q", nil)
	assert.Contains(t, apiError(t, err).Message, "finish reason MAX_TOKENS")
}

// TestHTMLPage: a base URL that names a web server gets an error saying so, not the SDK's
// complaint about JSON, and it is not retried.
func TestHTMLPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><html><body>It works!</body></html>"))
	}))
	defer srv.Close()
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: testKey, Model: "gemini-test", BaseURL: srv.URL})
	require.NoError(t, err)
	_, err = p.Complete(t.Context(), agent.Request{Messages: []agent.Message{{Role: agent.User, Text: "hi"}}}, nil)
	var apiErr *agent.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, apiErr.Message, "the server at "+srv.URL+" answered with an HTML page, not a Gemini response")
	assert.Contains(t, apiErr.Hint, "check --base-url")
	assert.False(t, apiErr.Retryable())
}
