// Package builtin implements jido's built-in tools: for each, a plain Go function from its
// params to its result (definitions declares both), run behind the approval gate and,
// for changes, the undo journal. It knows nothing of Lua: the bridge package exposes these
// tools to snippets, which are the only way calls reach them. All file access goes
// through security.Root (or plan mode's overlay of it).
package builtin

import (
	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/redact"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/walk"
	"github.com/jido-run/jido/web"
)

// Deps are what the built-in tools of one session need.
type Deps struct {
	Root    *security.Root   // the project on disk
	Store   Store            // what the file tools act on (nil: Disk(Root), or the plan's View)
	Plan    *plan.Overlay    // plan mode: the session's plan, which every tool acts on (nil: off)
	Reads   *ReadLog         // the session's read tracking, for compare-and-swap edits
	Walker  *walk.Walker     // tree walks of list_files, glob and search (nil: one without global excludes)
	Shell   *shell.Lazy      // the session's command runner (nil: run_shell and run_tests are refused)
	Gate    Gate             // approves or refuses every call (nil: everything runs)
	Journal *journal.Journal // keeps the before-state of every change set, for undo (nil: none)
	Board   *tasks.Board     // the session's todos and tasks (nil: todo_write and task are refused)
	Buffers buffers.Buffers  // the session's buffers (nil: the buffer tools are refused)
	// Redactor returns the rules that remove secrets from what tools return, asked when a
	// tool needs them (so that a project's secret values are read only if ever needed;
	// nil: the default rules).
	Redactor func() *redact.Redactor
	// Fetcher returns the session's web_fetch client, made on first use (it keeps the
	// session's cache of recent fetches); nil: web_fetch is refused.
	Fetcher func() *web.Fetcher
	// Searcher answers web_search (nil: no provider is configured, which the call says).
	Searcher web.Searcher
	// Allow, when set, may refuse a call before the gate is asked (the bridge holds a
	// user's Lua tool to the flags it declared this way).
	Allow func(*definitions.Tool) *definitions.ToolError
	// Git is where the git tools read the repository of a root whose .git is a file (a
	// linked worktree); nil: the root's own .git directory.
	Git *GitDir
}

// GitDir is the git directory of a project root that is a linked worktree: its .git is a
// file naming a directory elsewhere, which the session may have rewritten, so the git
// tools never follow it; the embedder that made the worktree (Forge) names the directory.
type GitDir struct {
	Root     *security.Root // the repository's main work tree
	Common   string         // its common git directory (objects, refs, config, info), in Root: ".git"
	Worktree string         // the worktree's own git directory (HEAD, index), in Root: ".git/worktrees/A-1"
}

// Ready returns d with its defaults filled in: the store (the disk, or the plan's view)
// and a walker on it.
func (d Deps) Ready() Deps {
	switch {
	case d.Store != nil:
	case d.Plan != nil:
		d.Store = d.Plan.View()
	default:
		d.Store = Disk(d.Root)
	}
	if d.Walker == nil {
		d.Walker = walk.NewTree(d.Store, nil)
	} else if d.Plan != nil {
		d.Walker = d.Walker.On(d.Store)
	}
	return d
}

// redactor returns the redaction rules in force.
func (d Deps) redactor() *redact.Redactor {
	if d.Redactor == nil {
		return redact.Default()
	}
	return d.Redactor()
}
