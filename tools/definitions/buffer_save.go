package definitions

// BufferSaveParams are the arguments of buffer_save (seed 001).
type BufferSaveParams struct {
	BufferName string `json:"buffer_name" jsonschema:"name of the buffer to save"`
	FilePath   string `json:"file_path" jido:"path" jsonschema:"file to write, relative to the project root (an absolute path must lie inside it)"`
	Force      bool   `json:"force,omitempty" jsonschema:"save even if the content does not parse (Go, JSON, Lua, Lisp, YAML, TOML) where the file did, or the file is read-only (its mode is kept)"`
	DryRun     bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diff of the save without writing anything"`
}

// BufferSaveResult is buffer_save's result: the write, as write_file reports it.
type BufferSaveResult struct {
	BufferName string `json:"buffer_name"`
	Backup
	Path         string `json:"path"`
	BytesWritten int    `json:"bytes_written"`
	Created      bool   `json:"created"`
	DryRun       bool   `json:"dry_run,omitempty"`
	Diff         string `json:"diff,omitempty"` // the change a dry run would make
	// UncommittedChanges: before this write the file already differed from what git's
	// index holds.
	UncommittedChanges bool `json:"uncommitted_changes,omitempty"`
}

// BufferSave declares buffer_save: a write of a project file, asked about (with its diff,
// from its dry run) and journaled for undo as write_file is, and written by write_file's
// code, so its path rules and parse guard apply.
var BufferSave = define[BufferSaveParams]("buffer_save", Decl{Flags: Flags{Mutating: true}, Role: RoleEditor})
