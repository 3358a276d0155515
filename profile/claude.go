package profile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
)

// Claude is the dialect models trained on Claude Code know: Read, Write, Edit, MultiEdit,
// Glob, Grep, LS, Bash, BashOutput, KillShell and TodoWrite, with file_path, old_string,
// replace_all, timeouts in milliseconds, and results as text.
var Claude = register(&Profile{
	Name:  "claude",
	About: "Claude Code's tools: Read, Write, Edit, MultiEdit, Glob, Grep, LS, Bash, BashOutput, KillShell, TodoWrite, WebFetch, WebSearch",
	Tools: append([]*Tool{
		{Name: "Read", Canonical: "read_file", Args: args(rename("file_path", "path"), same("offset", "limit")),
			About: "Reads a file from the project. file_path may be absolute (inside the project) or relative to its root. By default it reads up to 2000 lines from the start; offset (1-based line) and limit read a part of a long file. Lines longer than 2000 characters are cut. The result is numbered like cat -n, the number then a tab before each line. Binary files are refused. Read a file before you edit or overwrite it.",
			Shape: shape(func(r *definitions.ReadFileResult, _ *Call) any {
				if r.NextOffset > 0 {
					return strings.TrimRight(r.Content, "\n") + fmt.Sprintf("\n\n(lines %d-%d of %d shown; continue with offset %d)", r.StartLine, r.EndLine, r.TotalLines, r.NextOffset)
				}
				return r.Content
			})},
		{Name: "Write", Canonical: "write_file", Args: args(rename("file_path", "path"), same("content")),
			About: "Writes a file, replacing it whole if it exists (read it first: a file changed since it was read is refused). Creates parent directories. Prefer Edit for changes to an existing file.",
			Shape: shape(func(r *definitions.WriteFileResult, _ *Call) any {
				if r.Created {
					return "File created successfully at: " + r.Path
				}
				return "The file " + r.Path + " has been updated successfully."
			})},
		{Name: "Edit", Canonical: "edit_file", Args: args(rename("file_path", "path"), same("old_string", "new_string", "replace_all")),
			About: "Performs an exact string replacement in a file you have read: old_string must occur exactly once (give more surrounding lines to make it unique) unless replace_all is true. Keep the file's indentation in old_string and new_string.",
			Shape: shape(func(r *definitions.EditFileResult, _ *Call) any {
				return fmt.Sprintf("The file %s has been updated (%s). The change:\n%s", r.Path, plural(r.Replacements, "replacement"), r.Diff)
			})},
		{Name: "MultiEdit", Canonical: "multi_edit", Args: args(rename("file_path", "path"),
			[]Arg{{Name: "edits", Schema: claudeEditsSchema, Convert: func(v any, canon map[string]any) *definitions.ToolError { canon["edits"] = v; return nil }}}),
			About: "Makes several exact string replacements in one file, in order, each on the result of the previous ones: all of them or none. Each edit's old_string must occur exactly once unless its replace_all is true.",
			Shape: shape(func(r *definitions.MultiEditResult, c *Call) any {
				var diffs []string
				for _, f := range r.Files {
					diffs = append(diffs, f.Diff)
				}
				return fmt.Sprintf("Applied %s to %v:\n%s", plural(r.Applied, "edit"), c.Args["file_path"], strings.Join(diffs, "\n"))
			})},
		{Name: "Glob", Canonical: "glob", Args: args([]Arg{{Name: "pattern", Required: true}}, same("path")),
			About: "Finds files by glob pattern (\"**/*.js\", \"src/**/*.ts\"), newest first, honouring .gitignore.",
			Shape: shape(func(r *definitions.FileList, _ *Call) any {
				if len(r.Files) == 0 {
					return "No files found"
				}
				out := strings.Join(paths(r.Files), "\n")
				if r.Truncated {
					out += "\n(Results are truncated. Consider using a more specific path or pattern.)"
				}
				return out
			})},
		{Name: "Grep", Canonical: "search", Fixed: map[string]any{"is_regex": true},
			Args: args(
				[]Arg{{Name: "pattern", To: "query", About: "the regular expression to search for (RE2 syntax)"}},
				same("path"),
				[]Arg{
					{Name: "glob", Schema: &jsonschema.Schema{Type: "string", Description: "only files matching this glob (e.g. \"*.js\", \"*.{ts,tsx}\")"}, Convert: appendInclude},
					{Name: "type", Schema: &jsonschema.Schema{Type: "string", Description: "only files of this type (js, py, rust, go, java, ...)"}, Convert: fileType},
					{Name: "output_mode", Default: "files_with_matches", About: "content shows matching lines, files_with_matches (the default) the files, count the matches per file"},
					{Name: "-i", Schema: &jsonschema.Schema{Type: "boolean", Description: "ignore case"}, Convert: func(v any, canon map[string]any) *definitions.ToolError {
						canon["case_sensitive"] = v != true
						return nil
					}},
					{Name: "-n", Schema: &jsonschema.Schema{Type: "boolean", Description: "show line numbers (content mode; they are always shown)"}, Convert: ignore},
					{Name: "-A", To: "after"}, {Name: "-B", To: "before"}, {Name: "-C", To: "context"},
					{Name: "head_limit", To: "max_results"},
				},
				same("multiline")),
			About: "Searches file contents with a regular expression, like ripgrep, honouring .gitignore. Filter files with glob or type; output_mode content shows the lines (-A/-B/-C add context), files_with_matches the files, count the numbers.",
			Shape: shape(grepText)},
		{Name: "LS", Canonical: "list_dir", Args: args([]Arg{{Name: "path", Required: true}}, rename("ignore", "ignore_patterns")),
			About: "Lists the files and directories in a directory (absolute inside the project, or relative to its root); ignore takes glob patterns to leave out. Prefer Glob and Grep to find things.",
			Shape: shape(func(r *definitions.ListDirResult, _ *Call) any { return r.Listing })},
		{Name: "Bash", Canonical: "run_shell",
			Args: args([]Arg{{Name: "command", Required: true}},
				[]Arg{{Name: "timeout", Scale: 0.001, About: "milliseconds before the command is killed (default 120000, at most 600000)"}},
				[]Arg{{Name: "description", Schema: &jsonschema.Schema{Type: "string", Description: "what the command does, in 5-10 words"}, Convert: ignore}},
				rename("run_in_background", "background")),
			About: "Runs a bash command in the project's sandbox (no network, writes only inside the project) and returns its output. Quote paths with spaces. Use run_in_background for long-running commands, then BashOutput.",
			Shape: shape(bashText)},
		{Name: "BashOutput", Canonical: "job_output", Args: rename("bash_id", "job_id"),
			About: "Reads the output of a background command started with Bash run_in_background.",
			Shape: shape(bashText)},
		{Name: "KillShell", Canonical: "job_kill", Args: rename("shell_id", "job_id"),
			About: "Kills a background command started with Bash run_in_background."},
		{Name: "TodoWrite", Canonical: "todo_write", Fixed: map[string]any{"action": "replace"},
			Args:  []Arg{{Name: "todos", Schema: claudeTodosSchema, Convert: claudeTodos}},
			About: "Writes the session's todo list, whole: use it to plan and track the steps of a task (one in_progress at a time; mark each completed when done).",
			Shape: shape(func(*definitions.TodoWriteResult, *Call) any {
				return "Todos have been modified successfully. Keep going with the current task, and keep the list up to date."
			})},
		{Name: "WebFetch", Canonical: "web_fetch",
			Args: args([]Arg{{Name: "url", About: "the http or https URL to fetch"}},
				[]Arg{{Name: "prompt", Schema: &jsonschema.Schema{Type: "string", Description: "what you want to learn from the page (answer it from the content returned)"}, Convert: ignore}}),
			About: "Fetches a web page (public internet addresses only) and returns its content as Markdown; answer the prompt from it. Credentials in the page are redacted.",
			Shape: shape(func(r *web.FetchResult, c *Call) any {
				out := fmt.Sprintf("Content of %s (%s, status %d):\n\n%s", r.URL, r.Title, r.Status, r.Content)
				if r.Truncated {
					out += "\n\n(The page was cut.)"
				}
				return out
			})},
		{Name: "WebSearch", Canonical: "web_search", Args: args(same("query"), rename("allowed_domains", "include_domains")),
			About: "Searches the web; returns the results' titles, URLs and snippets. Read a result with WebFetch.",
			Shape: shape(func(r *web.SearchResult, _ *Call) any {
				if len(r.Results) == 0 {
					return "No results"
				}
				var b strings.Builder
				if r.Answer != "" {
					b.WriteString(r.Answer + "\n\n")
				}
				for _, h := range r.Results {
					fmt.Fprintf(&b, "- %s: %s\n", h.Title, h.URL)
					if h.Text != "" {
						b.WriteString("  " + strings.ReplaceAll(strings.TrimSpace(h.Text), "\n", " ") + "\n")
					}
				}
				return strings.TrimRight(b.String(), "\n")
			})},
		applyPatch(),
	}, gitTools()...),
})

