package builtin

import (
	"context"
	"reflect"
	"strings"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/planshell"
	"github.com/jido-run/jido/tools/definitions"
)

// builtins binds every built-in tool's declaration to its Go implementation: the one place
// a tool's function, and so its result type, is named. A test checks it against the
// catalogue both ways.
var builtins = []*Tool{
	bind(definitions.ReadFile, (*Files).ReadFile),
	bind(definitions.WriteFile, (*Files).WriteFile),
	bind(definitions.EditFile, (*Files).EditFile),
	bind(definitions.EditRegion, (*Files).EditRegion),
	bind(definitions.MultiEdit, (*Files).MultiEdit),
	bind(definitions.ApplyPatch, (*Files).ApplyPatch),
	bind(definitions.DeleteFile, (*Files).DeleteFile),
	bind(definitions.CreateDirectory, (*Files).CreateDirectory),
	bind(definitions.MoveFile, (*Files).MoveFile),
	bind(definitions.ListDir, (*Find).ListDir),
	bind(definitions.ListFiles, (*Find).ListFiles),
	bind(definitions.Glob, (*Find).Glob),
	bind(definitions.FileExists, (*Find).FileExists),
	bind(definitions.Search, (*Find).Search),
	bind(definitions.RunShell, (*Exec).RunShell),
	bind(definitions.JobOutput, (*Exec).JobOutput),
	bind(definitions.JobKill, (*Exec).JobKill),
	bind(definitions.RunTests, (*Exec).RunTests),
	bind(definitions.Undo, (*Changes).Undo),
	bind(definitions.PlanDiff, (*PlanTools).PlanDiff),
	bind(definitions.PlanApply, (*PlanTools).PlanApply),
	bind(definitions.PlanDiscard, (*PlanTools).PlanDiscard),
	bind(definitions.TodoWrite, (*BoardTools).TodoWrite),
	bind(definitions.TaskTool, (*BoardTools).Task),
	bind(definitions.BufferCreate, bufferOp(buffers.Buffers.Create)),
	bind(definitions.BufferAppend, bufferOp(buffers.Buffers.Append)),
	bind(definitions.BufferEdit, bufferOp(buffers.Buffers.Edit)),
	bind(definitions.BufferGetContent, bufferOp(buffers.Buffers.Content)),
	bind(definitions.BufferList, bufferOp(buffers.Buffers.List)),
	bind(definitions.BufferSave, (*BufferTools).BufferSave),
	bind(definitions.GotoLine, bufferOp(buffers.Buffers.GotoLine)),
	bind(definitions.SearchInBuffer, bufferOp(buffers.Buffers.Search)),
	bind(definitions.CurrentDirectory, (*BufferTools).CurrentDirectory),
	bind(definitions.GitStatus, (*Git).GitStatus),
	bind(definitions.GitDiff, (*Git).GitDiff),
	bind(definitions.GitLog, (*Git).GitLog),
	bind(definitions.GitShow, (*Git).GitShow),
	bind(definitions.WebFetch, (*Web).WebFetch),
	bind(definitions.WebSearch, (*Web).WebSearch),
}

// Tool is a built-in tool: its declaration, the Go type of its result, and its run.
type Tool struct {
	Def    *definitions.Tool
	Result reflect.Type // a struct type; the tool returns a pointer to one
	run    func(ctx context.Context, d Deps, args map[string]any) (any, *definitions.ToolError)
}

// Run makes one call of the tool with the arguments a client sent: it validates them,
// asks the gate (not for a dry run), journals a change, and runs the tool. The result is
// a pointer to the tool's result type; d must be Ready.
func (t *Tool) Run(ctx context.Context, d Deps, args map[string]any) (any, *definitions.ToolError) {
	return t.run(ctx, d, args)
}

// module is a module of tools: a struct that embeds Deps (Files, Find, Exec, ...).
type module[M any] interface {
	*M
	setDeps(Deps)
}

// setDeps lets bind make a module of any kind for a call.
func (d *Deps) setDeps(v Deps) { *d = v }

// bind binds tool t to method fn of a module.
func bind[M any, PM module[M], P, R any](t *definitions.Tool, fn func(PM, context.Context, P) (R, error)) *Tool {
	return New(t, func(ctx context.Context, d Deps, p P) (R, error) {
		m := PM(new(M))
		m.setDeps(d)
		return fn(m, ctx, p)
	})
}

// New makes a tool of declaration t (params type P) and its implementation fn, which
// returns its result as R, a struct or a pointer to one: the way to add a Go tool of
// one's own (manager.Config.Tools). fn gets the call's params validated against t's
// schema (their relative paths rebased onto the call's working directory, WithCallDir),
// once the gate let the call run; a change to the files t.ActedOn names is
// journaled for undo. For plan mode to hold its changes, fn reads and writes through
// d.Store, never d.Root.
func New[P, R any](t *definitions.Tool, fn func(ctx context.Context, d Deps, p P) (R, error)) *Tool {
	result := reflect.TypeFor[R]()
	if result.Kind() == reflect.Pointer {
		result = result.Elem()
	}
	return &Tool{Def: t, Result: result, run: func(ctx context.Context, d Deps, args map[string]any) (any, *definitions.ToolError) {
		p, terr := definitions.Decode[P](t, args)
		if terr != nil {
			return nil, terr
		}
		if dir := callDir(ctx); dir != "" {
			if err := t.Rebase(&p, dir); err != nil {
				return nil, definitions.NewError(definitions.ValidationError, "%v", err).With("cwd", dir).
					Hint("Call it without meta.cwd, with paths relative to the project root")
			}
		}
		call := func(ctx context.Context, p P) (R, error) { return fn(ctx, d, p) }
		if terr := gated(ctx, d, t, p, call); terr != nil {
			return nil, terr
		}
		if terr := available(t, d.Plan != nil); terr != nil {
			return nil, terr
		}
		res, err := journaled(ctx, d, t, p, call)
		if err != nil {
			return nil, toolError(err)
		}
		return res, nil
	}}
}

// available refuses a call of t in a session its declaration does not offer it to.
func available(t *definitions.Tool, planMode bool) *definitions.ToolError {
	switch {
	case t.InSession(planMode):
		return nil
	case planMode:
		return definitions.NewError(definitions.PermissionError, "%s is not available in plan mode, which changes nothing on disk and runs no programs", t.Name).
			With("tool", t.Name).
			Hint("In plan mode, plan_diff shows the planned changes and run_shell runs builtin commands (" + strings.Join(planshell.Commands(), " ") + ") on the plan; plan_apply writes it, and then " + t.Name + " works outside plan mode")
	}
	return definitions.NewError(definitions.ValidationError, "%s works only in plan mode: this session has no plan", t.Name).
		With("tool", t.Name).Hint("Start the session with --mode plan to plan changes in memory; outside plan mode, tools change the files directly")
}

// All returns every built-in tool, in the order of builtins. The slice must not be
// modified.
func All() []*Tool { return builtins }

// resultTypes indexes the result types of the built-in tools by name.
var resultTypes = func() map[string]reflect.Type {
	m := make(map[string]reflect.Type, len(builtins))
	for _, b := range builtins {
		m[b.Def.Name] = b.Result
	}
	return m
}()

// ResultType returns the Go type of the result of the built-in tool named tool (a struct
// type, not a pointer); ok is false for any other name, a user's Lua tool included, whose
// result has no declared type.
func ResultType(tool string) (reflect.Type, bool) {
	t, ok := resultTypes[tool]
	return t, ok
}
