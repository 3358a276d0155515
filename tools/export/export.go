// Package export renders tool declarations in the formats that models and clients read:
// JSON Schema (what `jido tools` prints), OpenAI strict function calling, Gemini function
// declarations, Anthropic tools and MCP tools with annotations. Each exporter is a plain
// function over the tools it is given, so that user-defined tools, whose schema comes from
// data rather than a params struct, go through the same path as the built-in ones.
package export

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// JSONSchemaTool is one tool in jido's own format: its JSON Schema as declared, and its flags.
type JSONSchemaTool struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Parameters  *jsonschema.Schema `json:"parameters"`
	definitions.Flags
}

// JSONSchema exports tools with their full JSON Schema and every flag, for scripts and for
// clients that take JSON Schema as it is.
func JSONSchema(tools []*definitions.Tool) []JSONSchemaTool {
	out := make([]JSONSchemaTool, len(tools))
	for i, t := range tools {
		out[i] = JSONSchemaTool{Name: t.Name, Description: t.Description, Parameters: t.Schema(), Flags: t.Flags}
	}
	return out
}

// AnthropicTool is one tool of the Anthropic Messages API's "tools" list.
type AnthropicTool struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	InputSchema *jsonschema.Schema `json:"input_schema"`
}

// Anthropic exports tools for the Anthropic Messages API, which takes JSON Schema as it is.
func Anthropic(tools []*definitions.Tool) []AnthropicTool {
	out := make([]AnthropicTool, len(tools))
	for i, t := range tools {
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema()}
	}
	return out
}
