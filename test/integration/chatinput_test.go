package integration

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastText is the text of a request's last content (the user's message).
func lastText(t *testing.T, r geminitest.Request) string {
	t.Helper()
	require.NotEmpty(t, r.Contents)
	var b strings.Builder
	for _, p := range r.Contents[len(r.Contents)-1].Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// send writes raw bytes to the terminal, as a paste would come.
func (term *terminal) send(raw string) {
	_, err := io.WriteString(term.tty, raw)
	require.NoError(term.t, err)
}

// TestChatPasteIsOneMessage: three pasted lines are one request, bracketed or not.
func TestChatPasteIsOneMessage(t *testing.T) {
	dir := t.TempDir()
	srv := geminitest.NewServer(
		geminitest.Step{Text: []string{"Got the bracketed paste."}},
		geminitest.Step{Text: []string{"Got the fast lines."}},
		geminitest.Step{Text: []string{"Got the continued line."}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("\x1b[?2004h") // bracketed paste on
	term.expect("jido › ")

	term.send("\x1b[200~first line\rsecond line\rthird line\x1b[201~")
	term.expect("[paste #1: 3 lines]")
	term.send("\r")
	term.expect("Got the bracketed paste.")
	term.expect("jido › ")
	reqs := srv.Requests()
	require.Len(t, reqs, 1, "one message, one request")
	assert.Equal(t, "first line\nsecond line\nthird line", lastText(t, reqs[0]))

	term.send("alpha\rbeta\rgamma\r") // a terminal without bracketed paste: lines at once
	term.expect("Got the fast lines.")
	term.expect("jido › ")
	reqs = srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "alpha\nbeta\ngamma", lastText(t, reqs[1]))

	term.typeLine(`one \`)
	term.expect("… ")
	term.typeLine("two")
	term.expect("Got the continued line.")
	reqs = srv.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "one \ntwo", lastText(t, reqs[2]))

	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())
	term.expect("\x1b[?2004l") // and off again
}

// TestChatPlanApply: a plan is written only by /apply (asked about), and leaving with an
// unapplied plan is warned of first.
func TestChatPlanApply(t *testing.T) {
	dir := t.TempDir()
	srv := geminitest.NewServer(
		geminitest.Step{Calls: []geminitest.Call{{ID: "w1", Name: "write_file", Args: map[string]any{"path": "plan.txt", "content": "planned\n"}}}},
		geminitest.Step{Text: []string{"Planned plan.txt."}},
		geminitest.Step{Text: []string{"Noted."}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("jido › ")
	term.typeLine("/mode plan")
	term.expect("mode: plan")
	term.expect("jido [plan] › ")
	term.typeLine("plan a file")
	term.expect("Planned plan.txt.")
	assert.NoFileExists(t, filepath.Join(dir, "plan.txt"))

	term.typeLine("/exit")
	term.expect("the plan changes 1 file; /apply it, or type /exit again to drop it")
	term.typeLine("/apply")
	term.expect("allow?")
	term.typeLine("y")
	term.expect("plan applied")
	data, err := os.ReadFile(filepath.Join(dir, "plan.txt"))
	require.NoError(t, err)
	assert.Equal(t, "planned\n", string(data))

	term.typeLine("thanks")
	term.expect("Noted.")
	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	assert.Contains(t, lastText(t, reqs[2]), "I applied the plan: 1 file written to the project.")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit(), "nothing left to apply: no warning")
}

// TestChatMentionAndCommand: @README.md is read and attached; !ls runs in the sandbox,
// is shown, and goes to the model with the next message.
func TestChatMentionAndCommand(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello from the readme\n", "zeta.txt": "z\n"})
	srv := geminitest.NewServer(
		geminitest.Step{Text: []string{"It greets."}},
		geminitest.Step{Text: []string{"Two files."}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("jido › ")

	term.typeLine("what does @README.md say to @nobody?")
	term.expect("● read_file README.md → 1 line")
	term.expect("It greets.")
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	text := lastText(t, reqs[0])
	assert.True(t, strings.HasPrefix(text, "what does @README.md say to @nobody?\n\n@README.md:\n```\n"), text)
	assert.Contains(t, text, "hello from the readme")

	term.typeLine("!ls")
	term.expect("● run_shell ls → exit 0")
	term.expect("zeta.txt")
	term.expect("jido › ")
	require.Len(t, srv.Requests(), 1, "a command is not a turn")
	term.typeLine("how many files?")
	term.expect("Two files.")
	reqs = srv.Requests()
	require.Len(t, reqs, 2)
	text = lastText(t, reqs[1])
	assert.True(t, strings.HasPrefix(text, "I ran `ls` (exit 0):\n```\n"), text)
	assert.Contains(t, text, "zeta.txt")
	assert.True(t, strings.HasSuffix(text, "how many files?"), text)

	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())
}
