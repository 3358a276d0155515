package manager

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// journaledManager is a manager over a fresh root with a journal, under cfg.
func journaledManager(t *testing.T, cfg Config) (*Manager, string) {
	t.Helper()
	cfg.Root, cfg.JournalDir = t.TempDir(), t.TempDir()
	m, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return m, cfg.Root
}

func open(t *testing.T, m *Manager, opts ...SessionOption) *Session {
	t.Helper()
	s, err := m.Open(t.Context(), "", opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func write(t *testing.T, s *Session, path string) {
	t.Helper()
	r := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": path, "content": path + "\n"}})
	require.True(t, r.OK, "%+v", r.Error)
}

func changes(t *testing.T, s *Session) []journal.Entry {
	t.Helper()
	u, err := ResultAs[builtin.UndoResult](s.CallCanonical(UserInitiated(t.Context()), ToolCall{Name: "undo", Args: map[string]any{"list": true}}))
	require.NoError(t, err)
	return u.Changes
}

func TestChangeSetsKnowTheirSession(t *testing.T) {
	m, root := journaledManager(t, Config{})
	chat := open(t, m, WithConversation("transcript-1"))
	other := open(t, m)
	assert.Equal(t, "transcript-1", chat.Conversation())
	assert.Equal(t, other.ID(), other.Conversation(), "without a conversation, the session is its own")

	write(t, chat, "a.txt")
	write(t, other, "b.txt")
	list := changes(t, chat)
	require.Len(t, list, 2)
	assert.Equal(t, journal.Origin{Session: other.ID(), Conversation: other.ID()}, list[0].Origin)
	assert.Equal(t, journal.Origin{Session: chat.ID(), Conversation: "transcript-1"}, list[1].Origin)
	assert.Equal(t, []journal.Before{{Path: "a.txt"}}, list[1].Before, "the listing names the files, not the journal's blobs")

	// The chat's undo takes back its own change, not the newer one made outside it.
	u, err := ResultAs[builtin.UndoResult](chat.Call(t.Context(), ToolCall{Name: "undo"}))
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, u.Deleted)
	assert.NoFileExists(t, filepath.Join(root, "a.txt"))
	assert.FileExists(t, filepath.Join(root, "b.txt"))
	r := chat.Call(t.Context(), ToolCall{Name: "undo"})
	require.NotNil(t, r.Error)
	assert.Contains(t, r.Error.Message, "nothing to undo")
	assert.FileExists(t, filepath.Join(root, "b.txt"))

	// A later session of the same conversation (a chat resumed, or out of plan mode) reaches it.
	write(t, chat, "c.txt")
	next := open(t, m, WithConversation("transcript-1"))
	u, err = ResultAs[builtin.UndoResult](next.Call(t.Context(), ToolCall{Name: "undo"}))
	require.NoError(t, err)
	assert.Equal(t, []string{"c.txt"}, u.Deleted)
}

func TestUserInitiatedCallsNeedNoSecondApproval(t *testing.T) {
	engine := policy.New(policy.ModeDefault)
	_, err := engine.Remember(policy.Rule{Action: policy.Deny, Tool: "run_shell", Command: "rm"}, policy.ScopeSession)
	require.NoError(t, err)
	approver := &scripted{}
	s, root := gatedSession(t, Config{Permissions: engine, Approver: approver})

	ctx := UserInitiated(t.Context())
	r := s.Call(ctx, ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	assert.True(t, r.OK, "%+v", r.Error)
	assert.FileExists(t, filepath.Join(root, "b.txt"))
	r = s.Call(ctx, ToolCall{Name: "run_shell", Args: map[string]any{"command": "echo typed"}})
	assert.True(t, r.OK, "%+v", r.Error)
	assert.Empty(t, approver.seen, "the user asked for these calls: no one is asked again")

	r = s.Call(ctx, ToolCall{Name: "run_shell", Args: map[string]any{"command": "rm a.txt"}})
	assert.Equal(t, "permission-error", errType(r), "deny rules still apply")
	assert.FileExists(t, filepath.Join(root, "a.txt"))

	headless, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeDefault)})
	r = headless.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "c.txt", "content": "x"}})
	assert.Equal(t, "permission-error", errType(r), "a call of the model's still asks")

	ro, _ := gatedSession(t, Config{Permissions: policy.New(policy.ModeReadOnly)})
	r = ro.Call(ctx, ToolCall{Name: "write_file", Args: map[string]any{"path": "c.txt", "content": "x"}})
	assert.Equal(t, "permission-error", errType(r), "a read-only session stays read-only")
}

