package profile

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// Emacs is seed 001's dialect: the Emacs buffer tools in OpenAI's function format, every
// result in {status: "success", result, message} and every error in
// {status: "error", error, details}.
var Emacs = register(&Profile{
	Name:     "emacs",
	About:    "the Emacs buffer tools (seed 001): buffer_*, file_read, file_write, directory_list, current_directory, file_exists, goto_line, search_in_buffer",
	Envelope: statusEnvelope{},
	Tools: append([]*Tool{
		{Name: "buffer_append", Canonical: "buffer_append", Args: same("buffer_name", "text"),
			About: "Append text to the end of a specified buffer",
			Shape: shape(func(r *definitions.BufferAppendResult, _ *Call) any {
				return withMessage(fmt.Sprintf("Appended %d bytes to buffer '%s' (now %s)", r.Appended, r.BufferName, plural(r.Lines, "line")), "Text appended successfully")
			})},
		{Name: "buffer_edit", Canonical: "buffer_edit", Args: same("buffer_name", "old_text", "new_text"),
			About: "Replace text in a buffer",
			Shape: shape(func(r *definitions.BufferEditResult, _ *Call) any {
				return withMessage(fmt.Sprintf("Replaced %s in buffer '%s':\n%s", plural(r.Replacements, "occurrence"), r.BufferName, r.Diff), "Buffer edited successfully")
			})},
		{Name: "buffer_create", Canonical: "buffer_create", Args: same("buffer_name", "content", "mode"),
			About: "Create a new buffer with initial content",
			Shape: shape(func(r *definitions.BufferCreateResult, _ *Call) any {
				return withMessage(r.Message, "Buffer created successfully")
			})},
		{Name: "buffer_save", Canonical: "buffer_save", Args: same("buffer_name", "file_path"),
			About: "Save a buffer to a file",
			Shape: shape(func(r *definitions.BufferSaveResult, _ *Call) any {
				return withMessage(fmt.Sprintf("Buffer '%s' saved to %s (%d bytes)", r.BufferName, r.Path, r.BytesWritten), "Buffer saved successfully")
			})},
		{Name: "buffer_list", Canonical: "buffer_list", Args: same("include_hidden"),
			About: "List all currently open buffers",
			Shape: shape(func(r *definitions.BufferListResult, _ *Call) any {
				return withMessage(r.Buffers, "%s open", plural(len(r.Buffers), "buffer"))
			})},
		{Name: "buffer_get_content", Canonical: "buffer_get_content", Args: same("buffer_name", "max_lines"),
			About: "Get the full content of a buffer",
			Shape: shape(func(r *definitions.BufferGetContentResult, _ *Call) any {
				msg := fmt.Sprintf("%s of buffer '%s'", plural(r.Lines, "line"), r.BufferName)
				if r.Truncated {
					msg += fmt.Sprintf(" (of %d)", r.TotalLines)
				}
				return withMessage(r.Content, "%s", msg)
			})},
		{Name: "file_read", Canonical: "read_file", Fixed: map[string]any{"line_numbers": false},
			Args:  []Arg{{Name: "file_path", To: "path", About: "Path to the file to read"}},
			About: "Read the contents of a file",
			Shape: shape(func(r *definitions.ReadFileResult, _ *Call) any {
				msg := fmt.Sprintf("Read %s from %s", plural(r.EndLine-r.StartLine+1, "line"), r.Path)
				if r.Truncated {
					msg += fmt.Sprintf(" (of %d; the rest was cut)", r.TotalLines)
				}
				return withMessage(r.Content, "%s", msg)
			})},
		{Name: "file_write", Canonical: "write_file",
			Args: []Arg{{Name: "file_path", To: "path", About: "Path to the file to write"},
				{Name: "content", About: "Content to write to the file"},
				{Name: "append", About: "Append to file instead of overwriting"}},
			About: "Write content to a file (creates or overwrites)",
			Shape: shape(func(r *definitions.WriteFileResult, _ *Call) any {
				verb := "Wrote"
				if r.Appended {
					verb = "Appended"
				}
				return withMessage(fmt.Sprintf("%s %d bytes to %s", verb, r.BytesWritten, r.Path), "File written successfully")
			})},
		{Name: "directory_list", Canonical: "list_dir",
			Args: []Arg{{Name: "directory_path", To: "path", About: "Path to the directory (defaults to current directory)"},
				{Name: "recursive", Schema: &jsonschema.Schema{Type: "boolean", Description: "List subdirectories recursively"}, Convert: keep("recursive")},
				{Name: "pattern", Schema: &jsonschema.Schema{Type: "string", Description: "File pattern to match (e.g., '*.txt')"}, Convert: keep("pattern")}},
			About: "List contents of a directory",
			Route: directoryList, Routes: []string{"glob"},
			Shape: directoryEntries},
		{Name: "current_directory", Canonical: "current_directory",
			About: "Get the current working directory",
			Shape: shape(func(r *definitions.CurrentDirectoryResult, _ *Call) any {
				return withMessage(r.Path, "The working directory is the project root")
			})},
		{Name: "file_exists", Canonical: "file_exists", Args: []Arg{{Name: "path", About: "Path to check"}},
			About: "Check if a file or directory exists",
			Shape: shape(func(r *definitions.FileExistsResult, _ *Call) any {
				if !r.Exists {
					return withMessage(false, "%s does not exist", r.Path)
				}
				return withMessage(true, "%s exists (%s)", r.Path, r.Type)
			})},
		{Name: "goto_line", Canonical: "goto_line", Args: same("buffer_name", "line_number"),
			About: "Navigate to a specific line in a buffer",
			Shape: shape(func(r *definitions.GotoLineResult, _ *Call) any {
				return withMessage(r.Text, "Moved to line %d of %d in buffer '%s'", r.Line, r.TotalLines, r.BufferName)
			})},
		{Name: "search_in_buffer", Canonical: "search_in_buffer", Args: same("buffer_name", "search_text", "case_sensitive"),
			About: "Search for text in a buffer",
			Shape: shape(func(r *definitions.SearchInBufferResult, _ *Call) any {
				return withMessage(r.Matches, "%s in buffer '%s'", plural(r.Count, "match"), r.BufferName)
			})},
		applyPatch(),
	}, append(gitTools(), webTools()...)...),
})

