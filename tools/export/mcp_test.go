package export

import (
	"context"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMCPAnnotationsFollowFlags(t *testing.T) {
	cases := []struct {
		tool *definitions.Tool
		want mcp.ToolAnnotations
	}{
		{definitions.ReadFile, mcp.ToolAnnotations{Title: "Read file", ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}},
		{definitions.JobOutput, mcp.ToolAnnotations{Title: "Job output", ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: false, OpenWorldHint: new(false)}},
		{definitions.WriteFile, mcp.ToolAnnotations{Title: "Write file", DestructiveHint: new(false), OpenWorldHint: new(false)}},
		{definitions.DeleteFile, mcp.ToolAnnotations{Title: "Delete file", DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(false)}},
		{definitions.RunShell, mcp.ToolAnnotations{Title: "Run shell", DestructiveHint: new(true), OpenWorldHint: new(true)}},
	}
	for _, c := range cases {
		t.Run(c.tool.Name, func(t *testing.T) {
			got := MCPTool(c.tool)
			assert.Equal(t, c.tool.Name, got.Name)
			assert.Equal(t, c.tool.Description, got.Description)
			assert.Same(t, c.tool.Schema(), got.InputSchema)
			require.NotNil(t, got.Annotations)
			assert.Equal(t, c.want, *got.Annotations)
		})
	}
	for _, tool := range definitions.All() {
		a := MCPTool(tool).Annotations
		assert.Equal(t, tool.Flags, definitions.Flags{
			ReadOnly: a.ReadOnlyHint, Mutating: !a.ReadOnlyHint, Destructive: *a.DestructiveHint,
			OpenWorld: *a.OpenWorldHint, Idempotent: a.IdempotentHint,
		}, tool.Name)
	}
}

func TestMCPHintsDoNotAliasFlags(t *testing.T) {
	a := MCPTool(definitions.RunShell).Annotations
	*a.DestructiveHint, *a.OpenWorldHint = false, false
	assert.True(t, definitions.RunShell.Destructive)
	assert.True(t, definitions.RunShell.OpenWorld)
}

// TestMCPServerListsTools registers every exported tool with the SDK's server, which
// refuses a malformed one, and lists them through an in-memory client connection.
func TestMCPServerListsTools(t *testing.T) {
	ctx := t.Context()
	server := mcp.NewServer(&mcp.Implementation{Name: "jido", Version: "test"}, nil)
	for _, tool := range MCP(definitions.All()) {
		server.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "test"}, nil).Connect(ctx, clientEnd, nil)
	require.NoError(t, err)
	defer cs.Close()

	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, len(definitions.All()))
	for _, got := range res.Tools {
		tool, ok := definitions.Lookup(got.Name)
		require.True(t, ok, got.Name)
		assert.Equal(t, MCPTool(tool).Annotations, got.Annotations, tool.Name)
		assert.Equal(t, "object", got.InputSchema.(map[string]any)["type"], tool.Name)
	}
}
