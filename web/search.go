package web

import (
	"context"
	"net/url"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Limits of SearchRequest.NumResults: 0 takes the default, more than the cap is lowered
// to the cap, a negative number is a ValidationError.
const (
	DefaultNumResults = 10
	MaxNumResults     = 50
)

// Searcher is a web_search provider.
type Searcher interface {
	// Name names the provider, e.g. "exa".
	Name() string
	// Search runs one query. Errors are *definitions.ToolError, except the context's
	// own error when ctx ends first.
	Search(ctx context.Context, req SearchRequest) (*SearchResult, error)
}

// SearchRequest is one web_search call.
type SearchRequest struct {
	Query          string
	NumResults     int      // see DefaultNumResults and MaxNumResults
	IncludeDomains []string // only hits on these domains (and their subdomains)
	Category       string   // provider-specific: an Exa category, SearXNG categories
}

// SearchResult is what web_search returns.
type SearchResult struct {
	Provider string      `json:"provider"`
	Answer   string      `json:"answer,omitempty"` // a grounded model's answer, when the provider writes one
	Results  []SearchHit `json:"results"`
}

// SearchHit is one page found.
type SearchHit struct {
	Title         string `json:"title"`
	URL           string `json:"url"`
	PublishedDate string `json:"published_date,omitempty"`
	Text          string `json:"text,omitempty"`
	Summary       string `json:"summary,omitempty"`
}

// Normalize checks r and fills in its defaults: a query is required, NumResults follows
// the rule of its limits, and IncludeDomains are trimmed, lower-cased and rid of a scheme
// or path a model may have added. Providers call it first.
func (r SearchRequest) Normalize() (SearchRequest, error) {
	r.Query = strings.TrimSpace(r.Query)
	if r.Query == "" {
		return r, definitions.NewError(definitions.ValidationError, "query is empty").Hint("pass what to search for in `query`")
	}
	n, err := limit("num_results", r.NumResults, DefaultNumResults, MaxNumResults)
	if err != nil {
		return r, err
	}
	r.NumResults = n
	var domains []string
	for _, d := range r.IncludeDomains {
		if d = domainOf(d); d != "" {
			domains = append(domains, d)
		}
	}
	r.IncludeDomains = domains
	r.Category = strings.TrimSpace(r.Category)
	return r, nil
}

// domainOf reduces "https://Go.dev/doc" or "go.dev." to "go.dev".
func domainOf(s string) string {
	s = strings.TrimSpace(s)
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		s = u.Host
	}
	s, _, _ = strings.Cut(s, "/")
	return normalizeHost(s)
}

// InDomains reports whether host is one of domains or below one of them ("pkg.go.dev" is
// in "go.dev"). Domains are as Normalize leaves them.
func InDomains(host string, domains []string) bool {
	host = normalizeHost(host)
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// NoSearchProvider is the error of a web_search when no provider is configured.
func NoSearchProvider() error {
	return definitions.NewError(definitions.ValidationError, "no web search provider is configured").
		Hint("set EXA_API_KEY (Exa) or GEMINI_API_KEY (Gemini grounding with Google Search), or pass `--search-url` with the address of a SearXNG instance")
}

// StatusError maps a provider's non-2xx HTTP status to a ToolError: 401 and 403 to a
// PermissionError naming keyVar (the environment variable with the provider's key; ""
// for a provider without one, whose 401 and 403 count as any other status), 429
// to a NetworkError to retry later, and anything else to a NetworkError quoting excerpt
// (the start of the answer's body).
func StatusError(provider, keyVar string, status int, excerpt string) *definitions.ToolError {
	switch {
	case (status == 401 || status == 403) && keyVar != "":
		return definitions.NewError(definitions.PermissionError, "%s refused the API key (HTTP %d)", provider, status).
			With("status", status).Hint("check " + keyVar)
	case status == 429:
		return definitions.NewError(definitions.NetworkError, "%s is rate limiting (HTTP 429)", provider).
			With("status", status).Hint("retry later, with fewer searches")
	}
	return definitions.NewError(definitions.NetworkError, "%s answered HTTP %d: %s", provider, status, excerpt).
		With("status", status)
}
