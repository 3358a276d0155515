package export

import "github.com/jido-run/jido/tools/definitions"

// GeminiTool is one entry of the Gemini API's "tools" list; it shapes like genai.Tool.
type GeminiTool struct {
	FunctionDeclarations []GeminiFunction `json:"functionDeclarations"`
}

// GeminiFunction is one function declaration; it shapes like genai.FunctionDeclaration.
// At most one of Parameters and ParametersJSONSchema is set.
type GeminiFunction struct {
	Name                 string  `json:"name"`
	Description          string  `json:"description"`
	Parameters           *Schema `json:"parameters,omitempty"`
	ParametersJSONSchema *Schema `json:"parametersJsonSchema,omitempty"`
}

// Gemini exports tools as one Gemini tool holding a function declaration per tool. The
// parameters are in Gemini's Schema, a subset of OpenAPI 3.0 (ai.google.dev/api/caching#Schema):
// lowercase types, "nullable" instead of a list of types, no additionalProperties or
// default. A tool without parameters declares none, since Gemini rejects an object schema
// with no properties. A schema that Schema cannot express (a free-form map such as
// run_shell's env) goes in parametersJsonSchema instead, which takes JSON Schema. No tools
// make no Gemini tool, rather than one without declarations.
func Gemini(tools []*definitions.Tool) []GeminiTool {
	if len(tools) == 0 {
		return []GeminiTool{}
	}
	decls := make([]GeminiFunction, len(tools))
	for i, t := range tools {
		decls[i] = GeminiFunction{Name: t.Name, Description: t.Description}
		if len(t.Schema().Properties) == 0 {
			continue
		}
		var ok bool
		if decls[i].Parameters, ok = parameters(t.Schema(), openAPI); !ok {
			decls[i].ParametersJSONSchema, _ = parameters(t.Schema(), portable)
		}
	}
	return []GeminiTool{{FunctionDeclarations: decls}}
}
