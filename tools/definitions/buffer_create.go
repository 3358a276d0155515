package definitions

// BufferCreateParams are the arguments of buffer_create (seed 001).
type BufferCreateParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the new buffer (e.g. hello.py, *scratch*); a name starting with a space makes a hidden buffer"`
	Content    string `json:"content" jsonschema:"initial content of the buffer"`
	Mode       string `json:"mode,omitempty" jsonschema:"major mode hint, e.g. python-mode or org-mode (kept and shown, nothing more)"`
}

// BufferCreateResult is buffer_create's result.
type BufferCreateResult struct {
	BufferName string `json:"buffer_name"`
	Mode       string `json:"mode,omitempty"`
	Lines      int    `json:"lines"`
	Bytes      int    `json:"bytes"`
	Message    string `json:"message"` // "Buffer 'hello.py' created with 5 lines"
}

// BufferCreate declares buffer_create. Buffers are the session's, not the project's, so
// it reads as far as approvals go.
var BufferCreate = define[BufferCreateParams]("buffer_create", Decl{Flags: Flags{ReadOnly: true}, Role: RoleReader})
