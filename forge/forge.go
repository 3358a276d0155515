// Package forge runs seed 002's multi-agent system on jido: a Captain plans a run (specs,
// tasks, a DAG) into the artifact store (forge/store); the Executor (Run) dispatches the
// ready tasks, each to an agent that works in a git worktree of its own (forge/gitops),
// as a jido session confined to that worktree and driven by the agent loop; a Refinery
// agent merges the finished branches into the target. Every agent speaks the forge
// profile, with its role's tools and the Forge tools bound to its run (Tools).
//
// # When an agent has done its work
//
// Each agent has one way to say it is done, and Forge holds it to it:
//
//   - A task agent (a task of type 1, 2, 3 or refinery, and an agent spawn_agent starts)
//     reports finished work with emit_walkthrough, then answers. Its attempt is DONE only
//     when all of these hold: the agent's conversation ended with an answer (no model
//     error, no stop, within its step, token and time budgets); it called
//     emit_walkthrough in this attempt; Forge committed a change of its worktree on the
//     attempt's branch, or its walkthrough says nothingToChange; and the command of the
//     task's "tests" front matter key, when it has one, exits 0 in the worktree,
//     sandboxed as the agent was. Anything else fails the attempt, and the first of these
//     it missed is recorded as why. An agent that gives up ends without a walkthrough:
//     its last answer is in the reason. Exit codes of its own commands do not count:
//     an agent may run a failing test on its way to a fix.
//   - A failed attempt is retried once, as a new attempt on a new branch from the base.
//     When that one fails too, the run fails: no task starts after it (the running ones
//     finish), the Refinery does not run, and Execute returns ErrFailed. A failed
//     attempt's branch keeps its work for whoever looks into it, but merge_branches
//     refuses it, as every branch but a DONE task's current attempt.
//   - The Captain is done when the DAG it set is valid; the Refinery when its conversation
//     ended with an answer, every branch it was given is in the target branch, and no
//     earlier attempt's branch is; a conflict agent when no conflict marker is left.
package forge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/forge/gitops"
	"github.com/jido-run/jido/forge/store"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/security"
)

// Config says how a Forge works; the CLI (jido forge) fills it.
type Config struct {
	// Repo is the project: a git work tree, whose current branch is the target.
	Repo string
	// Provider makes the model of one agent; role is its forge role.
	Provider func(ctx context.Context, role string) (agent.Provider, error)
	// Session is the base of every agent's manager (network, sandbox, limits); Forge sets
	// its root, profile, role, tools and events.
	Session manager.Config
	// WorktreeDir is where the task worktrees go (absolute; default: beside the
	// repository's .git, in .git/forge-worktrees, where no agent can reach).
	WorktreeDir string
	// Parallel bounds the tasks run at once (default 2); MaxSteps the model round trips
	// of one agent (default 40); MaxTokens the tokens of one agent's requests, prompt and
	// completion (default 2,000,000); AgentTimeout the time of one agent (default 30 min).
	Parallel     int
	MaxSteps     int
	MaxTokens    int
	AgentTimeout time.Duration
	// Log, when set, is told what the run does, a line at a time, for people.
	Log io.Writer
}

// Forge is a run of a project, open for planning or execution.
type Forge struct {
	cfg  Config
	root *security.Root // the project, where the artifact store lives
	repo *gitops.Repo
	run  *store.Run
	base string // the target branch: the repository's current branch at Open

	agentEvents io.Writer    // the NDJSON events of every agent's session, this process's
	closeEvents func() error // closes agentEvents' file
	lockFile    *os.File     // holds the run's lock (lock), once taken
}

// errNoRun is returned when a run is asked for and the project has none.
var errNoRun = errors.New("forge: this project has no run yet: start one with jido forge plan \"GOAL\"")

// Open opens the run runID of the project (the newest when ""), or with create a new run
// (runID "" names it).
func Open(cfg Config, runID string, create bool) (*Forge, error) {
	repo, err := gitops.Open(cfg.Repo)
	if err != nil {
		return nil, err
	}
	root, err := security.Open(repo.Dir(), security.Options{})
	if err != nil {
		return nil, err
	}
	f := &Forge{cfg: cfg.withDefaults(repo.Dir()), root: root, repo: repo}
	switch {
	case create:
		if runID == "" {
			runID = store.NewRunID()
		}
		f.run, err = store.New(root, runID)
	case runID == "":
		runs, lerr := store.Runs(root)
		if lerr != nil || len(runs) == 0 {
			root.Close()
			return nil, cmp.Or(lerr, errNoRun)
		}
		f.run, err = store.Open(root, runs[len(runs)-1])
	default:
		f.run, err = store.Open(root, runID)
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	if f.base, err = repo.CurrentBranch(); err != nil {
		root.Close()
		return nil, err
	}
	return f, nil
}

// openAgentEvents takes the run's lock and creates this process's log of agent events in
// the run's directory, once: artifacts/<runId>/.agents-<time>.ndjson, a name no task id
// takes; a new file per process, so that a resumed run appends nothing to a file a crash
// may have cut.
func (f *Forge) openAgentEvents() error {
	if f.agentEvents != nil {
		return nil
	}
	if err := f.lock(); err != nil {
		return err
	}
	name := fmt.Sprintf("artifacts/%s/.agents-%s.ndjson", f.run.ID(), time.Now().UTC().Format("20060102T150405.000000000"))
	file, _, err := f.root.CreateLog(name)
	if err != nil {
		return err
	}
	f.agentEvents, f.closeEvents = &lockedWriter{w: file}, file.Close
	return nil
}

// excludeArtifacts makes git ignore the run's directory, artifacts/<runId>/, so that the
// run leaves the user's git status as it found it. The store stays in the project, where
// seed 002 puts it and users read it; only this run's directory is excluded, so a
// project's own artifacts/ (and a task's files there) are still seen by git.
func (f *Forge) excludeArtifacts() error {
	_, err := f.repo.Exclude("/artifacts/"+f.run.ID()+"/", "jido forge run "+f.run.ID()+": its artifacts")
	return err
}

// lockedWriter serializes the writes of the agents running at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// withDefaults fills in the zero fields of c for the repository at dir.
func (c Config) withDefaults(dir string) Config {
	if c.WorktreeDir == "" {
		c.WorktreeDir = dir + "/.git/forge-worktrees"
	}
	if c.Parallel <= 0 {
		c.Parallel = 2
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 40
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 2_000_000
	}
	if c.AgentTimeout <= 0 {
		c.AgentTimeout = 30 * time.Minute
	}
	return c
}

// Run is the run's store.
func (f *Forge) Run() *store.Run { return f.run }

// Close releases the project.
func (f *Forge) Close() error {
	if f.closeEvents != nil {
		f.closeEvents()
	}
	if f.lockFile != nil {
		f.lockFile.Close()
	}
	return f.root.Close()
}

// logf tells the log what happens.
func (f *Forge) logf(format string, args ...any) {
	if f.cfg.Log != nil {
		fmt.Fprintf(f.cfg.Log, format+"\n", args...)
	}
}
