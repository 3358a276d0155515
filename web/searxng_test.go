package web

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// searxngResults is an answer of SearXNG's JSON API, trimmed.
const searxngResults = `{"query":"q","number_of_results":0,"results":[
	{"title":"Go spec","url":"https://go.dev/ref/spec","content":"The Go spec","engine":"ddg","publishedDate":"2024-01-01T00:00:00"},
	{"title":"Blog","url":"https://blog.example.com/go","content":"A blog post"},
	{"title":"Pkg","url":"https://pkg.go.dev/fmt","content":"Package fmt"},
	{"title":"Tour","url":"https://go.dev/tour","content":"A tour"}]}`

func TestSearXNGSearch(t *testing.T) {
	queries := make(chan url.Values, 1)
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, http.MethodGet, r.Method)
		assert.Equal(t, "/search", r.URL.Path)
		queries <- r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(searxngResults))
	})
	s := NewSearXNG(SearXNGConfig{BaseURL: srv.URL + "/"})
	assert.Equal(t, "searxng", s.Name())

	res, err := s.Search(t.Context(), SearchRequest{Query: "go spec", NumResults: 2})
	require.NoError(t, err)
	q := <-queries
	assert.Equal(t, "go spec", q.Get("q"))
	assert.Equal(t, "json", q.Get("format"))
	assert.False(t, q.Has("categories"))
	assert.Equal(t, &SearchResult{Provider: "searxng", Results: []SearchHit{
		{Title: "Go spec", URL: "https://go.dev/ref/spec", Text: "The Go spec", PublishedDate: "2024-01-01T00:00:00"},
		{Title: "Blog", URL: "https://blog.example.com/go", Text: "A blog post"},
	}}, res, "cut to num_results")

	res, err = s.Search(t.Context(), SearchRequest{Query: "go", IncludeDomains: []string{"go.dev"}, Category: "it"})
	require.NoError(t, err)
	q = <-queries
	assert.Equal(t, "go site:go.dev", q.Get("q"))
	assert.Equal(t, "it", q.Get("categories"))
	var urls []string
	for _, h := range res.Results {
		urls = append(urls, h.URL)
	}
	assert.Equal(t, []string{"https://go.dev/ref/spec", "https://pkg.go.dev/fmt", "https://go.dev/tour"}, urls, "filtered to the domain and its subdomains")

	res, err = s.Search(t.Context(), SearchRequest{Query: "go", IncludeDomains: []string{"example.com", "pkg.go.dev"}})
	require.NoError(t, err)
	q = <-queries
	assert.Equal(t, "go", q.Get("q"), "no site: term for several domains")
	urls = nil
	for _, h := range res.Results {
		urls = append(urls, h.URL)
	}
	assert.Equal(t, []string{"https://blog.example.com/go", "https://pkg.go.dev/fmt"}, urls)
}

func TestSearXNGErrors(t *testing.T) {
	srv, _ := countingServer(t, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Forbidden", http.StatusForbidden)
	})
	_, err := NewSearXNG(SearXNGConfig{BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q"})
	te := requireToolError(t, err, definitions.NetworkError)
	assert.Contains(t, te.Message, "refuses JSON")
	assert.Contains(t, te.Recovery[0], "search.formats")

	srv, _ = countingServer(t, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "too many", http.StatusTooManyRequests)
	})
	_, err = NewSearXNG(SearXNGConfig{BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q"})
	te = requireToolError(t, err, definitions.NetworkError)
	assert.Contains(t, te.Recovery[0], "retry later")

	// Nothing listens on a closed server's address.
	srv.Close()
	_, err = NewSearXNG(SearXNGConfig{BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q"})
	te = requireToolError(t, err, definitions.NetworkError)
	assert.Contains(t, te.Message, "refused")

	_, err = NewSearXNG(SearXNGConfig{BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q", NumResults: -1})
	requireToolError(t, err, definitions.ValidationError)
}
