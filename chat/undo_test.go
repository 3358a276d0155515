package chat

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowing approves every ask and records the tools it was asked about.
type allowing struct{ asked []string }

func (a *allowing) Approve(_ context.Context, r manager.ApprovalRequest) (manager.Answer, error) {
	a.asked = append(a.asked, r.Tool)
	return manager.AllowOnce, nil
}

// TestHostUndoIsTheChatsOwn: /undo takes back what this chat changed, never a change made
// outside it (here `jido call`: another manager on the same journal, as another process
// is), and asks no approval (the user typed it).
func TestHostUndoIsTheChatsOwn(t *testing.T) {
	root, journalDir := t.TempDir(), t.TempDir()
	approver := &allowing{}
	perms := policy.New(policy.ModeDefault)
	m, err := manager.New(manager.Config{Root: root, Permissions: perms, JournalDir: journalDir, Approver: approver})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "", manager.WithConversation("transcript-7"))
	require.NoError(t, err)
	exec := NewExecutor(s)
	t.Cleanup(func() { exec.Session().Close() })
	h := &SessionHost{Manager: m, Policy: perms, Exec: exec, Started: time.Now()}

	res := h.Exec.Execute(t.Context(), agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "mine.txt", "content": "chat\n"}})
	require.True(t, res.OK, "%s", res.Content)

	// `jido call` creates a file after the chat's change.
	call, err := manager.New(manager.Config{Root: root, JournalDir: journalDir})
	require.NoError(t, err)
	cs, err := call.Open(t.Context(), "")
	require.NoError(t, err)
	r := cs.Call(t.Context(), manager.ToolCall{Name: "write_file", Args: map[string]any{"path": "outside.txt", "content": "call\n"}})
	require.True(t, r.OK, "%+v", r.Error)
	cs.Close()
	call.Close()

	// Plan mode in between: the chat's next session is the same conversation.
	require.NoError(t, h.SetMode("plan"))
	require.NoError(t, h.SetMode("default"))

	msg, err := h.Undo(t.Context())
	require.NoError(t, err)
	assert.Contains(t, msg, "(write_file mine.txt): deletes mine.txt\n")
	assert.NoFileExists(t, filepath.Join(root, "mine.txt"))
	assert.FileExists(t, filepath.Join(root, "outside.txt"), "a change made outside the chat stays")

	msg, err = h.Undo(t.Context())
	require.NoError(t, err)
	assert.Contains(t, msg, "nothing of this chat to undo")
	assert.FileExists(t, filepath.Join(root, "outside.txt"))
	assert.Equal(t, []string{"write_file"}, approver.asked, "the user's /undo is not asked about again")
}

// keys is a KeyReader that presses the given keys, then ends the input.
type keys struct {
	presses []rune
	prompts []string
}

func (k *keys) ReadKey(prompt string) (rune, error) {
	k.prompts = append(k.prompts, prompt)
	if len(k.presses) == 0 {
		return 0, io.EOF
	}
	r := k.presses[0]
	k.presses = k.presses[1:]
	if r == 3 {
		return 0, ErrInterrupted
	}
	return r, nil
}

func TestApproverSingleKeys(t *testing.T) {
	req := manager.ApprovalRequest{Tool: "write_file", Paths: []string{"a.txt"}, Reason: "mode default needs approval for write_file a.txt",
		Rule: "[[allow]]\ntool = \"write_file\"\npaths = [\"a.txt\"]", RuleFile: ".jido/config.toml",
		RuleNote: "that file is not trusted: the rule applies to this run, and to later ones after `jido trust`"}
	for _, tc := range []struct {
		name    string
		presses []rune
		want    manager.Answer
		echo    string
	}{
		{"y", []rune{'y'}, manager.AllowOnce, "once"},
		{"Y", []rune{'Y'}, manager.AllowOnce, "once"},
		{"s", []rune{'s'}, manager.AllowSession, "this session"},
		{"a", []rune{'a'}, manager.AllowAlways, "always"},
		{"n", []rune{'n'}, manager.Deny, "no"},
		{"Enter", []rune{'\r'}, manager.Deny, "no"},
		{"Esc", []rune{0x1b}, manager.Deny, "no"},
		{"another key, then y", []rune{'x', 'y'}, manager.AllowOnce, "x\n  answer y, s, a or n\n"},
		{"end of input", nil, manager.Deny, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			k := &keys{presses: tc.presses}
			lines := &script{lines: []string{"a"}} // never read: the keys answer
			a := &Approver{In: lines, Keys: k, Out: &out}
			got, err := a.Approve(t.Context(), req)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Empty(t, lines.prompts)
			assert.Contains(t, out.String(), tc.echo)
			assert.Contains(t, out.String(), "[s] and [a] allow from now on:\n    [[allow]]\n    tool = \"write_file\"\n    paths = [\"a.txt\"]\n")
			assert.Contains(t, out.String(), "[a] writes it to .jido/config.toml (that file is not trusted: the rule applies to this run, and to later ones after `jido trust`)\n")
			require.NotEmpty(t, k.prompts)
			assert.Contains(t, k.prompts[0], "[y] once  [s] this session  [a] always  [n] no")
		})
	}

	var out bytes.Buffer
	interrupted := false
	a := &Approver{In: &script{}, Keys: &keys{presses: []rune{3}}, Out: &out, OnInterrupt: func() { interrupted = true }}
	got, err := a.Approve(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, manager.Deny, got)
	assert.True(t, interrupted, "Ctrl-C stops the turn")
}

// failingKeys cannot read keys (not a terminal after all).
type failingKeys struct{}

func (failingKeys) ReadKey(string) (rune, error) { return 0, os.ErrInvalid }

func TestApproverFallsBackToLines(t *testing.T) {
	var out bytes.Buffer
	lines := &script{lines: []string{"s"}}
	a := &Approver{In: lines, Keys: failingKeys{}, Out: &out}
	got, err := a.Approve(t.Context(), manager.ApprovalRequest{Tool: "write_file"})
	require.NoError(t, err)
	assert.Equal(t, manager.AllowSession, got)
	assert.Len(t, lines.prompts, 1)

	// NewApprover reads lines when standard input is no terminal (as under go test).
	assert.Nil(t, NewApprover(&script{}, &out, false).Keys)
}
