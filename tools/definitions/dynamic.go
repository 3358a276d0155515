package definitions

import (
	"errors"

	"github.com/google/jsonschema-go/jsonschema"
)

// NewTool declares a tool whose parameters schema is data rather than a params struct: a
// user's Lua tool. Its arguments are checked by Check like a built-in tool's; it has no
// params struct to Decode into. An invalid schema (a default of the wrong type, say) is an
// error, not a panic.
func NewTool(name, description string, flags Flags, schema *jsonschema.Schema) (*Tool, error) {
	if schema == nil || schema.Type != "object" {
		return nil, errors.New("the parameters schema must be an object schema")
	}
	t := &Tool{Name: name, Description: description, Decl: Decl{Flags: flags}}
	var err error
	t.once.Do(func() { err = t.useSchema(schema) })
	if err != nil {
		return nil, err
	}
	return t, nil
}
