package mcp

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// outputSchemas caches the schema of each result type: every session offers the same
// built-in tools, and a schema is read-only once built.
var outputSchemas sync.Map // reflect.Type -> *jsonschema.Schema

// outputSchema returns the JSON Schema of the values of type t as encoding/json writes
// them: jsonschema.ForType's schema, corrected where ForType reads embedded structs
// differently from encoding/json (see fixEmbedded). It panics when t has no schema (a
// channel, a func): the result types are static declarations, and a test builds the
// schema of each.
func outputSchema(t reflect.Type) *jsonschema.Schema {
	if s, ok := outputSchemas.Load(t); ok {
		return s.(*jsonschema.Schema)
	}
	s, err := jsonschema.ForType(t, nil)
	if err != nil {
		panic(fmt.Sprintf("output schema of %s: %v", t, err))
	}
	fixEmbedded(s, t)
	cached, _ := outputSchemas.LoadOrStore(t, s)
	return cached.(*jsonschema.Schema)
}

// fixEmbedded corrects, in place, the schema s that ForType made of t. ForType flattens the
// fields of every embedded struct into its parent and requires them; encoding/json
// flattens only an embedded struct whose tag gives no name (a named one is one nested
// property), and leaves out the fields of an embedded pointer that is nil (so they are
// optional). The correction recurses into properties, list items and map values.
func fixEmbedded(s *jsonschema.Schema, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if s.Items != nil {
			fixEmbedded(s.Items, t.Elem())
		}
	case reflect.Map:
		if s.AdditionalProperties != nil {
			fixEmbedded(s.AdditionalProperties, t.Elem())
		}
	case reflect.Struct:
		if s.Type == "object" || slices.Contains(s.Types, "object") { // not a type with its own JSON form (time.Time)
			fixStruct(s, t)
		}
	}
}

// fixStruct corrects the schema s of struct type t (see fixEmbedded).
func fixStruct(s *jsonschema.Schema, t reflect.Type) {
	written := map[string]bool{} // the properties encoding/json writes
	optional := map[string]bool{}
	var required []string // named embedded structs that are always written
	for _, f := range reflect.VisibleFields(t) {
		nested, viaPointer := embeddedPath(t, f.Index)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case nested || name == "-" || (!f.IsExported() && !f.Anonymous):
			continue // inside a nested object, or not written at all
		case f.Anonymous && name == "":
			continue // flattened: its promoted fields are visited
		case name == "":
			name = f.Name
		}
		written[name] = true
		if viaPointer || strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,") {
			optional[name] = true
		}
		if f.Anonymous { // an embedded struct named by its tag: one nested property
			s.Properties[name] = outputSchema(f.Type)
			if !slices.Contains(s.PropertyOrder, name) {
				s.PropertyOrder = append(s.PropertyOrder, name)
			}
			if !optional[name] {
				required = append(required, name)
			}
			continue
		}
		if prop := s.Properties[name]; prop != nil {
			fixEmbedded(prop, f.Type)
		}
	}
	for name := range s.Properties {
		if !written[name] {
			delete(s.Properties, name)
		}
	}
	s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(n string) bool { return !written[n] })
	s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return !written[n] || optional[n] })
	for _, name := range required {
		if !slices.Contains(s.Required, name) {
			s.Required = append(s.Required, name)
		}
	}
}

// embeddedPath reports, for the field of t at index path, whether one of the embedded
// structs it is promoted through has a name in its tag (then encoding/json writes the
// field inside that nested object), and whether one of them is a pointer (then the field
// is left out when the pointer is nil).
func embeddedPath(t reflect.Type, index []int) (nested, viaPointer bool) {
	for i := 1; i < len(index); i++ {
		outer := t.FieldByIndex(index[:i])
		name, _, _ := strings.Cut(outer.Tag.Get("json"), ",")
		nested = nested || name != ""
		viaPointer = viaPointer || outer.Type.Kind() == reflect.Pointer
	}
	return nested, viaPointer
}
