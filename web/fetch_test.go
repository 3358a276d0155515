package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loopbackFetcher is a Fetcher that may reach the test servers.
func loopbackFetcher(cfg FetchConfig) *Fetcher {
	cfg.AllowNets = loopbackNets
	return NewFetcher(cfg)
}

func TestFetchTextTypes(t *testing.T) {
	cases := []struct {
		name, contentType, body, wantType string
	}{
		{"plain", "text/plain; charset=utf-8", "# not *converted*\n", "text/plain"},
		{"markdown", "text/markdown", "# Title\n\nbody", "text/markdown"},
		{"json", "application/json", `{"a": [1, 2]}`, "application/json"},
		{"ld+json", "application/ld+json", `{"@id": "x"}`, "application/ld+json"},
		{"xml", "application/xml", "<a><b/></a>", "application/xml"},
		{"rss+xml", "application/rss+xml", "<rss/>", "application/rss+xml"},
		{"javascript", "application/javascript", "let a = 1;", "application/javascript"},
		{"sniffed text", "", "just some words", "text/plain"},
		{"unknown type, text bytes", "application/x-unknown", "words", "application/x-unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := countingServer(t, serve(c.contentType, c.body))
			r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
			require.NoError(t, err)
			assert.Equal(t, c.body, r.Content)
			assert.Equal(t, c.wantType, r.ContentType)
			assert.Empty(t, r.Title)
		})
	}
}

func TestFetchSniffsHTML(t *testing.T) {
	srv, _ := countingServer(t, serve("", "<!DOCTYPE html><html><head><title>T</title></head><body><p>Hi <b>there</b></p></body></html>"))
	r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "text/html", r.ContentType)
	assert.Equal(t, "Hi **there**", r.Content)
	assert.Equal(t, "T", r.Title)
}

func TestFetchRefusesBinary(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	cases := []struct {
		name, contentType, body, wantType string
	}{
		{"image", "image/png", png, "image/png"},
		{"pdf", "application/pdf", "%PDF-1.7", "application/pdf"},
		{"zip", "application/zip", "PK\x03\x04", "application/zip"},
		{"octet-stream", "application/octet-stream", "abc", "application/octet-stream"},
		{"sniffed png", "", png, "image/png"},
		{"NUL in text", "text/plain", "abc\x00def", "text/plain"},
		{"unknown type, binary bytes", "application/x-thing", "\x00\x01\x02\x03", "application/x-thing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := countingServer(t, serve(c.contentType, c.body))
			_, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
			te := requireToolError(t, err, definitions.FileError)
			assert.Equal(t, "binary content ("+c.wantType+") is not returned", te.Message)
			assert.Equal(t, c.wantType, te.Details["content_type"])
		})
	}
}

func TestFetchMaxChars(t *testing.T) {
	srv, _ := countingServer(t, serve("text/plain", "héllo wörld"))
	f := loopbackFetcher(FetchConfig{})
	r, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL, MaxChars: 4})
	require.NoError(t, err)
	assert.Equal(t, "héll", r.Content, "max_chars counts characters, not bytes")
	assert.True(t, r.Truncated)

	r, err = f.Fetch(t.Context(), FetchRequest{URL: srv.URL, MaxChars: 11})
	require.NoError(t, err)
	assert.Equal(t, "héllo wörld", r.Content)
	assert.False(t, r.Truncated)
}

func TestFetchCutsBodyAtByteCap(t *testing.T) {
	const total = 50 << 20
	chunk := []byte(strings.Repeat("a", 64<<10))
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", fmt.Sprint(total))
		for sent := 0; sent < total; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
	})
	f := loopbackFetcher(FetchConfig{MaxBytes: 1 << 20})
	r, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL, MaxChars: MaxMaxChars * 2})
	require.NoError(t, err)
	assert.True(t, r.Truncated)
	assert.Len(t, r.Content, MaxMaxChars, "max_chars above the cap is lowered to the cap")

	f = loopbackFetcher(FetchConfig{MaxBytes: 100 << 10})
	r, err = f.Fetch(t.Context(), FetchRequest{URL: srv.URL, MaxChars: MaxMaxChars})
	require.NoError(t, err)
	assert.True(t, r.Truncated)
	assert.Len(t, r.Content, 100<<10, "the body is cut at MaxBytes")
}

func TestFetchTimeout(t *testing.T) {
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	_, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL, Timeout: 200 * time.Millisecond})
	te := requireToolError(t, err, definitions.TimeoutError)
	assert.Contains(t, te.Message, "200ms")
	assert.Equal(t, "200ms", te.Details["timeout"])
	assert.Contains(t, strings.Join(te.Recovery, " "), "`timeout`")
}

