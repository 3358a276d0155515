package edit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goLikeFile returns n lines of tab-indented Go-like code, with no backslash in them.
func goLikeFile(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "func handler%d(w http.ResponseWriter, r *http.Request) {\n", i)
		case 1:
			fmt.Fprintf(&b, "\tvalue := lookup(%q, r.URL.Query())\n", fmt.Sprint("key-", i))
		case 2:
			fmt.Fprintf(&b, "\tif value == nil {\n")
		case 3:
			fmt.Fprintf(&b, "\t\treturn // nothing for %d\n", i)
		case 4:
			fmt.Fprintf(&b, "\t}\n")
		}
	}
	return b.String()
}

// BenchmarkLoosestStrategy: an over-escaped old_string with extra spaces on a 10,000-line
// file, which only unescape (then single-line-whitespace) matches, after every other
// strategy has looked twice.
func BenchmarkLoosestStrategy(b *testing.B) {
	content := goLikeFile(10_000)
	r := req(`lookup(\"key-9001\",   r.URL.Query())`, `lookup(\"key-9001\", r.URL.Query(), true)`)
	res, err := Apply(content, r)
	require.NoError(b, err)
	require.Equal(b, "unescape+single-line-whitespace", res.Strategy)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		_, _ = Apply(content, r)
	}
}

// BenchmarkTypographyIndentation: a re-indented old_string with straight quotes for the
// file's curly ones on a 10,000-line file, which only the typography+indentation
// combination matches, after every strategy before it has looked.
func BenchmarkTypographyIndentation(b *testing.B) {
	content := strings.ReplaceAll(goLikeFile(10_000), `"key-`, `“key-`)
	r := req("value := lookup(\"key-9001\", r.URL.Query())\nif value == nil {", "value := lookup(\"key-9001\", r.URL.Query())\nif value != nil {")
	res, err := Apply(content, r)
	require.NoError(b, err)
	require.Equal(b, "typography+indentation", res.Strategy)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		_, _ = Apply(content, r)
	}
}

// BenchmarkNotFound: the closest-candidate search of a not-found error on a 10,000-line file.
func BenchmarkNotFound(b *testing.B) {
	content := goLikeFile(10_000)
	r := req("func handler9000(w http.ResponseWriter, r *http.Request) {\n\tvalue := lookup(\"key-9002\", r.URL.Query())\n", "x")
	_, err := Apply(content, r)
	var ee *Error
	require.ErrorAs(b, err, &ee)
	require.NotEmpty(b, ee.Closest)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		_, _ = Apply(content, r)
	}
}

// BenchmarkExact1MiB: an exact, unique edit in a 1 MiB file, against strings.Replace.
func BenchmarkExact1MiB(b *testing.B) {
	content := goLikeFile(40_000)
	for len(content) < 1<<20 {
		content += content[:min(len(content), 1<<20-len(content))]
	}
	content = content[:1<<20-len("UNIQUE_TARGET\n")] + "UNIQUE_TARGET\n"
	content = content[:len(content)/2] + "UNIQUE_MIDDLE" + content[len(content)/2:]
	old, repl := "UNIQUE_MIDDLE", "REPLACED"
	res, err := Apply(content, req(old, repl))
	require.NoError(b, err)
	require.Equal(b, strings.Replace(content, old, repl, 1), res.Content)

	b.Run("edit", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			_, _ = Apply(content, req(old, repl))
		}
	})
	b.Run("strings.Replace", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			_ = strings.Replace(content, old, repl, 1)
		}
	})
}
