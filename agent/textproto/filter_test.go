package textproto

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBlockFilter(t *testing.T) {
	cases := []struct {
		name, in, out string
	}{
		{name: "prose", in: "Hello\nworld", out: "Hello\nworld"},
		{name: "a block", in: "Let me look.\n```tool-call\n{\"name\": \"x\"}\n```\nDone.\n", out: "Let me look.\nDone.\n"},
		{name: "other fences stay", in: "```go\nx := 1\n```\n", out: "```go\nx := 1\n```\n"},
		{name: "a fence prefix that is not one", in: "``` tool\n```tool-calls\n", out: "``` tool\n```tool-calls\n"},
		{name: "open block at the end", in: "Go.\n```tool-call\n{\"name\"", out: "Go.\n"},
		{name: "fence at the very end", in: "Go.\n  ```tool-call", out: "Go.\n"},
		{name: "backticks at the end", in: "Go.\n``", out: "Go.\n``"},
		{name: "CRLF", in: "a\r\n```tool-call \r\n{}\r\n```\r\nb", out: "a\r\nb"},
	}
	for _, tc := range cases {
		for _, size := range []int{1, 2, 5, len(tc.in)} {
			var shown strings.Builder
			f := &blockFilter{out: func(s string) { shown.WriteString(s) }}
			for i := 0; i < len(tc.in); i += size {
				f.write(tc.in[i:min(i+size, len(tc.in))])
			}
			f.flush()
			assert.Equal(t, tc.out, shown.String(), "%s, pieces of %d", tc.name, size)
		}
	}
}

func TestBlockFilterStreamsProseAtOnce(t *testing.T) {
	var pieces []string
	f := &blockFilter{out: func(s string) { pieces = append(pieces, s) }}
	for _, p := range []string{"Hel", "lo the", "re\n", "``", "`tool-call\n{}\n```\n", "bye"} {
		f.write(p)
	}
	f.flush()
	assert.Equal(t, []string{"Hel", "lo the", "re\n", "bye"}, pieces)
}
