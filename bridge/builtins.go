package bridge

import (
	"context"
	"reflect"

	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// builtins binds every built-in tool's declaration to its Go implementation: the one place
// a tool's function, and so its result type, is named. A test checks it against the
// catalogue both ways.
var builtins = []binding{
	bind(definitions.ReadFile, (*Files).ReadFile),
	bind(definitions.WriteFile, (*Files).WriteFile),
	bind(definitions.EditFile, (*Files).EditFile),
	bind(definitions.EditRegion, (*Files).EditRegion),
	bind(definitions.MultiEdit, (*Files).MultiEdit),
	bind(definitions.DeleteFile, (*Files).DeleteFile),
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
}

// binding is one built-in tool: its declaration, the Go type of its result, and the maker
// of its Lua function for a session.
type binding struct {
	tool   *definitions.Tool
	result reflect.Type
	lua    func(Deps) lua.LGFunction
}

// module is a bridge module: a struct that embeds Deps (Files, Find, Exec, ...).
type module[M any] interface {
	*M
	setDeps(Deps)
}

// setDeps lets bind make a module of any kind for a session.
func (d *Deps) setDeps(v Deps) { *d = v }

// bind binds tool t to method fn of a module; the result type is fn's (a struct, or a
// pointer to one).
func bind[M any, PM module[M], P, R any](t *definitions.Tool, fn func(PM, context.Context, P) (R, error)) binding {
	result := reflect.TypeFor[R]()
	if result.Kind() == reflect.Pointer {
		result = result.Elem()
	}
	return binding{tool: t, result: result, lua: func(d Deps) lua.LGFunction {
		m := PM(new(M))
		m.setDeps(d)
		return toolFunc(d, t, func(ctx context.Context, p P) (R, error) { return fn(m, ctx, p) })
	}}
}

// resultTypes indexes the result types of the built-in tools by name.
var resultTypes = func() map[string]reflect.Type {
	m := make(map[string]reflect.Type, len(builtins))
	for _, b := range builtins {
		m[b.tool.Name] = b.result
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
