package profile

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// JidoCode is seed 003's dialect: JidoCode's phase-1 file tools, whose bridge returns bare
// values (the numbered content, true, a replacement count, a list of paths).
var JidoCode = register(&Profile{
	Name:  "jidocode",
	About: "JidoCode's file tools (seed 003): read_file, write_file, edit_file, multi_edit_file, list_dir, glob_search, delete_file",
	Tools: append([]*Tool{
		{Name: "read_file", Canonical: "read_file", Args: same("path", "offset", "limit"),
			About: "Read file contents. Returns line-numbered output.",
			Shape: shape(func(r *definitions.ReadFileResult, _ *Call) any { return r.Content })},
		{Name: "write_file", Canonical: "write_file", Args: same("path", "content"),
			About: "Write content to file. Creates parent directories if needed.",
			Shape: shape(func(*definitions.WriteFileResult, *Call) any { return true })},
		{Name: "edit_file", Canonical: "edit_file", Args: same("path", "old_string", "new_string", "replace_all"),
			About: "Replace exact string in file. old_string must be unique.",
			Shape: shape(func(r *definitions.EditFileResult, _ *Call) any { return r.Replacements })},
		{Name: "multi_edit_file", Canonical: "multi_edit",
			Args:  []Arg{{Name: "path", Required: true}, {Name: "edits", Schema: jidoCodeEditsSchema, Convert: func(v any, canon map[string]any) *definitions.ToolError { canon["edits"] = v; return nil }}},
			About: "Apply multiple edits atomically. All succeed or all fail.",
			Shape: shape(func(r *definitions.MultiEditResult, c *Call) any {
				return fmt.Sprintf("Applied %s to %v", plural(r.Applied, "edit"), c.Args["path"])
			})},
		{Name: "list_dir", Canonical: "list_dir", Args: []Arg{{Name: "path", Required: true}, {Name: "ignore_patterns"}},
			About: "List directory contents with type indicators.",
			Shape: shape(func(r *definitions.ListDirResult, _ *Call) any {
				out := make([]map[string]string, len(r.Entries))
				for i, e := range r.Entries {
					out[i] = map[string]string{"name": e.Name, "type": e.Type}
				}
				return out
			})},
		{Name: "glob_search", Canonical: "glob", Args: args([]Arg{{Name: "pattern", Required: true}}, same("path")),
			About: "Find files matching glob pattern (**, *, {a,b}).",
			Shape: shape(func(r *definitions.FileList, _ *Call) any { return paths(r.Files) })},
		{Name: "delete_file", Canonical: "delete_file", Args: same("path"),
			About: "Delete a file (not directories).",
			Shape: shape(func(*definitions.DeleteFileResult, *Call) any { return true })},
		applyPatch(),
	}, append(gitTools(), webTools()...)...),
})

// jidoCodeEditsSchema is multi_edit_file's edits.
var jidoCodeEditsSchema = &jsonschema.Schema{Type: "array", Description: "Array of {old_string, new_string}", Items: &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"old_string": {Type: "string", Description: "the exact text to replace"},
		"new_string": {Type: "string", Description: "the replacement"},
	},
	Required:             []string{"old_string", "new_string"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}}