// plural says n things.
func plural(n int, thing string) string {
	switch {
	case n == 1:
		return "1 " + thing
	case strings.HasSuffix(thing, "y"):
		thing = strings.TrimSuffix(thing, "y") + "ie"
	case strings.HasSuffix(thing, "ch"), strings.HasSuffix(thing, "s"):
		thing += "e"
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// ignore accepts an argument the canonical tool has no use for.
func ignore(any, map[string]any) *definitions.ToolError { return nil }

// appendInclude adds a glob to the search's include_paths.
func appendInclude(v any, canon map[string]any) *definitions.ToolError {
	inc, _ := canon["include_paths"].([]any)
	canon["include_paths"] = append(inc, v)
	return nil
}

// fileTypes are ripgrep's common --type names.
var fileTypes = map[string][]string{
	"c": {"*.c", "*.h"}, "cpp": {"*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.h"}, "cs": {"*.cs"},
	"css": {"*.css"}, "go": {"*.go"}, "html": {"*.html", "*.htm"}, "java": {"*.java"},
	"js": {"*.js", "*.jsx", "*.mjs", "*.cjs"}, "json": {"*.json"}, "kotlin": {"*.kt", "*.kts"},
	"lua": {"*.lua"}, "md": {"*.md", "*.markdown"}, "markdown": {"*.md", "*.markdown"}, "php": {"*.php"},
	"py": {"*.py", "*.pyi"}, "python": {"*.py", "*.pyi"}, "rb": {"*.rb"}, "ruby": {"*.rb"},
	"rust": {"*.rs"}, "scala": {"*.scala"}, "sh": {"*.sh", "*.bash"}, "sql": {"*.sql"},
	"swift": {"*.swift"}, "toml": {"*.toml"}, "ts": {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"typescript": {"*.ts", "*.tsx"}, "yaml": {"*.yaml", "*.yml"}, "elisp": {"*.el"}, "ex": {"*.ex", "*.exs"}, "elixir": {"*.ex", "*.exs"},
}

// fileType narrows a search to a ripgrep file type.
func fileType(v any, canon map[string]any) *definitions.ToolError {
	name, _ := v.(string)
	globs, ok := fileTypes[name]
	if !ok {
		return definitions.NewError(definitions.ValidationError, "unknown file type %q", name).Hint("Use glob instead, e.g. \"*.ext\"")
	}
	for _, g := range globs {
		appendInclude(g, canon)
	}
	return nil
}

// grepText renders a search as ripgrep prints it.
func grepText(r *definitions.SearchResult, _ *Call) any {
	var b strings.Builder
	switch r.OutputMode {
	case "files_with_matches":
		if len(r.Files) == 0 {
			return "No files found"
		}
		fmt.Fprintf(&b, "Found %s\n%s", plural(len(r.Files), "file"), strings.Join(r.Files, "\n"))
	case "count":
		for _, c := range r.Counts {
			fmt.Fprintf(&b, "%s:%d\n", c.Path, c.Count)
		}
	default:
		if len(r.Matches) == 0 {
			return "No matches found"
		}
		for _, m := range r.Matches {
			for i, l := range m.Before {
				fmt.Fprintf(&b, "%s-%d-%s\n", m.Path, m.Line-len(m.Before)+i, l)
			}
			fmt.Fprintf(&b, "%s:%d:%s\n", m.Path, m.Line, m.Text)
			for i, l := range m.After {
				fmt.Fprintf(&b, "%s-%d-%s\n", m.Path, m.Line+1+i, l)
			}
		}
	}
	if r.Truncated {
		b.WriteString("\n(Results are truncated: narrow the search, or raise head_limit.)")
	}
	return strings.TrimRight(b.String(), "\n")
}

// bashText is a command's outcome as Claude Code shows it: its output, then what else
// happened (exit code, sandbox notes). A command killed at its timeout is an error.
func bashText(r *builtin.ShellResult, _ *Call) any {
	if r.Result == nil {
		if r.JobID != "" {
			return "Command running in background with ID: " + r.JobID
		}
		return r
	}
	out := strings.TrimRight(r.Stdout, "\n")
	if r.Stderr != "" {
		out = strings.TrimLeft(out+"\n"+strings.TrimRight(r.Stderr, "\n"), "\n")
	}
	var notes []string
	if r.ExitCode != 0 {
		notes = append(notes, "Exit code "+strconv.Itoa(r.ExitCode))
	}
	notes = append(notes, r.Notes...)
	if len(notes) > 0 {
		out = strings.TrimLeft(out+"\n"+strings.Join(notes, "\n"), "\n")
	}
	return out
}

// claudeEditsSchema is MultiEdit's edits.
var claudeEditsSchema = &jsonschema.Schema{Type: "array", MinItems: ptr(1), Description: "the edits, applied in order", Items: &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"old_string":  {Type: "string", Description: "the text to replace"},
		"new_string":  {Type: "string", Description: "the text to replace it with"},
		"replace_all": {Type: "boolean", Description: "replace every occurrence (default false)"},
	},
	Required:             []string{"old_string", "new_string"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}}

// claudeTodosSchema is TodoWrite's todos.
var claudeTodosSchema = &jsonschema.Schema{Type: "array", Description: "the whole todo list", Items: &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"content":    {Type: "string", MinLength: ptr(1), Description: "the step, imperative (\"Run the tests\")"},
		"status":     {Type: "string", Enum: []any{"pending", "in_progress", "completed"}},
		"activeForm": {Type: "string", Description: "the step while it runs (\"Running the tests\")"},
		"id":         {Type: "string"},
	},
	Required:             []string{"content", "status"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}}

// claudeTodos converts TodoWrite's list to todo_write's replace.
func claudeTodos(v any, canon map[string]any) *definitions.ToolError {
	return replaceTodos(v, canon, "content", map[string]string{"pending": "open"})
}

// replaceTodos converts a dialect's whole todo list (each item's text under key) to
// todo_write's replace, with the statuses renamed by rename.
func replaceTodos(v any, canon map[string]any, key string, rename map[string]string) *definitions.ToolError {
	items, _ := v.([]any)
	todos := make([]any, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		status, _ := m["status"].(string)
		if r, ok := rename[status]; ok {
			status = r
		}
		todos = append(todos, map[string]any{"title": m[key], "status": status})
	}
	canon["todos"] = todos
	return nil
}

func ptr[T any](v T) *T { return &v }
