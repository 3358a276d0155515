package export

import (
	"strings"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP exports tools as MCP tools (see MCPTool), in the order given.
func MCP(tools []*definitions.Tool) []*mcp.Tool {
	out := make([]*mcp.Tool, len(tools))
	for i, t := range tools {
		out[i] = MCPTool(t)
	}
	return out
}

// MCPTool is the MCP form of t: its JSON Schema as the input schema, and its flags as
// annotations. It is the one place that maps flags to MCP hints, for `jido tools` and for
// the MCP server alike. The destructive and open-world hints are always set, since MCP
// takes a missing one as true.
func MCPTool(t *definitions.Tool) *mcp.Tool {
	return &mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.Schema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           title(t.Name),
			ReadOnlyHint:    t.ReadOnly,
			DestructiveHint: new(t.Destructive),
			IdempotentHint:  t.Idempotent,
			OpenWorldHint:   new(t.OpenWorld),
		},
	}
}

// title makes a display name of a snake_case tool name: read_file becomes "Read file".
func title(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}
