package definitions

// BufferEditParams are the arguments of buffer_edit (seed 001).
type BufferEditParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the buffer to edit"`
	OldText    string `json:"old_text" jsonschema:"the text to replace, copied from the buffer with enough lines to be unique"`
	NewText    string `json:"new_text" jsonschema:"the replacement text"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_text instead of exactly one"`
}

// BufferEditResult is buffer_edit's result.
type BufferEditResult struct {
	BufferName   string `json:"buffer_name"`
	Diff         string `json:"diff"`
	LinesAdded   int    `json:"lines_added"`
	LinesRemoved int    `json:"lines_removed"`
	Strategy     string `json:"strategy"` // how old_text was found, as edit_file reports it
	Replacements int    `json:"replacements"`
	Lines        int    `json:"lines"` // of the buffer after the edit
}

// BufferEdit declares buffer_edit.
var BufferEdit = define[BufferEditParams]("buffer_edit", Decl{Flags: Flags{ReadOnly: true}, Role: RoleReader})
