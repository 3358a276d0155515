package redact

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// goSource returns about n bytes of Go source: the non-test files of a few parser and
// runtime packages, concatenated in a fixed order.
func goSource(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	for _, dir := range []string{"go/parser", "go/printer", "go/types", "net/http", "runtime"} {
		files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		sort.Strings(files)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			buf.Write(b)
			if buf.Len() >= n {
				return buf.Bytes()[:n]
			}
		}
	}
	if buf.Len() < n {
		tb.Skipf("Go source tree too small or missing (%d bytes)", buf.Len())
	}
	return buf.Bytes()[:n]
}

// withSecrets plants k secrets, cycling through samples, at line starts spread evenly
// over src.
func withSecrets(src []byte, k int, samples []string) []byte {
	var out bytes.Buffer
	step := len(src) / k
	prev := 0
	for i := 0; i < k; i++ {
		at := max(prev, (i+1)*step)
		if nl := bytes.IndexByte(src[at:], '\n'); nl >= 0 {
			at += nl + 1
		}
		out.Write(src[prev:at])
		out.WriteString("\t// " + samples[i%len(samples)] + "\n")
		prev = at
	}
	out.Write(src[prev:])
	return out.Bytes()
}

// benchRedact runs Redactor.Bytes over data next to the baseline, a bytes.Index of one
// keyword over the same data.
func benchRedact(b *testing.B, data []byte) {
	r := Default()
	b.Run("redact", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			r.Bytes(data)
		}
	})
	b.Run("baseline-bytes.Index", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		kw := []byte("password")
		for b.Loop() {
			bytes.Index(data, kw)
		}
	})
}

// BenchmarkRedactNoSecrets measures the common case: 1 MiB of ordinary Go source.
func BenchmarkRedactNoSecrets(b *testing.B) {
	data := goSource(b, 1<<20)
	if _, counts := Default().Bytes(data); counts != nil {
		b.Logf("unexpected redactions in the corpus: %v", counts)
	}
	benchRedact(b, data)
}

// BenchmarkRedactWithSecrets is 1 MiB of Go source with 100 planted secrets.
func BenchmarkRedactWithSecrets(b *testing.B) {
	data := withSecrets(goSource(b, 1<<20), 100, plantable())
	if _, counts := Default().Bytes(data); counts == nil {
		b.Fatal("planted secrets not found")
	}
	benchRedact(b, data)
}
