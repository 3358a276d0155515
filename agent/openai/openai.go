// Package openai is an agent.Provider for OpenAI-compatible chat-completions servers
// (llama.cpp, Ollama, vLLM, OpenAI). It speaks the one endpoint jido uses, streamed chat
// completions, itself (wire.go): no SDK, whose packages cost more start-up time than
// all of jido's. It does not retry (the loop does), and it decodes HTTP errors itself,
// since servers differ in how they write them.
package openai

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jido-run/jido/agent"
)

// Config says which server and model to use.
type Config struct {
	BaseURL string // the API root, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp); required
	APIKey  string // sent as a bearer token when set; the OPENAI_* environment is never read
	Model   string // servers that serve one model (llama.cpp) accept any name, or none
	// HTTPClient sends the requests; nil: a client without a timeout, since a reply may
	// stream for minutes (the request's context bounds it).
	HTTPClient *http.Client
}

// Provider talks to one server and model. It is safe for concurrent use.
type Provider struct {
	cfg    Config
	name   string
	client *http.Client
}

// New checks cfg and returns its provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: base URL %q: want an http or https URL such as http://localhost:11434/v1", cfg.BaseURL)
	}
	return &Provider{
		cfg:    cfg,
		name:   fmt.Sprintf("openai-compatible (%s)", cmp.Or(cfg.Model, u.Host)),
		client: cmp.Or(cfg.HTTPClient, &http.Client{}),
	}, nil
}

// Name names the backend and model, e.g. "openai-compatible (qwen2.5-coder:7b)".
func (p *Provider) Name() string { return p.name }

// Complete streams one reply, passing its text to onText and gathering its tool calls.
func (p *Provider) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	res, err := p.post(ctx, req)
	if err != nil {
		return agent.Message{}, p.streamError(ctx, err)
	}
	defer res.Body.Close()
	var r reply
	ev := newEvents(res.Body)
	for ev.next() && !bytes.HasPrefix(ev.data, []byte("[DONE]")) {
		if err := r.add(ev.data, onText); err != nil {
			return agent.Message{}, p.streamError(ctx, fmt.Errorf("reading the reply: %w", err))
		}
	}
	if err := ev.err(); err != nil {
		return agent.Message{}, p.streamError(ctx, fmt.Errorf("reading the reply: %w", err))
	}
	if r.chunks == 0 {
		return agent.Message{}, p.notACompletion("a stream without any choice (an empty stream, or only [DONE])")
	}
	return agent.Message{Role: agent.Assistant, Text: r.text.String(), Calls: r.calls.calls(), Usage: r.usage}, nil
}

// post sends the request for a streamed completion and returns the answer once
// checkResponse has found it to be a stream.
func (p *Provider) post(ctx context.Context, req agent.Request) (*http.Response, error) {
	body := chatRequest{Model: p.cfg.Model, Messages: messages(req), Tools: tools(req.Tools), Stream: true}
	body.StreamOptions.IncludeUsage = true
	data, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.completionsURL(), bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	// Only the configured key: never OPENAI_API_KEY, which would go to whatever server
	// BaseURL names.
	if p.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	res, err := p.client.Do(hreq)
	return p.checkResponse(hreq, res, err)
}

// reply gathers a streamed reply, chunk by chunk.
type reply struct {
	text   strings.Builder
	calls  accumulator
	usage  *agent.Usage
	chunks int // chunks with choices: a stream without any is no completion
}

// add decodes one chunk and adds its text (passed on to onText), calls and usage. An
// error event ends the stream with the server's message.
func (r *reply) add(data []byte, onText func(string)) error {
	var c chunk
	err := json.Unmarshal(data, &c)
	if len(c.Error) > 0 {
		return &agent.APIError{Message: serverMessage(data)}
	}
	if err != nil {
		return err
	}
	r.chunks += min(len(c.Choices), 1)
	if u := c.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
		r.usage = &agent.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	}
	for _, choice := range c.Choices {
		if choice.Index != 0 {
			continue
		}
		if d := choice.Delta.Content; d != "" {
			r.text.WriteString(d)
			if onText != nil {
				onText(d)
			}
		}
		for _, d := range choice.Delta.ToolCalls {
			r.calls.add(d)
		}
	}
	return nil
}

