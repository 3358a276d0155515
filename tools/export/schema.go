package export

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is a parameter schema rewritten for one provider: the few keywords every provider
// understands, with the properties in their declared order.
type Schema struct {
	Type                 any         `json:"type,omitempty"`     // a type name, or a list of them (JSON Schema only)
	Nullable             bool        `json:"nullable,omitempty"` // OpenAPI's way of adding "null" to the type
	Description          string      `json:"description,omitempty"`
	Enum                 []any       `json:"enum,omitempty"`
	Items                *Schema     `json:"items,omitempty"`
	Properties           *Properties `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	AdditionalProperties any         `json:"additionalProperties,omitempty"` // false, true, or the *Schema of a map's values
	Minimum              *float64    `json:"minimum,omitempty"`
	Maximum              *float64    `json:"maximum,omitempty"`
}

// Properties are the properties of an object schema. They marshal in the order of Names,
// the order of the params struct: OpenAI generates arguments in the order of the keys.
type Properties struct {
	Names  []string
	ByName map[string]*Schema
}

// MarshalJSON writes the properties as one JSON object, in the order of Names.
func (p *Properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range p.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.ByName[name])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// dialect is the schema language of a provider.
type dialect int

const (
	// portable is the JSON Schema every provider accepts: optional arguments stay optional
	// and may be left out, and a map keeps its additionalProperties schema.
	portable dialect = iota
	// strict is OpenAI's strict mode: every object closed by additionalProperties: false,
	// every property required, and the optional ones nullable, so that a model sends null
	// where it means "left out" (Tool.Check takes null as absent).
	strict
	// openAPI is Gemini's Schema, a subset of OpenAPI 3.0: one type per value plus
	// "nullable", no additionalProperties, and objects that declare their properties.
	openAPI
)

// parameters rewrites s, the parameter schema of a tool, in dialect d (see convert). Its top
// level is closed whatever s says, since Tool.Check refuses an argument the tool does not
// declare: a tool without parameters is an empty closed object, which strict mode takes.
func parameters(s *jsonschema.Schema, d dialect) (*Schema, bool) {
	root := *s
	root.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return convert(&root, d)
}

// convert rewrites s in dialect d. It keeps type, description, enum, items, properties,
// required, additionalProperties (but in openAPI, which has none), minimum and maximum: the
// keywords the three dialects share. It folds default into the description and drops every
// other keyword ($schema, $id, title, default, pattern, ...): the schema only guides the
// model, and Tool.Check still validates each call against the full one. ok is false when d cannot express s: a
// free-form object (a map, or an object open to any property) in strict or openAPI, or a
// value of several types or an object without properties in openAPI. The portable dialect
// expresses every schema.
func convert(s *jsonschema.Schema, d dialect) (out *Schema, ok bool) {
	out = &Schema{Description: s.Description, Enum: s.Enum, Minimum: s.Minimum, Maximum: s.Maximum}
	if s.Default != nil {
		// The dialects have no default, but the model should still know what leaving an
		// argument out (or, in strict mode, sending null) means.
		out.Description = strings.TrimSpace(out.Description + " (default: " + string(s.Default) + ")")
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	if !out.setType(types, d) {
		return nil, false
	}
	if s.Items != nil {
		if out.Items, ok = convert(s.Items, d); !ok {
			return nil, false
		}
	}
	if slices.Contains(types, "object") && !out.setObject(s, d) {
		return nil, false
	}
	return out, true
}

// setType sets the type keyword(s) of out in dialect d; it reports false when d cannot
// express types.
func (out *Schema) setType(types []string, d dialect) bool {
	if d == openAPI {
		nonNull := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
		if len(nonNull) != 1 {
			return false
		}
		out.Type, out.Nullable = nonNull[0], len(types) > 1
		return true
	}
	switch len(types) {
	case 0:
		return d != strict // strict mode needs a type on every value
	case 1:
		out.Type = types[0]
	default:
		out.Type = types
	}
	return true
}

// setObject sets the properties, required and additionalProperties of out, an object, in
// dialect d; it reports false when d cannot express the object.
func (out *Schema) setObject(s *jsonschema.Schema, d dialect) bool {
	closed := isFalse(s.AdditionalProperties)
	freeForm := !closed && (s.AdditionalProperties != nil || len(s.Properties) == 0) // a map, or any object
	switch {
	case freeForm && d != portable:
		return false
	case len(s.Properties) == 0 && d == openAPI: // Gemini rejects an object without properties
		return false
	}
	names := propertyNames(s)
	if len(names) > 0 || d == strict {
		out.Properties = &Properties{Names: names, ByName: map[string]*Schema{}}
	}
	for _, name := range names {
		p, ok := convert(s.Properties[name], d)
		if !ok {
			return false
		}
		out.Properties.ByName[name] = p
	}
	out.Required = slices.Clone(s.Required)
	switch {
	case d == strict:
		// A missing additionalProperties is tightened to false, as OpenAI's own SDKs do: it
		// changes which calls are malformed, not which are valid.
		out.AdditionalProperties = false
		out.Required = slices.Clone(out.Properties.Names)
		for _, name := range out.Properties.Names {
			if !slices.Contains(s.Required, name) {
				out.Properties.ByName[name].allowNull()
			}
		}
	case d == openAPI:
		// Gemini's Schema has no additionalProperties: undeclared properties are not generated.
	case closed:
		out.AdditionalProperties = false
	case s.AdditionalProperties != nil:
		out.AdditionalProperties, _ = convert(s.AdditionalProperties, portable)
	}
	return true
}

// allowNull adds null to the values a strict-mode schema accepts: to its type and, if it has
// one, to its enum (JSON Schema checks the enum on its own).
func (out *Schema) allowNull() {
	switch t := out.Type.(type) {
	case string:
		out.Type = []string{t, "null"}
	case []string:
		if !slices.Contains(t, "null") {
			out.Type = append(slices.Clone(t), "null")
		}
	}
	if out.Enum != nil && !slices.ContainsFunc(out.Enum, func(v any) bool { return v == nil }) {
		out.Enum = append(slices.Clone(out.Enum), nil)
	}
}

// propertyNames returns the property names of s in declaration order (PropertyOrder), then
// any others sorted, as jsonschema-go marshals them.
func propertyNames(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for _, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	var rest []string
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// isFalse reports whether s is the schema false (jsonschema-go's {"not": {}}, which it
// marshals as false).
func isFalse(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	b, err := json.Marshal(s)
	return err == nil && string(b) == "false"
}
