// Package definitions declares every built-in tool once: its params struct (the only source
// of its JSON Schema), its description, its flags, and the validation of its arguments.
package definitions

import (
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

//go:embed *.md
var docs embed.FS

// Flags say what a tool may do to the project; policy and exporters read them.
type Flags struct {
	ReadOnly    bool `json:"read_only"`
	Mutating    bool `json:"mutating"`
	Destructive bool `json:"destructive"`
	OpenWorld   bool `json:"open_world"`
	// Idempotent: a second call with the same arguments leaves the project (and the session)
	// as the first one left it, so a client may retry a call whose answer it lost.
	Idempotent bool `json:"idempotent"`
}

// Tool is one declared tool. Its schema is built on first use (Schema), not at package
// init: every jido process, the sandbox helper included, would otherwise pay for all of
// them before main (1.3 ms measured).
type Tool struct {
	Name        string
	Description string
	Decl
	paramsType reflect.Type
	fields     fields // the params' tagged fields (paths, dry run)

	once       sync.Once
	schema     *jsonschema.Schema
	resolved   *jsonschema.Resolved
	properties []string        // sorted property names, for "did you mean"
	defaults   map[string]any  // decoded schema defaults (scalars only), applied by Check
	nested     map[string]bool // properties the schema library must validate (items, objects, maps, enums)
}

// define declares the built-in tool name with params type P and adds it to the catalogue;
// the description is read from name.md. It panics on a broken declaration: declarations
// are static and covered by tests.
func define[P any](name string, d Decl) *Tool {
	desc, err := docs.ReadFile(name + ".md")
	if err != nil {
		panic(fmt.Sprintf("tool %s: no description file: %v", name, err))
	}
	t := Declare[P](name, strings.TrimSpace(string(desc)), d)
	catalogue = append(catalogue, t)
	return t
}

// Declare declares a tool with params type P outside the catalogue: what define does for
// built-in tools, for an embedder's own. It panics when a field named like a path (or
// dry_run) carries no `jido` tag: such a tool's calls would escape path rules and undo.
func Declare[P any](name, description string, d Decl) *Tool {
	pt := reflect.TypeFor[P]()
	if bad := untaggedFields(pt); len(bad) > 0 {
		panic(fmt.Sprintf("tool %s: fields %v look like paths (or a dry run) but carry no jido tag (path, workdir, notpath or dry_run)", name, bad))
	}
	return &Tool{Name: name, Description: description, Decl: d, paramsType: pt, fields: scanFields(pt)}
}

// Schema returns the JSON Schema of the tool's parameters. The caller must not modify it.
func (t *Tool) Schema() *jsonschema.Schema {
	t.once.Do(t.compile)
	return t.schema
}

// compile builds the schema from the params struct and what Check needs from it; it panics
// on a broken declaration (covered by tests that compile every tool).
func (t *Tool) compile() {
	schema, err := jsonschema.ForType(t.paramsType, nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: schema: %v", t.Name, err))
	}
	applyTags(schema, t.paramsType)
	if err := t.useSchema(schema); err != nil {
		panic(err.Error())
	}
}

// useSchema resolves schema and records what Check needs from it: property names, scalar
// defaults, and which properties the schema library must validate.
func (t *Tool) useSchema(schema *jsonschema.Schema) error {
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return fmt.Errorf("tool %s: resolve schema: %v", t.Name, err)
	}
	t.schema, t.resolved = schema, resolved
	t.defaults, t.nested = map[string]any{}, map[string]bool{}
	for p, prop := range schema.Properties {
		t.properties = append(t.properties, p)
		if prop.Default != nil {
			var v any
			if err := json.Unmarshal(prop.Default, &v); err != nil || jsonKind(v) == "array" || jsonKind(v) == "object" {
				return fmt.Errorf("tool %s: default of %s must be a JSON scalar", t.Name, p)
			}
			t.defaults[p] = v
		}
		t.nested[p] = prop.Items != nil || prop.Properties != nil || prop.AdditionalProperties != nil || len(prop.Enum) > 0
	}
	slices.Sort(t.properties)
	return nil
}

// numberTag parses a numeric struct tag; a bad one is a programming error.
func numberTag(f reflect.StructField, tag, value string) *float64 {
	var v float64
	if _, err := fmt.Sscan(value, &v); err != nil {
		panic(fmt.Sprintf("field %s: bad %s tag %q", f.Name, tag, value))
	}
	return &v
}

// applyTags copies the `default`, `minimum`, `maximum` and `enum` struct tags of t's fields into the
// schema, so that the params struct stays the one place a parameter is described.
func applyTags(s *jsonschema.Schema, t reflect.Type) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		if d, ok := f.Tag.Lookup("default"); ok {
			prop.Default = json.RawMessage(d)
		}
		if m, ok := f.Tag.Lookup("minimum"); ok {
			prop.Minimum = numberTag(f, "minimum", m)
		}
		if m, ok := f.Tag.Lookup("maximum"); ok {
			prop.Maximum = numberTag(f, "maximum", m)
		}
		if e, ok := f.Tag.Lookup("enum"); ok {
			for _, v := range strings.Split(e, "|") {
				prop.Enum = append(prop.Enum, v)
			}
		}
		if k := f.Type.Kind(); (k == reflect.Slice || k == reflect.Pointer) && len(prop.Types) == 2 && slices.Contains(prop.Types, "null") {
			// An optional argument is left out, not sent as null: models handle one type best.
			prop.Type, prop.Types = prop.Types[slices.Index(prop.Types, "null")^1], nil
		}
		elem := f.Type
		for elem.Kind() == reflect.Slice || elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		if elem.Kind() == reflect.Struct && prop.Items != nil {
			applyTags(prop.Items, elem)
		}
	}
}