// messages converts the conversation: results become "tool" messages, one per result.
func messages(req agent.Request) []message {
	var out []message
	if req.System != "" {
		out = append(out, message{Role: "system", Content: &req.System})
	}
	for _, m := range req.Messages {
		if m.Role == agent.Assistant {
			out = append(out, assistant(m))
			continue
		}
		for _, r := range m.Results {
			out = append(out, message{Role: "tool", Content: ptr(string(agent.RenderResult(r))), ToolCallID: r.CallID})
		}
		if m.Text != "" || len(m.Results) == 0 {
			out = append(out, message{Role: "user", Content: ptr(m.Text)})
		}
	}
	return out
}

// assistant converts an assistant message with its calls. The arguments of an invalid
// call are sent as {}: servers that parse them would refuse the conversation otherwise.
func assistant(m agent.Message) message {
	a := message{Role: "assistant"}
	if m.Text != "" || len(m.Calls) == 0 {
		a.Content = ptr(m.Text)
	}
	for _, c := range m.Calls {
		args := []byte("{}")
		if c.Args != nil {
			args, _ = json.Marshal(c.Args) // decoded JSON always marshals
		}
		a.ToolCalls = append(a.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: functionCall{Name: c.Name, Arguments: string(args)}})
	}
	return a
}

// ptr returns a pointer to a copy of s: a message's content, which may be "" but present.
func ptr(s string) *string { return &s }

// tools converts the tools on offer to function tools.
func tools(specs []agent.ToolSpec) []tool {
	var out []tool
	for _, t := range specs {
		var ft tool
		ft.Type = "function"
		ft.Function.Name, ft.Function.Description, ft.Function.Parameters = t.Name, t.Description, t.Parameters
		out = append(out, ft)
	}
	return out
}

// accumulator gathers tool calls from stream deltas, keyed by their index. A delta with a
// new id at a known index starts another call: some servers send every call at index 0.
type accumulator struct {
	pending []*pending
	byIndex map[int]*pending
}

type pending struct {
	id, name string
	args     strings.Builder
}

func (a *accumulator) add(d toolCallDelta) {
	c := a.byIndex[d.Index]
	if c == nil || d.ID != "" && c.id != "" && d.ID != c.id {
		c = &pending{}
		if a.byIndex == nil {
			a.byIndex = map[int]*pending{}
		}
		a.byIndex[d.Index] = c
		a.pending = append(a.pending, c)
	}
	if d.ID != "" {
		c.id = d.ID
	}
	if c.name == "" {
		c.name = d.Function.Name
	}
	c.args.WriteString(d.Function.Arguments)
}

