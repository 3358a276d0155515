package definitions

import "fmt"

// The read-only git tools show the repository of the project root as it is on disk: its
// commits, its index and its working tree. They never run git, change the repository or
// reach the network.

// GitStatusParams are the arguments of git_status.
type GitStatusParams struct {
	Path string `json:"path,omitempty" jido:"path" jsonschema:"only entries under this file or directory, relative to the project root (default: the whole repository)"`
}

// GitDiffParams are the arguments of git_diff.
type GitDiffParams struct {
	Path    string `json:"path,omitempty" jido:"path" jsonschema:"only changes under this file or directory, relative to the project root"`
	Staged  bool   `json:"staged,omitempty" jsonschema:"diff the index against ref (default HEAD): what the next commit holds, like git diff --staged"`
	Ref     string `json:"ref,omitempty" jsonschema:"commit to compare with (branch, tag, hash, HEAD~2); without staged the working tree is compared with it, like git diff REF"`
	Context int    `json:"context,omitempty" default:"3" minimum:"0" maximum:"100" jsonschema:"lines of context around each change"`
}

// GitLogParams are the arguments of git_log.
type GitLogParams struct {
	Path     string `json:"path,omitempty" jido:"path" jsonschema:"only commits that change this file or directory, relative to the project root"`
	MaxCount int    `json:"max_count,omitempty" default:"20" minimum:"1" maximum:"200" jsonschema:"maximum number of commits, newest first"`
	Ref      string `json:"ref,omitempty" jsonschema:"commit to start from (branch, tag, hash, HEAD~2; default HEAD)"`
}

// GitShowParams are the arguments of git_show.
type GitShowParams struct {
	Ref  string `json:"ref,omitempty" default:"\"HEAD\"" jsonschema:"commit to show (branch, tag, hash, HEAD~2)"`
	Path string `json:"path,omitempty" jido:"path" jsonschema:"show this file's content at ref instead of the commit, relative to the project root"`
}

// The git tools' declarations. They read git's state on disk, not a plan, so a plan-mode
// session offers them too.
var (
	GitStatus = define[GitStatusParams]("git_status", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})
	GitDiff   = define[GitDiffParams]("git_diff", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})
	GitLog    = define[GitLogParams]("git_log", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"path"}})
	GitShow   = define[GitShowParams]("git_show", Decl{Flags: Flags{ReadOnly: true, Idempotent: true}, Role: RoleReader, Positional: []string{"ref", "path"}})
)

// GitStatusEntry is one changed, staged or untracked path of git_status. Index is the
// change staged against HEAD, Worktree the change of the working tree against the index:
// "modified", "added", "deleted", "typechange", "unmerged", "untracked" or "" (none).
type GitStatusEntry struct {
	Path     string `json:"path"` // an untracked directory ends in "/"
	Index    string `json:"index,omitempty"`
	Worktree string `json:"worktree,omitempty"`
	// Unverified: the file could not be read to compare its content (a hard link, a
	// file on another device), so it is listed as modified on its metadata alone.
	Unverified bool `json:"unverified,omitempty"`
}

// GitStatusResult is the result of git_status.
type GitStatusResult struct {
	Branch    string           `json:"branch,omitempty"` // "" when HEAD is detached
	Head      string           `json:"head,omitempty"`   // HEAD's commit hash ("" before the first commit)
	Detached  bool             `json:"detached,omitempty"`
	Upstream  string           `json:"upstream,omitempty"`
	Ahead     *int             `json:"ahead,omitempty"`
	Behind    *int             `json:"behind,omitempty"`
	Entries   []GitStatusEntry `json:"entries"`
	Staged    int              `json:"staged"`
	Unstaged  int              `json:"unstaged"`
	Untracked int              `json:"untracked"`
	Clean     bool             `json:"clean"`
	Truncated bool             `json:"truncated"`
}

// GitFileChange is one file of a diff: its path, what happened to it and its line counts.
type GitFileChange struct {
	Path    string `json:"path"`
	Status  string `json:"status"` // added, modified, deleted, typechange
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Binary  bool   `json:"binary,omitempty"`
	// Secret: a secret file (.env, keys) changed; its content is not shown.
	Secret bool `json:"secret,omitempty"`
}

// GitDiffResult is the result of git_diff.
type GitDiffResult struct {
	From      string          `json:"from"` // what the diff starts from: a commit hash, or "index"
	To        string          `json:"to"`   // "index" or "worktree"
	Diff      string          `json:"diff"`
	Files     []GitFileChange `json:"files"`
	Added     int             `json:"added"`
	Removed   int             `json:"removed"`
	Truncated bool            `json:"truncated"`
	Redacted  map[string]int  `json:"redacted,omitempty"`
}

// GitCommit is one commit of git_log and git_show.
type GitCommit struct {
	Hash    string   `json:"hash"`
	Short   string   `json:"short"`
	Author  string   `json:"author"`
	Email   string   `json:"email"`
	Date    string   `json:"date"` // author date, RFC 3339
	Subject string   `json:"subject"`
	Body    string   `json:"body,omitempty"`
	Parents []string `json:"parents,omitempty"`
}

// GitLogResult is the result of git_log.
type GitLogResult struct {
	Commits []GitCommit `json:"commits"`
	Count   int         `json:"count"`
	More    bool        `json:"more"` // older commits exist beyond max_count
}

// GitShowResult is the result of git_show: a commit with its diff, or (with path) a
// file's content at ref.
type GitShowResult struct {
	Commit    *GitCommit      `json:"commit,omitempty"`
	Diff      string          `json:"diff,omitempty"`
	Files     []GitFileChange `json:"files,omitempty"`
	Path      string          `json:"path,omitempty"`
	Content   *string         `json:"content,omitempty"`
	Size      int64           `json:"size,omitempty"`
	Truncated bool            `json:"truncated"`
	Redacted  map[string]int  `json:"redacted,omitempty"`
}

// Outcome counts the entries, or says the tree is clean.
func (r *GitStatusResult) Outcome() string {
	if r.Clean {
		return "clean"
	}
	return Count(r.Staged+r.Unstaged+r.Untracked, "change")
}

// Outcome counts the files and lines of the diff.
func (r *GitDiffResult) Outcome() string {
	return fmt.Sprintf("%s, +%d -%d", Count(len(r.Files), "file"), r.Added, r.Removed)
}

// Outcome counts the commits.
func (r *GitLogResult) Outcome() string { return Count(r.Count, "commit") }

// Outcome names the commit, or the file's size.
func (r *GitShowResult) Outcome() string {
	if r.Commit != nil {
		return r.Commit.Short + " " + Count(len(r.Files), "file")
	}
	return Count(int(r.Size), "byte")
}
