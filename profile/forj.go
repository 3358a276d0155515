package profile

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
)

// Forj is seed 000's dialect: Forj's tool calls inside Emacs, with its result shapes
// (Appendix A), unknown fields ignored, and sandbox refusals as validation errors.
var Forj = register(&Profile{
	Name:          "forj",
	About:         "Forj's Emacs tool calls (seed 000): read_file, list_files, search, write_file, edit_region, run_shell, run_tests, multi_edit, glob, todo_write, task",
	IgnoreUnknown: true,
	SandboxError:  definitions.ValidationError,
	// Seed 000's tools fail with file-, validation- or process-errors: a command or test run
	// killed at its timeout is a process-error there.
	ErrorTypes: map[string]string{definitions.TimeoutError: definitions.ProcessError},
	Tools: append([]*Tool{
		{Name: "read_file", Canonical: "read_file", Args: same("path", "max_bytes", "start_line", "end_line", "include_context"),
			Fixed: map[string]any{"line_numbers": false},
			About: "Read a text file: its content (raw, no line numbers), encoding and size; start_line/end_line (with include_context lines around) read a range. Binary files are refused; content beyond max_bytes is cut at a whole line.",
			Shape: shape(forjRead)},
		{Name: "list_files", Canonical: "list_files", Args: same("directory", "max_depth", "include_hidden", "follow_symlinks"),
			About: "List the files of a directory recursively (default: the project root, 5 levels), as git sees them: ignored, hidden (unless include_hidden) and .git entries are left out. Returns an array of {path, size, mtime (Unix seconds), type}.",
			Shape: shape(func(r *definitions.FileList, _ *Call) any { return fileInfos(r.Files) })},
		{Name: "search", Canonical: "search", Args: args(same("query", "is_regex"),
			[]Arg{{Name: "case_sensitive", Default: false, About: "match case exactly (default false)"}},
			same("include_paths", "exclude_paths", "max_results")),
			About: "Search the project's files for text (a regular expression when is_regex, RE2 syntax), ignoring case unless case_sensitive; include_paths/exclude_paths are globs (*.el matches at any depth). Ignored, binary, secret and large files are skipped. Returns an array of {path, line, column, match_text, before, after}: the line's text before and after the match.",
			Shape: shape(forjSearch)},
		{Name: "write_file", Canonical: "write_file", Args: args(same("path", "content"),
			[]Arg{{Name: "no_backup", Schema: &jsonschema.Schema{Type: "boolean", Description: "accepted for compatibility: jido keeps the before-state of every write in its journal (jido undo), which is the backup"},
				Convert: func(any, map[string]any) *definitions.ToolError { return nil }}},
			same("append", "create_if_missing", "dry_run")),
			About: "Write a file atomically (creating its directories), or append to it. Overwriting a file requires that it was read first and has not changed since. A file that parsed (Emacs Lisp, JSON, Go, ...) must still parse. dry_run returns the diff as preview without writing. Returns {path, backup_path, bytes_written, dry_run, preview}; jido undo restores the file.",
			Shape: shape(forjWrite)},
		{Name: "edit_region", Canonical: "edit_region", Args: same("path", "start_line", "end_line", "new_content", "expected", "dry_run"),
			About: "Replace lines start_line to end_line (1-based, inclusive) of a file read before with new_content; with expected, the edit is refused with a small diff if the lines no longer hold it. Returns {path, start_line, end_line, backup_path, dry_run, changed}.",
			Shape: shape(func(r *definitions.EditRegionResult, _ *Call) any {
				return forjRegion{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, BackupPath: r.BackupPath, DryRun: r.DryRun, Changed: r.Changed}
			})},
		{Name: "run_shell", Canonical: "run_shell", About: "Run a program (cmd: its argv, no shell) in the project's sandbox: writes only inside the project, no network, killed at timeout seconds (default 120); cwd must be inside the project. Output is capped and secrets are redacted. Returns {exit_code, stdout, stderr, duration_ms}.", Args: args([]Arg{{Name: "cmd", Required: true, About: "the program and its arguments, run directly without a shell"}}, same("cwd", "timeout", "env", "stdin")),
			Shape: shape(func(r *builtin.ShellResult, _ *Call) any {
				if r.Result == nil {
					return r // a dry run or a background job: nothing ran yet
				}
				return forjShell{ExitCode: r.ExitCode, Stdout: r.Stdout, Stderr: r.Stderr, DurationMS: r.DurationMS}
			})},
		{Name: "run_tests", Canonical: "run_tests", Args: same("selector", "command"),
			About: "Run the project's tests (ERT for Emacs Lisp, or the runner its files name: go, node, cargo, pytest, make) or command, only those matching selector. Returns {total, passed, failed, errors, skipped, report}.",
			Shape: shape(func(r *builtin.RunTestsResult, _ *Call) any {
				if r.Summary == nil {
					return r
				}
				return forjTests{Total: r.Total, Passed: r.Passed, Failed: r.Failed, Errors: r.Errors, Skipped: r.Skipped, Report: r.Report}
			})},
		{Name: "multi_edit", Canonical: "multi_edit", Args: args(
			[]Arg{{Name: "edits", Schema: forjEditsSchema, Convert: func(v any, canon map[string]any) *definitions.ToolError { canon["edits"] = v; return nil }}},
			same("stop_on_error", "dry_run")),
			About: "Apply several line-range edits in order, across files: all or nothing unless stop_on_error is false. Each edit's lines are those of the file as the edits before it left it. Returns {applied, skipped, dry_run, details: [{path, start_line, end_line, backup_path, changed, error}]}.",
			Shape: shape(forjMultiEdit)},
		{Name: "glob", Canonical: "glob", Args: args([]Arg{{Name: "patterns", Required: true}}, same("max_results", "include_hidden")),
			About: "Find the files matching any of the glob patterns (** any depth, {a,b}, [a-z]), newest first, as git sees the tree. Returns {files: [{path, size, mtime, type}]}.",
			Shape: shape(func(r *definitions.FileList, _ *Call) any { return map[string]any{"files": fileInfos(r.Files)} })},
		{Name: "todo_write", Canonical: "todo_write", Inherit: true},
		{Name: "task", Canonical: "task", Inherit: true},
		applyPatch(),
	}, append(gitTools(), webTools()...)...),
})