// keep records a dialect argument for Route, under a key the canonical tool never sees.
func keep(name string) func(any, map[string]any) *definitions.ToolError {
	return func(v any, canon map[string]any) *definitions.ToolError {
		canon[routeKey+name] = v
		return nil
	}
}

// routeKey prefixes what keep records.
const routeKey = "\x00"

// directoryList lists with list_dir, or with glob when the call is recursive or has a
// pattern.
func directoryList(c *Call) {
	recursive, _ := c.Canon[routeKey+"recursive"].(bool)
	pattern, _ := c.Canon[routeKey+"pattern"].(string)
	delete(c.Canon, routeKey+"recursive")
	delete(c.Canon, routeKey+"pattern")
	if !recursive && pattern == "" {
		return
	}
	if pattern == "" {
		pattern = "*"
	}
	if recursive {
		pattern = "**/" + pattern
	}
	c.Name, c.Canon["pattern"] = "glob", pattern
}

// directoryEntries is directory_list's result: entry names (directories ending in /) or,
// from glob, paths.
func directoryEntries(c *Call) any {
	switch r := c.Result.(type) {
	case *definitions.ListDirResult:
		names := make([]string, len(r.Entries))
		for i, e := range r.Entries {
			names[i] = e.Name
			if e.Type == "dir" && !strings.HasSuffix(e.Name, "/") {
				names[i] += "/"
			}
		}
		return withMessage(names, "%s in %s", plural(len(names), "entry"), r.Path)
	case *definitions.FileList:
		return withMessage(paths(r.Files), "%s found", plural(len(r.Files), "file"))
	}
	return c.Result
}

// statusEnvelope is seed 001's response format.
type statusEnvelope struct{}

func (statusEnvelope) Result(v any, message string) any {
	return emacsSuccess{Status: "success", Result: v, Message: message}
}

func (statusEnvelope) Error(e *definitions.ToolError) any {
	details := e.Type
	if len(e.Recovery) > 0 {
		details += ": " + strings.Join(e.Recovery, "; ")
	}
	return emacsError{Status: "error", Error: e.Message, Details: details}
}

type emacsSuccess struct {
	Status  string `json:"status"`
	Result  any    `json:"result"`
	Message string `json:"message,omitempty"`
}

type emacsError struct {
	Status  string `json:"status"`
	Error   string `json:"error"`
	Details string `json:"details,omitempty"`
}
