package web

import (
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// chromeMarkers are texts of testdata/page.html that sit in dropped elements.
var chromeMarkers = []string{
	"SCRIPT-TEXT", "secret-style", "SITE-BANNER", "NAV-DOCS", "NAV-BLOG", "NOSCRIPT-TEXT",
	"IFRAME-TEXT", "SVG-TEXT", "FORM-LABEL", "ASIDE-RELATED", "FOOTER-COPYRIGHT", "TEMPLATE-TEXT",
}

// fetchPage serves testdata/page.html at /guide/index.html and fetches it in format. The
// server's address in the content is replaced by http://docs.test, so that goldens hold.
func fetchPage(t *testing.T, format string) *FetchResult {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	require.NoError(t, err)
	srv, _ := countingServer(t, serve("text/html; charset=utf-8", string(page)))
	f := NewFetcher(FetchConfig{AllowNets: loopbackNets})
	r, err := f.Fetch(t.Context(), FetchRequest{URL: srv.URL + "/guide/index.html", Format: format})
	require.NoError(t, err)
	r.Content = strings.ReplaceAll(r.Content, srv.URL, "http://docs.test")
	return r
}

// golden compares got with testdata/name, or rewrites the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

func TestFetchMarkdown(t *testing.T) {
	r := fetchPage(t, "")
	golden(t, "page.md", r.Content)
	assert.Equal(t, "Widgets & Gadgets — User Guide", r.Title)
	assert.Equal(t, "text/html", r.ContentType)
	assert.Equal(t, http.StatusOK, r.Status)
	assert.False(t, r.Truncated)
	for _, m := range chromeMarkers {
		assert.NotContains(t, r.Content, m)
	}
	assert.Contains(t, r.Content, "[installation notes](http://docs.test/guide/install.html)", "relative links resolve against the page")
	assert.Contains(t, r.Content, "| Small | 10 cm | $5 |")
	assert.Contains(t, r.Content, "```go\nfunc main() {")
	assert.Contains(t, r.Content, "# User Guide", "a header inside the article is content")
	assert.Contains(t, r.Content, "Last updated", "a footer inside the article is content")
}

func TestFetchText(t *testing.T) {
	r := fetchPage(t, FormatText)
	golden(t, "page.txt", r.Content)
	for _, m := range chromeMarkers {
		assert.NotContains(t, r.Content, m)
	}
	assert.Contains(t, r.Content, "Widgets are small parts that do one job. Read the installation notes or the external spec first.")
	assert.Contains(t, r.Content, "Small\t10 cm\t$5")
	assert.Contains(t, r.Content, "func main() {\n\tfmt.Println(\"hello, widget\")\n}", "<pre> keeps its layout")
	assert.NotContains(t, r.Content, "**")
	assert.NotContains(t, r.Content, "](")
}

func TestFetchHTMLRaw(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	require.NoError(t, err)
	r := fetchPage(t, FormatHTML)
	assert.Equal(t, string(page), r.Content)
	assert.Equal(t, "Widgets & Gadgets — User Guide", r.Title)
}

func TestPageTitleFallsBackToH1(t *testing.T) {
	srv, _ := countingServer(t, serve("text/html", "<html><head><title> </title></head><body><h1>The <em>Real</em>\nTitle</h1></body></html>"))
	r, err := NewFetcher(FetchConfig{AllowNets: loopbackNets}).Fetch(t.Context(), FetchRequest{URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "The Real Title", r.Title)
}
