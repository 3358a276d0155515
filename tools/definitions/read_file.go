package definitions

// ReadFileParams are the arguments of read_file.
type ReadFileParams struct {
	Path           string `json:"path" jido:"path" jsonschema:"file to read, relative to the project root (an absolute path must lie inside it)"`
	Offset         int    `json:"offset,omitempty" minimum:"0" jsonschema:"first line to return, 1-based (0 or 1: from the start)"`
	Limit          int    `json:"limit,omitempty" default:"2000" minimum:"1" jsonschema:"maximum number of lines to return"`
	StartLine      int    `json:"start_line,omitempty" minimum:"1" jsonschema:"first line of a range, 1-based (use with end_line instead of offset/limit)"`
	EndLine        int    `json:"end_line,omitempty" minimum:"1" jsonschema:"last line of the range, inclusive"`
	IncludeContext int    `json:"include_context,omitempty" minimum:"0" jsonschema:"extra lines of context before and after start_line/end_line"`
	MaxBytes       int    `json:"max_bytes,omitempty" default:"100000" minimum:"1" jsonschema:"maximum bytes of content to return; the output ends at a whole line"`
	LineNumbers    bool   `json:"line_numbers,omitempty" default:"true" jsonschema:"prefix each line with its number, cat -n style"`
}

// ReadFile declares read_file.
var ReadFile = define[ReadFileParams]("read_file", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})

// ReadFileResult is the result of read_file.
type ReadFileResult struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	Encoding   string `json:"encoding"`
	Size       int64  `json:"size"`
	TotalLines int    `json:"total_lines"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"next_offset,omitempty"`
	LinesCut   int    `json:"long_lines_cut,omitempty"`
	// Redacted counts the secrets replaced by [REDACTED:rule] in content, by rule.
	Redacted map[string]int `json:"redacted,omitempty"`
}
