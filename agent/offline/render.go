package offline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/tools/definitions"
)

// Limits of what a rendered result shows.
const (
	maxListed = 200  // paths of a listing, lines of a search
	maxRaw    = 2000 // bytes of a result shown as JSON
)

// renderers render the successful results of the tools they know, given the call.
var renderers = map[string]func(json.RawMessage, agent.ToolCall) (string, bool){
	"read_file":   as(renderRead),
	"list_dir":    as(renderListDir),
	"list_files":  as(renderListFiles),
	"glob":        as(renderGlob),
	"search":      as(renderSearch),
	"file_exists": as(renderExists),
	"run_tests":   as(renderTests),
	"git_status":  as(renderGitStatus),
	"git_diff":    as(renderGitDiff),
	"git_log":     as(renderGitLog),
	"git_show":    as(renderGitShow),
	"current_directory": as(func(v definitions.CurrentDirectoryResult, _ agent.ToolCall) string {
		return "The current directory is " + v.Path + " (the project root is " + v.Root + ")."
	}),
}

// as adapts a renderer of a decoded result to the raw one; false when the content does not
// decode (a result cut to fit the conversation).
func as[T any](f func(T, agent.ToolCall) string) func(json.RawMessage, agent.ToolCall) (string, bool) {
	return func(raw json.RawMessage, c agent.ToolCall) (string, bool) {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", false
		}
		return f(v, c), true
	}
}

// render renders one tool result for a person; c is the call it answers.
func render(r agent.ToolResult, c agent.ToolCall) string {
	if !r.OK {
		return renderError(r)
	}
	content, shaped := r.Content, true
	if r.Note != "" {
		// Cut to fit the conversation: lists end in a count of what was cut, which the
		// tool's shape has no room for; the renderer counts from the result's own totals.
		content, shaped = jsoncap.Reshape(content)
	}
	if f := renderers[r.Name]; f != nil && shaped {
		if text, ok := f(content, c); ok {
			return text
		}
	}
	if r.Note != "" {
		return r.Name + ": " + clip(string(r.Content), maxRaw) + "\n(" + r.Note + ")"
	}
	return r.Name + ": " + clip(string(r.Content), maxRaw)
}

// renderError renders an error result: its type and message, then its recovery hints.
func renderError(r agent.ToolResult) string {
	var e definitions.ToolError
	if json.Unmarshal(r.Content, &e) != nil || e.Type == "" {
		return r.Name + " failed: " + clip(string(r.Content), maxRaw)
	}
	out := e.Type + ": " + e.Message
	for _, h := range e.Recovery {
		out += "\n  hint: " + h
	}
	return out
}

func renderRead(v definitions.ReadFileResult, c agent.ToolCall) string {
	if hintOf(c).Show == interpret.ShowLineCount {
		return fmt.Sprintf("%s has %s (%s).", v.Path, plural(v.TotalLines, "line", "lines"), plural(int(v.Size), "byte", "bytes"))
	}
	header := fmt.Sprintf("%s (%s)", v.Path, plural(v.TotalLines, "line", "lines"))
	if v.StartLine > 1 || v.EndLine > 0 && v.EndLine < v.TotalLines {
		header = fmt.Sprintf("%s (lines %d-%d of %d)", v.Path, v.StartLine, v.EndLine, v.TotalLines)
	}
	var more string
	if v.Truncated && v.NextOffset > 0 {
		last := min(v.NextOffset+1999, v.TotalLines)
		more = fmt.Sprintf("(%s more; ask \"show lines %d to %d of %s\")",
			plural(v.TotalLines-v.NextOffset+1, "line", "lines"), v.NextOffset, last, v.Path)
	}
	return joinLines(header, strings.TrimRight(v.Content, "\n"), more)
}

// renderListDir shows list_dir's own listing, which already ends with the count of
// ignored entries when there are some.
func renderListDir(v definitions.ListDirResult, _ agent.ToolCall) string {
	var cut string
	if v.Truncated {
		cut = "(the listing was cut)"
	}
	listing := strings.TrimRight(v.Listing, "\n")
	if len(v.Entries) == 0 {
		return joinLines(v.Path+" is empty.", listing)
	}
	header := fmt.Sprintf("%s (%s):", v.Path, plural(len(v.Entries), "entry", "entries"))
	return joinLines(header, listing, cut)
}

func renderListFiles(v definitions.FileList, c agent.ToolCall) string {
	dir := argOr(c, "directory", ".")
	if h := hintOf(c); h.Show == interpret.ShowLargest {
		return renderLargest(v, dir, h.Last)
	}
	if len(v.Files) == 0 {
		return "Nothing under " + dir + "."
	}
	return renderFiles(v, fmt.Sprintf("%s under %s:", plural(len(v.Files), "entry", "entries"), dir))
}

