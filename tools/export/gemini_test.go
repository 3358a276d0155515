package export

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// geminiTypes are the type names of Gemini's Schema, lowercase as in Google's REST docs.
var geminiTypes = []genai.Type{"string", "number", "integer", "boolean", "array", "object"}

// geminiViolations lists where s breaks Gemini's Schema beyond what decoding already
// checks: a type that is not one of geminiTypes, a default, an object without properties,
// a required name that is no property.
func geminiViolations(path string, s *genai.Schema) []string {
	var out []string
	if !slices.Contains(geminiTypes, s.Type) {
		out = append(out, path+": type "+string(s.Type))
	}
	if s.Default != nil {
		out = append(out, path+": default")
	}
	if s.Type == "object" && len(s.Properties) == 0 {
		out = append(out, path+": object without properties")
	}
	for _, r := range s.Required {
		if s.Properties[r] == nil {
			out = append(out, path+": required "+r+" is no property")
		}
	}
	if s.Items != nil {
		out = append(out, geminiViolations(path+".items", s.Items)...)
	}
	for name, p := range s.Properties {
		out = append(out, geminiViolations(path+"."+name, p)...)
	}
	return out
}

// TestGeminiDecodesAsGenai decodes the export into the official SDK's types, refusing any
// field they do not have (additionalProperties, $schema, a list of types...).
func TestGeminiDecodesAsGenai(t *testing.T) {
	dec := json.NewDecoder(bytes.NewReader(render(t, Gemini(definitions.All()))))
	dec.DisallowUnknownFields()
	var tools []*genai.Tool
	require.NoError(t, dec.Decode(&tools))
	require.Len(t, tools, 1, "one tool holds every function declaration")
	decls := tools[0].FunctionDeclarations
	require.Len(t, decls, len(definitions.All()))

	// How each tool's parameters go out: in Schema, in JSON Schema (what Schema cannot
	// express), or not at all (no parameters).
	jsonSchema := []string{"run_shell"}
	none := []string{"plan_diff", "plan_discard", "current_directory"}
	for i, tool := range definitions.All() {
		t.Run(tool.Name, func(t *testing.T) {
			d := decls[i]
			assert.Equal(t, tool.Name, d.Name)
			assert.Equal(t, tool.Description, d.Description)
			switch {
			case slices.Contains(none, tool.Name):
				assert.Nil(t, d.Parameters)
				assert.Nil(t, d.ParametersJsonSchema)
			case slices.Contains(jsonSchema, tool.Name):
				assert.Nil(t, d.Parameters)
				assert.NotNil(t, d.ParametersJsonSchema)
			default:
				require.NotNil(t, d.Parameters)
				assert.Nil(t, d.ParametersJsonSchema)
				assert.Empty(t, geminiViolations(tool.Name, d.Parameters))
				assert.ElementsMatch(t, tool.Schema().Required, d.Parameters.Required, "optional arguments stay optional")
			}
		})
	}
}

func TestGeminiViolationsCatchBrokenRules(t *testing.T) {
	cases := []struct {
		name   string
		schema *genai.Schema
	}{
		{"upper-case type", &genai.Schema{Type: genai.TypeString}},
		{"default", &genai.Schema{Type: "integer", Default: 3.0}},
		{"empty object", &genai.Schema{Type: "object"}},
		{"nested", &genai.Schema{Type: "array", Items: &genai.Schema{Type: "object", Properties: map[string]*genai.Schema{"a": {}}}}},
		{"required unknown", &genai.Schema{Type: "object", Properties: map[string]*genai.Schema{"a": {Type: "string"}}, Required: []string{"b"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.NotEmpty(t, geminiViolations("x", c.schema))
		})
	}
}
