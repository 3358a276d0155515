package definitions

// BufferAppendParams are the arguments of buffer_append (seed 001).
type BufferAppendParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the buffer (e.g. *scratch*, file.txt)"`
	Text       string `json:"text" jsonschema:"text to add at the end of the buffer, as it is (no line break is added)"`
}

// BufferAppendResult is buffer_append's result.
type BufferAppendResult struct {
	BufferName string `json:"buffer_name"`
	Appended   int    `json:"bytes_appended"`
	Lines      int    `json:"lines"`
	Bytes      int    `json:"bytes"`
}

// BufferAppend declares buffer_append.
var BufferAppend = define[BufferAppendParams]("buffer_append", Decl{Flags: Flags{ReadOnly: true}, Role: RoleReader})
