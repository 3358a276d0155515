package forge

import (
	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/tools/definitions"
)

// The Forge tools of seed 002, declared once in its names and argument shapes (camelCase,
// as its agents were prompted); each agent gets them bound to its run, task and attempt
// (Tools). The artifact tools write only through the run's store: agents cannot write the
// artifact directory with the file tools (it is protected in their sessions).

// CreateSpecParams are create_spec's arguments.
type CreateSpecParams struct {
	Filename string `json:"filename" jido:"notpath" jsonschema:"the spec's file name, e.g. api-design.md"`
	Content  string `json:"content" jsonschema:"the spec, in Markdown"`
}

// CreateTaskParams are create_task's arguments.
type CreateTaskParams struct {
	TaskID  string `json:"taskId" jsonschema:"the task's id: letters, digits, dot, dash, underscore"`
	Content string `json:"content" jsonschema:"the task document: YAML front matter (id, type: 1, 2, 3 or refinery, dependencies, title, tests) then Markdown"`
}

// SetDAGParams are set_dag's arguments.
type SetDAGParams struct {
	DAG map[string]any `json:"dag" jsonschema:"the run's task graph: {\"tasks\": [{\"id\": \"A\", \"dependencies\": []}, ...]}"`
}

// PathResult is what the artifact tools that write return.
type PathResult struct {
	Path string `json:"path"`
}

// Outcome names the artifact written.
func (r *PathResult) Outcome() string { return r.Path }

// ReadSpecParams are read_spec's arguments.
type ReadSpecParams struct {
	Filename string `json:"filename" jido:"notpath" jsonschema:"the spec's file name"`
}

// ReadTaskParams are read_task's arguments.
type ReadTaskParams struct {
	TaskID string `json:"taskId" jsonschema:"the task's id"`
}

// ReadDAGParams are read_dag's (none).
type ReadDAGParams struct{}

// ReadWalkthroughParams are read_walkthrough's arguments.
type ReadWalkthroughParams struct {
	TaskID    string `json:"taskId" jsonschema:"the task's id"`
	AttemptID int    `json:"attemptId,omitempty" minimum:"0" jsonschema:"the attempt (default: the latest)"`
}

// ContentResult is what the reading artifact tools return.
type ContentResult struct {
	Content string `json:"content"`
}

// Outcome sizes the content.
func (r *ContentResult) Outcome() string { return definitions.Count(len(r.Content), "byte") }

// DAGResult is read_dag's result.
type DAGResult struct {
	DAG any `json:"dag"`
}

// Outcome says a graph was read.
func (r *DAGResult) Outcome() string { return "dag" }

// EmitWalkthroughParams are emit_walkthrough's arguments.
type EmitWalkthroughParams struct {
	Walkthrough store.Walkthrough `json:"walkthrough" jsonschema:"what the attempt did: summary (required), decisions, filesTouched, notes, nothingToChange (true when the task needed no change)"`
}

// AddSubtaskParams are add_subtask's arguments.
type AddSubtaskParams struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Type        int    `json:"type,omitempty" minimum:"1" maximum:"2" jsonschema:"the agent type to assign (default 1)"`
}

// SubtaskResult is add_subtask's result.
type SubtaskResult struct {
	SubtaskID string `json:"subtaskId"`
}

// Outcome names the subtask.
func (r *SubtaskResult) Outcome() string { return r.SubtaskID }

// ReadSubtasksParams are read_subtasks' (none).
type ReadSubtasksParams struct{}

// SubtasksResult is read_subtasks' result.
type SubtasksResult struct {
	Subtasks []store.Subtask `json:"subtasks"`
}

// Outcome counts the subtasks.
func (r *SubtasksResult) Outcome() string { return definitions.Count(len(r.Subtasks), "subtask") }

// EmitCRParams are emit_cr's arguments.
type EmitCRParams struct {
	Title            string `json:"title"`
	Description      string `json:"description"`
	Reason           string `json:"reason"`
	SuggestedChanges string `json:"suggestedChanges,omitempty"`
}

// CRResult is emit_cr's result.
type CRResult struct {
	CRID string `json:"crId"`
}

// Outcome names the change request.
func (r *CRResult) Outcome() string { return r.CRID + ": dispatch halted" }

// MarkTaskStatusParams are mark_task_status' arguments.
type MarkTaskStatusParams struct {
	TaskID string `json:"taskId"`
	Status string `json:"status" enum:"PENDING|RUNNING|DONE|MERGE_READY|MERGED|FAILED|STALE"`
}

// MarkTaskStatusResult is mark_task_status' result.
type MarkTaskStatusResult struct {
	Success        bool   `json:"success"`
	PreviousStatus string `json:"previousStatus"`
}

// Outcome says the transition.
func (r *MarkTaskStatusResult) Outcome() string { return "from " + r.PreviousStatus }

// PrepareBranchParams are prepare_branch's arguments.
type PrepareBranchParams struct {
	TaskID    string `json:"taskId"`
	AttemptID int    `json:"attemptId" minimum:"1"`
}

// PrepareBranchResult is prepare_branch's result.
type PrepareBranchResult struct {
	Branch     string   `json:"branch"`
	BaseRef    string   `json:"baseRef"`
	MergedDeps []string `json:"mergedDeps,omitempty"`
}

// Outcome names the branch.
func (r *PrepareBranchResult) Outcome() string { return r.Branch }

// MergeBranchesParams are merge_branches' arguments.
type MergeBranchesParams struct {
	SourceBranches []string `json:"sourceBranches" jsonschema:"the branches to merge, in order"`
	TargetBranch   string   `json:"targetBranch" jsonschema:"the branch they are merged into"`
}

// MergeBranchesResult is merge_branches' result.
type MergeBranchesResult struct {
	Success   bool     `json:"success"`
	Conflicts []string `json:"conflicts,omitempty"`
}

// Outcome says whether the merge went through.
func (r *MergeBranchesResult) Outcome() string {
	if r.Success {
		return "merged"
	}
	return definitions.Count(len(r.Conflicts), "conflict")
}

// FixConflictParams are fix_conflict's arguments.
type FixConflictParams struct {
	ConflictFiles []string `json:"conflictFiles" jido:"notpath"`
	SourceBranch  string   `json:"sourceBranch"`
	TargetBranch  string   `json:"targetBranch"`
}

// FixConflictResult is fix_conflict's result.
type FixConflictResult struct {
	Success bool   `json:"success"`
	AgentID string `json:"agentId"`
}

// Outcome says whether the conflict agent resolved it.
func (r *FixConflictResult) Outcome() string {
	if r.Success {
		return "resolved by " + r.AgentID
	}
	return "not resolved"
}

// SpawnAgentParams are spawn_agent's arguments.
type SpawnAgentParams struct {
	Type   any            `json:"type" jsonschema:"the agent type: 1, 2, 3 or \"refinery\""`
	TaskID string         `json:"taskId" jsonschema:"the task (or subtask) the agent works on"`
	Config map[string]any `json:"config,omitempty" jsonschema:"overrides: maxSteps (at most the run's)"`
}

// SpawnAgentResult is spawn_agent's result: the agent ran to its end.
type SpawnAgentResult struct {
	AgentID   string `json:"agentId"`
	SandboxID string `json:"sandboxId"` // the agent's worktree
	Status    string `json:"status"`    // DONE or FAILED
	Branch    string `json:"branch"`
}

// Outcome says how the agent ended.
func (r *SpawnAgentResult) Outcome() string { return r.AgentID + " " + r.Status }
