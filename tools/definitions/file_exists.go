package definitions

import "time"

// FileExistsParams are the arguments of file_exists.
type FileExistsParams struct {
	Path string `json:"path" jido:"path" jsonschema:"file or directory to check, relative to the project root"`
}

// FileExists declares file_exists.
var FileExists = define[FileExistsParams]("file_exists", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})

// FileExistsResult is the result of file_exists.
type FileExistsResult struct {
	Path   string     `json:"path"`
	Exists bool       `json:"exists"`
	Type   string     `json:"type,omitempty"`
	Size   int64      `json:"size,omitempty"`
	MTime  *time.Time `json:"mtime,omitempty"`
}
