package definitions

// BufferListParams are the arguments of buffer_list (seed 001).
type BufferListParams struct {
	IncludeHidden bool `json:"include_hidden,omitempty" jsonschema:"include hidden buffers (names starting with a space)"`
}

// BufferInfo describes a buffer of a session.
type BufferInfo struct {
	Name     string `json:"name"`
	Mode     string `json:"mode,omitempty"`
	Lines    int    `json:"lines"`
	Bytes    int    `json:"bytes"`
	Point    int    `json:"point"`
	Hidden   bool   `json:"hidden,omitempty"`
	File     string `json:"file,omitempty"` // where buffer_save last wrote it
	Modified bool   `json:"modified"`       // changed since it was last saved (or never saved)
}

// BufferListResult is buffer_list's result: the buffers by name.
type BufferListResult struct {
	Buffers []BufferInfo `json:"buffers"`
}

// BufferList declares buffer_list.
var BufferList = define[BufferListParams]("buffer_list", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
