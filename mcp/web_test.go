package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
	"github.com/stretchr/testify/assert"
)

// loopbackWeb serves a small page at /page and a SearXNG search API at /search on the
// loopback, and returns web access that may reach it (the test allows loopback
// explicitly, as an operator would with --web-allow).
func loopbackWeb(t *testing.T) (*manager.WebConfig, string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<html><head><title>Docs</title><script>track()</script></head><body><nav>menu</nav><h1>Install</h1><p>token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here</p></body></html>`))
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{
			{"title": "Go", "url": "https://go.dev/doc", "content": "The Go docs, " + r.URL.Query().Get("q")},
		}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	return &manager.WebConfig{Fetch: web.FetchConfig{AllowNets: loopback}, Search: web.NewSearXNG(web.SearXNGConfig{BaseURL: srv.URL})}, srv.URL
}

// TestWebToolsThroughMCP: web_fetch and web_search answer a real MCP client in their
// output schema's shape, redacted; without the loopback allowed, the same fetch is
// refused as a private address.
func TestWebToolsThroughMCP(t *testing.T) {
	cfg, base := loopbackWeb(t)
	called := map[string]bool{}
	runOutputCases(t, manager.Config{Web: cfg}, nil, []outputCase{
		{"web_fetch", fixed(map[string]any{"url": base + "/page"})},
		{"web_fetch", fixed(map[string]any{"url": base + "/page", "format": "text"})},
		{"web_search", fixed(map[string]any{"query": "install go", "num_results": 3})},
	}, called)
	assert.Len(t, called, 2)

	srv, _ := newServer(t, manager.Config{Web: cfg}, Options{}, nil)
	cs := connect(t, srv, nil)
	page := ok(t, call(t, cs, "web_fetch", map[string]any{"url": base + "/page"}))
	assert.Equal(t, "Docs", page["title"])
	assert.Contains(t, page["content"], "# Install")
	assert.NotContains(t, page["content"], "menu", "navigation is dropped")
	assert.NotContains(t, page["content"], "ghp_abcdefghij", "credentials in a page are redacted")
	assert.Contains(t, page["content"], "[REDACTED:github-token]")

	closed, _ := newServer(t, manager.Config{Web: &manager.WebConfig{}}, Options{}, nil)
	cs = connect(t, closed, nil)
	e := toolError(t, call(t, cs, "web_fetch", map[string]any{"url": base + "/page"}))
	assert.Equal(t, definitions.PermissionError, e["type"])
	assert.Contains(t, e["message"], "loopback")
	e = toolError(t, call(t, cs, "web_search", map[string]any{"query": "go"}))
	assert.Contains(t, e["message"], "no web search provider")
}
