package integration

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// webTarget is a loopback server that counts its requests: an internal service an
// attacker would like web_fetch to reach.
func webTarget(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>internal</title><p>instance credentials</p>")
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestWebFetchCannotReachPrivateAddresses drives the jido binary: under the default
// address rules no form of a loopback, private or metadata address is fetched, directly,
// by name or through a redirect from an allowed host, and the internal server sees no
// request; with the loopback allowed (--web-allow), the same page is fetched.
func TestWebFetchCannotReachPrivateAddresses(t *testing.T) {
	srv, hits := webTarget(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	root := t.TempDir()
	fetch := func(url string, flags ...string) map[string]any {
		args, _ := json.Marshal(map[string]any{"url": url, "timeout": 5})
		r := runJido(t, "", append(append([]string{"call", "--root", root, "--yes"}, flags...), "web_fetch", string(args))...)
		return decodeJSON(t, r.stdout)
	}
	refused := []string{
		srv.URL,
		"http://localhost:" + port + "/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
		"http://[::1]:" + port + "/",
		"http://0x7f.1:" + port + "/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/meta-data/",
		"http://10.0.0.1/",
		"http://0.0.0.0:" + port + "/",
	}
	for _, url := range refused {
		res := fetch(url)
		assert.Equal(t, false, res["ok"], url)
		e, _ := res["error"].(map[string]any)
		assert.Contains(t, []any{"permission-error", "network-error"}, e["type"], "%s: %v", url, e)
	}
	// An allowed first hop (the name localhost) redirecting to the loopback by address.
	res := fetch("http://localhost:"+port+"/?to="+srv.URL+"/secret", "--web-allow", "localhost")
	e, _ := res["error"].(map[string]any)
	assert.Equal(t, "permission-error", e["type"], "the redirect's target is checked again: %v", res)
	assert.Equal(t, int64(1), hits.Load(), "only the allowed first hop reached the server")

	for _, bad := range []string{"file:///etc/passwd", "ftp://example.com/", "http://user:pw@example.com/", "gopher://x/"} {
		res := fetch(bad)
		e, _ := res["error"].(map[string]any)
		assert.Equal(t, "validation-error", e["type"], "%s: %v", bad, res)
	}

	res = fetch(srv.URL+"/", "--web-allow", "127.0.0.0/8")
	require.Equal(t, true, res["ok"], "%v", res)
	page := res["result"].(map[string]any)
	assert.Equal(t, "internal", page["title"])
	assert.Equal(t, int64(2), hits.Load())
}

// TestWebToolsThroughTheBinary: without --yes a fetch asks and names the rule to add; a
// search goes to the SearXNG instance given with --search-url, or to Exa with
// EXA_API_KEY (the request is checked); with no provider the error names the settings.
func TestWebToolsThroughTheBinary(t *testing.T) {
	root := t.TempDir()
	r := runJido(t, "", "call", "--root", root, "web_fetch", `{"url":"https://example.com/"}`)
	res := decodeJSON(t, r.stdout)
	assert.Contains(t, res["error"].(map[string]any)["details"].(map[string]any)["rule"], `hosts = ["example.com"]`)

	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "json", r.URL.Query().Get("format"))
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{{"title": "Go", "url": "https://go.dev/", "content": "q=" + r.URL.Query().Get("q")}}})
	}))
	t.Cleanup(searx.Close)
	r = runJido(t, "", "call", "--root", root, "--yes", "--search-url", searx.URL, "web_search", `{"query":"generics"}`)
	res = decodeJSON(t, r.stdout)
	require.Equal(t, true, res["ok"], r.stdout)
	hit := res["result"].(map[string]any)["results"].([]any)[0].(map[string]any)
	assert.Equal(t, "q=generics", hit["text"])

	exa := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "/search", r.URL.Path)
		assert.Equal(t, "exa-test-key", r.Header.Get("x-api-key"))
		var body map[string]any
		assert.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		assert.Equal(t, "generics", body["query"])
		assert.Equal(t, 3.0, body["numResults"])
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{{"title": "Exa", "url": "https://go.dev/exa", "publishedDate": "2026-01-02"}}})
	}))
	t.Cleanup(exa.Close)
	r = runJidoIn(t, "", []string{"EXA_API_KEY=exa-test-key", "EXA_BASE_URL=" + exa.URL, "GEMINI_API_KEY=", "GOOGLE_API_KEY="}, "", "call", "--root", root, "--yes", "web_search", `{"query":"generics","num_results":3}`)
	res = decodeJSON(t, r.stdout)
	require.Equal(t, true, res["ok"], r.stdout)
	assert.Equal(t, "exa", res["result"].(map[string]any)["provider"])

	r = runJidoIn(t, "", []string{"EXA_API_KEY=", "GEMINI_API_KEY=", "GOOGLE_API_KEY="}, "", "call", "--root", root, "--yes", "web_search", `{"query":"x"}`)
	res = decodeJSON(t, r.stdout)
	assert.Contains(t, res["error"].(map[string]any)["recovery"].([]any)[0], "EXA_API_KEY")
}
