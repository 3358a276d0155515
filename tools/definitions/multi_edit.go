package definitions

// EditOp is one replacement of multi_edit.
type EditOp struct {
	OldString  string `json:"old_string" jsonschema:"the exact text to replace"`
	NewString  string `json:"new_string" jsonschema:"the replacement text"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence"`
}

// MultiEditParams are the arguments of multi_edit.
type MultiEditParams struct {
	Path  string   `json:"path" jsonschema:"file to edit, relative to the project root"`
	Edits []EditOp `json:"edits" jsonschema:"edits applied in order, each to the result of the previous one"`
}

// MultiEdit declares multi_edit.
var MultiEdit = define[MultiEditParams]("multi_edit", Flags{Mutating: true})
