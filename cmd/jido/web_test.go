package main

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebConfig: --web-allow takes host names, addresses and networks, and refuses what
// is none of them; --search-url, then EXA_API_KEY, then a Gemini key pick the provider.
func TestWebConfig(t *testing.T) {
	t.Setenv("EXA_API_KEY", "")
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("GOOGLE_API_KEY", "")
	f := &sessionFlags{webAllow: stringList{"docs.corp", "*.corp.example", "10.1.0.0/16", "127.0.0.1", "[::1]", "10.2.3.4/8"}}
	cfg, err := f.webConfig(t.Context())
	require.NoError(t, err)
	assert.Equal(t, []string{"docs.corp", "*.corp.example"}, cfg.Fetch.AllowHosts)
	assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("10.0.0.0/8")}, cfg.Fetch.AllowNets)
	assert.Nil(t, cfg.Search, "no provider without a setting")

	for _, bad := range []string{"", "http://docs.corp", "docs.corp:8080", "10.1.0.0/99", "a b", "x/y"} {
		_, err := (&sessionFlags{webAllow: stringList{bad}}).webConfig(t.Context())
		assert.Error(t, err, "%q", bad)
	}

	t.Setenv("EXA_API_KEY", "k")
	cfg, err = (&sessionFlags{}).webConfig(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "exa", cfg.Search.Name())
	cfg, err = (&sessionFlags{searchURL: "http://localhost:8888"}).webConfig(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "searxng", cfg.Search.Name(), "--search-url first")
	t.Setenv("EXA_API_KEY", "")
	t.Setenv("GEMINI_API_KEY", "g")
	cfg, err = (&sessionFlags{}).webConfig(t.Context())
	require.NoError(t, err)
	assert.Contains(t, cfg.Search.Name(), "gemini")
}
