package definitions

// EditRegionParams are the arguments of edit_region.
type EditRegionParams struct {
	Path       string  `json:"path" jido:"path" jsonschema:"file to edit, relative to the project root"`
	StartLine  int     `json:"start_line" minimum:"1" jsonschema:"first line to replace, 1-based"`
	EndLine    int     `json:"end_line" minimum:"0" jsonschema:"last line to replace, inclusive (start_line - 1 inserts before start_line)"`
	NewContent string  `json:"new_content" jsonschema:"the lines that replace the range (empty deletes it)"`
	Expected   *string `json:"expected,omitempty" jsonschema:"the text the range must still hold; if it does not, the edit is refused with a diff"`
	DryRun     bool    `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diff without changing the file"`
	Force      bool    `json:"force,omitempty" jsonschema:"write even if a file that parsed would no longer parse, or is read-only (its mode is kept)"`
}

// EditRegion declares edit_region.
var EditRegion = define[EditRegionParams]("edit_region", Decl{Flags: Flags{Mutating: true}, Role: RoleEditor})

// EditRegionResult is the result of edit_region.
type EditRegionResult struct {
	Backup
	FileDiff
	StartLine int  `json:"start_line"`
	EndLine   int  `json:"end_line"`
	Changed   bool `json:"changed"`
	DryRun    bool `json:"dry_run"`
}
