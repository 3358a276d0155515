package definitions

import "github.com/jido-run/jido/patch"

// ApplyPatchParams are the arguments of apply_patch (Codex's patch format).
type ApplyPatchParams struct {
	Input  string `json:"input" jsonschema:"the patch: *** Begin Patch, then *** Add File: / *** Delete File: / *** Update File: (with *** Move to: and @@ hunks of ' ', '-' and '+' lines), then *** End Patch"`
	DryRun bool   `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"return the diffs without changing any file"`
}

// NamedPaths are the files the patch names, for path rules and the undo journal: the
// paths live in the patch text, not in a field.
func (p ApplyPatchParams) NamedPaths() []string { return patch.Paths(p.Input) }

// ApplyPatchResult is apply_patch's result: each file's diff.
type ApplyPatchResult struct {
	Backup
	Files  []FileDiff `json:"files"`
	DryRun bool       `json:"dry_run,omitempty"`
}

// ApplyPatch declares apply_patch.
var ApplyPatch = define[ApplyPatchParams]("apply_patch", Decl{Flags: Flags{Mutating: true, Destructive: true}, Role: RoleEditor, Positional: []string{"input"}})
