// Package gitops runs the git operations of Forge on jido (issue 25) on the host: it
// prepares a task's branch forge/<taskId>/<attempt> in its own worktree with its
// dependency branches merged in (prepare_branch), commits an agent's finished work,
// merges task branches into a target for the Refinery (merge_branches), and leaves a
// conflicting merge in progress for a conflict agent to fix and conclude (fix_conflict).
//
// # Threat model
//
// Agents are untrusted and can write any file in their worktree, but git runs here, on
// the host, outside any sandbox. So no git invocation may run code or read configuration
// an agent could have written:
//
//   - Every invocation gets a fixed environment (see [baseEnv]): nothing of the host's
//     environment is inherited (no GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXEC_PATH, ...), the
//     system and global configuration are off, HOME is a directory that does not exist.
//   - Every invocation gets command-line configuration (see [safeConfig]) that turns off
//     what runs programs: hooks (core.hooksPath=/dev/null, which also beats a hooksPath set
//     in the repository's config, since -c has the highest precedence), fsmonitor, ssh,
//     askpass, pager, editor, credential helpers, signing, external diff, auto gc, and
//     every transport but local files.
//   - Git never discovers a repository from a worktree: the worktree's ".git" file is
//     the agent's to rewrite (it could point at a git directory the agent made, with a
//     config that names an fsmonitor or filters). gitops passes --git-dir and --work-tree
//     itself, the git directory being the worktree's administrative directory under the
//     main repository's .git (found by reading .git/worktrees/*/gitdir, never the
//     worktree), which agents cannot write.
//   - Merge drivers, filters and textconv are named by .gitattributes, which agents can
//     write, but defined only in configuration: system and global are off, the
//     repository's .git/config is outside every worktree, so an agent can name a driver
//     but not define one. In depth, [Open] lists the drivers the repository's own config
//     defines and gitops overrides them on every call (filter commands emptied, which git
//     reads as no filter; a merge driver emptied, which makes git fail that merge rather
//     than run anything), and core.attributesFile=/dev/null and GIT_ATTR_NOSYSTEM=1 drop
//     the attribute files outside the repository. (git >= 2.40 could ignore the in-tree
//     .gitattributes entirely with --attr-source; the git this was written against, 2.39,
//     cannot.)
//   - Submodules (an agent can commit a nested repository) are never recursed into and
//     never asked for their status, which would run git inside a repository the agent
//     wrote: submodule.recurse=false, diff.ignoreSubmodules=all, and conflicts are read
//     with git ls-files -u, which reads only the index.
//   - Names are checked before they reach git: task and attempt ids against a strict
//     pattern, branch names in Go and by git check-ref-format --branch, and every ref is
//     resolved to a commit id by rev-parse --verify --end-of-options before it is passed
//     to merge or worktree, so no argument can be read as an option.
//   - Worktree paths are computed here, under a base directory the caller gives, from
//     validated ids; a path that exists and is not a worktree of this repository is
//     refused.
//
// All errors are *definitions.ToolError. A Repo is safe for use by one goroutine at a
// time per worktree; git's own locks guard the shared repository.
package gitops
