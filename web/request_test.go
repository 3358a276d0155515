package web

import (
	"testing"
	"time"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFetchRefusesBadRequests(t *testing.T) {
	cases := []struct {
		name string
		req  FetchRequest
	}{
		{"empty url", FetchRequest{URL: "  "}},
		{"ftp", FetchRequest{URL: "ftp://example.org/file"}},
		{"file", FetchRequest{URL: "file:///etc/passwd"}},
		{"no scheme", FetchRequest{URL: "example.org/page"}},
		{"no host", FetchRequest{URL: "http://"}},
		{"port only", FetchRequest{URL: "http://:80/"}},
		{"credentials", FetchRequest{URL: "http://user:secret@example.org/"}},
		{"user only", FetchRequest{URL: "https://user@example.org/"}},
		{"unparsable", FetchRequest{URL: "http://exa mple.org/%zz"}},
		{"format", FetchRequest{URL: "http://example.org/", Format: "pdf"}},
		{"negative max_chars", FetchRequest{URL: "http://example.org/", MaxChars: -1}},
		{"negative timeout", FetchRequest{URL: "http://example.org/", Timeout: -time.Second}},
	}
	f := NewFetcher(FetchConfig{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.Fetch(t.Context(), c.req)
			te := requireToolError(t, err, definitions.ValidationError)
			assert.NotContains(t, te.Message, "secret", "credentials are not echoed")
		})
	}
}

func TestFetchRequestDefaultsAndCaps(t *testing.T) {
	p, err := FetchRequest{URL: "HTTPS://Example.org/x"}.params()
	require.NoError(t, err)
	assert.Equal(t, "https", p.url.Scheme)
	assert.Equal(t, FormatMarkdown, p.format)
	assert.Equal(t, DefaultMaxChars, p.maxChars)
	assert.Equal(t, DefaultTimeout, p.timeout)

	p, err = FetchRequest{URL: "http://example.org/", MaxChars: 5_000_000, Timeout: time.Hour}.params()
	require.NoError(t, err)
	assert.Equal(t, MaxMaxChars, p.maxChars)
	assert.Equal(t, MaxTimeout, p.timeout)

	p, err = FetchRequest{URL: "http://example.org/", Format: FormatText, MaxChars: 7, Timeout: time.Second}.params()
	require.NoError(t, err)
	assert.Equal(t, FormatText, p.format)
	assert.Equal(t, 7, p.maxChars)
	assert.Equal(t, time.Second, p.timeout)
}
