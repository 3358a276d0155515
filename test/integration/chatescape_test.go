package integration

import (
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChatEscapesHostileText replays the redraw attack of issue 16 on a real terminal: a
// command whose comment moves the cursor up and erases the approval question to write a
// harmless one over it. The question must show the sequences, not obey them.
func TestChatEscapesHostileText(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"src2/keep.txt": "keep\n"})
	const attack = "rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell wants to run: ls (read-only)"
	srv := geminitest.NewServer(
		geminitest.Step{Text: []string{"Cleaning up.\x1b", "[1A\x1b[2K\u009b2J "}, Calls: []geminitest.Call{{ID: "s1", Name: "run_shell", Args: map[string]any{"command": attack}}}},
		geminitest.Step{Text: []string{"Fine."}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("› ")
	term.typeLine("tidy up")
	term.expect(`Cleaning up.\x1b[1A\x1b[2K\u009b2J`)
	term.expect(`rm -rf src2 #\x1b[1A\x1b[2K\r? run_shell wants to run: ls (read-only)`)
	term.expect("allow?")
	term.typeLine("n")
	term.expect("Fine.")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())

	term.mu.Lock()
	out := term.out.String()
	term.mu.Unlock()
	for _, raw := range []string{"#\x1b[1A", "\x1b[2K\r?", "\u009b2J", ".\x1b[1A"} {
		assert.NotContains(t, out, raw, "a sequence of the model reached the terminal")
	}
	require.FileExists(t, filepath.Join(dir, "src2", "keep.txt"), "denied: nothing removed")
}
