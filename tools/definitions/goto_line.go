package definitions

// GotoLineParams are the arguments of goto_line (seed 001).
type GotoLineParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the buffer"`
	LineNumber int    `json:"line_number" minimum:"1" jsonschema:"line to go to, 1-based"`
	Context    *int   `json:"context,omitempty" minimum:"0" maximum:"50" jsonschema:"lines to show before and after it (default 3)"`
}

// BufferLine is a numbered line of a buffer.
type BufferLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GotoLineResult is goto_line's result: the line, with context around it.
type GotoLineResult struct {
	BufferName string       `json:"buffer_name"`
	Line       int          `json:"line"`
	Text       string       `json:"text"`
	TotalLines int          `json:"total_lines"`
	Context    []BufferLine `json:"context"`
}

// GotoLine declares goto_line. It moves the buffer's point, session state only.
var GotoLine = define[GotoLineParams]("goto_line", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
