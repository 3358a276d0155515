package bridge

import "reflect"

// resultTypes maps each built-in tool to the Go type of the result its bridge function
// returns. Built-in snippets return that value unchanged, so a successful call's result
// encodes as this type: exporters describe it (an MCP tool's outputSchema) from here.
var resultTypes = map[string]reflect.Type{
	"read_file":    reflect.TypeFor[ReadFileResult](),
	"write_file":   reflect.TypeFor[WriteFileResult](),
	"edit_file":    reflect.TypeFor[EditFileResult](),
	"edit_region":  reflect.TypeFor[EditRegionResult](),
	"multi_edit":   reflect.TypeFor[MultiEditResult](),
	"delete_file":  reflect.TypeFor[DeleteFileResult](),
	"move_file":    reflect.TypeFor[MoveFileResult](),
	"list_dir":     reflect.TypeFor[ListDirResult](),
	"list_files":   reflect.TypeFor[FileList](),
	"glob":         reflect.TypeFor[FileList](),
	"file_exists":  reflect.TypeFor[FileExistsResult](),
	"search":       reflect.TypeFor[SearchResult](),
	"run_shell":    reflect.TypeFor[ShellResult](),
	"job_output":   reflect.TypeFor[JobStatus](),
	"job_kill":     reflect.TypeFor[JobStatus](),
	"run_tests":    reflect.TypeFor[RunTestsResult](),
	"undo":         reflect.TypeFor[UndoResult](),
	"plan_diff":    reflect.TypeFor[PlanResult](),
	"plan_apply":   reflect.TypeFor[PlanResult](),
	"plan_discard": reflect.TypeFor[PlanResult](),
}

// ResultType returns the Go type of the result of the built-in tool named tool (a struct
// type, not a pointer); ok is false for any other name, a user's Lua tool included, whose
// result has no declared type.
func ResultType(tool string) (reflect.Type, bool) {
	t, ok := resultTypes[tool]
	return t, ok
}
