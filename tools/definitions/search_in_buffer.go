package definitions

// SearchInBufferParams are the arguments of search_in_buffer (seed 001).
type SearchInBufferParams struct {
	BufferName    string `json:"buffer_name" jsonschema:"name of the buffer to search"`
	SearchText    string `json:"search_text" jsonschema:"literal text to look for (no pattern syntax); it may span lines"`
	CaseSensitive bool   `json:"case_sensitive,omitempty" jsonschema:"match case exactly (default: ignore case, as Emacs does)"`
}

// BufferMatch is a match in a buffer.
type BufferMatch struct {
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based, in characters
	Text   string `json:"text"`   // the line the match starts on
}

// SearchInBufferResult is search_in_buffer's result.
type SearchInBufferResult struct {
	BufferName string        `json:"buffer_name"`
	Matches    []BufferMatch `json:"matches"`
	Count      int           `json:"count"`     // matches found, up to the cap
	Truncated  bool          `json:"truncated"` // more matches than the cap
}

// SearchInBuffer declares search_in_buffer.
var SearchInBuffer = define[SearchInBufferParams]("search_in_buffer", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
