package export

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// strictKeywords are the keywords the OpenAI exporter may emit: a part of what strict mode
// supports (platform.openai.com/docs/guides/structured-outputs, "Supported schemas").
var strictKeywords = []string{"type", "description", "enum", "items", "properties", "required", "additionalProperties", "minimum", "maximum"}

// schemaViolations lists where the exported schema node s breaks a rule, s having been made
// from the declared schema orig. The rules of every exported schema: only strictKeywords,
// and every closed object still closed. Those of strict mode in addition: a type on every
// node, additionalProperties: false on every object, every property required, the optional
// ones (and only those) nullable, enum included.
func schemaViolations(path string, s map[string]any, orig *jsonschema.Schema, isStrict bool) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, path+": "+fmt.Sprintf(format, args...)) }
	for k := range s {
		if !slices.Contains(strictKeywords, k) {
			bad("keyword %q is not supported", k)
		}
	}
	types := typeNames(s["type"])
	if isStrict && len(types) == 0 {
		bad("no type")
	}
	if items, ok := s["items"].(map[string]any); ok && orig.Items != nil {
		out = append(out, schemaViolations(path+".items", items, orig.Items, isStrict)...)
	}
	if !slices.Contains(types, "object") {
		return out
	}
	if (isStrict || isFalse(orig.AdditionalProperties)) && s["additionalProperties"] != false {
		bad("additionalProperties is %v, not false", s["additionalProperties"])
	}
	props, _ := s["properties"].(map[string]any)
	if isStrict && props == nil {
		bad("no properties")
	}
	required := typeNames(s["required"])
	for name, p := range props {
		p, _ := p.(map[string]any)
		origProp := orig.Properties[name]
		if p == nil || origProp == nil {
			bad("property %s is not a schema of the declaration", name)
			continue
		}
		out = append(out, schemaViolations(path+"."+name, p, origProp, isStrict)...)
		optional := !slices.Contains(orig.Required, name)
		switch {
		case isStrict && !slices.Contains(required, name):
			bad("property %s is not required", name)
		case !isStrict && optional == slices.Contains(required, name):
			bad("property %s: required is %v, declared %v", name, !optional, optional)
		case isStrict && optional != slices.Contains(typeNames(p["type"]), "null"):
			bad("property %s: nullable is %v, optional %v", name, !optional, optional)
		case isStrict && optional && p["enum"] != nil && !slices.Contains(p["enum"].([]any), nil):
			bad("property %s: the enum of an optional property lacks null", name)
		}
	}
	for _, name := range required {
		if _, ok := props[name]; !ok {
			bad("required %s is no property", name)
		}
	}
	return out
}

// typeNames reads a "type" (a name or a list) or "required" (a list) as strings.
func typeNames(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		names := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				names = append(names, s)
			}
		}
		return names
	}
	return nil
}

// freeForm reports whether s has, below its top level (which Tool.Check closes), an object
// strict mode cannot close: one open to any property, or a map.
func freeForm(s *jsonschema.Schema) bool {
	for _, p := range s.Properties {
		if open(p) {
			return true
		}
	}
	return false
}

// open reports whether s is or holds an object open to any property, or a map.
func open(s *jsonschema.Schema) bool {
	if s.Type == "object" && !isFalse(s.AdditionalProperties) && (s.AdditionalProperties != nil || len(s.Properties) == 0) {
		return true
	}
	return s.Items != nil && open(s.Items) || freeForm(s)
}

func TestOpenAIFollowsStrictMode(t *testing.T) {
	exported := decode(t, OpenAI(definitions.All())).([]any)
	require.Len(t, exported, len(definitions.All()))
	for i, tool := range definitions.All() {
		t.Run(tool.Name, func(t *testing.T) {
			entry := exported[i].(map[string]any)
			assert.Equal(t, "function", entry["type"])
			fn := entry["function"].(map[string]any)
			assert.Equal(t, tool.Name, fn["name"])
			assert.Equal(t, tool.Description, fn["description"])
			isStrict := fn["strict"].(bool)
			assert.Equal(t, !freeForm(tool.Schema()), isStrict, "strict unless a free-form map forbids it")
			assert.Empty(t, schemaViolations(tool.Name, fn["parameters"].(map[string]any), tool.Schema(), isStrict))
		})
	}
}

func TestOpenAIRunShellIsNotStrict(t *testing.T) {
	fn := decode(t, OpenAI([]*definitions.Tool{definitions.RunShell})).([]any)[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, false, fn["strict"], "env, a map of any names, cannot be a closed object")
	params := fn["parameters"].(map[string]any)
	env := params["properties"].(map[string]any)["env"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "string"}, env["additionalProperties"], "the map is left open, as jido takes it")
	assert.NotContains(t, params, "required", "optional arguments stay optional, not nullable")
	assert.Equal(t, false, params["additionalProperties"])
}

// TestSchemaViolationsCatchBrokenRules breaks each rule in a strict schema and checks that
// the walker of TestOpenAIFollowsStrictMode sees it.
func TestSchemaViolationsCatchBrokenRules(t *testing.T) {
	cases := []struct {
		name    string
		tool    *definitions.Tool
		breakIt func(params map[string]any)
	}{
		{"no additionalProperties at the top", definitions.ReadFile, func(p map[string]any) { delete(p, "additionalProperties") }},
		{"open list items", definitions.MultiEdit, func(p map[string]any) {
			prop(p, "edits")["items"].(map[string]any)["additionalProperties"] = true
		}},
		{"optional argument not required", definitions.ReadFile, func(p map[string]any) { p["required"] = []any{"path"} }},
		{"optional argument not nullable", definitions.ReadFile, func(p map[string]any) { prop(p, "limit")["type"] = "integer" }},
		{"nested optional argument not nullable", definitions.MultiEdit, func(p map[string]any) {
			prop(prop(p, "edits")["items"].(map[string]any), "expected")["type"] = "string"
		}},
		{"required argument nullable", definitions.ReadFile, func(p map[string]any) { prop(p, "path")["type"] = []any{"string", "null"} }},
		{"enum without null", definitions.Search, func(p map[string]any) { prop(p, "sort_by")["enum"] = []any{"path", "mtime"} }},
		{"default", definitions.ReadFile, func(p map[string]any) { prop(p, "limit")["default"] = 2000.0 }},
		{"$schema", definitions.ReadFile, func(p map[string]any) { p["$schema"] = "https://json-schema.org/draft/2020-12/schema" }},
		{"no type", definitions.ReadFile, func(p map[string]any) { delete(prop(p, "offset"), "type") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fn := decode(t, OpenAI([]*definitions.Tool{c.tool})).([]any)[0].(map[string]any)["function"].(map[string]any)
			params := fn["parameters"].(map[string]any)
			require.Empty(t, schemaViolations(c.tool.Name, params, c.tool.Schema(), true), "intact before")
			c.breakIt(params)
			assert.NotEmpty(t, schemaViolations(c.tool.Name, params, c.tool.Schema(), true))
		})
	}
}

// prop is the schema of property name of the object schema s.
func prop(s map[string]any, name string) map[string]any {
	return s["properties"].(map[string]any)[name].(map[string]any)
}