// calls returns the gathered calls. One whose arguments are not a JSON object is returned
// with Invalid set, for the loop to tell the model.
func (a *accumulator) calls() []agent.ToolCall {
	var out []agent.ToolCall
	for i, c := range a.pending {
		call := agent.ToolCall{ID: cmp.Or(c.id, fmt.Sprintf("call_%d", i+1)), Name: cmp.Or(c.name, "invalid")}
		raw := strings.TrimSpace(c.args.String())
		err := json.Unmarshal([]byte(cmp.Or(raw, "{}")), &call.Args)
		switch {
		case c.name == "":
			call.Invalid = "the call names no tool"
		case err != nil || call.Args == nil:
			call.Invalid = fmt.Sprintf("the arguments of %s are not a JSON object: %s", c.name, clip(raw, 200))
			if err != nil {
				call.Invalid += " (" + err.Error() + ")"
			}
		}
		if call.Invalid != "" {
			call.Args = nil
		}
		out = append(out, call)
	}
	return out
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// checkResponse turns a failed exchange into an *agent.APIError: servers write errors
// as OpenAI's {"error": {...}} body, {"error": "..."}, plain text or a web page.
func (p *Provider) checkResponse(req *http.Request, res *http.Response, err error) (*http.Response, error) {
	if err != nil {
		if req.Context().Err() != nil {
			return nil, err
		}
		return nil, &agent.APIError{Provider: p.name, Message: err.Error(), Hint: "is the server running at " + p.cfg.BaseURL + "?"}
	}
	if res.StatusCode < 400 {
		return p.checkBody(res)
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	_ = res.Body.Close()
	apiErr := &agent.APIError{
		Provider:   p.name,
		Status:     res.StatusCode,
		Message:    cmp.Or(serverMessage(body), http.StatusText(res.StatusCode)),
		RetryAfter: retryAfter(res.Header, time.Now()),
	}
	switch res.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		apiErr.Hint = "check the API key"
	case http.StatusNotFound:
		apiErr.Hint = fmt.Sprintf("unknown model %q, or no chat completions at %s: check --model, and --base-url (it usually ends in /v1)", p.cfg.Model, p.completionsURL())
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		apiErr.Hint = fmt.Sprintf("the server does not serve chat completions at %s: check --base-url (it usually ends in /v1)", p.completionsURL())
	}
	if isHTML(res.Header, body) {
		apiErr.Message = cmp.Or(http.StatusText(res.StatusCode), "an error") + " (an HTML page)"
		if apiErr.Hint == "" {
			apiErr.Hint = "check --base-url (it usually ends in /v1)"
		}
	}
	return nil, apiErr
}

// completionsURL is where the provider asks for completions.
func (p *Provider) completionsURL() string {
	return strings.TrimSuffix(p.cfg.BaseURL, "/") + "/chat/completions"
}

// notACompletion is the error for a successful answer that is no chat completion: the
// server is not the one meant (a web page, another API) or is broken. Not retried.
func (p *Provider) notACompletion(what string) *agent.APIError {
	return &agent.APIError{Provider: p.name, Status: http.StatusOK,
		Message: fmt.Sprintf("the server at %s answered with %s, not a chat completion", p.cfg.BaseURL, what),
		Hint:    "check --base-url (it usually ends in /v1) and --model"}
}

// checkBody looks at the start of a successful answer: an HTML page (a web server, a
// login portal, a base URL without /v1) or a JSON error object is no stream of
// completion chunks, and the stream reader would only say it found nothing.
func (p *Provider) checkBody(res *http.Response) (*http.Response, error) {
	br := bufio.NewReaderSize(res.Body, 1024)
	_, _ = br.Peek(1)                 // one read: a stream's next chunk may be minutes away
	head, _ := br.Peek(br.Buffered()) // what that read brought
	res.Body = struct {
		io.Reader
		io.Closer
	}{br, res.Body}
	switch {
	case isHTML(res.Header, head):
		_ = res.Body.Close()
		return nil, p.notACompletion("an HTML page")
	case strings.HasPrefix(res.Header.Get("Content-Type"), "application/json"):
		body, _ := io.ReadAll(io.LimitReader(br, 64<<10))
		_ = res.Body.Close()
		var v struct {
			Error   json.RawMessage `json:"error"`
			Choices json.RawMessage `json:"choices"`
		}
		if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 && string(v.Error) != "null" {
			return nil, &agent.APIError{Provider: p.name, Status: res.StatusCode, Message: serverMessage(body)}
		}
		if len(v.Choices) > 0 {
			return nil, p.notACompletion("a completion that is not streamed (the server ignores \"stream\": true)")
		}
		return nil, p.notACompletion("JSON that is not a stream of completion chunks: " + clip(string(bytes.TrimSpace(body)), 200))
	}
	return res, nil
}

// isHTML reports whether an answer is a web page: by its type, or by how its body starts.
func isHTML(h http.Header, head []byte) bool {
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		return true
	}
	start := strings.ToLower(string(bytes.TrimSpace(head[:min(len(head), 64)])))
	return strings.HasPrefix(start, "<!doctype html") || strings.HasPrefix(start, "<html")
}

// streamError turns what ended a request or its stream early into the error Complete
// returns: the context's error once it is done, else an *agent.APIError of this provider.
func (p *Provider) streamError(ctx context.Context, err error) error {
	var apiErr *agent.APIError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &apiErr):
		apiErr.Provider = p.name
		return apiErr
	}
	return &agent.APIError{Provider: p.name, Message: err.Error()}
}

// serverMessage finds the message in an error body: {"error": {"message": ...}} (OpenAI,
// llama.cpp, Ollama), {"error": "..."}, {"message": ...} (vLLM), or else the body itself.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var nested struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &nested) == nil && nested.Message != "":
			return nested.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case v.Message != "":
			return v.Message
		}
	}
	return clip(string(bytes.TrimSpace(body)), 500)
}

// retryAfter reads how long the server asked to wait: retry-after-ms (OpenAI), or
// Retry-After in seconds or as a date. 0 when it did not say.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
