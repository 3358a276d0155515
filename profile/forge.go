package profile

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/web"
	"mvdan.cc/sh/v3/shell"
)

// Forge is seed 002's dialect: the multi-agent toolset's read, write, edit and bash, the
// captain's plan_* tools on a plan overlay beside the real files, the refinery's
// run_tests, its six roles with the Access Summary's matrix, and its spawn rules.
var Forge = register(&Profile{
	Name:  "forge",
	About: "Forge's toolset (seed 002): read, write, edit, bash, plan_read/plan_write/plan_bash/plan_edit on a plan overlay, run_tests, web_search and web_fetch; roles captain, type1, type2, type3, refinery, executor",
	Tools: append([]*Tool{
		{Name: "read", Canonical: "read_file", Fixed: map[string]any{"line_numbers": false},
			Args: []Arg{{Name: "path", About: "the file, absolute inside the project or relative to its root"},
				{Name: "range", Schema: rangeSchema, Convert: lineRange, Checks: true}},
			About: "Read a file's contents, whole or a 1-indexed [startLine, endLine] range, with the file's total line count.",
			Shape: shape(func(r *definitions.ReadFileResult, _ *Call) any {
				return forgeRead{Content: r.Content, TotalLines: r.TotalLines}
			})},
		{Name: "write", Canonical: "write_file", Args: same("path", "content"),
			About: "Replace a file's whole content; creates the file and its parent directories if needed.",
			Shape: shape(func(r *definitions.WriteFileResult, _ *Call) any {
				return forgeWrite{Success: true, BytesWritten: r.BytesWritten}
			})},
		{Name: "edit", Canonical: "edit_file", Args: forgeEditArgs,
			About: "Replace oldStr, which must occur exactly once in the file, with newStr; returns the unified diff.",
			Shape: shape(func(r *definitions.EditFileResult, _ *Call) any { return forgeEdit{Success: true, Diff: r.Diff} })},
		{Name: "bash", Canonical: "run_shell",
			Args: []Arg{{Name: "command", Required: true},
				{Name: "timeout", Scale: 0.001, About: "timeout in milliseconds (default 120000)"}},
			About: "Execute a bash command in the sandbox; returns stdout, stderr and the exit code.",
			Shape: shape(forgeBash)},
		{Name: "plan_read", Canonical: "read_file", OnPlan: true, Fixed: map[string]any{"line_numbers": false}, Args: same("path"),
			About: "Read a file from the plan overlay: the project as the plan has changed it so far.",
			Shape: shape(func(r *definitions.ReadFileResult, _ *Call) any { return map[string]string{"content": r.Content} })},
		{Name: "plan_write", Canonical: "write_file", OnPlan: true, Args: same("path", "content"),
			About: "Write a file in the plan overlay (creates directories); the real files do not change until plan_apply.",
			Shape: shape(func(*definitions.WriteFileResult, *Call) any { return success })},
		{Name: "plan_bash", Canonical: "run_shell", OnPlan: true, Args: []Arg{{Name: "command", Required: true}},
			About: "Run a command in the plan's simulated shell (find, grep, jq, cat, echo, mkdir, ls, rm, cp, mv, sed, awk, head, tail, wc, sort, uniq, tr, cut, pipes, redirections) over the plan overlay; no program runs.",
			Shape: shape(forgeBash)},
		{Name: "plan_edit", Canonical: "edit_file", OnPlan: true, Args: forgeEditArgs,
			About: "Replace oldStr with newStr in a file of the plan overlay (read it with plan_read first).",
			Shape: shape(func(*definitions.EditFileResult, *Call) any { return success })},
		{Name: "plan_diff", Canonical: "plan_diff", OnPlan: true, Inherit: true},
		{Name: "plan_apply", Canonical: "plan_apply", OnPlan: true, Inherit: true},
		{Name: "run_tests", Canonical: "run_tests",
			Args:  []Arg{{Name: "command", Schema: &jsonschema.Schema{Type: "string", Description: "the test command (default: detected from the project)"}, Convert: testCommand}},
			About: "Run the project's test suite in the sandbox: whether it passed, its output, and each failed test.",
			Shape: shape(forgeTests)},
		{Name: "web_search", Canonical: "web_search",
			Args:  []Arg{{Name: "query"}, {Name: "numResults", To: "num_results"}, {Name: "includeDomains", To: "include_domains"}, {Name: "category"}},
			About: "Search the web; returns results with title, url, publishedDate and a text snippet.",
			Shape: shape(forgeSearch)},
		{Name: "web_fetch", Canonical: "web_fetch", Args: same("url"),
			About: "Fetch a page's content as Markdown, with its title and its final URL.",
			Shape: shape(func(r *web.FetchResult, _ *Call) any {
				return forgeFetch{Title: r.Title, Content: r.Content, URL: r.URL}
			})},
		applyPatch(),
	}, gitTools()...),
	Roles: map[string][]string{
		"captain":  {"read", "write", "edit", "bash", "plan_read", "plan_write", "plan_bash", "plan_edit", "plan_diff", "plan_apply", "apply_patch", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"},
		"type1":    {"read", "write", "edit", "bash", "apply_patch", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"},
		"type2":    {"read", "write", "edit", "bash", "apply_patch", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"},
		"type3":    {"read", "write", "edit", "bash", "apply_patch", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"},
		"refinery": {"read", "write", "edit", "bash", "apply_patch", "run_tests", "git_status", "git_diff", "git_log", "git_show", "web_search", "web_fetch"},
		"executor": {},
	},
	// The rest of seed 002's Access Summary: Go tools that `jido forge` binds to its run
	// (package forge), offered only there.
	Provided: map[string][]string{
		"captain":  {"create_spec", "create_task", "set_dag"},
		"type1":    {"emit_walkthrough"},
		"type2":    {"spawn_agent", "emit_walkthrough"},
		"type3":    {"spawn_agent", "emit_walkthrough", "add_subtask", "read_subtasks"},
		"refinery": {"spawn_agent", "emit_walkthrough", "add_subtask", "read_subtasks", "merge_branches", "fix_conflict", "emit_cr"},
		"executor": {"spawn_agent", "read_spec", "read_task", "read_dag", "read_walkthrough", "mark_task_status", "prepare_branch"},
	},
	Spawns: map[string][]string{
		"type2":    {"type1"},
		"type3":    {"type1", "type2"},
		"refinery": {"type1", "type2", "type3"},
		"executor": {"type1", "type2", "type3", "refinery"},
	},
})

// forgeSearch is seed 002's WebSearchResult.
func forgeSearch(r *web.SearchResult, _ *Call) any {
	out := forgeSearchResult{Results: make([]forgeHit, len(r.Results))}
	for i, h := range r.Results {
		out.Results[i] = forgeHit{Title: h.Title, URL: h.URL, PublishedDate: h.PublishedDate, Text: h.Text, Summary: h.Summary}
	}
	return out
}

type forgeSearchResult struct {
	Results []forgeHit `json:"results"`
}

type forgeHit struct {
	Title         string `json:"title"`
	URL           string `json:"url"`
	PublishedDate string `json:"publishedDate,omitempty"`
	Text          string `json:"text,omitempty"`
	Summary       string `json:"summary,omitempty"`
}

// forgeFetch is seed 002's WebFetchResult.
type forgeFetch struct {
	Title   string `json:"title"`
	Content string `json:"content"`
	URL     string `json:"url"`
}

// success is the result of a forge tool that only says it worked.
var success = map[string]bool{"success": true}

var forgeEditArgs = []Arg{{Name: "path"}, {Name: "oldStr", To: "old_string"}, {Name: "newStr", To: "new_string"}}

type forgeRead struct {
	Content    string `json:"content"`
	TotalLines int    `json:"totalLines"`
}

type forgeWrite struct {
	Success      bool `json:"success"`
	BytesWritten int  `json:"bytesWritten"`
}

type forgeEdit struct {
	Success bool   `json:"success"`
	Diff    string `json:"diff"`
}

type forgeBashResult struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
}

func forgeBash(r *builtin.ShellResult, _ *Call) any {
	if r.Result == nil {
		return r
	}
	return forgeBashResult{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode}
}

// rangeSchema is read's [startLine, endLine].
var rangeSchema = &jsonschema.Schema{Type: "array", Description: "1-indexed [startLine, endLine], inclusive",
	Items: &jsonschema.Schema{Type: "integer", Minimum: ptr(1.0)}, MinItems: ptr(2), MaxItems: ptr(2)}

// lineRange converts read's range to read_file's start_line and end_line.
func lineRange(v any, canon map[string]any) *definitions.ToolError {
	r, _ := v.([]any)
	if len(r) != 2 || !lineNumber(r[0]) || !lineNumber(r[1]) || intOf(r[0]) > intOf(r[1]) {
		return definitions.NewError(definitions.ValidationError, "read: range must be [startLine, endLine], 1-based line numbers with startLine <= endLine").Hint("e.g. [10, 20]")
	}
	canon["start_line"], canon["end_line"] = r[0], r[1]
	return nil
}

// lineNumber reports whether v is a whole number of at least 1.
func lineNumber(v any) bool {
	switch n := v.(type) {
	case float64:
		return n >= 1 && n == float64(int64(n))
	case int64:
		return n >= 1
	case int:
		return n >= 1
	}
	return false
}

// testCommand splits run_tests' command line into the argv run_tests takes.
func testCommand(v any, canon map[string]any) *definitions.ToolError {
	line, _ := v.(string)
	argv, err := shell.Fields(line, func(string) string { return "" })
	if err != nil || len(argv) == 0 {
		return definitions.NewError(definitions.ValidationError, "command %q is not a simple command line: %v", line, err).
			Hint("Give a command and its arguments, e.g. \"go test ./...\"; leave it out to detect the runner")
	}
	list := make([]any, len(argv))
	for i, a := range argv {
		list[i] = a
	}
	canon["command"] = list
	return nil
}

type forgeTestResult struct {
	Name   string `json:"name"`
	Result string `json:"result"`
}

// forgeTests is run_tests' result in seed 002. testResults lists the failed tests: the
// runners' summaries name no passing test.
func forgeTests(r *builtin.RunTestsResult, _ *Call) any {
	if r.Summary == nil {
		return r
	}
	results := []forgeTestResult{}
	for _, f := range r.Failures {
		results = append(results, forgeTestResult{Name: f.Name, Result: "fail"})
	}
	passed := r.ExitCode != nil && *r.ExitCode == 0 && r.Failed == 0 && r.Errors == 0
	return map[string]any{"passed": passed, "output": r.Report, "testResults": results}
}
