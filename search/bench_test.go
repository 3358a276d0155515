package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each benchmark of the package sits beside the direct Go equivalent, on the same ~4 MiB of Go
// source (net/http from GOROOT, repeated; a generated file when GOROOT has no sources).
const corpusSize = 4 << 20

var corpus = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			buf.Write(b)
		}
	}
	if buf.Len() < 1<<20 {
		buf.Reset()
		for i := 0; buf.Len() < corpusSize; i++ {
			fmt.Fprintf(&buf, "// handler%d serves a request. Created 2024-01-%02d.\n", i, i%28+1)
			fmt.Fprintf(&buf, "func handler%d(ctx context.Context, w http.ResponseWriter, r *http.Request) error {\n", i)
			fmt.Fprintf(&buf, "\tif err := r.ParseForm(); err != nil {\n\t\treturn fmt.Errorf(\"parse %%d: %%w\", %d, err)\n\t}\n", i)
			fmt.Fprintf(&buf, "\tw.Header().Set(\"X-Id\", strconv.Itoa(%d))\n\treturn nil\n}\n\n", i)
		}
	}
	src := buf.Bytes()
	out := make([]byte, 0, corpusSize+len(src))
	for len(out) < corpusSize {
		out = append(out, src...)
	}
	out = out[:corpusSize]
	return out[:bytes.LastIndexByte(out, '\n')+1]
})

func benchSearch(b *testing.B, o Options) {
	data := corpus()
	m, err := Compile(o)
	require.NoError(b, err)
	emit := func(Match) bool { return true }
	n := m.Search(data, emit)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Search(data, emit)
	}
	b.ReportMetric(float64(n), "lines")
}

func benchCount(b *testing.B, o Options) {
	data := corpus()
	m, err := Compile(o)
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m.Count(data, 0)
	}
}

const benchLiteral = "ResponseWriter"

func BenchmarkLiteral(b *testing.B)      { benchSearch(b, Options{Query: benchLiteral}) }
func BenchmarkLiteralCount(b *testing.B) { benchCount(b, Options{Query: benchLiteral}) }

// BenchmarkBytesIndexBaseline is the floor for a literal: count its occurrences, nothing else.
func BenchmarkBytesIndexBaseline(b *testing.B) {
	data, lit := corpus(), []byte(benchLiteral)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		bytes.Count(data, lit)
	}
}

const (
	regexWithLiteral = `func \w+\(ctx context\.Context`
	regexNoLiteral   = `[0-9]{4}-[0-9]{2}-[0-9]{2}`
)

func BenchmarkRegexWithLiteral(b *testing.B) {
	benchSearch(b, Options{Query: regexWithLiteral, Regex: true})
}
func BenchmarkRegexNoLiteral(b *testing.B) {
	benchSearch(b, Options{Query: regexNoLiteral, Regex: true})
}

// BenchmarkRegexNoLiteralScan has no literal at all: the regexp scans the whole buffer.
func BenchmarkRegexNoLiteralScan(b *testing.B) {
	benchSearch(b, Options{Query: `[A-Z][a-z]+[0-9]{3}`, Regex: true})
}

// BenchmarkAlternation looks for each branch's literal side by side.
func BenchmarkAlternation(b *testing.B) {
	benchSearch(b, Options{Query: `TODO|FIXME|XXX`, Regex: true})
}

// perLine is the naive search: split into lines, run the regexp on each.
func perLine(b *testing.B, expr string) {
	data, re := corpus(), regexp.MustCompile(expr)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		for line := range bytes.Lines(data) {
			if re.Match(line) {
				n++
			}
		}
	}
}

func BenchmarkRegexpPerLineBaseline(b *testing.B)            { perLine(b, regexNoLiteral) }
func BenchmarkRegexpPerLineBaselineWithLiteral(b *testing.B) { perLine(b, regexWithLiteral) }

// BenchmarkRegexpWholeBufferBaseline runs Go's regexp once over the buffer.
func BenchmarkRegexpWholeBufferBaseline(b *testing.B) {
	data, re := corpus(), regexp.MustCompile(`(?m)`+regexWithLiteral)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		re.FindAllIndex(data, -1)
	}
}

func BenchmarkIgnoreCase(b *testing.B) { benchSearch(b, Options{Query: "FUNC MAIN", IgnoreCase: true}) }

// BenchmarkIgnoreCaseKelvin has only k/s letters' neighbours to go by: line prefilter + regexp.
func BenchmarkIgnoreCaseKelvin(b *testing.B) {
	benchSearch(b, Options{Query: "keepalive", IgnoreCase: true})
}

// BenchmarkLowerCopyBaseline is the usual case-insensitive search: lower the buffer, then index.
func BenchmarkLowerCopyBaseline(b *testing.B) {
	data, lit := corpus(), []byte("func main")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		bytes.Count(bytes.ToLower(data), lit)
	}
}

// BenchmarkNoMatch is the common case of a walk: a file without the query.
func BenchmarkNoMatch(b *testing.B) {
	for _, o := range noMatchQueries {
		name := strings.NewReplacer("/", "", " ", "_").Replace(o.Query)
		if o.IgnoreCase {
			name += "/i"
		}
		if o.Multiline {
			name += "/U"
		}
		b.Run(name, func(b *testing.B) {
			if m, err := Compile(o); err != nil || m.Matches(corpus()) {
				b.Skip("matches the corpus")
			}
			benchSearch(b, o)
		})
	}
}
