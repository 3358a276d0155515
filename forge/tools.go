package forge

import (
	"context"
	"fmt"
	"slices"

	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
)

// The declarations of the Forge tools, once; Tools binds them to an agent.
var (
	createSpec      = declare[CreateSpecParams]("create_spec", "Create a spec document of the run (Markdown) in the artifact store; returns its path.", definitions.Flags{Mutating: true})
	createTask      = declare[CreateTaskParams]("create_task", "Create a task document of the run: YAML front matter (id, type: 1, 2, 3 or refinery, dependencies: [ids], title, and optionally tests: a shell command that must pass in the task's worktree once its agent is done) then Markdown; returns its path.", definitions.Flags{Mutating: true})
	setDAG          = declare[SetDAGParams]("set_dag", "Write the run's task graph: {\"tasks\": [{\"id\": \"A\", \"dependencies\": []}, ...]}; every task must have been created, with the same dependencies, and the graph must be acyclic.", definitions.Flags{Mutating: true})
	readSpec        = declare[ReadSpecParams]("read_spec", "Read a spec document of the run.", definitions.Flags{ReadOnly: true})
	readTask        = declare[ReadTaskParams]("read_task", "Read a task document of the run.", definitions.Flags{ReadOnly: true})
	readDAG         = declare[ReadDAGParams]("read_dag", "Read the run's task graph.", definitions.Flags{ReadOnly: true})
	readWalkthrough = declare[ReadWalkthroughParams]("read_walkthrough", "Read the walkthrough of a task's attempt (the latest by default).", definitions.Flags{ReadOnly: true})
	emitWalkthrough = declare[EmitWalkthroughParams]("emit_walkthrough", "Report that your task's attempt is done, in its walkthrough: what you did, the decisions made, the files touched (nothingToChange: true when the task needed no change). An attempt without it fails.", definitions.Flags{Mutating: true})
	addSubtask      = declare[AddSubtaskParams]("add_subtask", "Add a subtask to your task's list, for an agent of type 1 or 2.", definitions.Flags{Mutating: true})
	readSubtasks    = declare[ReadSubtasksParams]("read_subtasks", "Read your task's subtasks.", definitions.Flags{ReadOnly: true})
	emitCR          = declare[EmitCRParams]("emit_cr", "Emit a change request against the plan: no new task starts (running ones finish) until the plan is revised.", definitions.Flags{Mutating: true})
	markTaskStatus  = declare[MarkTaskStatusParams]("mark_task_status", "Move a task in the state machine PENDING -> RUNNING -> DONE -> MERGE_READY -> MERGED (FAILED, STALE); other moves are refused.", definitions.Flags{Mutating: true})
	prepareBranch   = declare[PrepareBranchParams]("prepare_branch", "Create the branch forge/<taskId>/<attemptId> from the base and merge the task's dependency branches into it.", definitions.Flags{Mutating: true})
	mergeBranches   = declare[MergeBranchesParams]("merge_branches", "Merge branches, in order, into the target branch; stops at the first conflict, leaving it for fix_conflict, and lists its files.", definitions.Flags{Mutating: true})
	fixConflict     = declare[FixConflictParams]("fix_conflict", "Spawn an agent that resolves the conflict of the merge in progress in the listed files, then concludes the merge.", definitions.Flags{Mutating: true})
	spawnAgent      = declare[SpawnAgentParams]("spawn_agent", "Run a sub-agent of the given type on a task (or subtask) in a worktree of its own, to its end; returns its id, worktree and outcome.", definitions.Flags{Mutating: true})
)

// declare declares a Forge tool outside jido's catalogue.
func declare[P any](name, about string, flags definitions.Flags) *definitions.Tool {
	return definitions.Declare[P](name, about, definitions.Decl{Flags: flags})
}

// scope is what one agent's Forge tools act on: its run, and for a task agent its task
// and attempt and the worktree it works in.
type scope struct {
	f        *Forge
	role     string
	taskID   string // "" for the Captain
	attempt  int
	dir      string // the agent's root: its worktree, or the repository
	maxSteps int    // a bound of its own on its model round trips (spawn_agent's config); 0: none
	// walkthrough is the one the agent emitted last (nil before): its report that the
	// attempt's work is done. An agent's tool calls run one at a time.
	walkthrough *store.Walkthrough
}

