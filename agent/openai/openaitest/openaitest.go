// Package openaitest is a fake OpenAI-compatible chat-completions server for tests, the
// provider's and the jido binary's: it answers each request with the next step of a script
// (streamed text, tool calls, or an HTTP error) and records the requests it was sent.
package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Call is a tool call the fake model makes.
type Call struct {
	ID   string
	Name string
	Args string // raw JSON, sent in two pieces; may be malformed on purpose
}

// Step is the answer to one request.
type Step struct {
	Text  []string // content, streamed one piece per chunk
	Calls []Call
	// Fail, when set, is sent as an error event after the text, as servers do when they
	// fail in the middle of a stream.
	Fail string
	// Status, when neither 0 nor 200, makes the answer an HTTP error with Body (default
	// {"error":{"message":<status text>}}) and Header.
	Status int
	Body   string
	Header http.Header
	// Raw, when set, is the whole answer's body, sent as it is with ContentType (default
	// text/event-stream) and Status (default 200): a web page, an empty stream, chunks
	// without choices, whatever a wrong server sends.
	Raw         string
	ContentType string
	// Usage, when set, is sent as the last chunk (no choices), as servers do when the
	// request has stream_options.include_usage: prompt and completion tokens.
	Usage *[2]int
	// Delay holds the answer back this long (or until the client goes away): a model
	// still thinking when a test kills its client.
	Delay time.Duration
}

// Server is the fake. URL (from httptest.Server) is its root; BaseURL is what a provider
// is configured with. Close it when done.
type Server struct {
	*httptest.Server

	route   func(Request) string // which script answers a request
	scripts map[string][]Step

	mu       sync.Mutex
	answered map[string]int // requests answered, per script
	requests []Request
}

// NewServer starts a server that answers the i-th request with steps[i]; a request beyond
// the script gets an HTTP 500 saying so. Only POST {BaseURL}/chat/completions is served.
func NewServer(steps ...Step) *Server {
	return NewRoutedServer(func(Request) string { return "" }, map[string][]Step{"": steps})
}

// NewRoutedServer starts a server with one script per conversation, for several agents
// talking to it at once in any order: route names the script of each request (from its
// system prompt, say), whose next step answers it. A request whose script is unknown or
// used up gets an HTTP 500 saying so.
func NewRoutedServer(route func(Request) string, scripts map[string][]Step) *Server {
	s := &Server{route: route, scripts: scripts, answered: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.complete)
	s.Server = httptest.NewServer(mux)
	return s
}

// BaseURL is the URL to configure a provider with: URL + "/v1".
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Request is a request as received: its header, raw body, and the decoded fields tests
// look at.
type Request struct {
	Header   http.Header     `json:"-"`
	Body     json.RawMessage `json:"-"`
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	Messages []Message       `json:"messages"`
	Tools    []Tool          `json:"tools"`
}

// Message is one message of a request.
type Message struct {
	Role       string     `json:"role"`
	Content    Content    `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls"`
	ToolCallID string     `json:"tool_call_id"`
}

// Content is a message's text, sent as a string or as a list of text parts.
type Content string

// UnmarshalJSON accepts a string, null, or [{"type":"text","text":...}, ...].
func (c *Content) UnmarshalJSON(data []byte) error {
	var s *string
	if err := json.Unmarshal(data, &s); err == nil {
		if s != nil {
			*c = Content(*s)
		}
		return nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(data, &parts); err != nil {
		return fmt.Errorf("content is neither a string nor a list of parts: %w", err)
	}
	for _, p := range parts {
		*c += Content(p.Text)
	}
	return nil
}

// ToolCall is a call in an assistant message of a request.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Tool is a tool offered in a request.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Header: r.Header.Clone(), Body: body}
	decodeErr := json.Unmarshal(body, &req)

	key := ""
	if decodeErr == nil {
		key = s.route(req)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.answered[key]++
	n := s.answered[key]
	steps := s.scripts[key]
	var step Step
	ok := n <= len(steps)
	if ok {
		step = steps[n-1]
	}
	s.mu.Unlock()

	if step.Delay > 0 {
		select {
		case <-time.After(step.Delay):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case decodeErr != nil:
		writeError(w, Step{Status: http.StatusBadRequest, Body: errorBody("openaitest: bad request body: " + decodeErr.Error())})
	case !ok:
		writeError(w, Step{Status: http.StatusInternalServerError, Body: errorBody(fmt.Sprintf("openaitest: no step for request %d of script %q", n, key))})
	case step.Raw != "":
		writeRaw(w, step)
	case step.Status != 0 && step.Status != http.StatusOK:
		writeError(w, step)
	default:
		stream(w, req.Model, step)
	}
}

// writeRaw sends step.Raw as the answer.
func writeRaw(w http.ResponseWriter, step Step) {
	for k, v := range step.Header {
		w.Header()[k] = v
	}
	ct := step.ContentType
	if ct == "" {
		ct = "text/event-stream"
	}
	w.Header().Set("Content-Type", ct)
	if step.Status != 0 {
		w.WriteHeader(step.Status)
	}
	_, _ = io.WriteString(w, step.Raw)
}

func errorBody(message string) string {
	data, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "error"}})
	return string(data)
}

func writeError(w http.ResponseWriter, step Step) {
	for k, v := range step.Header {
		w.Header()[k] = v
	}
	body := step.Body
	if body == "" {
		body = errorBody(http.StatusText(step.Status))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(step.Status)
	_, _ = io.WriteString(w, body)
}

// stream sends the step as server-sent events in the chat.completion.chunk format.
func stream(w http.ResponseWriter, model string, step Step) {
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	send := func(data any) {
		raw, _ := json.Marshal(data)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", raw)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, piece := range step.Text {
		send(chunk(map[string]any{"content": piece}, nil))
	}
	if step.Fail != "" {
		send(map[string]any{"error": map[string]any{"message": step.Fail, "type": "server_error"}})
		return
	}
	for i, c := range step.Calls {
		half := len(c.Args) / 2
		first := map[string]any{"index": i, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args[:half]}}
		if c.ID != "" {
			first["id"] = c.ID
		}
		send(chunk(map[string]any{"tool_calls": []any{first}}, nil))
		send(chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "function": map[string]any{"arguments": c.Args[half:]},
		}}}, nil))
	}
	finish := "stop"
	if len(step.Calls) > 0 {
		finish = "tool_calls"
	}
	send(chunk(map[string]any{}, finish))
	if u := step.Usage; u != nil {
		send(map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": []any{},
			"usage": map[string]any{"prompt_tokens": u[0], "completion_tokens": u[1], "total_tokens": u[0] + u[1]}})
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}
