package definitions

// BufferGetContentParams are the arguments of buffer_get_content (seed 001).
type BufferGetContentParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the buffer"`
	MaxLines   int    `json:"max_lines,omitempty" minimum:"1" jsonschema:"return at most this many lines, from the first (default: all)"`
}

// BufferGetContentResult is buffer_get_content's result.
type BufferGetContentResult struct {
	BufferName string `json:"buffer_name"`
	Mode       string `json:"mode,omitempty"`
	Content    string `json:"content"`
	TotalLines int    `json:"total_lines"`
	Lines      int    `json:"lines"` // returned in content
	Truncated  bool   `json:"truncated"`
	Point      int    `json:"point"` // the current line, as goto_line left it
}

// BufferGetContent declares buffer_get_content.
var BufferGetContent = define[BufferGetContentParams]("buffer_get_content", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