// Tools returns the Forge tools of the agent's role (profile.Forge.Provided), bound to sc.
func (sc *scope) Tools() []*builtin.Tool {
	all := []*builtin.Tool{
		bindTool(createSpec, func(_ context.Context, p CreateSpecParams) (*PathResult, error) {
			path, err := sc.f.run.CreateSpec(p.Filename, p.Content)
			return &PathResult{Path: path}, err
		}),
		bindTool(createTask, func(_ context.Context, p CreateTaskParams) (*PathResult, error) {
			path, err := sc.f.run.CreateTask(p.TaskID, p.Content)
			return &PathResult{Path: path}, err
		}),
		bindTool(setDAG, func(_ context.Context, p SetDAGParams) (*PathResult, error) {
			path, err := sc.f.run.SetDAG(p.DAG)
			return &PathResult{Path: path}, err
		}),
		bindTool(readSpec, func(_ context.Context, p ReadSpecParams) (*ContentResult, error) {
			c, err := sc.f.run.ReadSpec(p.Filename)
			return &ContentResult{Content: c}, err
		}),
		bindTool(readTask, func(_ context.Context, p ReadTaskParams) (*ContentResult, error) {
			c, err := sc.f.run.ReadTask(p.TaskID)
			return &ContentResult{Content: c}, err
		}),
		bindTool(readDAG, func(context.Context, ReadDAGParams) (*DAGResult, error) {
			d, err := sc.f.run.ReadDAG()
			return &DAGResult{DAG: d}, err
		}),
		bindTool(readWalkthrough, func(_ context.Context, p ReadWalkthroughParams) (*ContentResult, error) {
			c, err := sc.f.run.ReadWalkthrough(p.TaskID, p.AttemptID)
			return &ContentResult{Content: c}, err
		}),
		bindTool(emitWalkthrough, func(_ context.Context, p EmitWalkthroughParams) (*PathResult, error) {
			if err := sc.needTask("emit_walkthrough"); err != nil {
				return nil, err
			}
			path, err := sc.f.run.EmitWalkthrough(sc.taskID, sc.attempt, p.Walkthrough)
			if err != nil {
				return nil, err
			}
			sc.walkthrough = &p.Walkthrough
			return &PathResult{Path: path}, nil
		}),
		bindTool(addSubtask, func(_ context.Context, p AddSubtaskParams) (*SubtaskResult, error) {
			if err := sc.needTask("add_subtask"); err != nil {
				return nil, err
			}
			id, err := sc.f.run.AddSubtask(sc.taskID, p.Title, p.Description, p.Type)
			return &SubtaskResult{SubtaskID: id}, err
		}),
		bindTool(readSubtasks, func(context.Context, ReadSubtasksParams) (*SubtasksResult, error) {
			if err := sc.needTask("read_subtasks"); err != nil {
				return nil, err
			}
			list, err := sc.f.run.Subtasks(sc.taskID)
			return &SubtasksResult{Subtasks: list}, err
		}),
		bindTool(emitCR, func(_ context.Context, p EmitCRParams) (*CRResult, error) {
			id, err := sc.f.run.EmitCR(p.Title, p.Description, p.Reason, p.SuggestedChanges)
			return &CRResult{CRID: id}, err
		}),
		bindTool(markTaskStatus, func(_ context.Context, p MarkTaskStatusParams) (*MarkTaskStatusResult, error) {
			prev, err := sc.f.run.MarkStatus(p.TaskID, store.Status(p.Status))
			return &MarkTaskStatusResult{Success: err == nil, PreviousStatus: string(prev)}, err
		}),
		bindTool(prepareBranch, func(_ context.Context, p PrepareBranchParams) (*PrepareBranchResult, error) {
			prep, err := sc.f.prepare(p.TaskID, p.AttemptID)
			if err != nil {
				return nil, err
			}
			return &PrepareBranchResult{Branch: prep.Branch, BaseRef: prep.BaseRef, MergedDeps: prep.MergedDeps}, nil
		}),
		bindTool(mergeBranches, func(_ context.Context, p MergeBranchesParams) (*MergeBranchesResult, error) {
			for _, b := range p.SourceBranches {
				if err := sc.f.mergeable(b); err != nil {
					return nil, err
				}
			}
			res, err := sc.f.repo.MergeBranches(sc.dir, p.SourceBranches, p.TargetBranch)
			if err != nil {
				return nil, err
			}
			return &MergeBranchesResult{Success: res.Success, Conflicts: res.Conflicts}, nil
		}),
		bindTool(fixConflict, func(ctx context.Context, p FixConflictParams) (*FixConflictResult, error) {
			return sc.f.fixConflict(ctx, sc, p)
		}),
		bindTool(spawnAgent, func(ctx context.Context, p SpawnAgentParams) (*SpawnAgentResult, error) {
			return sc.f.spawn(ctx, sc, p)
		}),
	}
	allowed := profile.Forge.Provided[sc.role]
	return slices.DeleteFunc(all, func(t *builtin.Tool) bool { return !slices.Contains(allowed, t.Def.Name) })
}

// needTask refuses a task agent's tool to an agent without a task (the Captain).
func (sc *scope) needTask(tool string) error {
	if sc.taskID == "" {
		return definitions.NewError(definitions.ValidationError, "%s is for an agent working on a task", tool)
	}
	return nil
}

// bindTool makes a Go tool of decl with fn.
func bindTool[P, R any](decl *definitions.Tool, fn func(context.Context, P) (R, error)) *builtin.Tool {
	return builtin.New(decl, func(ctx context.Context, _ builtin.Deps, p P) (R, error) { return fn(ctx, p) })
}

// agentID names an agent in events and results.
func agentID(role, taskID string, attempt int) string {
	if taskID == "" {
		return role
	}
	return fmt.Sprintf("%s-%s-%d", role, taskID, attempt)
}