func TestUndoApprovalNamesTheFiles(t *testing.T) {
	approver := &scripted{answers: []Answer{AllowOnce}}
	m, root := journaledManager(t, Config{Permissions: policy.New(policy.ModeDefault), Approver: approver})
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644))
	s := open(t, m)
	ctx := UserInitiated(t.Context())
	require.True(t, s.Call(ctx, ToolCall{Name: "read_file", Args: map[string]any{"path": "a.txt"}}).OK)
	r := s.Call(ctx, ToolCall{Name: "apply_patch", Args: map[string]any{"input": "*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** Add File: new.txt\n+hi\n*** End Patch"}})
	require.True(t, r.OK, "%+v", r.Error)

	assert.NotEmpty(t, changes(t, s))
	assert.Empty(t, approver.seen, "listing the change sets changes nothing: no approval")

	r = s.Call(t.Context(), ToolCall{Name: "undo"})
	require.True(t, r.OK, "%+v", r.Error)
	require.Len(t, approver.seen, 1)
	req := approver.seen[0]
	assert.ElementsMatch(t, []string{"a.txt", "new.txt"}, req.Paths)
	assert.Contains(t, req.Preview, "restores a.txt; deletes new.txt")
	assert.True(t, strings.HasPrefix(req.Preview, "undo change "), req.Preview)
	assert.NotContains(t, req.Preview, "{}")
}

func TestRefusalHintNamesEveryStep(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user", "config.toml")
	root := t.TempDir()
	project := filepath.Join(root, ".jido", "config.toml")
	trust := filepath.Join(dir, "trust")
	load := func() *policy.Engine {
		e, err := policy.LoadWithTrust(user, project, trust)
		require.NoError(t, err)
		return e
	}
	call := func(e *policy.Engine) ToolResult {
		m, err := New(Config{Root: root, Permissions: e})
		require.NoError(t, err)
		defer m.Close()
		s, err := m.Open(t.Context(), "")
		require.NoError(t, err)
		defer s.Close()
		return s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	}

	r := call(load())
	require.Equal(t, "permission-error", errType(r))
	hint := strings.Join(r.Error.Recovery, "\n")
	rule := r.Error.Details["rule"].(string)
	assert.Contains(t, hint, "add the rule below to "+project+", then run `jido trust --root "+root+"`")
	assert.Contains(t, hint, "or add it to "+user+", the user's own config, which needs no trust")
	assert.True(t, strings.HasSuffix(hint, rule), hint)

	// The first step alone is the trap the hint warns of: an untrusted config's allow rules are ignored.
	require.NoError(t, os.MkdirAll(filepath.Dir(project), 0o755))
	require.NoError(t, os.WriteFile(project, []byte(rule+"\n"), 0o644))
	assert.Equal(t, "permission-error", errType(call(load())))
	// Both steps: the call runs.
	require.NoError(t, load().Trust())
	r = call(load())
	assert.True(t, r.OK, "%+v", r.Error)

	// The user's config alone does it too.
	require.NoError(t, os.Remove(project))
	require.NoError(t, os.Remove(filepath.Join(root, "b.txt")))
	assert.Equal(t, "permission-error", errType(call(load())))
	require.NoError(t, os.MkdirAll(filepath.Dir(user), 0o755))
	require.NoError(t, os.WriteFile(user, []byte(rule+"\n"), 0o644))
	r = call(load())
	assert.True(t, r.OK, "%+v", r.Error)
}

func TestRefusalHintWithoutTrust(t *testing.T) {
	root := t.TempDir()
	e, err := policy.Load("", filepath.Join(root, ".jido", "config.toml"))
	require.NoError(t, err)
	s, _ := gatedSession(t, Config{Permissions: e})
	r := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	hint := strings.Join(r.Error.Recovery, "\n")
	assert.Contains(t, hint, "add the rule below to "+filepath.Join(root, ".jido", "config.toml")+"\n")
	assert.NotContains(t, hint, "jido trust", "a policy that keeps no trust needs none")
}

func TestRefusalHintOfAnAskRule(t *testing.T) {
	e := policy.New(policy.ModeYolo)
	_, err := e.Remember(policy.Rule{Action: policy.Ask, Tool: "write_file"}, policy.ScopeSession)
	require.NoError(t, err)
	s, _ := gatedSession(t, Config{Permissions: e})
	r := s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	hint := strings.Join(r.Error.Recovery, "\n")
	assert.Contains(t, hint, "the ask rule session-1 (session) asks about this call")
}

func TestApprovalSaysWhereAlwaysWrites(t *testing.T) {
	dir := t.TempDir()
	root := t.TempDir()
	project := filepath.Join(root, ".jido", "config.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(project), 0o755))
	require.NoError(t, os.WriteFile(project, []byte("[[ask]]\ntool = \"run_shell\"\n"), 0o644))
	e, err := policy.LoadWithTrust("", project, filepath.Join(dir, "trust"))
	require.NoError(t, err)
	approver := &scripted{answers: []Answer{Deny}}
	m, err := New(Config{Root: root, Permissions: e, Approver: approver})
	require.NoError(t, err)
	defer m.Close()
	s := open(t, m)
	s.Call(t.Context(), ToolCall{Name: "write_file", Args: map[string]any{"path": "b.txt", "content": "x"}})
	require.Len(t, approver.seen, 1)
	assert.Equal(t, project, approver.seen[0].RuleFile)
	assert.Contains(t, approver.seen[0].RuleNote, "jido trust", "the file is not trusted")
	assert.Contains(t, approver.seen[0].Rule, `tool = "write_file"`)
}
