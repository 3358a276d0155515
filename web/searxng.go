package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// SearXNGConfig configures the SearXNG provider.
type SearXNGConfig struct {
	BaseURL    string       // the instance, e.g. http://localhost:8888 (`--search-url`)
	HTTPClient *http.Client // nil: a plain client with a 30 s timeout
}

// SearXNG searches with a SearXNG metasearch instance through its JSON API.
type SearXNG struct {
	base   string
	client *http.Client
}

// NewSearXNG returns the SearXNG provider.
func NewSearXNG(cfg SearXNGConfig) *SearXNG {
	return &SearXNG{base: strings.TrimSuffix(cfg.BaseURL, "/"), client: providerClient(cfg.HTTPClient)}
}

// Name is "searxng".
func (*SearXNG) Name() string { return "searxng" }

// searxngAnswer is the part of SearXNG's answer that web_search uses.
type searxngAnswer struct {
	Results []struct {
		Title         string `json:"title"`
		URL           string `json:"url"`
		Content       string `json:"content"`
		PublishedDate string `json:"publishedDate"`
	} `json:"results"`
}

// Search runs req with GET {base}/search?format=json. SearXNG has no domain filter: one
// include domain is asked for with a "site:" term, and the hits are filtered to the
// include domains in any case. It has no result count either: the hits are cut to
// NumResults.
func (s *SearXNG) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	req, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	q := url.Values{"q": {req.Query}, "format": {"json"}}
	if len(req.IncludeDomains) == 1 {
		q.Set("q", req.Query+" site:"+req.IncludeDomains[0])
	}
	if req.Category != "" {
		q.Set("categories", req.Category)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/search?"+q.Encode(), nil)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "bad SearXNG address %q: %v", s.base, err)
	}
	httpReq.Header.Set("Accept", "application/json")
	var answer searxngAnswer
	err = doJSON(s.client, "searxng", httpReq, &answer, func(status int, excerpt string) error {
		if status == http.StatusForbidden {
			return definitions.NewError(definitions.NetworkError, "SearXNG at %s refuses JSON answers (HTTP 403)", s.base).
				With("status", status).
				Hint("enable `json` in search.formats of the instance's settings.yml and restart it")
		}
		return StatusError("searxng", "", status, excerpt)
	})
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Provider: s.Name(), Results: []SearchHit{}}
	for _, r := range answer.Results {
		if len(out.Results) == req.NumResults {
			break
		}
		if len(req.IncludeDomains) > 0 && !inDomainsURL(r.URL, req.IncludeDomains) {
			continue
		}
		out.Results = append(out.Results, SearchHit{Title: r.Title, URL: r.URL, PublishedDate: r.PublishedDate, Text: r.Content})
	}
	return out, nil
}

// inDomainsURL reports whether the host of rawURL is in domains.
func inDomainsURL(rawURL string, domains []string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && InDomains(u.Hostname(), domains)
}
