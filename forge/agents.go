package forge

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/forge/gitops"
	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// systemPrompt tells an agent who it is; its first line also lets a scripted test model
// tell the agents apart ("Forge <role> agent, task <id>").
const systemPrompt = `Forge %s agent, task %s, run %s.
You are one agent of Forge, a multi-agent coding system, working in a confined copy of the project (paths are relative to its root; nothing outside it can be reached). Use your tools to do your task; when you are done, answer with a short summary.`

// walkthroughNote tells a task agent how its attempt is judged (see the package
// documentation): its walkthrough is its report that the work is done.
const walkthroughNote = `

Git works read-only in your worktree (status, diff, log, show); Forge commits your files on your branch when you finish. When your work is done, call emit_walkthrough with a summary, the decisions you made and the files you touched (with nothingToChange: true if the task needed no change), then answer with a one-line summary. If you cannot do the task, do not call emit_walkthrough: answer with what stopped you.`

// runAgent runs one agent of sc's role in a session rooted at sc.dir until it answers,
// and returns its answer. Its session is open's; its events go to the run's log of agent
// events.
func (f *Forge) runAgent(ctx context.Context, sc *scope, prompt string) (string, error) {
	id := agentID(sc.role, sc.taskID, sc.attempt)
	f.logf("%s: started in %s", id, sc.dir)
	m, s, err := f.open(ctx, sc, id)
	if err != nil {
		return "", err
	}
	defer m.Close()
	p, err := f.cfg.Provider(ctx, sc.role)
	if err != nil {
		return "", err
	}
	steps := f.cfg.MaxSteps
	if sc.maxSteps > 0 {
		steps = min(sc.maxSteps, steps)
	}
	a := &agent.Agent{Provider: &tokenBudget{Provider: p, max: f.cfg.MaxTokens}, Exec: chat.NewExecutor(s), Tools: agent.Specs(s.Tools()), MaxSteps: steps,
		System: fmt.Sprintf(systemPrompt, sc.role, cmp.Or(sc.taskID, "-"), f.run.ID())}
	ctx, cancel := context.WithTimeout(ctx, f.cfg.AgentTimeout)
	defer cancel()
	answer, err := a.Send(ctx, prompt)
	data := map[string]any{"agent": id, "answer": answer}
	if err != nil {
		data["error"] = err.Error()
	}
	f.event(store.Event{Type: "agent.end", Task: sc.taskID, Attempt: sc.attempt, Data: data})
	f.logf("%s: ended: %s", id, firstLine(cmp.Or(answer, fmt.Sprint(err))))
	return answer, err
}

// open opens the session id for sc: rooted at sc.dir, speaking the forge profile with
// sc's role's tools and the Forge tools bound to sc; every call runs (seed 002: no
// confirmation step), still confined to its root and sandboxed. The run's artifacts are
// read-only to its file and shell tools (only the Forge tools write them). In a task's
// worktree its commands may read what git needs there (gitops.Repo.SandboxReads), and
// nothing of the repository's git directory is writable to them. Its build caches are the
// repository's.
func (f *Forge) open(ctx context.Context, sc *scope, id string) (*manager.Manager, *manager.Session, error) {
	cfg := f.cfg.Session
	cfg.Root, cfg.Profile, cfg.Role, cfg.Tools, cfg.Yes = sc.dir, profile.Forge, sc.role, sc.Tools(), true
	// Every worktree's commands share the repository's private build caches: a task's first
	// build costs what the last task's did, not a cold start per worktree.
	cfg.BuildCacheKey = cmp.Or(cfg.BuildCacheKey, f.repo.Dir())
	if cfg.Permissions == nil {
		cfg.Permissions = policy.New(policy.ModeYolo)
	}
	pol := security.DefaultPolicy()
	if cfg.Policy != nil {
		pol = *cfg.Policy
	}
	pol.Protected = append(pol.Protected, "artifacts", "artifacts/**")
	cfg.Policy = &pol
	if sc.dir != f.repo.Dir() {
		reads, err := f.repo.SandboxReads(sc.dir)
		if err != nil {
			return nil, nil, err
		}
		cfg.SandboxReadOnly = append(slices.Clone(cfg.SandboxReadOnly), reads...)
		if cfg.GitDir, cfg.GitCommonDir, err = f.repo.GitDirs(sc.dir); err != nil {
			return nil, nil, err
		}
	}
	cfg.Events = f.agentEvents
	m, err := manager.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	s, err := m.Open(ctx, id)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, s, nil
}