// applyPatch is the apply_patch tool every profile offers under that name.
func applyPatch() *Tool { return &Tool{Name: "apply_patch", Canonical: "apply_patch", Inherit: true} }

// gitTools are the read-only git tools every profile offers under their names.
func gitTools() []*Tool { return inherited("git_status", "git_diff", "git_log", "git_show") }

// webTools are web_search and web_fetch under jido's own names and shapes, for the
// dialects whose source system had no web tools (claude and forge map them their way).
func webTools() []*Tool { return inherited("web_search", "web_fetch") }

// inherited offers canonical tools in a dialect as they are.
func inherited(names ...string) []*Tool {
	var out []*Tool
	for _, name := range names {
		out = append(out, &Tool{Name: name, Canonical: name, Inherit: true})
	}
	return out
}

// forjRead is read_file's result in seed 000: the range only when one was asked for.
func forjRead(r *definitions.ReadFileResult, c *Call) any {
	out := map[string]any{"path": r.Path, "encoding": r.Encoding, "content": r.Content, "truncated": r.Truncated, "size": r.Size}
	if _, ranged := c.Args["start_line"]; ranged {
		out["range"] = map[string]int{"start_line": r.StartLine, "end_line": r.EndLine}
	}
	return out
}

// forjMatch is one match of seed 000's search: the line's text before and after it.
type forjMatch struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	MatchText string `json:"match_text"`
	Before    string `json:"before"`
	After     string `json:"after"`
}

func forjSearch(r *definitions.SearchResult, _ *Call) any {
	out := make([]forjMatch, len(r.Matches))
	for i, m := range r.Matches {
		line, _, _ := strings.Cut(m.Text, "\n")
		at := m.Column - 1
		if at < 0 || at > len(line) || !strings.HasPrefix(line[at:], m.MatchText) {
			at = max(strings.Index(line, m.MatchText), 0)
		}
		out[i] = forjMatch{Path: m.Path, Line: m.Line, Column: m.Column, MatchText: m.MatchText, Before: line[:at], After: line[min(at+len(m.MatchText), len(line)):]}
	}
	return out
}

// forjWriteResult is write_file's result in seed 000: a dry run's preview is the diff.
type forjWriteResult struct {
	Path         string `json:"path"`
	BackupPath   string `json:"backup_path,omitempty"`
	BytesWritten int    `json:"bytes_written"`
	DryRun       bool   `json:"dry_run"`
	Preview      string `json:"preview,omitempty"`
}

func forjWrite(r *definitions.WriteFileResult, _ *Call) any {
	return forjWriteResult{Path: r.Path, BackupPath: r.BackupPath, BytesWritten: r.BytesWritten, DryRun: r.DryRun, Preview: r.Diff}
}

// forjRegion is edit_region's result in seed 000.
type forjRegion struct {
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	BackupPath string `json:"backup_path,omitempty"`
	DryRun     bool   `json:"dry_run"`
	Changed    bool   `json:"changed"`
}

// forjShell is run_shell's result in seed 000.
type forjShell struct {
	ExitCode   int    `json:"exit_code"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	DurationMS int64  `json:"duration_ms"`
}

// forjTests is run_tests' result in seed 000.
type forjTests struct {
	Total   int    `json:"total"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Errors  int    `json:"errors"`
	Skipped int    `json:"skipped"`
	Report  string `json:"report"`
}

// forjEditsSchema is seed 000's multi_edit edits: line ranges only.
var forjEditsSchema = &jsonschema.Schema{Type: "array", Description: "the line-range edits, applied in order, each to the file as the edits before it left it", Items: &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"path":        {Type: "string", Description: "file of this edit, relative to the project root"},
		"start_line":  {Type: "integer", Description: "first line to replace, 1-based"},
		"end_line":    {Type: "integer", Description: "last line to replace, inclusive"},
		"new_content": {Type: "string", Description: "the lines that replace the range"},
		"expected":    {Type: "string", Description: "the text the range must still hold, else the edit is refused"},
	},
	Required:             []string{"path", "start_line", "end_line", "new_content"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}}

// forjEdit is one edit's outcome in seed 000's multi_edit result.
type forjEdit struct {
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	BackupPath string `json:"backup_path,omitempty"`
	Changed    bool   `json:"changed"`
	Error      string `json:"error,omitempty"`
}

func forjMultiEdit(r *definitions.MultiEditResult, c *Call) any {
	edits, _ := c.Args["edits"].([]any)
	details := make([]forjEdit, len(r.Details))
	for i, d := range r.Details {
		e := forjEdit{Path: d.Path, Changed: d.OK && !r.DryRun, BackupPath: r.BackupPath}
		if d.Index < len(edits) {
			if m, ok := edits[d.Index].(map[string]any); ok {
				e.StartLine, e.EndLine = intOf(m["start_line"]), intOf(m["end_line"])
			}
		}
		if d.Error != nil {
			e.Error = d.Error.Message
		}
		details[i] = e
	}
	return map[string]any{"applied": r.Applied, "skipped": r.Skipped, "dry_run": r.DryRun, "details": details}
}

// intOf reads a JSON number as an int.
func intOf(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case int64:
		return int(n)
	}
	return 0
}
