package chat

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPastesTranslate checks what the line editor gets of a burst of terminal input, and
// what the line it returns expands to.
func TestPastesTranslate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		burst  string
		out    string // what the editor reads
		expand string // the editor's line (out without its Enter) expanded; "" when out is kept
		rest   string
	}{
		{name: "typing", burst: "abc", out: "abc"},
		{name: "a line and Enter", burst: "ls -la\r", out: "ls -la\r"},
		{name: "arrow key", burst: "\x1b[A", out: "\x1b[A"},
		{name: "ctrl-c", burst: "\x03", out: "\x03"},
		{name: "bracketed paste of three lines", burst: "\x1b[200~one\rtwo\rthree\x1b[201~", out: "[paste #1: 3 lines]", expand: "one\ntwo\nthree"},
		{name: "bracketed paste, then Enter", burst: "\x1b[200~one\r\ntwo\n\x1b[201~\r", out: "[paste #1: 2 lines]\r", expand: "one\ntwo"},
		{name: "bracketed one line is typed in", burst: "see \x1b[200~main.go\x1b[201~", out: "see main.go"},
		{name: "one line copied with its newline", burst: "\x1b[200~main.go\n\x1b[201~", out: "main.go"},
		{name: "a tab would be a key", burst: "\x1b[200~a\tb\x1b[201~", out: "[paste #1: 3 chars]", expand: "a\tb"},
		{name: "lines that came together", burst: "one\rtwo\rthree\r", out: "[paste #1: 3 lines]\r", expand: "one\ntwo\nthree"},
		{name: "lines that came together, no Enter", burst: "one\ntwo", out: "[paste #1: 2 lines]", expand: "one\ntwo"},
		{name: "keys among lines are typing", burst: "y\r\x1b[A\r", out: "y\r\x1b[A\r"},
		{name: "paste not ended yet", burst: "x\x1b[200~one\rtw", out: "x", rest: "\x1b[200~one\rtw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Pastes{}
			out, rest := p.translate([]byte(tc.burst))
			assert.Equal(t, tc.out, string(out))
			assert.Equal(t, tc.rest, string(rest))
			if tc.expand != "" {
				line := string(bytes.TrimSuffix(out, []byte("\r")))
				assert.Equal(t, tc.expand, p.Expand(line))
				assert.Equal(t, "say "+tc.expand+" twice: "+tc.expand, p.Expand("say "+line+" twice: "+line), "a recalled line expands again")
			}
		})
	}
	p := &Pastes{}
	assert.Equal(t, "[paste #9: 2 lines] edited [paste #1: 2 line", p.Expand("[paste #9: 2 lines] edited [paste #1: 2 line"), "unknown and edited placeholders stay")
	var none *Pastes
	assert.Equal(t, "x", none.Expand("x"))
}

// TestPastesFilter checks the timing: lines written together are one paste, a line
// typed after a pause is not.
func TestPastesFilter(t *testing.T) {
	src, w := io.Pipe()
	var dst bytes.Buffer
	done := make(chan error)
	p := &Pastes{Quiet: 20 * time.Millisecond}
	go func() { done <- p.Filter(src, &dst) }()
	for _, chunk := range []string{"one\r", "two\r", "three\r"} { // three writes, no pause
		_, err := io.WriteString(w, chunk)
		require.NoError(t, err)
	}
	time.Sleep(100 * time.Millisecond)
	_, err := io.WriteString(w, "alone\r")
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	_, err = io.WriteString(w, "\x1b[200~cut\rshort")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, <-done)
	assert.Equal(t, "[paste #1: 3 lines]\ralone\r[paste #2: 2 lines]", dst.String())
	assert.Equal(t, "one\ntwo\nthree", p.Expand("[paste #1: 3 lines]"))
	assert.Equal(t, "cut\nshort", p.Expand("[paste #2: 2 lines]"), "a paste cut by the end of input is kept")
}
