// Package geminitest is a fake of the Gemini REST API for tests. It speaks the two
// endpoints the gemini provider uses, POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent?alt=sse, in the wire format the genai SDK expects, replays a
// script of replies, and records the requests it was sent.
//
// Tests of the provider drive it through the real SDK; integration tests start it in the
// test process and point a jido child process at it with Env.
package geminitest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"
)

// APIKey is the key Env gives a child process.
const APIKey = "geminitest-key"

// Step is the server's reply to one request, in the script's order.
type Step struct {
	// Thought is a thought summary sent before the text, as with includeThoughts: a
	// client must not show it as the answer.
	Thought string
	// Text is the reply's text, one SSE event per chunk when streamed.
	Text []string
	// Calls are the function calls in the reply, after the text, in one event.
	Calls []Call
	// FinishReason ends the reply: "" is "STOP"; e.g. "MALFORMED_FUNCTION_CALL", "SAFETY".
	FinishReason string
	// FinishMessage goes with FinishReason, as the service explains it.
	FinishMessage string
	// BlockReason, when set, is a reply without candidates whose promptFeedback says the
	// prompt was blocked for this reason (e.g. "SAFETY").
	BlockReason string
	// JSON is the answer's text for a request asking for JSON (generateContent).
	JSON string

	// Status, when non-zero, makes the reply an HTTP error with this status and a Google
	// error body: {"error": {code, message, status, details}}.
	Status int
	// Message is the error's message ("" is the status text).
	Message string
	// Reason, when set, adds a google.rpc.ErrorInfo detail with this reason
	// (e.g. "API_KEY_INVALID").
	Reason string
	// RetryDelay, when set, adds a google.rpc.RetryInfo detail asking to wait this long.
	RetryDelay time.Duration

	// Delay, when set, holds the reply back this long (a slow or stuck model), or until
	// the client gives up on the request.
	Delay time.Duration
}

// Call is a function call in a reply.
type Call struct {
	ID   string // "" sends none
	Name string
	Args map[string]any
	// Signature is sent as the part's thoughtSignature, as Gemini 3 does.
	Signature []byte
}

// Request is a request the server received, its body decoded with the SDK's own types.
type Request struct {
	Model             string                  `json:"-"` // from the path, e.g. "gemini-2.5-flash"
	Stream            bool                    `json:"-"` // streamGenerateContent
	Body              json.RawMessage         `json:"-"` // as sent, to check exact field names
	Contents          []*genai.Content        `json:"contents"`
	Tools             []*genai.Tool           `json:"tools"`
	ToolConfig        *genai.ToolConfig       `json:"toolConfig"`
	SystemInstruction *genai.Content          `json:"systemInstruction"`
	GenerationConfig  *genai.GenerationConfig `json:"generationConfig"`
}

// Server is a running fake. It is safe for concurrent use.
type Server struct {
	// URL is the base URL to give the SDK (Config.BaseURL or $GOOGLE_GEMINI_BASE_URL).
	URL string

	srv *httptest.Server

	mu       sync.Mutex
	steps    []Step
	requests []Request
	key      string
}

// NewServer starts a server that answers the n-th request with steps[n], and any request
// beyond the script with HTTP 500 saying so. Close it when done.
func NewServer(steps ...Step) *Server {
	s := &Server{steps: steps}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1beta/models/{call}", s.serve)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Key returns the x-goog-api-key header of the last request.
func (s *Server) Key() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.key
}

// Env is the environment that points a child process at the server: its URL as
// GOOGLE_GEMINI_BASE_URL, which the SDK honours, APIKey as GEMINI_API_KEY, and
// GOOGLE_API_KEY emptied, so that a real key in the test's environment stays unused.
// Append it to the parent's environment (later entries win in os/exec).
func (s *Server) Env() []string {
	return []string{
		"GOOGLE_GEMINI_BASE_URL=" + s.URL,
		"GEMINI_API_KEY=" + APIKey,
		"GOOGLE_API_KEY=",
	}
}

// serve records the request and answers it with the next step.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	if method != "generateContent" && method != "streamGenerateContent" {
		writeError(w, Step{Status: http.StatusNotFound, Message: "geminitest: unknown method " + strconv.Quote(method)})
		return
	}
	body, err := io.ReadAll(r.Body)
	req := Request{Model: model, Stream: method == "streamGenerateContent", Body: body}
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeError(w, Step{Status: http.StatusBadRequest, Message: "geminitest: unreadable request: " + err.Error()})
		return
	}

	s.mu.Lock()
	s.key = r.Header.Get("x-goog-api-key")
	s.requests = append(s.requests, req)
	n := len(s.requests)
	step := Step{Status: http.StatusInternalServerError,
		Message: fmt.Sprintf("geminitest: the script ran out: request %d, script of %d steps", n, len(s.steps))}
	if n <= len(s.steps) {
		step = s.steps[n-1]
	}
	s.mu.Unlock()

	if step.Delay > 0 {
		t := time.NewTimer(step.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done(): // the client went away: nobody to answer
			t.Stop()
			return
		}
	}
	switch {
	case step.Status != 0:
		writeError(w, step)
	case req.Stream:
		writeStream(w, step)
	default:
		writeJSON(w, http.StatusOK, responses(step, [][]any{joinChunks(chunks(step))})[0])
	}
}

