package chat

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// render renders a whole answer at once.
func render(color bool, s string) string {
	m := NewMarkdown(color)
	out := m.Write(s)
	if rest := m.Flush(); rest != "" {
		out += rest + "\n"
	}
	return out
}

func TestMarkdownConstructs(t *testing.T) {
	const (
		B  = "\x1b[1m"
		I  = "\x1b[3m"
		U  = "\x1b[4m"
		C  = "\x1b[36m"
		D  = "\x1b[2m"
		R  = "\x1b[0m"
		BU = B + U
	)
	for _, tc := range []struct {
		name, in, color, plain string
	}{
		{"bold", "a **b** c", "a " + B + "b" + R + " c", "a b c"},
		{"italic star", "a *b* c", "a " + I + "b" + R + " c", "a b c"},
		{"italic underscore", "a _b c_ d", "a " + I + "b c" + R + " d", "a b c d"},
		{"code", "run `go test ./...` now", "run " + C + "go test ./..." + R + " now", "run go test ./... now"},
		{"code keeps markers", "`**x** _y_`", C + "**x** _y_" + R, "**x** _y_"},
		{"double backticks", "`` a`b ``", C + "a`b" + R, "a`b"},
		{"bold with code inside", "**see `x`**", B + "see " + R + B + C + "x" + R, "see x"},
		{"italic inside bold", "**a *b* c**", B + "a " + R + B + I + "b" + R + B + " c" + R, "a b c"},
		{"a run of three is left alone", "**a *b***", "**a *b***", "**a *b***"},
		{"link", "see [the docs](https://x.dev/a) here", "see the docs (" + U + "https://x.dev/a" + R + ") here", "see the docs (https://x.dev/a) here"},
		{"link with title", `[t](https://x.dev "T")`, "t (" + U + "https://x.dev" + R + ")", "t (https://x.dev)"},
		{"link to itself", "[https://x.dev](https://x.dev)", "(" + U + "https://x.dev" + R + ")", "(https://x.dev)"},
		{"autolink", "<https://x.dev>", U + "https://x.dev" + R, "https://x.dev"},
		{"brackets that are no link", "a[0] and [x]", "a[0] and [x]", "a[0] and [x]"},
		{"heading 1", "# Title *x*", BU + "Title " + R + BU + I + "x" + R, "# Title x"},
		{"heading 2", "## Sub ##", B + "Sub" + R, "## Sub ##"},
		{"bullet", "- item **b**", C + "•" + R + " item " + B + "b" + R, "- item b"},
		{"star bullet nested", "  * item", "  " + C + "•" + R + " item", "  * item"},
		{"numbered", "12. step `x`", C + "12." + R + " step " + C + "x" + R, "12. step x"},
		{"quote", "> said *so*", D + "│" + R + " " + I + "said " + R + I + I + "so" + R, "> said so"},
		{"rule", "---", D + strings.Repeat("─", 40) + R, "---"},
		{"escaped markers", `\*not\* \_em\_`, "*not* _em_", "*not* _em_"},
		{"snake_case stays", "call my_func_name or __init__", "call my_func_name or __init__", "call my_func_name or __init__"},
		{"multiplication stays", "2 * 3 * 4", "2 * 3 * 4", "2 * 3 * 4"},
		{"globs stay", "250 files match **/*.go:", "250 files match **/*.go:", "250 files match **/*.go:"},
		{"unclosed", "a **b and `c", "a **b and `c", "a **b and `c"},
		{"CRLF", "x\r", "x", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.color+"\n", render(true, tc.in+"\n"), "colour")
			assert.Equal(t, tc.plain+"\n", render(false, tc.in+"\n"), "plain")
		})
	}
}

