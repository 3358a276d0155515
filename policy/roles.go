package policy

// Roles name the tool sets a sub-agent may use. The defaults are reader,
// editor, runner and full; a config file's [roles.NAME] table replaces or
// adds a role (the project file wins over the user file).

var readerTools = []string{"read_file", "list_dir", "list_files", "glob", "search", "file_exists"}

func defaultRoles() map[string][]string {
	with := func(extra ...string) []string {
		return append(append([]string(nil), readerTools...), extra...)
	}
	return map[string][]string{
		"reader": with(),
		"editor": with("write_file", "edit_file", "edit_region", "multi_edit", "delete_file", "move_file", "plan_diff", "plan_apply", "plan_discard"),
		"runner": with("run_shell", "job_output", "job_kill", "run_tests"),
		"full":   nil, // nil: every tool
	}
}

// Role returns the tools of the named role. A nil slice with ok means every
// tool.
func (e *Engine) Role(name string) (tools []string, ok bool) {
	if e.parent != nil {
		return e.parent.Role(name)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	tools, ok = e.roles[name]
	if tools != nil {
		tools = append([]string{}, tools...)
	}
	return tools, ok
}