// chunks are the parts of a step's reply, grouped as they are streamed: one text part per
// event (the thought first), the calls together.
func chunks(step Step) [][]any {
	var out [][]any
	if step.Thought != "" {
		out = append(out, []any{map[string]any{"text": step.Thought, "thought": true}})
	}
	for _, t := range step.Text {
		out = append(out, []any{map[string]any{"text": t}})
	}
	if step.JSON != "" {
		out = append(out, []any{map[string]any{"text": step.JSON}})
	}
	if len(step.Calls) > 0 {
		var calls []any
		for _, c := range step.Calls {
			fc := map[string]any{"name": c.Name}
			if c.ID != "" {
				fc["id"] = c.ID
			}
			if c.Args != nil {
				fc["args"] = c.Args
			}
			part := map[string]any{"functionCall": fc}
			if len(c.Signature) > 0 {
				part["thoughtSignature"] = c.Signature // []byte: base64, as protobuf JSON has it
			}
			calls = append(calls, part)
		}
		out = append(out, calls)
	}
	return out
}

// joinChunks puts the parts of all chunks into one, for an answer that is not streamed.
func joinChunks(chunks [][]any) []any {
	var out []any
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// responses are the GenerateContentResponse objects carrying chunks; the last one carries
// the finish reason (alone, when there is no content).
func responses(step Step, chunks [][]any) []map[string]any {
	if step.BlockReason != "" {
		return []map[string]any{{"promptFeedback": map[string]any{"blockReason": step.BlockReason}}}
	}
	if len(chunks) == 0 {
		chunks = [][]any{nil}
	}
	out := make([]map[string]any, 0, len(chunks))
	for i, parts := range chunks {
		cand := map[string]any{"index": 0}
		if len(parts) > 0 {
			cand["content"] = map[string]any{"role": "model", "parts": parts}
		}
		if i == len(chunks)-1 {
			cand["finishReason"] = cmp.Or(step.FinishReason, "STOP")
			if step.FinishMessage != "" {
				cand["finishMessage"] = step.FinishMessage
			}
		}
		out = append(out, map[string]any{"candidates": []any{cand}, "modelVersion": "geminitest"})
	}
	return out
}

// writeStream sends the reply as server-sent events, one "data:" line each, flushed one
// by one so that the client sees them arrive apart.
func writeStream(w http.ResponseWriter, step Step) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, resp := range responses(step, chunks(step)) {
		data, err := json.Marshal(resp)
		if err != nil {
			data = errorBody(Step{Status: http.StatusInternalServerError, Message: err.Error()})
		}
		fmt.Fprintf(w, "data: %s\r\n\r\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// writeError answers with the step's HTTP error status and a Google error body.
func writeError(w http.ResponseWriter, step Step) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(step.Status)
	w.Write(errorBody(step))
}

// errorBody is the body Google's APIs send with an error status.
func errorBody(step Step) []byte {
	details := []any{}
	if step.Reason != "" {
		details = append(details, map[string]any{
			"@type":  "type.googleapis.com/google.rpc.ErrorInfo",
			"reason": step.Reason,
			"domain": "googleapis.com",
		})
	}
	if step.RetryDelay > 0 {
		details = append(details, map[string]any{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": strconv.FormatFloat(step.RetryDelay.Seconds(), 'f', -1, 64) + "s",
		})
	}
	e := map[string]any{
		"code":    step.Status,
		"message": cmp.Or(step.Message, http.StatusText(step.Status)),
		"status":  cmp.Or(statusNames[step.Status], "UNKNOWN"),
	}
	if len(details) > 0 {
		e["details"] = details
	}
	data, _ := json.Marshal(map[string]any{"error": e}) // plain maps of strings and numbers
	return data
}

// statusNames are the google.rpc.Code names Google's APIs send with HTTP statuses.
var statusNames = map[int]string{
	http.StatusBadRequest:          "INVALID_ARGUMENT",
	http.StatusUnauthorized:        "UNAUTHENTICATED",
	http.StatusForbidden:           "PERMISSION_DENIED",
	http.StatusNotFound:            "NOT_FOUND",
	http.StatusConflict:            "ABORTED",
	http.StatusTooManyRequests:     "RESOURCE_EXHAUSTED",
	499:                            "CANCELLED",
	http.StatusInternalServerError: "INTERNAL",
	http.StatusNotImplemented:      "UNIMPLEMENTED",
	http.StatusServiceUnavailable:  "UNAVAILABLE",
	http.StatusGatewayTimeout:      "DEADLINE_EXCEEDED",
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		writeError(w, Step{Status: http.StatusInternalServerError, Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	w.Write(data)
}
