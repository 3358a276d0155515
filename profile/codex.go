package profile

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
)

// Codex is the dialect models trained for Codex expect: shell with an argv, a workdir and
// timeout_ms; apply_patch with Codex's patch format; update_plan.
var Codex = register(&Profile{
	Name:  "codex",
	About: "Codex's tools: shell (argv, workdir, timeout_ms), apply_patch, update_plan",
	Tools: append([]*Tool{
		{Name: "shell", Canonical: "run_shell",
			Args: []Arg{
				{Name: "command", To: "cmd", Required: true, About: "the command and its arguments, e.g. [\"bash\", \"-lc\", \"go test ./...\"]"},
				{Name: "workdir", To: "cwd", About: "the working directory, inside the project (default: its root)"},
				{Name: "timeout_ms", To: "timeout", Scale: 0.001, About: "milliseconds before the command is killed (default 120000)"},
			},
			Route: codexApplyPatch, Routes: []string{"apply_patch"},
			About: "Runs a command in the project's sandbox (no network; writes only inside the project) and returns its output and exit code. To change files, use apply_patch.",
			Shape: shape(func(r *builtin.ShellResult, _ *Call) any {
				if r.Result == nil {
					return r
				}
				out := r.Stdout
				if r.Stderr != "" {
					out += r.Stderr
				}
				return codexOutput{Output: out, Metadata: codexMeta{ExitCode: r.ExitCode, DurationSeconds: float64(r.DurationMS) / 1000}}
			})},
		applyPatch(),
		{Name: "update_plan", Canonical: "todo_write", Fixed: map[string]any{"action": "replace"},
			Args: []Arg{
				{Name: "explanation", Schema: &jsonschema.Schema{Type: "string", Description: "why the plan changed"}, Convert: ignore},
				{Name: "plan", Schema: codexPlanSchema, Convert: func(v any, canon map[string]any) *definitions.ToolError {
					return replaceTodos(v, canon, "step", map[string]string{"pending": "open"})
				}, Required: true},
			},
			About: "Updates the task plan: the whole list of steps, each pending, in_progress (at most one) or completed.",
			Shape: shape(func(*definitions.TodoWriteResult, *Call) any { return "Plan updated" })},
	}, append(gitTools(), webTools()...)...),
})

// codexOutput is a command's outcome as Codex hands it to the model.
type codexOutput struct {
	Output   string    `json:"output"`
	Metadata codexMeta `json:"metadata"`
}

type codexMeta struct {
	ExitCode        int     `json:"exit_code"`
	DurationSeconds float64 `json:"duration_seconds"`
}

// codexApplyPatch runs `shell {"command": ["apply_patch", PATCH]}`, which models trained
// for Codex send, as the apply_patch tool: no program of that name exists in the sandbox.
func codexApplyPatch(c *Call) {
	argv, _ := c.Canon["cmd"].([]any)
	if len(argv) != 2 {
		return
	}
	if name, _ := argv[0].(string); name == "apply_patch" || name == "applypatch" {
		c.Name, c.Canon = "apply_patch", map[string]any{"input": argv[1]}
	}
}

// codexPlanSchema is update_plan's plan.
var codexPlanSchema = &jsonschema.Schema{Type: "array", Description: "the steps", Items: &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"step":   {Type: "string", MinLength: ptr(1)},
		"status": {Type: "string", Enum: []any{"pending", "in_progress", "completed"}},
	},
	Required:             []string{"step", "status"},
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
}}
