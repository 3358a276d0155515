package definitions

// UndoParams are the arguments of undo.
type UndoParams struct {
	ChangeID string `json:"change_id,omitempty" jsonschema:"the change set to undo (a change_id from a tool result); the last one when left out"`
	Force    bool   `json:"force,omitempty" jsonschema:"undo even if files changed since that change"`
	List     bool   `json:"list,omitempty" jsonschema:"list the change sets, newest first, instead of undoing"`
}

// Undo declares undo.
var Undo = define[UndoParams]("undo", Decl{Flags: Flags{Mutating: true}, Sessions: NotInPlan})