// event appends e to the run's log; a failure to log is reported, not fatal.
func (f *Forge) event(e store.Event) {
	if err := f.run.AppendEvent(e); err != nil {
		f.logf("event %s not logged: %v", e.Type, err)
	}
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// prepare makes the branch and worktree of a task's attempt, with its dependencies'
// branches (of their latest attempts) merged in.
func (f *Forge) prepare(taskID string, attempt int) (*gitops.Prepared, error) {
	task, err := f.run.Task(taskID)
	if err != nil {
		return nil, err
	}
	var deps []string
	for _, d := range task.Dependencies {
		b, err := gitops.BranchName(d, f.run.Attempt(d))
		if err != nil {
			return nil, err
		}
		deps = append(deps, b)
	}
	prep, err := f.repo.PrepareBranch(taskID, attempt, f.base, deps, f.cfg.WorktreeDir)
	if err != nil {
		return nil, err
	}
	if len(prep.Conflicts) > 0 {
		return nil, definitions.NewError(definitions.ConflictError, "the dependencies of %s conflict in %s", taskID, strings.Join(prep.Conflicts, ", ")).
			With("task", taskID).With("conflicts", prep.Conflicts)
	}
	return prep, nil
}

// runTask runs one attempt of a task: its branch and worktree, its agent, the commit of
// its work, the check of its tests. It returns why the attempt failed, by the rule of the
// package documentation; nil when it is done.
func (f *Forge) runTask(ctx context.Context, task *store.Task, attempt int) error {
	return f.runTaskSteps(ctx, task, attempt, 0)
}

// runTaskSteps is runTask with the agent's round trips bounded by maxSteps too (0: the
// Config's alone): spawn_agent's config.
func (f *Forge) runTaskSteps(ctx context.Context, task *store.Task, attempt, maxSteps int) error {
	prep, err := f.prepare(task.ID, attempt)
	if err != nil {
		return err
	}
	sc := &scope{f: f, role: roleOf(task.Type), taskID: task.ID, attempt: attempt, dir: prep.Dir, maxSteps: maxSteps}
	doc, err := f.run.ReadTask(task.ID)
	if err != nil {
		return err
	}
	prompt := fmt.Sprintf("Your task (%s, attempt %d, on branch %s):\n\n%s%s", task.ID, attempt, prep.Branch, doc, walkthroughNote)
	answer, agentErr := f.runAgent(ctx, sc, prompt)
	// Whatever the verdict, the attempt's work stays on its branch, for whoever looks into it.
	_, changed, commitErr := f.repo.CommitAll(prep.Dir, fmt.Sprintf("forge: %s attempt %d\n\n%s", task.ID, attempt, cmp.Or(answer, "(no answer)")))
	switch {
	case agentErr != nil:
		return fmt.Errorf("the agent failed: %w", agentErr)
	case sc.walkthrough == nil:
		return fmt.Errorf("the agent ended without emit_walkthrough, its report of finished work; it said: %q", firstLine(answer))
	case commitErr != nil:
		return fmt.Errorf("its work could not be committed: %w", commitErr)
	case !changed && !sc.walkthrough.NothingToChange:
		return errors.New("the agent changed nothing, and its walkthrough does not say nothingToChange")
	case task.Tests != "":
		return f.checkTests(ctx, sc, task.Tests)
	}
	return nil
}

// checkTests runs a task's tests command in the attempt's worktree, sandboxed as its agent
// was, and returns why it failed when it did not exit 0 (or could not say).
func (f *Forge) checkTests(ctx context.Context, sc *scope, command string) error {
	m, s, err := f.open(ctx, sc, agentID("tests", sc.taskID, sc.attempt))
	if err != nil {
		return err
	}
	defer m.Close()
	res := s.CallCanonical(ctx, manager.ToolCall{Name: "run_shell", Args: map[string]any{"command": command, "timeout": 600}})
	if res.Error != nil {
		return fmt.Errorf("the task's tests (%s) did not run: %s", command, res.Error.Message)
	}
	var out struct {
		ExitCode *int   `json:"exit_code"`
		Stdout   string `json:"stdout"`
		Stderr   string `json:"stderr"`
	}
	data, err := json.Marshal(res.Result)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	switch {
	case err != nil || out.ExitCode == nil:
		return fmt.Errorf("the task's tests (%s) said nothing of how they ended", command)
	case *out.ExitCode != 0:
		return fmt.Errorf("the task's tests (%s) failed with exit code %d: %s", command, *out.ExitCode, lastLine(cmp.Or(out.Stderr, out.Stdout)))
	}
	return nil
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// roleOf is the forge role of a task type: "1" is type1, "refinery" the Refinery.
func roleOf(typ string) string {
	if typ == "refinery" {
		return typ
	}
	return "type" + typ
}

// spawn runs a sub-agent for spawn_agent, within the caller's spawn rights (seed 002:
// type 2 -> 1; type 3 -> 1, 2; refinery -> 1, 2, 3; executor -> all): on a task of the
// run, as a new attempt of it, or on a subtask of the caller's task, in the caller's
// worktree's branch.
func (f *Forge) spawn(ctx context.Context, sc *scope, p SpawnAgentParams) (*SpawnAgentResult, error) {
	typ := strings.TrimSuffix(fmt.Sprint(p.Type), ".0") // a JSON number arrives as float64
	role := roleOf(typ)
	if !profile.Forge.HasRole(role) || role == "captain" || role == "executor" {
		return nil, definitions.NewError(definitions.ValidationError, "unknown agent type %v", p.Type).Hint("Give 1, 2, 3 or \"refinery\"")
	}
	allowed := profile.Forge.Spawns[sc.role]
	if !slices.Contains(allowed, role) {
		return nil, definitions.NewError(definitions.PermissionError, "a %s agent may not spawn a %s agent", sc.role, role).
			With("may_spawn", allowed).Hint("Spawn one of the types your role may, or do the work yourself")
	}
	task, err := f.run.Task(p.TaskID)
	if err != nil {
		return nil, err
	}
	attempt, err := f.run.NextAttempt(task.ID)
	if err != nil {
		return nil, err
	}
	child := *task
	child.Type = typ
	steps, _ := p.Config["maxSteps"].(float64) // a JSON number
	err = f.runTaskSteps(ctx, &child, attempt, int(steps))
	res := &SpawnAgentResult{AgentID: agentID(role, task.ID, attempt), Status: "DONE"}
	res.Branch, _ = gitops.BranchName(task.ID, attempt)
	res.SandboxID, _ = gitops.WorktreePath(f.cfg.WorktreeDir, task.ID, attempt)
	if err != nil {
		res.Status = "FAILED"
		f.logf("%s: failed: %v", res.AgentID, err)
	}
	return res, nil
}

// fixConflict runs a conflict agent in the Refinery's work tree, where the merge is in
// progress, on the conflicting files, then concludes the merge.
func (f *Forge) fixConflict(ctx context.Context, sc *scope, p FixConflictParams) (*FixConflictResult, error) {
	if len(p.ConflictFiles) == 0 {
		return nil, definitions.NewError(definitions.ValidationError, "no conflicting file given").Hint("Pass the conflicts merge_branches listed")
	}
	for _, file := range p.ConflictFiles {
		if clean := path.Clean(file); clean != file || strings.HasPrefix(file, "/") || strings.HasPrefix(clean, "..") {
			return nil, definitions.NewError(definitions.ValidationError, "conflict file %q is not a relative path inside the project", file)
		}
	}
	helper := &scope{f: f, role: "type1", taskID: sc.taskID, attempt: sc.attempt, dir: sc.dir}
	prompt := fmt.Sprintf("Merging %s into %s stopped on conflicts in: %s.\nEach file holds git's conflict markers (<<<<<<<, =======, >>>>>>>). Edit every file so that it keeps the intent of both sides and no marker is left, then answer.",
		p.SourceBranch, p.TargetBranch, strings.Join(p.ConflictFiles, ", "))
	id := agentID("conflict", sc.taskID, sc.attempt)
	if _, err := f.runAgent(ctx, helper, prompt); err != nil {
		return &FixConflictResult{AgentID: id}, nil
	}
	if err := f.repo.ConcludeMerge(sc.dir, fmt.Sprintf("forge: merge %s into %s", p.SourceBranch, p.TargetBranch)); err != nil {
		return nil, err
	}
	return &FixConflictResult{Success: true, AgentID: id}, nil
}
