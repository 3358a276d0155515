package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/sandbox"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	sandbox.MaybeHelper() // run_shell re-executes this test binary as its sandbox helper
	os.Exit(m.Run())
}

// newServer opens a manager with cfg on a new project root (cfg.Root, or a temporary
// directory) holding files, and a Server of it; both end with the test.
func newServer(t testing.TB, cfg manager.Config, opts Options, files map[string]string) (*Server, string) {
	t.Helper()
	if cfg.Root == "" {
		cfg.Root = t.TempDir()
	}
	cfg.NoSync = true
	writeTree(t, cfg.Root, files)
	m, err := manager.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return New(m, opts), cfg.Root
}

// writeTree creates files (path -> content) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// connect connects a client with opts (and roots) to srv over in-memory transports; the
// session ends with the test.
func connect(t *testing.T, srv *Server, opts *sdk.ClientOptions, roots ...*sdk.Root) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	_, err := srv.Connect(t.Context(), st)
	require.NoError(t, err)
	return connectClient(t, ct, opts, roots...)
}

// connectClient connects a client with opts (and roots) over t; the session ends with the test.
func connectClient(t *testing.T, tr sdk.Transport, opts *sdk.ClientOptions, roots ...*sdk.Root) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "jido-test", Version: "v0"}, opts)
	c.AddRoots(roots...)
	cs, err := c.Connect(t.Context(), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// fileRoot is the MCP root of a local directory.
func fileRoot(dir string) *sdk.Root { return &sdk.Root{URI: "file://" + filepath.ToSlash(dir)} }

// call calls a tool and requires that the call itself (not the tool) succeeds.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, "%s: a tool call is never a protocol error", name)
	return res
}

// text is the one text content of a result.
func text(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	require.NotNil(t, res, "no result")
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*sdk.TextContent)
	require.True(t, ok, "a text content, got %T", res.Content[0])
	return tc.Text
}

// ok requires a successful result and returns its structured content.
func ok(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	require.False(t, res.IsError, "tool error: %s", text(t, res))
	var fromText map[string]any
	require.NoError(t, json.Unmarshal([]byte(text(t, res)), &fromText))
	structured, isMap := res.StructuredContent.(map[string]any)
	require.True(t, isMap, "structured content is an object, got %T", res.StructuredContent)
	require.Equal(t, fromText, structured, "the text content is the structured content's JSON")
	return structured
}

// toolError requires an error result and returns its error: {type, message, details, recovery}.
func toolError(t *testing.T, res *sdk.CallToolResult) map[string]any {
	t.Helper()
	require.True(t, res.IsError, "want a tool error, got %s", text(t, res))
	var e map[string]any
	require.NoError(t, json.Unmarshal([]byte(text(t, res)), &e))
	require.NotEmpty(t, e["type"])
	require.NotEmpty(t, e["message"])
	return e
}

// resolved resolves a schema as a client received it (decoded JSON).
func resolved(t *testing.T, schema any) *jsonschema.Resolved {
	t.Helper()
	data, err := json.Marshal(schema)
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(data, &s))
	r, err := s.Resolve(nil)
	require.NoError(t, err)
	return r
}

// listTools lists the session's tools by name.
func listTools(t *testing.T, cs *sdk.ClientSession) map[string]*sdk.Tool {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	tools := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}
