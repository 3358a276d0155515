package definitions

// EditFileParams are the arguments of edit_file.
type EditFileParams struct {
	Path       string `json:"path" jido:"path" jsonschema:"file to edit, relative to the project root"`
	OldString  string `json:"old_string" jsonschema:"the text to replace, copied from the file; it must match once unless replace_all is set"`
	NewString  string `json:"new_string" jsonschema:"the replacement text (taken literally)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string"`
	DryRun     bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diff without changing the file"`
	Force      bool   `json:"force,omitempty" jsonschema:"write even if a file that parsed would no longer parse, or is read-only (its mode is kept)"`
}

// EditFile declares edit_file.
var EditFile = define[EditFileParams]("edit_file", Decl{Flags: Flags{Mutating: true}, Role: RoleEditor, Positional: []string{"path", "old_string", "new_string"}})

// EditFileResult is the result of edit_file.
type EditFileResult struct {
	Backup
	FileDiff
	Strategy     string `json:"strategy"`
	Replacements int    `json:"replacements"`
	DryRun       bool   `json:"dry_run"`
}