func TestFetchHonoursCancel(t *testing.T) {
	started := make(chan struct{})
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	_, err := loopbackFetcher(FetchConfig{}).Fetch(ctx, FetchRequest{URL: srv.URL})
	require.ErrorIs(t, err, context.Canceled)
}

func TestFetchFollowsRedirects(t *testing.T) {
	srv, hits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		next := map[string]string{"/a": "/b", "/b": "../c", "/c": "/final?x=1"}[r.URL.Path]
		if next != "" {
			http.Redirect(w, r, next, http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("arrived"))
	})
	r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL + "/a"})
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/final?x=1", r.URL)
	assert.Equal(t, "arrived", r.Content)
	assert.Equal(t, int64(4), hits.Load())

	_, err = loopbackFetcher(FetchConfig{MaxRedirects: 2}).Fetch(t.Context(), FetchRequest{URL: srv.URL + "/a"})
	te := requireToolError(t, err, definitions.NetworkError)
	assert.Equal(t, "stopped after 2 redirects", te.Message)

	_, err = loopbackFetcher(FetchConfig{MaxRedirects: -1}).Fetch(t.Context(), FetchRequest{URL: srv.URL + "/a"})
	te = requireToolError(t, err, definitions.NetworkError)
	assert.Equal(t, "stopped after 0 redirects", te.Message)
}

func TestFetchRefusesRedirectToOtherSchemes(t *testing.T) {
	for _, to := range []string{"ftp://example.org/file", "file:///etc/passwd", "gopher://x/", "http://user:pw@example.org/"} {
		srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to, http.StatusFound)
		})
		_, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
		requireToolError(t, err, definitions.ValidationError)
	}
}

func TestFetchReturnsNon2xx(t *testing.T) {
	srv, hits := countingServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<title>Missing</title><h1>Not <i>here</i></h1>"))
	})
	f := loopbackFetcher(FetchConfig{})
	r, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Equal(t, "Missing", r.Title)
	assert.Equal(t, "# Not *here*", r.Content)

	r, err = f.Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.False(t, r.Cached, "only 2xx results are cached")
	assert.Equal(t, int64(2), hits.Load())
}

func TestFetchCache(t *testing.T) {
	srv, hits := countingServer(t, serve("text/html", "<title>C</title><p>cached page</p>"))
	f := loopbackFetcher(FetchConfig{})
	first, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.False(t, first.Cached)

	second, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL, Format: FormatMarkdown, MaxChars: DefaultMaxChars})
	require.NoError(t, err)
	assert.True(t, second.Cached, "defaults and explicit values share an entry")
	assert.Equal(t, int64(1), hits.Load(), "a cache hit makes no request")
	second.Cached = false
	assert.Equal(t, first, second)

	second.Content = "changed by the caller"
	third, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "cached page", third.Content, "a hit is a copy")

	_, err = f.Fetch(t.Context(), FetchRequest{URL: srv.URL, Format: FormatText})
	require.NoError(t, err)
	_, err = f.Fetch(t.Context(), FetchRequest{URL: srv.URL, MaxChars: 5})
	require.NoError(t, err)
	assert.Equal(t, int64(3), hits.Load(), "format and max_chars are part of the key")

	off := loopbackFetcher(FetchConfig{CacheEntries: -1})
	for range 2 {
		r, err := off.Fetch(t.Context(), FetchRequest{URL: srv.URL})
		require.NoError(t, err)
		assert.False(t, r.Cached)
	}
	assert.Equal(t, int64(5), hits.Load())
}

func TestFetchDecodesCharsets(t *testing.T) {
	latin1 := "caf\xe9 cr\xe8me" // "café crème" in ISO-8859-1
	cases := []struct {
		name, contentType, body string
	}{
		{"header", "text/plain; charset=ISO-8859-1", latin1},
		{"meta", "text/html", `<meta charset="iso-8859-1"><p>` + latin1 + `</p>`},
		{"not UTF-8, no label", "text/plain", latin1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := countingServer(t, serve(c.contentType, c.body))
			r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
			require.NoError(t, err)
			assert.Equal(t, "café crème", r.Content)
		})
	}
	// UTF-8 after a long ASCII start, without a label, stays UTF-8.
	body := strings.Repeat("a", 2000) + " naïve"
	srv, _ := countingServer(t, serve("text/plain", body))
	r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, body, r.Content)
}

func TestFetchSendsHeaders(t *testing.T) {
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = fmt.Fprintf(w, "%s|%s", r.UserAgent(), r.Header.Get("Accept"))
	})
	r, err := loopbackFetcher(FetchConfig{}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	ua, acc, _ := strings.Cut(r.Content, "|")
	assert.Equal(t, "jido/0 (+web_fetch)", ua)
	assert.True(t, strings.HasPrefix(acc, "text/html, text/markdown"), acc)
}
