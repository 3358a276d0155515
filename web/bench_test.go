package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// benchPage is a ~1 MB HTML page in the shape of documentation: navigation, then many
// sections of headings, paragraphs with links and inline markup, lists, tables and code.
func benchPage() []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html><html><head><title>Big manual</title><style>p{margin:0}</style><script>var x=1;</script></head><body>`)
	b.WriteString(`<nav><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></nav><main><article>`)
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `<h2 id="s%d">Section %d</h2>`, i, i)
		fmt.Fprintf(&b, `<p>Paragraph %d has <strong>bold</strong>, <em>emphasis</em>, <code>inline code</code> and a <a href="page%d.html#x">relative link</a> to read before <a href="https://example.org/%d">this one</a>. It goes on for a while so that the text is realistic in length, as documentation tends to be.</p>`, i, i, i)
		b.WriteString(`<ul><li>first item</li><li>second item with <a href="/x">a link</a></li><li>third</li></ul>`)
		fmt.Fprintf(&b, `<table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td>k%d</td><td>v%d</td></tr><tr><td>other</td><td>thing</td></tr></tbody></table>`, i, i)
		fmt.Fprintf(&b, "<pre><code class=\"language-go\">func f%d() int {\n\treturn %d\n}</code></pre>", i, i)
	}
	b.WriteString(`</article></main><footer>Copyright</footer></body></html>`)
	return b.Bytes()
}

func BenchmarkFetchConvert1MB(b *testing.B) {
	page := benchPage()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	defer srv.Close()
	f := NewFetcher(FetchConfig{AllowNets: loopbackNets, CacheEntries: -1})
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		r, err := f.Fetch(b.Context(), FetchRequest{URL: srv.URL, MaxChars: MaxMaxChars})
		if err != nil || r.Cached || r.Content == "" {
			b.Fatal(r, err)
		}
	}
}

func BenchmarkConvert1MB(b *testing.B) {
	page := benchPage()
	conv := newMarkdownConverter()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := conv.ConvertReader(bytes.NewReader(page)); err != nil {
			b.Fatal(err)
		}
	}
}
