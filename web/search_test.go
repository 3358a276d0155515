package web

import (
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchRequestNormalize(t *testing.T) {
	r, err := SearchRequest{Query: "  go generics ", IncludeDomains: []string{" https://Go.dev/doc ", "", "pkg.go.dev."}}.Normalize()
	require.NoError(t, err)
	assert.Equal(t, "go generics", r.Query)
	assert.Equal(t, DefaultNumResults, r.NumResults)
	assert.Equal(t, []string{"go.dev", "pkg.go.dev"}, r.IncludeDomains)

	cases := []struct {
		name string
		in   int
		want int
	}{{"zero takes the default", 0, DefaultNumResults}, {"in range", 7, 7}, {"above the cap is lowered", 500, MaxNumResults}}
	for _, c := range cases {
		r, err := SearchRequest{Query: "q", NumResults: c.in}.Normalize()
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, r.NumResults, c.name)
	}

	for _, bad := range []SearchRequest{{Query: " \t"}, {Query: "q", NumResults: -1}} {
		_, err := bad.Normalize()
		requireToolError(t, err, definitions.ValidationError)
	}
}

func TestInDomains(t *testing.T) {
	domains := []string{"go.dev", "example.org"}
	assert.True(t, InDomains("go.dev", domains))
	assert.True(t, InDomains("PKG.go.dev.", domains))
	assert.False(t, InDomains("notgo.dev", domains))
	assert.False(t, InDomains("go.dev.evil.com", domains))
	assert.False(t, InDomains("", domains))
}

func TestNoSearchProvider(t *testing.T) {
	te := requireToolError(t, NoSearchProvider(), definitions.ValidationError)
	assert.Equal(t, "no web search provider is configured", te.Message)
	for _, name := range []string{"EXA_API_KEY", "GEMINI_API_KEY", "--search-url"} {
		assert.Contains(t, te.Recovery[0], name)
	}
}

func TestStatusError(t *testing.T) {
	te := StatusError("exa", "EXA_API_KEY", 403, "forbidden")
	assert.Equal(t, definitions.PermissionError, te.Type)
	assert.Contains(t, te.Recovery[0], "EXA_API_KEY")

	te = StatusError("exa", "EXA_API_KEY", 429, "slow down")
	assert.Equal(t, definitions.NetworkError, te.Type)
	assert.Contains(t, te.Recovery[0], "retry later")

	te = StatusError("searxng", "", 401, "login first")
	assert.Equal(t, definitions.NetworkError, te.Type, "a provider without a key has no key to blame")
	assert.Contains(t, te.Message, "login first")
}
