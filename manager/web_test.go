package manager

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// webFixture serves a page at /page (counting its requests) and a SearXNG API at /search
// on the loopback, and returns web access allowed to reach it.
func webFixture(t *testing.T) (*WebConfig, string, *atomic.Int64) {
	var pages atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, _ *http.Request) {
		pages.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<title>Guide</title><h1>Guide</h1><p>Read me.</p>"))
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{
			{"title": "A", "url": "https://go.dev/a", "content": "about " + r.URL.Query().Get("q")},
			{"title": "B", "url": "https://example.org/b", "content": "elsewhere"},
		}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &WebConfig{
		Fetch:  web.FetchConfig{AllowNets: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		Search: web.NewSearXNG(web.SearXNGConfig{BaseURL: srv.URL}),
	}, srv.URL, &pages
}

// TestWebToolsInForge: forge's web_search and web_fetch take seed 002's arguments and
// return its shapes; the session's fetches are cached, and another session's are not its.
func TestWebToolsInForge(t *testing.T) {
	cfg, base, pages := webFixture(t)
	forge, err := profile.Get("forge")
	require.NoError(t, err)
	m := newManager(t, Config{Web: cfg, Profile: forge})
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)

	res := s.Call(t.Context(), ToolCall{Name: "web_search", Args: map[string]any{"query": "modules", "numResults": 5, "includeDomains": []any{"go.dev"}}})
	require.True(t, res.OK, "%v", res.Error)
	data, _ := json.Marshal(res.Result)
	assert.JSONEq(t, `{"results":[{"title":"A","url":"https://go.dev/a","text":"about modules site:go.dev"}]}`, string(data))

	fetch := ToolCall{Name: "web_fetch", Args: map[string]any{"url": base + "/page"}}
	res = s.Call(t.Context(), fetch)
	require.True(t, res.OK, "%v", res.Error)
	data, _ = json.Marshal(res.Result)
	assert.JSONEq(t, `{"title":"Guide","content":"# Guide\n\nRead me.","url":"`+base+`/page"}`, string(data))
	require.True(t, s.Call(t.Context(), fetch).OK)
	assert.Equal(t, int64(1), pages.Load(), "the second fetch came from the session's cache")

	other, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	require.True(t, other.Call(t.Context(), fetch).OK)
	assert.Equal(t, int64(2), pages.Load(), "a session has a cache of its own")
}

// TestWebToolsAskAsNetwork: in default mode a web call asks, naming its host; in
// read-only mode it is refused; an allow rule for the host lets it run.
func TestWebToolsAskAsNetwork(t *testing.T) {
	cfg, base, _ := webFixture(t)
	fetch := ToolCall{Name: "web_fetch", Args: map[string]any{"url": base + "/page"}}

	s, _ := gatedSession(t, Config{Web: cfg, Permissions: policy.New(policy.ModeDefault)})
	res := s.Call(t.Context(), fetch)
	require.False(t, res.OK)
	assert.Equal(t, "permission-error", errType(res))
	assert.Contains(t, res.Error.Details["rule"], `hosts = ["127.0.0.1"]`)

	s, _ = gatedSession(t, Config{Web: cfg, Permissions: policy.New(policy.ModeReadOnly)})
	res = s.Call(t.Context(), ToolCall{Name: "web_search", Args: map[string]any{"query": "x"}})
	assert.Equal(t, "permission-error", errType(res))
	assert.Contains(t, res.Error.Message, "read-only")

	perms := policy.New(policy.ModeDefault)
	_, err := perms.Remember(policy.Rule{Action: policy.Allow, Tool: "web_fetch", Hosts: []string{"127.0.0.1"}}, policy.ScopeSession)
	require.NoError(t, err)
	s, _ = gatedSession(t, Config{Web: cfg, Permissions: perms})
	assert.True(t, s.Call(t.Context(), fetch).OK)
}

// TestWebToolsInClaude: Claude Code's WebFetch (its prompt accepted, the page returned for
// the model to answer it) and WebSearch (allowed_domains) answer in text.
func TestWebToolsInClaude(t *testing.T) {
	cfg, base, _ := webFixture(t)
	claude, err := profile.Get("claude")
	require.NoError(t, err)
	s, err := newManager(t, Config{Web: cfg, Profile: claude}).Open(t.Context(), "")
	require.NoError(t, err)

	res := s.Call(t.Context(), ToolCall{Name: "WebFetch", Args: map[string]any{"url": base + "/page", "prompt": "what does it say?"}})
	require.True(t, res.OK, "%v", res.Error)
	assert.Equal(t, "Content of "+base+"/page (Guide, status 200):\n\n# Guide\n\nRead me.", res.Result)

	res = s.Call(t.Context(), ToolCall{Name: "WebSearch", Args: map[string]any{"query": "modules", "allowed_domains": []any{"go.dev"}}})
	require.True(t, res.OK, "%v", res.Error)
	assert.Equal(t, "- A: https://go.dev/a\n  about modules site:go.dev", res.Result)
}

// TestWebToolsOffWithoutConfig: without Config.Web the web tools are not offered, and a
// call of one (a Lua snippet's) is refused saying the session has no web access.
func TestWebToolsOffWithoutConfig(t *testing.T) {
	s, err := newManager(t, Config{}).Open(t.Context(), "")
	require.NoError(t, err)
	for _, tool := range s.Tools() {
		assert.NotContains(t, []string{"web_fetch", "web_search"}, tool.Name)
	}
	res := s.Call(t.Context(), ToolCall{Name: "web_fetch", Args: map[string]any{"url": "https://go.dev/"}})
	require.False(t, res.OK)
	assert.Equal(t, "permission-error", res.Error.Type)
	assert.Contains(t, res.Error.Message, "web_fetch is off in this session")
}