// Decode validates args against the tool's schema, fills in defaults, and decodes them into
// a new params value of type P. The error names the field and how to fix it.
func Decode[P any](t *Tool, args map[string]any) (P, *ToolError) {
	var p P
	filled, terr := t.Check(args)
	if terr != nil {
		return p, terr
	}
	if err := assign(reflect.ValueOf(&p).Elem(), filled); err != nil {
		return p, NewError(ValidationError, "arguments of %s: %v", t.Name, err).
			Hint("Check the argument types against the tool's schema")
	}
	return p, nil
}

// Check validates args and returns a copy with defaults applied. An argument whose value is
// JSON null counts as absent, at the top level and in nested objects (list items): clients of
// OpenAI's strict mode send null for every optional argument they leave out.
func (t *Tool) Check(args map[string]any) (map[string]any, *ToolError) {
	t.Schema()
	filled := make(map[string]any, len(args)+4)
	for k, v := range args {
		if !slices.Contains(t.properties, k) {
			return nil, t.unknownArg(k)
		}
		if v != nil {
			filled[k] = dropNulls(t.schema.Properties[k], v)
		}
	}
	for _, req := range t.Schema().Required {
		if _, ok := filled[req]; !ok {
			return nil, NewError(ValidationError, "%s: missing required argument `%s`", t.Name, req).
				With("field", req).
				Hint(fmt.Sprintf("Pass `%s` (%s)", req, t.Schema().Properties[req].Description))
		}
	}
	for _, k := range t.properties {
		if v, ok := filled[k]; ok {
			if terr := t.checkType(k, v); terr != nil {
				return nil, terr
			}
		}
	}
	deep := false
	for k := range filled {
		deep = deep || t.nested[k]
	}
	for k, v := range t.defaults {
		if _, ok := filled[k]; !ok {
			filled[k] = v
		}
	}
	// The checks above are complete for flat scalar arguments; the schema library validates
	// the rest (list items, nested objects, enums) when such an argument is present.
	if deep {
		if err := t.resolved.Validate(filled); err != nil {
			return nil, NewError(ValidationError, "%s: invalid arguments: %s", t.Name, trimSchemaError(err.Error())).
				Hint("Check the argument values against the tool's schema (`jido tools`)")
		}
	}
	return filled, nil
}

// dropNulls returns v without the null-valued properties of the objects in it whose schema s
// declares properties, at any depth. v is not modified: what changes is copied. A free-form
// map keeps its nulls, for the schema to reject.
func dropNulls(s *jsonschema.Schema, v any) any {
	switch x := v.(type) {
	case map[string]any:
		if s.Properties == nil {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e == nil {
				continue
			}
			if p := s.Properties[k]; p != nil {
				e = dropNulls(p, e)
			}
			out[k] = e
		}
		return out
	case []any:
		if s.Items == nil || (s.Items.Properties == nil && s.Items.Items == nil) {
			return v // a list of scalars: nothing to drop
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropNulls(s.Items, e)
		}
		return out
	}
	return v
}

// unknownArg builds the error for an argument the tool does not have, with the nearest name.
func (t *Tool) unknownArg(k string) *ToolError {
	e := NewError(ValidationError, "%s: unknown argument `%s`", t.Name, k).With("field", k)
	if s := nearest(k, t.properties); s != "" {
		e.Message += fmt.Sprintf("; did you mean `%s`?", s)
		e.With("did_you_mean", s)
		return e.Hint(fmt.Sprintf("Rename `%s` to `%s`", k, s))
	}
	return e.Hint("Valid arguments: " + quoteList(t.properties))
}

// checkType gives a precise message for a top-level argument of the wrong JSON type.
func (t *Tool) checkType(k string, v any) *ToolError {
	prop := t.Schema().Properties[k]
	want := prop.Type
	got := jsonKind(v)
	if want == "" || got == want || (want == "number" && got == "integer") {
		if n, isNum := number(v); isNum && prop.Minimum != nil && n < *prop.Minimum {
			return NewError(ValidationError, "%s: argument `%s` must be at least %v, got %v", t.Name, k, *prop.Minimum, n).
				With("field", k).Hint(fmt.Sprintf("Pass `%s` >= %v, or leave it out for the default", k, *prop.Minimum))
		}
		if n, isNum := number(v); isNum && prop.Maximum != nil && n > *prop.Maximum {
			return NewError(ValidationError, "%s: argument `%s` must be at most %v, got %v", t.Name, k, *prop.Maximum, n).
				With("field", k).Hint(fmt.Sprintf("Pass `%s` <= %v", k, *prop.Maximum))
		}
		return nil
	}
	return NewError(ValidationError, "%s: argument `%s` must be %s, got %s", t.Name, k, article(want), article(got)).
		With("field", k).With("expected", want).With("got", got).
		Hint(fmt.Sprintf("Pass `%s` as %s: %s", k, article(want), prop.Description))
}

// jsonKind names the JSON type of a decoded value; integral numbers are "integer".
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return jsonKindReflect(v)
}

func jsonKindReflect(v any) string {
	rv := reflect.ValueOf(v)
	switch {
	case rv.CanInt() || rv.CanUint():
		return "integer"
	case rv.CanFloat():
		return jsonKind(rv.Float())
	case rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array:
		return "array"
	case rv.Kind() == reflect.Map || rv.Kind() == reflect.Struct:
		return "object"
	}
	return rv.Kind().String()
}

func article(kind string) string {
	switch kind {
	case "integer", "object", "array":
		return "an " + kind
	}
	return "a " + kind
}

// trimSchemaError drops the library's "validating root: " style prefix.
func trimSchemaError(s string) string {
	if i := strings.LastIndex(s, ": validating "); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimPrefix(s, "validating root: ")
}
