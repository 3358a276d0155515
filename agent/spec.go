package agent

import (
	"encoding/json"

	"github.com/jido-run/jido/tools/definitions"
)

// Specs offers the given tool declarations to a model: name, description, the JSON Schema
// of the parameters as a plain map, and whether calls may run in parallel.
func Specs(tools []*definitions.Tool) []ToolSpec {
	specs := make([]ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = ToolSpec{Name: t.Name, Description: t.Description, Parameters: schemaMap(t)}
	}
	return specs
}

// Names offers the given tools without their parameter schemas, for a provider that never
// sends them (offline mode): building every schema costs about 5 ms at a cold start.
func Names(tools []*definitions.Tool) []ToolSpec {
	specs := make([]ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = ToolSpec{Name: t.Name, Description: t.Description}
	}
	return specs
}

// schemaMap converts the tool's schema to the map form providers send. The schema is built
// from a Go struct, so the round trip cannot fail; if it ever did, the model gets an
// open object schema rather than no tool at all.
func schemaMap(t *definitions.Tool) map[string]any {
	params := map[string]any{}
	data, err := json.Marshal(t.Schema())
	if err == nil {
		err = json.Unmarshal(data, &params)
	}
	if err != nil {
		return map[string]any{"type": "object"}
	}
	return params
}
