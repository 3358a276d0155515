package edit

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCorpus(t *testing.T) {
	names := map[string]bool{}
	for _, c := range append(corpus[:len(corpus):len(corpus)], failureCorpus...) {
		require.False(t, names[c.name], "duplicate case %s", c.name)
		names[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			res, err := Apply(c.content, c.req)
			if c.kind != 0 {
				var ee *Error
				require.ErrorAs(t, err, &ee)
				assert.Equal(t, c.kind, ee.Kind, ee.Message)
				if c.lines != nil {
					assert.Equal(t, c.lines, ee.Lines)
				}
				if c.closest != 0 {
					require.NotEmpty(t, ee.Closest, ee.Message)
					assert.Equal(t, c.closest, ee.Closest[0].Line)
				}
				if c.msg != "" {
					assert.Contains(t, ee.Message, c.msg)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Content)
			assert.Equal(t, c.strategy, res.Strategy)
			assert.Equal(t, max(c.n, 1), res.Replacements)
			if c.edits != nil {
				assert.Equal(t, c.edits, res.Edits)
			}
			checkUntouched(t, c.content, res)
		})
	}
}

// checkUntouched checks that the byte order mark is kept and that the lines before the
// first edit and after the last are the input's, byte for byte.
func checkUntouched(t *testing.T, content string, res Result) {
	t.Helper()
	require.NotEmpty(t, res.Edits)
	if strings.HasPrefix(content, bom) {
		require.True(t, strings.HasPrefix(res.Content, bom), "byte order mark lost")
		content, res.Content = content[len(bom):], res.Content[len(bom):]
	}
	for i := 1; i < len(res.Edits); i++ {
		require.Greater(t, res.Edits[i].StartLine, res.Edits[i-1].EndLine, "edits overlap or are out of order: %v", res.Edits)
	}
	first, last := res.Edits[0], res.Edits[len(res.Edits)-1]
	head := lineOffset(res.Content, first.StartLine)
	tail := res.Content[lineOffset(res.Content, last.EndLine+1):]
	require.LessOrEqual(t, head, len(content)-len(tail), "edits %v: head and tail overlap", res.Edits)
	require.Equal(t, content[:head], res.Content[:head], "lines before the edits %v changed", res.Edits)
	require.True(t, strings.HasSuffix(content, tail), "lines after the edits %v changed: %q", res.Edits, tail)
}

// lineOffset returns where line n (1-based) of s starts, or len(s) past the last line.
func lineOffset(s string, n int) int {
	off := 0
	for ; n > 1; n-- {
		k := strings.IndexByte(s[off:], '\n')
		if k < 0 {
			return len(s)
		}
		off += k + 1
	}
	return off
}

func TestStrategies(t *testing.T) {
	assert.Equal(t, []string{"exact", "typography", "trailing-whitespace", "indentation", "inner-whitespace",
		"unicode-nfc", "typography+trailing-whitespace", "typography+indentation", "typography+inner-whitespace",
		"single-line-whitespace", "unescape", "blank-lines", "code-fence"}, Strategies())
}

func TestErrorKindString(t *testing.T) {
	for k, want := range map[ErrorKind]string{NotFound: "not_found", Ambiguous: "ambiguous", NoChange: "no_change", Invalid: "invalid", 0: "ErrorKind(0)"} {
		assert.Equal(t, want, k.String())
	}
	err := error(&Error{Kind: NotFound, Message: "m"})
	var ee *Error
	require.True(t, errors.As(err, &ee))
	assert.Equal(t, "m", err.Error())
}
