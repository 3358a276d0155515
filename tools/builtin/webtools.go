package builtin

import (
	"context"
	"time"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
)

// Web is the bridge module of the tools that reach the web: web_fetch and web_search.
// Both return what a remote site wrote, so what they return is redacted like a file's
// content.
type Web struct{ Deps }

// WebFetch fetches one URL through the session's Fetcher, which keeps the address rules.
// Credentials are redacted from the page before its conversion and from the result after.
func (w *Web) WebFetch(ctx context.Context, p definitions.WebFetchParams) (*web.FetchResult, error) {
	if w.Fetcher == nil {
		return nil, webOff("web_fetch")
	}
	red := w.redactor()
	redact := func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	res, err := w.Fetcher().Fetch(ctx, web.FetchRequest{URL: p.URL, Format: p.Format, MaxChars: p.MaxChars, Timeout: time.Duration(p.Timeout * float64(time.Second)), Redact: redact})
	if err != nil {
		return nil, err
	}
	res.Title, _ = red.String(res.Title)
	res.Content, _ = red.String(res.Content)
	return res, nil
}

// WebSearch asks the session's search provider.
func (w *Web) WebSearch(ctx context.Context, p definitions.WebSearchParams) (*web.SearchResult, error) {
	if w.Searcher == nil {
		return nil, web.NoSearchProvider()
	}
	res, err := w.Searcher.Search(ctx, web.SearchRequest{Query: p.Query, NumResults: p.NumResults, IncludeDomains: p.IncludeDomains, Category: p.Category})
	if err != nil {
		return nil, err
	}
	red := w.redactor()
	res.Answer, _ = red.String(res.Answer)
	for i := range res.Results {
		h := &res.Results[i]
		h.Title, _ = red.String(h.Title)
		h.Text, _ = red.String(h.Text)
		h.Summary, _ = red.String(h.Summary)
	}
	return res, nil
}

// webOff is the error of a web tool in a session given no access to the web.
func webOff(tool string) *definitions.ToolError {
	return definitions.NewError(definitions.PermissionError, "%s is off in this session: it was opened without web access", tool).
		With("tool", tool).Hint("Work from the project's files, or ask the user to enable web access")
}
