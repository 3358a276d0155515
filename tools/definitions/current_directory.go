package definitions

// CurrentDirectoryParams are the arguments of current_directory (seed 001): none.
type CurrentDirectoryParams struct{}

// CurrentDirectoryResult is current_directory's result.
type CurrentDirectoryResult struct {
	Root string `json:"root"` // the project root, an absolute path
	// WorkingDirectory is the session's working directory, relative to the root: "." unless
	// the session set one.
	WorkingDirectory string `json:"working_directory"`
	Path             string `json:"path"` // the working directory, an absolute path
}

// CurrentDirectory declares current_directory.
var CurrentDirectory = define[CurrentDirectoryParams]("current_directory", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader})
