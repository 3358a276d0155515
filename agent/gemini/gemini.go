// Package gemini is the agent.Provider for Google's Gemini models, over the official SDK
// google.golang.org/genai with the Gemini Developer API backend.
//
// The provider keeps no conversation state: every Complete sends the whole history, so the
// agent loop owns it (and may shorten it). The SDK's own retries are off, because the loop
// decides what to retry; failures of the service come back as *agent.APIError.
package gemini

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"

	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
)

// DefaultModel is the model used when Config.Model is empty.
const DefaultModel = "gemini-2.5-flash"

// providerName is the Provider field of the errors this package returns.
const providerName = "gemini"

// ErrNoAPIKey is returned by New when neither the Config nor the environment holds a key.
var ErrNoAPIKey = errors.New("gemini: no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY)")

// Config says how to reach the service.
type Config struct {
	// APIKey authenticates the requests; "" takes $GEMINI_API_KEY, then $GOOGLE_API_KEY.
	APIKey string
	// Model names the model; "" is DefaultModel.
	Model string
	// BaseURL is the service's address; "" is the SDK's default, which honours
	// $GOOGLE_GEMINI_BASE_URL. Tests point it at a geminitest.Server.
	BaseURL string
	// HTTPClient sends the requests; nil is a client without a timeout (the context of
	// each call bounds it).
	HTTPClient *http.Client
}

// Provider is a Gemini model. It is safe for concurrent use.
type Provider struct {
	client *genai.Client
	model  string
	// calls numbers the function calls the service sent without an ID, so that each gets
	// one ("call-N") that is unique for the provider's lifetime.
	calls atomic.Int64
}

// New makes a Provider. It sends nothing: a wrong key or model shows on the first call.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	key := cmp.Or(cfg.APIKey, os.Getenv("GEMINI_API_KEY"), os.Getenv("GOOGLE_API_KEY"))
	if key == "" {
		return nil, ErrNoAPIKey
	}
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:     key,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: quietClient(cfg.HTTPClient),
		HTTPOptions: genai.HTTPOptions{
			BaseURL: cfg.BaseURL,
			// One attempt: the agent loop retries, and reports each retry to the user.
			// (Automatic continuation, on by default, stays on: it completes an answer the
			// service hands out in parts, it does not repeat a failed request.)
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	return &Provider{client: client, model: cmp.Or(cfg.Model, DefaultModel)}, nil
}

// Name names the backend and the model, e.g. "gemini (gemini-2.5-flash)".
func (p *Provider) Name() string { return providerName + " (" + p.model + ")" }

// Complete streams the model's reply to the conversation. Each piece of text goes to
// onText as it arrives, and the pieces add up to the returned Message's Text (an
// explanation the provider writes, when the model stopped without a reply, is passed to
// onText too).
func (p *Provider) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	watched, failure := watchBodies(ctx)
	r := reply{newID: p.newID, onText: onText}
	stream := p.client.Models.GenerateContentStream(watched, p.model, contents(req.Messages), generateConfig(req))
	for chunk, err := range stream {
		if err != nil {
			return agent.Message{}, p.failure(ctx, failure, err)
		}
		r.add(chunk)
	}
	// A stream cut at an event boundary ends like a complete one; only the body knows.
	if err := failure.get(); err != nil {
		return agent.Message{}, p.failure(ctx, failure, err)
	}
	return r.message()
}

// AskJSON sends prompt alone, in one request that is not streamed, asking for JSON that
// follows schema (a JSON Schema object), and returns the JSON text of the answer. The
// query interpreter uses it.
func (p *Provider) AskJSON(ctx context.Context, prompt string, schema map[string]any) ([]byte, error) {
	cfg := &genai.GenerateContentConfig{ResponseMIMEType: "application/json"}
	if schema != nil { // a nil map would go out as "responseJsonSchema": null
		cfg.ResponseJsonSchema = schema
	}
	watched, failure := watchBodies(ctx)
	resp, err := p.client.Models.GenerateContent(watched, p.model, genai.Text(prompt), cfg)
	if err != nil {
		return nil, p.failure(ctx, failure, err)
	}
	r := reply{newID: p.newID}
	r.add(resp)
	if !r.candidates {
		return nil, r.noCandidates()
	}
	text := strings.TrimSpace(r.text.String())
	if !json.Valid([]byte(text)) {
		return nil, &agent.APIError{Provider: providerName, Status: http.StatusOK,
			Message: fmt.Sprintf("the answer is not JSON (finish reason %s): %.200q", cmp.Or(string(r.finish), "none"), text)}
	}
	return []byte(text), nil
}

// newID names a function call that came without an ID.
func (p *Provider) newID() string { return fmt.Sprintf("call-%d", p.calls.Add(1)) }
