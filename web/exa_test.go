package web

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExaSearch(t *testing.T) {
	bodies := make(chan map[string]any, 1)
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, http.MethodPost, r.Method)
		assert.Equal(t, "/search", r.URL.Path)
		assert.Equal(t, "test-key", r.Header.Get("x-api-key"))
		assert.Equal(t, "application/json", r.Header.Get("content-type"))
		raw, err := io.ReadAll(r.Body)
		assert.NoError(t, err)
		var body map[string]any
		assert.NoError(t, json.Unmarshal(raw, &body))
		bodies <- body
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"requestId":"r1","results":[
			{"title":"Generics","url":"https://go.dev/doc/tutorial/generics","publishedDate":"2022-03-15","text":"Tutorial text","summary":"A tutorial","id":"x"},
			{"title":"Spec","url":"https://go.dev/ref/spec"}]}`))
	})
	exa := NewExa(ExaConfig{APIKey: "test-key", BaseURL: srv.URL + "/"})
	assert.Equal(t, "exa", exa.Name())

	res, err := exa.Search(t.Context(), SearchRequest{Query: "go generics", NumResults: 5, IncludeDomains: []string{"go.dev"}, Category: "research paper"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"query":          "go generics",
		"numResults":     float64(5),
		"includeDomains": []any{"go.dev"},
		"category":       "research paper",
		"contents":       map[string]any{"text": map[string]any{"maxCharacters": float64(1000)}},
	}, <-bodies)
	assert.Equal(t, &SearchResult{Provider: "exa", Results: []SearchHit{
		{Title: "Generics", URL: "https://go.dev/doc/tutorial/generics", PublishedDate: "2022-03-15", Text: "Tutorial text", Summary: "A tutorial"},
		{Title: "Spec", URL: "https://go.dev/ref/spec"},
	}}, res)

	_, err = exa.Search(t.Context(), SearchRequest{Query: "plain"})
	require.NoError(t, err)
	body := <-bodies
	assert.NotContains(t, body, "includeDomains", "empty include_domains is left out")
	assert.NotContains(t, body, "category", "an empty category is left out")
	assert.Equal(t, float64(DefaultNumResults), body["numResults"])
}

func TestExaErrors(t *testing.T) {
	cases := []struct {
		status  int
		typ     string
		inError string
	}{
		{http.StatusUnauthorized, definitions.PermissionError, "EXA_API_KEY"},
		{http.StatusForbidden, definitions.PermissionError, "EXA_API_KEY"},
		{http.StatusTooManyRequests, definitions.NetworkError, "retry later"},
		{http.StatusInternalServerError, definitions.NetworkError, "upstream exploded"},
	}
	for _, c := range cases {
		t.Run(http.StatusText(c.status), func(t *testing.T) {
			srv, _ := countingServer(t, func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, `{"error":"upstream exploded"}`, c.status)
			})
			_, err := NewExa(ExaConfig{APIKey: "k", BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q"})
			te := requireToolError(t, err, c.typ)
			assert.Contains(t, te.Message+" "+strings.Join(te.Recovery, " "), c.inError)
			assert.Equal(t, c.status, te.Details["status"])
		})
	}

	srv, _ := countingServer(t, serve("application/json", "{not json"))
	_, err := NewExa(ExaConfig{APIKey: "k", BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: "q"})
	requireToolError(t, err, definitions.NetworkError)

	_, err = NewExa(ExaConfig{APIKey: "k", BaseURL: srv.URL}).Search(t.Context(), SearchRequest{Query: ""})
	requireToolError(t, err, definitions.ValidationError)
}
