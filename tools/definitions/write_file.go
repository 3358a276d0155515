package definitions

// WriteFileParams are the arguments of write_file.
type WriteFileParams struct {
	Path            string `json:"path" jido:"path" jsonschema:"file to write, relative to the project root"`
	Content         string `json:"content" jsonschema:"the full new content of the file (or the text to append)"`
	Append          bool   `json:"append,omitempty" jsonschema:"add content at the end of the file instead of replacing it"`
	CreateIfMissing bool   `json:"create_if_missing,omitempty" default:"true" jsonschema:"create the file (and its parent directories) when it does not exist"`
	Force           bool   `json:"force,omitempty" jsonschema:"write even if the content does not parse (Go, JSON, Lua, Lisp, YAML, TOML) where the file did, or the file is read-only (its mode is kept)"`
	DryRun          bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diff of the write without changing anything"`
}

// WriteFile declares write_file. It is not idempotent: replacing is, but `append` adds the
// content again on every call.
var WriteFile = define[WriteFileParams]("write_file", Decl{Flags: Flags{Mutating: true}, Role: RoleEditor, Positional: []string{"path", "content"}})

// WriteFileResult is the result of write_file.
type WriteFileResult struct {
	Backup
	Path         string `json:"path"`
	BytesWritten int    `json:"bytes_written"`
	Created      bool   `json:"created"`
	Appended     bool   `json:"appended"`
	DryRun       bool   `json:"dry_run,omitempty"`
	Diff         string `json:"diff,omitempty"` // the change a dry run would make
	// UncommittedChanges: before this write the file already differed from what git's
	// index holds (the user's own work in progress).
	UncommittedChanges bool `json:"uncommitted_changes,omitempty"`
}