func renderGlob(v definitions.FileList, c agent.ToolCall) string {
	pattern := argOr(c, "pattern", strings.Join(stringsArg(c, "patterns"), ", "))
	if len(v.Files) == 0 {
		return "No files match " + pattern + "."
	}
	switch h := hintOf(c); {
	case h.Show == interpret.ShowNewest:
		lines := make([]string, len(v.Files))
		for i, f := range v.Files {
			lines[i] = f.MTime.Local().Format("2006-01-02 15:04") + "  " + entryPath(f.Path, f.Type)
		}
		return joinLines(fmt.Sprintf("The %s changed most recently, newest first:", plural(len(v.Files), "file", "files")), firstLines(lines))
	case h.Then != nil:
		return renderFiles(v, fmt.Sprintf("%s are named %s; say which one:", plural(len(v.Files), "file", "files"), bareName(c)))
	}
	return renderFiles(v, fmt.Sprintf("%s match %s:", plural(max(v.Count, len(v.Files)), "file", "files"), pattern))
}

// renderFiles renders the paths of a list_files or glob result under a header: the first
// maxListed, and how many more there are (the files cut to fit the conversation included).
func renderFiles(v definitions.FileList, header string) string {
	shown := v.Files[:min(len(v.Files), maxListed)]
	paths := make([]string, len(shown))
	for i, f := range shown {
		paths[i] = entryPath(f.Path, f.Type)
	}
	var more, cut string
	if n := max(v.Count, len(v.Files)) - len(shown); n > 0 {
		more = fmt.Sprintf("... and %d more", n)
	}
	if v.Truncated {
		cut = "(cut at max_results: narrow the pattern or the directory)"
	}
	return joinLines(header, strings.Join(paths, "\n"), more, cut)
}

func renderSearch(v definitions.SearchResult, c agent.ToolCall) string {
	var lines []string
	found := func(n int) string { return plural(n, "match", "matches") }
	switch v.OutputMode {
	case "files_with_matches", "count":
		lines = v.Files
		for _, n := range v.Counts {
			lines = append(lines, fmt.Sprintf("%s: %d", n.Path, n.Count))
		}
		found = func(n int) string { return plural(n, "file", "files") + " with matches" }
	default:
		for _, m := range v.Matches {
			lines = append(lines, fmt.Sprintf("%s:%d: %s", m.Path, m.Line, m.Text))
		}
	}
	query := fmt.Sprintf("%q", argOr(c, "query", "the query"))
	if about := hintOf(c).About; about != "" {
		query = about
	}
	searched := plural(int(v.FilesSearched), "file", "files") + " searched"
	if len(lines) == 0 {
		return fmt.Sprintf("No matches for %s (%s).", query, searched)
	}
	summary := fmt.Sprintf("%s for %s (%s)", found(len(lines)), query, searched)
	if v.Truncated {
		summary += "; more were cut: narrow the query or the path"
	}
	return joinLines(firstLines(lines), summary)
}

func renderExists(v definitions.FileExistsResult, _ agent.ToolCall) string {
	switch {
	case !v.Exists:
		return "no, " + v.Path + " does not exist"
	case v.Type != "":
		return "yes, " + v.Path + " exists (" + v.Type + ")"
	}
	return "yes, " + v.Path + " exists"
}

func renderTests(v testsResult, _ agent.ToolCall) string {
	if v.DryRun {
		return "Would run: " + strings.Join(v.Command, " ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s tests: %d passed, %d failed, %d skipped", v.Runner, v.Passed, v.Failed, v.Skipped)
	if v.Errors > 0 {
		fmt.Fprintf(&b, ", %s", plural(v.Errors, "error", "errors"))
	}
	if v.DurationMS > 0 {
		fmt.Fprintf(&b, " (%.1fs)", float64(v.DurationMS)/1000)
	}
	if len(v.Failures) > 0 {
		b.WriteString("\nFailed:")
	}
	for _, f := range v.Failures {
		b.WriteString("\n- " + f.Name)
		if f.File != "" {
			fmt.Fprintf(&b, " (%s:%d)", f.File, f.Line)
		}
		if msg, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n"); msg != "" {
			b.WriteString("\n  " + msg)
		}
	}
	if !v.Parsed && v.Report != "" {
		b.WriteString("\n" + strings.TrimRight(v.Report, "\n"))
	}
	return b.String()
}

// firstLines joins the first maxListed lines, saying how many more there are.
func firstLines(lines []string) string {
	if len(lines) <= maxListed {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:maxListed], "\n") + fmt.Sprintf("\n... and %d more", len(lines)-maxListed)
}