func TestMarkdownCodeBlocks(t *testing.T) {
	in := "Here:\n```go\nfunc **f**() { _x_ := `y` }\n\tindented\n```\nafter **b**\n~~~\n# not a heading\n~~~~\n"
	assert.Equal(t, "Here:\n```go\nfunc **f**() { _x_ := `y` }\n\tindented\n```\nafter b\n~~~\n# not a heading\n~~~~\n",
		render(false, in), "plain: code kept verbatim with its fences")
	assert.Equal(t, "Here:\n\x1b[2m```go\x1b[0m\n  func **f**() { _x_ := `y` }\n  \tindented\n\x1b[2m```\x1b[0m\n"+
		"after \x1b[1mb\x1b[0m\n\x1b[2m~~~\x1b[0m\n  # not a heading\n\x1b[2m~~~~\x1b[0m\n",
		render(true, in), "colour: fences dim (the language shown), code indented, verbatim")

	t.Run("a shorter or other fence does not close", func(t *testing.T) {
		assert.Equal(t, "````\n```\n~~~\n````\n**b**\n", render(false, "````\n```\n~~~\n````\n**b**\n")[:len("````\n```\n~~~\n````\n")]+"**b**\n")
		got := render(false, "````\n```\nx\n````\n*i*\n")
		assert.Equal(t, "````\n```\nx\n````\ni\n", got)
	})
	t.Run("a fence left open ends with the answer", func(t *testing.T) {
		m := NewMarkdown(false)
		assert.Equal(t, "```\n**x**\n", m.Write("```\n**x**\n"))
		assert.Equal(t, "", m.Flush())
		assert.Equal(t, "x\n", m.Write("**x**\n"), "the next answer is Markdown again")
	})
}

func TestMarkdownStreamsLineByLine(t *testing.T) {
	doc := "Intro **bold** and `code`.\n\n```python\nprint('**hi**')\n```\n- item *one*\n1. [link](https://x.dev)\nlast line without newline **b**"
	for _, color := range []bool{false, true} {
		want := render(color, doc)
		t.Run("every split in two", func(t *testing.T) {
			for i := range len(doc) + 1 {
				m := NewMarkdown(color)
				got := m.Write(doc[:i])
				got += m.Write(doc[i:])
				got += m.Flush() + "\n"
				require.Equal(t, want, got, "split at %d", i)
			}
		})
		t.Run("byte by byte, only complete lines", func(t *testing.T) {
			m := NewMarkdown(color)
			var got strings.Builder
			for i := range len(doc) {
				out := m.Write(doc[i : i+1])
				if doc[i] != '\n' {
					require.Empty(t, out, "nothing shown before a line is complete (byte %d)", i)
				} else {
					require.True(t, strings.HasSuffix(out, "\n"))
				}
				got.WriteString(out)
			}
			assert.True(t, m.Pending())
			got.WriteString(m.Flush() + "\n")
			assert.Equal(t, want, got.String())
		})
	}
}

func TestMarkdownEscapesNeutralised(t *testing.T) {
	hostile := "**bold\x1b[2J** `code\x1b]0;owned\a` [text\u202e](https://x\x1b[1A.dev) _i\u009b2J_\n" +
		"# head\x1b[5m\n- item\r\x1b[2K\n```sh\x1b[31m\nrm -rf /\x1b[1A\x1b[2K\rls\n```\n" + redraw + "\n"
	for _, color := range []bool{false, true} {
		out := render(color, hostile)
		assertTerminalSafe(t, out)
		if !color {
			assert.NotContains(t, out, "\x1b", "no ESC at all in plain text")
		}
		for _, want := range []string{`bold\x1b[2J`, `code\x1b]0;owned\a`, `text\u202e`, `https://x\x1b[1A.dev`, `i\u009b2J`,
			`head\x1b[5m`, `item\r\x1b[2K`, "```sh\\x1b[31m", `rm -rf /\x1b[1A\x1b[2K\rls`, `rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell`} {
			assert.Contains(t, ownColour.ReplaceAllString(out, ""), want, "shown escaped (colour %v)", color)
		}
	}
	t.Run("split escape sequences and characters across chunks", func(t *testing.T) {
		m := NewMarkdown(true)
		var out strings.Builder
		for _, c := range hostileChunks {
			out.WriteString(m.Write(c))
		}
		out.WriteString(m.Flush())
		assertTerminalSafe(t, out.String())
		assert.Equal(t, hostileShown, out.String())
	})
}
