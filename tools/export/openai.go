package export

import "github.com/jido-run/jido/tools/definitions"

// OpenAITool is one tool of the Chat Completions API's "tools" list.
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function an OpenAITool declares.
type OpenAIFunction struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Parameters  *Schema `json:"parameters"`
	Strict      bool    `json:"strict"`
}

// OpenAI exports tools for Chat Completions function calling, in strict mode wherever the
// schema allows it. Strict mode (platform.openai.com/docs/guides/function-calling, "Strict
// mode", and docs/guides/structured-outputs, "Supported schemas") requires
// additionalProperties: false on every object and every property in required; optional
// arguments become nullable, and jido takes null as "left out". Keywords outside the
// supported subset are dropped, and a default moves into the description.
//
// A free-form map such as run_shell's env cannot be a closed object, and any rewriting that
// could (a list of name/value pairs) would not be the arguments jido accepts. Such a tool is
// sent with strict: false and its schema as declared: optional arguments optional, the map
// open. This is what OpenAI's Agents SDK does with a schema strict mode cannot express.
func OpenAI(tools []*definitions.Tool) []OpenAITool {
	out := make([]OpenAITool, len(tools))
	for i, t := range tools {
		params, isStrict := parameters(t.Schema(), strict)
		if !isStrict {
			params, _ = parameters(t.Schema(), portable)
		}
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: params, Strict: isStrict,
		}}
	}
	return out
}
