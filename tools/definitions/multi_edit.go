package definitions

// EditOp is one edit of multi_edit: a text replacement (old_string, new_string) or a line-range
// replacement (start_line, end_line, new_content, optional expected).
type EditOp struct {
	Path       string  `json:"path,omitempty" jido:"path" jsonschema:"file of this edit; defaults to the top-level path"`
	OldString  *string `json:"old_string,omitempty" jsonschema:"text edit: the exact text to replace"`
	NewString  *string `json:"new_string,omitempty" jsonschema:"text edit: the replacement text"`
	ReplaceAll bool    `json:"replace_all,omitempty" jsonschema:"text edit: replace every occurrence"`
	StartLine  int     `json:"start_line,omitempty" minimum:"1" jsonschema:"line edit: first line to replace, 1-based"`
	EndLine    int     `json:"end_line,omitempty" minimum:"0" jsonschema:"line edit: last line to replace, inclusive (start_line - 1 inserts before start_line)"`
	NewContent *string `json:"new_content,omitempty" jsonschema:"line edit: the lines that replace the range"`
	Expected   *string `json:"expected,omitempty" jsonschema:"line edit: the text the range must still hold, else the edit is refused"`
}

// MultiEditParams are the arguments of multi_edit.
type MultiEditParams struct {
	Path        string   `json:"path,omitempty" jido:"path" jsonschema:"file to edit, relative to the project root (edits may name their own)"`
	Edits       []EditOp `json:"edits" jsonschema:"edits applied in order, each to the result of the previous ones on its file"`
	StopOnError bool     `json:"stop_on_error,omitempty" default:"true" jsonschema:"true: all or nothing; false: apply the edits that can be applied and report the others"`
	DryRun      bool     `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diffs without changing any file"`
	Force       bool     `json:"force,omitempty" jsonschema:"write even if a file that parsed would no longer parse, or is read-only (its mode is kept)"`
}

// MultiEdit declares multi_edit.
var MultiEdit = define[MultiEditParams]("multi_edit", Decl{Flags: Flags{Mutating: true}, Role: RoleEditor, Positional: []string{"path", "edits"}})

// EditOutcome is what became of one edit of multi_edit.
type EditOutcome struct {
	Index        int        `json:"index"`
	Path         string     `json:"path"`
	OK           bool       `json:"ok"`
	Strategy     string     `json:"strategy,omitempty"`
	Replacements int        `json:"replacements,omitempty"`
	Error        *ToolError `json:"error,omitempty"`
}

// MultiEditResult is the result of multi_edit.
type MultiEditResult struct {
	Backup
	Applied int           `json:"applied"`
	Skipped int           `json:"skipped"`
	DryRun  bool          `json:"dry_run"`
	Files   []FileDiff    `json:"files"`
	Details []EditOutcome `json:"details"`
}
