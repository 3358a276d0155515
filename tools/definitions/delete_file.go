package definitions

// DeleteFileParams are the arguments of delete_file.
type DeleteFileParams struct {
	Path      string `json:"path" jido:"path" jsonschema:"file or directory to delete, relative to the project root"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"required to delete a directory and everything in it"`
	DryRun    bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"say what would be deleted without deleting it"`
}

// DeleteFile declares delete_file. It is idempotent: a second call finds nothing to delete,
// fails, and leaves the project as the first call left it.
var DeleteFile = define[DeleteFileParams]("delete_file", Decl{Flags: Flags{Mutating: true, Destructive: true, Idempotent: true}, Role: RoleEditor, Positional: []string{"path"}})

// DeleteFileResult is the result of delete_file.
type DeleteFileResult struct {
	Backup
	Path    string `json:"path"`
	Deleted bool   `json:"deleted"`
	DryRun  bool   `json:"dry_run,omitempty"`
	Type    string `json:"type,omitempty"`    // what a dry run would delete
	Entries int    `json:"entries,omitempty"` // files and directories under a directory a dry run would delete
}
