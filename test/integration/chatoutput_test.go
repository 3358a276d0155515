package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/stretchr/testify/assert"
)

// TestChatOutputInATerminal: while a slow model thinks, a spinner with the time elapsed;
// then the answer's Markdown rendered (plain under NO_COLOR: the markers removed), the
// spinner erased before it.
func TestChatOutputInATerminal(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	srv := geminitest.NewServer(
		geminitest.Step{Delay: 1500 * time.Millisecond, Text: []string{"Use **go ", "vet** and `go test`.\n", "```sh\n**kept**\n```\n"}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("› ")
	term.typeLine("check it")
	term.expect(" thinking ")
	term.expect("s\x1b[K") // the elapsed time, the rest of the line cleared
	term.expect("\r\x1b[JUse go vet and go test.\r\n")
	term.expect("```sh\r\n**kept**\r\n```")
	term.expect("› ")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())

	term.mu.Lock()
	out := term.out.String()
	term.mu.Unlock()
	i := strings.Index(out, " thinking ")
	assert.Contains(t, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", out[i-3:i], "a spinner frame before the label")
}
