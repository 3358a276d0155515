package definitions

// FileExistsParams are the arguments of file_exists.
type FileExistsParams struct {
	Path string `json:"path" jido:"path" jsonschema:"file or directory to check, relative to the project root"`
}

// FileExists declares file_exists.
var FileExists = define[FileExistsParams]("file_exists", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
