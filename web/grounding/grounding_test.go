package grounding

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// groundedAnswer is a generateContent answer of the Gemini API with Google Search
// grounding, trimmed to what matters: two text parts, three web chunks (the URIs are
// Google redirects, the titles are domains) and the supports tying the answer to them.
const groundedAnswer = `{"candidates":[{"content":{"role":"model","parts":[
	{"text":"Go 1.18 added generics. "},{"text":"Type parameters use square brackets."}]},
  "finishReason":"STOP",
  "groundingMetadata":{
	"webSearchQueries":["go generics"],
	"groundingChunks":[
	  {"web":{"uri":"https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA","title":"go.dev"}},
	  {"web":{"uri":"https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB","title":"wikipedia.org"}},
	  {"web":{"uri":"https://vertexaisearch.cloud.google.com/grounding-api-redirect/CCC","title":"pkg.go.dev"}}],
	"groundingSupports":[
	  {"segment":{"startIndex":0,"endIndex":23,"text":"Go 1.18 added generics."},"groundingChunkIndices":[0,1]},
	  {"segment":{"startIndex":24,"endIndex":60,"text":"Type parameters use square brackets."},"groundingChunkIndices":[0]}]}}]}`

// fakeGemini serves the Gemini API's generateContent and hands each request body to the
// returned channel.
func fakeGemini(t *testing.T, status int, answer string) (*httptest.Server, chan map[string]any) {
	t.Helper()
	bodies := make(chan map[string]any, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, http.MethodPost, r.Method)
		assert.Equal(t, "/v1beta/models/gemini-2.5-flash:generateContent", r.URL.Path)
		assert.Equal(t, "test-key", r.Header.Get("x-goog-api-key"))
		raw, err := io.ReadAll(r.Body)
		assert.NoError(t, err)
		var body map[string]any
		assert.NoError(t, json.Unmarshal(raw, &body))
		bodies <- body
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	t.Cleanup(srv.Close)
	return srv, bodies
}

func TestGroundedSearch(t *testing.T) {
	srv, bodies := fakeGemini(t, http.StatusOK, groundedAnswer)
	s, err := New(t.Context(), Config{APIKey: "test-key", BaseURL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "gemini (gemini-2.5-flash)", s.Name())

	res, err := s.Search(t.Context(), web.SearchRequest{Query: "go generics"})
	require.NoError(t, err)
	body := <-bodies
	assert.Equal(t, []any{map[string]any{"googleSearch": map[string]any{}}}, body["tools"], "the request asks for Google Search")
	assert.Contains(t, promptOf(t, body), "go generics")
	assert.Equal(t, &web.SearchResult{
		Provider: "gemini (gemini-2.5-flash)",
		Answer:   "Go 1.18 added generics. Type parameters use square brackets.",
		Results: []web.SearchHit{
			{Title: "go.dev", URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA", Text: "Go 1.18 added generics. Type parameters use square brackets."},
			{Title: "wikipedia.org", URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB", Text: "Go 1.18 added generics."},
			{Title: "pkg.go.dev", URL: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/CCC"},
		},
	}, res)
}

func TestGroundedSearchDomainsAndCount(t *testing.T) {
	srv, bodies := fakeGemini(t, http.StatusOK, groundedAnswer)
	s, err := New(t.Context(), Config{APIKey: "test-key", BaseURL: srv.URL})
	require.NoError(t, err)

	res, err := s.Search(t.Context(), web.SearchRequest{Query: "generics", IncludeDomains: []string{"go.dev"}})
	require.NoError(t, err)
	assert.Contains(t, promptOf(t, <-bodies), "site:go.dev")
	var titles []string
	for _, h := range res.Results {
		titles = append(titles, h.Title)
	}
	assert.Equal(t, []string{"go.dev", "pkg.go.dev"}, titles)

	res, err = s.Search(t.Context(), web.SearchRequest{Query: "generics", NumResults: 1})
	require.NoError(t, err)
	<-bodies
	assert.Len(t, res.Results, 1)
}

func TestGroundedSearchErrors(t *testing.T) {
	_, err := New(t.Context(), Config{})
	var te *definitions.ToolError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, definitions.ValidationError, te.Type)
	assert.Contains(t, te.Recovery[0], "GEMINI_API_KEY")

	cases := []struct {
		name    string
		status  int
		answer  string
		typ     string
		inError string
	}{
		{"bad key", http.StatusBadRequest, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`, definitions.PermissionError, "GEMINI_API_KEY"},
		{"forbidden", http.StatusForbidden, `{"error":{"code":403,"message":"denied","status":"PERMISSION_DENIED"}}`, definitions.PermissionError, "GEMINI_API_KEY"},
		{"quota", http.StatusTooManyRequests, `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}`, definitions.NetworkError, "retry later"},
		{"server", http.StatusInternalServerError, `{"error":{"code":500,"message":"backend broke","status":"INTERNAL"}}`, definitions.NetworkError, "backend broke"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, bodies := fakeGemini(t, c.status, c.answer)
			s, err := New(t.Context(), Config{APIKey: "test-key", BaseURL: srv.URL})
			require.NoError(t, err)
			_, err = s.Search(t.Context(), web.SearchRequest{Query: "q"})
			<-bodies
			require.ErrorAs(t, err, &te)
			assert.Equal(t, c.typ, te.Type, te.Message)
			assert.Contains(t, te.Message+" "+strings.Join(te.Recovery, " "), c.inError)
		})
	}

	s, err := New(t.Context(), Config{APIKey: "test-key", BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err)
	_, err = s.Search(t.Context(), web.SearchRequest{Query: ""})
	require.ErrorAs(t, err, &te)
	assert.Equal(t, definitions.ValidationError, te.Type, "the query is checked before any request")
}

// promptOf is the text of the first part of the request's first content.
func promptOf(t *testing.T, body map[string]any) string {
	t.Helper()
	var req struct {
		Contents []struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"contents"`
	}
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &req))
	require.NotEmpty(t, req.Contents)
	require.NotEmpty(t, req.Contents[0].Parts)
	return req.Contents[0].Parts[0].Text
}
