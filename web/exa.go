package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// DefaultExaURL is the Exa API.
const DefaultExaURL = "https://api.exa.ai"

// exaTextChars is how much of each page's text Exa returns with a hit.
const exaTextChars = 1000

// ExaConfig configures the Exa provider.
type ExaConfig struct {
	APIKey     string       // EXA_API_KEY
	BaseURL    string       // "": DefaultExaURL
	HTTPClient *http.Client // nil: a plain client with a 30 s timeout
}

// Exa searches with the Exa API (https://exa.ai), which returns the text of each hit.
type Exa struct {
	key, base string
	client    *http.Client
}

// NewExa returns the Exa provider.
func NewExa(cfg ExaConfig) *Exa {
	return &Exa{
		key:    cfg.APIKey,
		base:   strings.TrimSuffix(cmp.Or(cfg.BaseURL, DefaultExaURL), "/"),
		client: providerClient(cfg.HTTPClient),
	}
}

// Name is "exa".
func (*Exa) Name() string { return "exa" }

// exaRequest is the body of POST /search.
type exaRequest struct {
	Query          string   `json:"query"`
	NumResults     int      `json:"numResults"`
	IncludeDomains []string `json:"includeDomains,omitempty"`
	Category       string   `json:"category,omitempty"`
	Contents       struct {
		Text struct {
			MaxCharacters int `json:"maxCharacters"`
		} `json:"text"`
	} `json:"contents"`
}

// exaAnswer is the part of Exa's answer that web_search uses.
type exaAnswer struct {
	Results []struct {
		Title         string `json:"title"`
		URL           string `json:"url"`
		PublishedDate string `json:"publishedDate"`
		Text          string `json:"text"`
		Summary       string `json:"summary"`
	} `json:"results"`
}

// Search runs req with POST {base}/search.
func (e *Exa) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	body := exaRequest{Query: req.Query, NumResults: req.NumResults, IncludeDomains: req.IncludeDomains, Category: req.Category}
	body.Contents.Text.MaxCharacters = exaTextChars
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/search", bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	httpReq.Header.Set("x-api-key", e.key)
	httpReq.Header.Set("content-type", "application/json")
	var answer exaAnswer
	err = doJSON(e.client, "exa", httpReq, &answer, func(status int, excerpt string) error {
		return StatusError("exa", "EXA_API_KEY", status, excerpt)
	})
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Provider: e.Name(), Results: []SearchHit{}}
	for _, r := range answer.Results {
		out.Results = append(out.Results, SearchHit{Title: r.Title, URL: r.URL, PublishedDate: r.PublishedDate, Text: r.Text, Summary: r.Summary})
	}
	return out, nil
}