// plural renders a count with its noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// argOr is the call's string argument k, or def when it has none.
func argOr(c agent.ToolCall, k, def string) string {
	if s, ok := c.Args[k].(string); ok && s != "" {
		return s
	}
	return def
}

// stringsArg is the call's list-of-strings argument k.
func stringsArg(c agent.ToolCall, k string) []string {
	var out []string
	switch list := c.Args[k].(type) {
	case []any:
		for _, e := range list {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	case []string:
		out = list
	}
	return out
}

// clip cuts s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// renderLargest shows the n largest files of a list_files result, biggest first.
func renderLargest(v definitions.FileList, dir string, n int) string {
	if n <= 0 {
		n = 20
	}
	var files []definitions.FileInfo
	for _, f := range v.Files {
		if f.Type == "file" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return "No files under " + dir + "."
	}
	slices.SortStableFunc(files, func(a, b definitions.FileInfo) int { return cmp.Compare(b.Size, a.Size) })
	files = files[:min(n, len(files))]
	lines := make([]string, len(files))
	for i, f := range files {
		lines[i] = fmt.Sprintf("%9s  %s", size(f.Size), f.Path)
	}
	var cut string
	if v.Truncated {
		cut = "(only the first entries were listed: name a directory to narrow it)"
	}
	return joinLines(fmt.Sprintf("The %s under %s, largest first:", plural(len(files), "largest file", "largest files"), dir), strings.Join(lines, "\n"), cut)
}

// size renders a byte count for people: 512 B, 3.4 KB, 12.0 MB.
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/unit, "KMGT"
	i := 0
	for f >= unit && i < len(units)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, units[i])
}

func renderGitStatus(v definitions.GitStatusResult, _ agent.ToolCall) string {
	branch := "On branch " + v.Branch
	if v.Detached || v.Branch == "" {
		branch = "HEAD detached at " + short(v.Head)
	}
	if v.Clean {
		return branch + ": nothing changed (the working tree is clean)."
	}
	lines := make([]string, 0, len(v.Entries))
	for _, e := range v.Entries {
		var what []string
		if e.Index != "" {
			what = append(what, e.Index+" (staged)")
		}
		if e.Worktree != "" {
			what = append(what, e.Worktree)
		}
		lines = append(lines, e.Path+": "+strings.Join(what, ", "))
	}
	var cut string
	if v.Truncated {
		cut = "(the list was cut)"
	}
	return joinLines(fmt.Sprintf("%s: %d staged, %d unstaged, %d untracked.", branch, v.Staged, v.Unstaged, v.Untracked), firstLines(lines), cut)
}

func renderGitDiff(v definitions.GitDiffResult, _ agent.ToolCall) string {
	if len(v.Files) == 0 {
		return "No changes (" + v.From + " to " + v.To + ")."
	}
	var cut string
	if v.Truncated {
		cut = "(the diff was cut: name a file to see all of its changes)"
	}
	return joinLines(fmt.Sprintf("%s changed, +%d -%d (%s to %s):", plural(len(v.Files), "file", "files"), v.Added, v.Removed, short(v.From), v.To),
		strings.TrimRight(v.Diff, "\n"), cut)
}

func renderGitLog(v definitions.GitLogResult, _ agent.ToolCall) string {
	if len(v.Commits) == 0 {
		return "No commits."
	}
	lines := make([]string, len(v.Commits))
	for i, c := range v.Commits {
		lines[i] = fmt.Sprintf("%s %s %s: %s", c.Short, day(c.Date), c.Author, c.Subject)
	}
	var more string
	if v.More {
		more = "(older commits exist: ask for more, e.g. \"git log -50\")"
	}
	return joinLines(firstLines(lines), more)
}

func renderGitShow(v definitions.GitShowResult, _ agent.ToolCall) string {
	if v.Content != nil {
		return joinLines(fmt.Sprintf("%s (%s):", v.Path, plural(int(v.Size), "byte", "bytes")), strings.TrimRight(*v.Content, "\n"))
	}
	if v.Commit == nil {
		return "Nothing to show."
	}
	c := v.Commit
	header := fmt.Sprintf("commit %s\nAuthor: %s <%s>\nDate:   %s\n\n    %s", c.Hash, c.Author, c.Email, c.Date, c.Subject)
	var cut string
	if v.Truncated {
		cut = "(the diff was cut)"
	}
	return joinLines(header, strings.TrimRight(v.Diff, "\n"), cut)
}

// short is a commit hash's first 7 characters (other names as they are).
func short(hash string) string {
	if len(hash) == 40 {
		return hash[:7]
	}
	return hash
}

// day is the date part of an RFC 3339 time.
func day(t string) string {
	d, _, _ := strings.Cut(t, "T")
	return d
}
