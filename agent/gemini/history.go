package gemini

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
)

// contents converts the conversation to Gemini's: a user's text is a user Content, the
// assistant's turn a model Content with its text and one functionCall part per call, the
// tools' results a user Content with one functionResponse part per result. Messages with
// nothing to say are left out, since Gemini refuses a Content without parts.
func contents(msgs []agent.Message) []*genai.Content {
	out := make([]*genai.Content, 0, len(msgs))
	for _, m := range msgs {
		c := userContent(m)
		if m.Role == agent.Assistant {
			c = modelContent(m)
		}
		if len(c.Parts) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// modelContent is an assistant's turn, each call with the thought signature it came with.
func modelContent(m agent.Message) *genai.Content {
	c := &genai.Content{Role: genai.RoleModel}
	if m.Text != "" {
		c.Parts = append(c.Parts, genai.NewPartFromText(m.Text))
	}
	for _, call := range m.Calls {
		c.Parts = append(c.Parts, &genai.Part{
			FunctionCall:     &genai.FunctionCall{ID: call.ID, Name: call.Name, Args: call.Args},
			ThoughtSignature: openSignature(call.Opaque),
		})
	}
	return c
}

// userContent is a user's turn: the results of the tools, then any text.
func userContent(m agent.Message) *genai.Content {
	c := &genai.Content{Role: genai.RoleUser}
	for _, res := range m.Results {
		c.Parts = append(c.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{
			ID:       res.CallID,
			Name:     res.Name,
			Response: response(res),
		}})
	}
	if m.Text != "" {
		c.Parts = append(c.Parts, genai.NewPartFromText(m.Text))
	}
	return c
}

// response is a result as Gemini expects it: {"output": content} when the call succeeded,
// {"error": the error object} when it failed, and the note on what was cut, if any.
func response(res agent.ToolResult) map[string]any {
	key := "output"
	if !res.OK {
		key = "error"
	}
	var content any
	if err := json.Unmarshal(res.Content, &content); err != nil {
		content = string(res.Content) // not JSON after all: the model still sees it
	}
	out := map[string]any{key: content}
	if res.Note != "" {
		out["note"] = res.Note
	}
	return out
}

// generateConfig carries the system prompt and the tools, as raw JSON Schema (Gemini
// takes it as is), with function calling left to the model.
func generateConfig(req agent.Request) *genai.GenerateContentConfig {
	cfg := &genai.GenerateContentConfig{}
	if req.System != "" {
		cfg.SystemInstruction = genai.NewContentFromText(req.System, genai.RoleUser)
	}
	if len(req.Tools) == 0 {
		return cfg
	}
	decls := make([]*genai.FunctionDeclaration, 0, len(req.Tools))
	for _, t := range req.Tools {
		d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if t.Parameters != nil { // a nil map would go out as "parametersJsonSchema": null
			d.ParametersJsonSchema = t.Parameters
		}
		decls = append(decls, d)
	}
	cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	cfg.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{
		Mode: genai.FunctionCallingConfigModeAuto,
	}}
	return cfg
}

// opaque is what this provider keeps in ToolCall.Opaque: the thought signature of the
// part the call came in, which Gemini wants back verbatim (Gemini 3 refuses a history
// whose calls lack it).
type opaque struct {
	ThoughtSignature []byte `json:"thought_signature"`
}

// sealSignature is the Opaque of a call whose part carried sig; nil when it carried none.
func sealSignature(sig []byte) json.RawMessage {
	if len(sig) == 0 {
		return nil
	}
	// Base64 needs no escaping, so this is the JSON of opaque{sig}.
	return fmt.Appendf(nil, `{"thought_signature":%q}`, base64.StdEncoding.EncodeToString(sig))
}

// openSignature is the thought signature kept in a call's Opaque. Opaque data that is not
// this provider's (a call made by another provider earlier in the session) has none.
func openSignature(raw json.RawMessage) []byte {
	var o opaque
	if len(raw) == 0 || json.Unmarshal(raw, &o) != nil {
		return nil
	}
	return o.ThoughtSignature
}
