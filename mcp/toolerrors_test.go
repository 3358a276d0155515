package mcp

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const brokenTool = "return jido.tool{\n  name = \"broken\",\n  description = 42,\n  run = function() end}"

// logMessages connects a client that collects the server's log messages.
func logMessages(t *testing.T, srv *Server) (*sdk.ClientSession, chan *sdk.LoggingMessageParams) {
	t.Helper()
	msgs := make(chan *sdk.LoggingMessageParams, 20)
	cs := connect(t, srv, &sdk.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
		msgs <- req.Params
	}})
	return cs, msgs
}

// nextMessage waits for a log message.
func nextMessage(t *testing.T, msgs chan *sdk.LoggingMessageParams) *sdk.LoggingMessageParams {
	t.Helper()
	select {
	case m := <-msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/message")
		return nil
	}
}

// noMessage checks that no log message comes for a while.
func noMessage(t *testing.T, msgs chan *sdk.LoggingMessageParams, wait time.Duration) {
	t.Helper()
	select {
	case m := <-msgs:
		t.Fatalf("unexpected log message: %+v", m)
	case <-time.After(wait):
	}
}

// TestBrokenUserToolIsLogged: a user tool file that does not load is a log message of
// level error to the client (with its file and line) and a line on stderr, once each
// however often the tool list is read; a second broken file is reported when it appears.
func TestBrokenUserToolIsLogged(t *testing.T) {
	var stderr lockedBuffer
	srv, root := newServer(t, manager.Config{}, Options{SyncEvery: 20 * time.Millisecond, Stderr: &stderr},
		map[string]string{".jido/tools/broken.lua": brokenTool})
	cs, msgs := logMessages(t, srv)
	require.NoError(t, cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: "info"}))
	assert.NotContains(t, listTools(t, cs), "broken")

	m := nextMessage(t, msgs)
	assert.Equal(t, sdk.LoggingLevel("error"), m.Level)
	assert.Equal(t, "jido", m.Logger)
	data, isMap := m.Data.(map[string]any)
	require.True(t, isMap, "%T", m.Data)
	assert.Equal(t, ".jido/tools/broken.lua", data["file"])
	assert.Equal(t, float64(1), data["line"])
	assert.Equal(t, "user tool file skipped: .jido/tools/broken.lua:1: jido.tool: field description must be a string, not a number", data["message"])

	listTools(t, cs)
	noMessage(t, msgs, 200*time.Millisecond) // several syncs: still once

	writeTree(t, root, map[string]string{".jido/tools/other.lua": "return 42"})
	m = nextMessage(t, msgs)
	assert.Contains(t, m.Data.(map[string]any)["message"], ".jido/tools/other.lua: the file must return jido.tool{...}")
	noMessage(t, msgs, 200*time.Millisecond)

	assert.Equal(t, "jido mcp: tool file skipped: .jido/tools/broken.lua:1: jido.tool: field description must be a string, not a number\n"+
		"jido mcp: tool file skipped: .jido/tools/other.lua: the file must return jido.tool{...}\n", stderr.String())
}

// TestBrokenUserToolLoggedWhenTheLevelIsSet: the SDK sends no log before the client sets
// a level; the error found before is sent when it does.
func TestBrokenUserToolLoggedWhenTheLevelIsSet(t *testing.T) {
	var stderr lockedBuffer
	srv, _ := newServer(t, manager.Config{}, Options{Stderr: &stderr}, map[string]string{".jido/tools/broken.lua": brokenTool})
	cs, msgs := logMessages(t, srv)
	listTools(t, cs)
	assert.Contains(t, stderr.String(), ".jido/tools/broken.lua:1:", "stderr has it at once")
	noMessage(t, msgs, 100*time.Millisecond)

	require.NoError(t, cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: "warning"}))
	m := nextMessage(t, msgs)
	assert.Equal(t, sdk.LoggingLevel("error"), m.Level)
	assert.True(t, strings.HasPrefix(m.Data.(map[string]any)["message"].(string), "user tool file skipped: .jido/tools/broken.lua:1:"))
	assert.Equal(t, 1, strings.Count(stderr.String(), "broken.lua"))
}
