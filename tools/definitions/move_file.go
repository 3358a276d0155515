package definitions

// MoveFileParams are the arguments of move_file.
type MoveFileParams struct {
	Source      string `json:"source" jido:"path" jsonschema:"file or directory to move, relative to the project root"`
	Destination string `json:"destination" jido:"path" jsonschema:"new path, relative to the project root; parent directories are created"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace an existing destination file"`
	DryRun      bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"say what the move would do without moving anything"`
}

// MoveFile declares move_file. It is idempotent: a second call finds no source, fails, and
// leaves the project as the first call left it.
var MoveFile = define[MoveFileParams]("move_file", Decl{Flags: Flags{Mutating: true, Destructive: true, Idempotent: true}, Role: RoleEditor})

// MoveFileResult is the result of move_file.
type MoveFileResult struct {
	Backup
	Source      string `json:"source"`
	Destination string `json:"destination"`
	DryRun      bool   `json:"dry_run,omitempty"`
	Overwrites  bool   `json:"overwrites,omitempty"` // the destination exists and would be replaced
}
