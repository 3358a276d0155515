package definitions

// CreateDirectoryParams are the arguments of create_directory.
type CreateDirectoryParams struct {
	// Tagged "workdir", not "path": path rules match it like any path, but the undo journal,
	// which keeps files, not directories, leaves it out (a journaled directory could not be
	// undone, and an existing one would have all its files captured for nothing).
	Path   string `json:"path" jido:"workdir" jsonschema:"directory to create, with its missing parents, relative to the project root"`
	DryRun bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"say whether the directory would be created without creating it"`
}

// CreateDirectory declares create_directory (seed 003's jido.mkdir_p). It is idempotent:
// an existing directory is no error. It is not journaled: undo does not remove the
// directories it made. Plan mode cannot hold it (a plan holds files, not
// bare directories); there, write_file creates a file's parents.
var CreateDirectory = define[CreateDirectoryParams]("create_directory", Decl{Flags: Flags{Mutating: true, Idempotent: true}, Role: RoleEditor, Sessions: NotInPlan, Positional: []string{"path"}})

// CreateDirectoryResult is the result of create_directory.
type CreateDirectoryResult struct {
	Path    string `json:"path"`
	Created bool   `json:"created"` // false: it existed already (or, for a dry run, nothing was done)
	DryRun  bool   `json:"dry_run,omitempty"`
	// WouldCreate, for a dry run, says whether the call would create the directory.
	WouldCreate bool `json:"would_create,omitempty"`
}

// Outcome says whether the directory was made.
func (r *CreateDirectoryResult) Outcome() string {
	switch {
	case r.WouldCreate:
		return "would create " + r.Path
	case r.Created:
		return "created"
	}
	return "exists"
}
