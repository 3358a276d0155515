package definitions

// PlanDiffParams are the arguments of plan_diff.
type PlanDiffParams struct{}

// PlanApplyParams are the arguments of plan_apply.
type PlanApplyParams struct {
	DryRun bool `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"show the diff that would be applied and check for conflicts, without writing"`
}

// PlanDiscardParams are the arguments of plan_discard.
type PlanDiscardParams struct{}

// The plan tools of a plan-mode session. plan_discard only drops the in-memory plan:
// the project is never touched, so it is read-only as far as the disk goes. plan_apply
// empties the plan it wrote, so a second call finds nothing to apply: it is idempotent.
var (
	PlanDiff    = define[PlanDiffParams]("plan_diff", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleEditor, Sessions: PlanOnly})
	PlanApply   = define[PlanApplyParams]("plan_apply", Decl{Flags: Flags{Mutating: true, Destructive: true, Idempotent: true}, Role: RoleEditor, Sessions: PlanOnly})
	PlanDiscard = define[PlanDiscardParams]("plan_discard", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleEditor, Sessions: PlanOnly})
)

// PlanChange is one planned file change in a result.
type PlanChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // create, modify, delete
}

// PlanResult is the result of the plan tools.
type PlanResult struct {
	Backup
	Changes  []PlanChange   `json:"changes"`
	Files    int            `json:"files"`
	Added    int            `json:"added,omitempty"`
	Removed  int            `json:"removed,omitempty"`
	Diff     string         `json:"diff,omitempty"`
	Applied  bool           `json:"applied,omitempty"`
	DryRun   bool           `json:"dry_run,omitempty"`
	Redacted map[string]int `json:"redacted,omitempty"`
}
