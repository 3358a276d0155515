// Package grounding is the web_search provider that asks Gemini with Google Search
// grounding: the model searches, answers, and cites the pages it used. It is apart from
// package web so that web does not link the genai SDK.
package grounding

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
	"google.golang.org/genai"
)

// DefaultModel is the model asked when Config.Model is empty: fast and cheap, and
// grounding does the searching.
const DefaultModel = "gemini-2.5-flash"

// Config configures the provider.
type Config struct {
	APIKey     string       // GEMINI_API_KEY
	Model      string       // "": DefaultModel
	BaseURL    string       // "": the Gemini API
	HTTPClient *http.Client // nil: a plain client with a 60 s timeout
}

// searcher is the Gemini grounding provider.
type searcher struct {
	client *genai.Client
	model  string
}

// New returns the Gemini grounding provider.
func New(ctx context.Context, cfg Config) (web.Searcher, error) {
	if cfg.APIKey == "" {
		return nil, definitions.NewError(definitions.ValidationError, "Gemini grounding needs an API key").Hint("set GEMINI_API_KEY")
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 60 * time.Second}
	}
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:     cfg.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: httpClient,
		HTTPOptions: genai.HTTPOptions{
			BaseURL: cfg.BaseURL,
			// One attempt: a search is cheap to ask again, and the agent decides whether to.
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)},
		},
	})
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "cannot set up Gemini grounding: %v", err)
	}
	return &searcher{client: client, model: cmp.Or(cfg.Model, DefaultModel)}, nil
}

// Name names the provider and its model, e.g. "gemini (gemini-2.5-flash)".
func (s *searcher) Name() string { return "gemini (" + s.model + ")" }

// Search asks the model to answer req.Query with Google Search. The hits are the pages
// it cites (one per grounding chunk), each with the parts of the answer it supports; the
// answer itself is SearchResult.Answer. Include domains are asked for with "site:" terms
// and the hits are filtered to them (Gemini names a page's domain in its title, since its
// URL is a redirect through Google). Category is not used.
func (s *searcher) Search(ctx context.Context, req web.SearchRequest) (*web.SearchResult, error) {
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Models.GenerateContent(ctx, s.model, genai.Text(prompt(req)), &genai.GenerateContentConfig{
		Tools: []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}},
	})
	if err != nil {
		return nil, callError(ctx, err)
	}
	return result(s.Name(), resp, req), nil
}

// prompt is the question put to the model.
func prompt(req web.SearchRequest) string {
	q := req.Query
	if len(req.IncludeDomains) > 0 {
		sites := make([]string, len(req.IncludeDomains))
		for i, d := range req.IncludeDomains {
			sites[i] = "site:" + d
		}
		q += " (" + strings.Join(sites, " OR ") + ")"
	}
	return "Search the web for: " + q + "\nAnswer briefly from the pages you find."
}

// result turns the model's answer into a SearchResult.
func result(provider string, resp *genai.GenerateContentResponse, req web.SearchRequest) *web.SearchResult {
	out := &web.SearchResult{Provider: provider, Results: []web.SearchHit{}}
	if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return out
	}
	cand := resp.Candidates[0]
	var answer strings.Builder
	for _, p := range cand.Content.Parts {
		if !p.Thought {
			answer.WriteString(p.Text)
		}
	}
	out.Answer = answer.String()
	gm := cand.GroundingMetadata
	if gm == nil {
		return out
	}
	supported := supportedText(gm)
	for i, c := range gm.GroundingChunks {
		if len(out.Results) == req.NumResults {
			break
		}
		if c == nil || c.Web == nil || (len(req.IncludeDomains) > 0 && !inDomains(c.Web, req.IncludeDomains)) {
			continue
		}
		out.Results = append(out.Results, web.SearchHit{Title: c.Web.Title, URL: c.Web.URI, Text: strings.Join(supported[i], " ")})
	}
	return out
}

// supportedText maps each grounding chunk's index to the segments of the answer it
// supports, in the order of the answer and without repeats.
func supportedText(gm *genai.GroundingMetadata) map[int][]string {
	out := map[int][]string{}
	for _, s := range gm.GroundingSupports {
		if s == nil || s.Segment == nil || s.Segment.Text == "" {
			continue
		}
		for _, i := range s.GroundingChunkIndices {
			if !slices.Contains(out[int(i)], s.Segment.Text) {
				out[int(i)] = append(out[int(i)], s.Segment.Text)
			}
		}
	}
	return out
}

// inDomains reports whether a cited page is in domains, by its domain (which the Gemini
// API puts in the title), or by the host of its URL for a backend that gives the page's
// own URL.
func inDomains(w *genai.GroundingChunkWeb, domains []string) bool {
	if web.InDomains(w.Domain, domains) || web.InDomains(w.Title, domains) {
		return true
	}
	u, err := url.Parse(w.URI)
	return err == nil && web.InDomains(u.Hostname(), domains)
}

// callError turns a failed GenerateContent into a ToolError (or the context's error).
func callError(ctx context.Context, err error) error {
	var apiErr genai.APIError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &apiErr):
		code := apiErr.Code
		if code == http.StatusBadRequest && strings.Contains(apiErr.Message, "API key") {
			code = http.StatusUnauthorized // how the Gemini API says the key is wrong
		}
		excerpt, _, _ := strings.Cut(apiErr.Message, "\n")
		if len(excerpt) > 300 {
			excerpt = strings.ToValidUTF8(excerpt[:300], "")
		}
		return web.StatusError("gemini", "GEMINI_API_KEY", code, excerpt)
	case errors.Is(err, context.DeadlineExceeded):
		return definitions.NewError(definitions.TimeoutError, "Gemini did not answer in time").Hint("try again later")
	}
	return definitions.NewError(definitions.NetworkError, "Gemini search failed: %v", err)
}
