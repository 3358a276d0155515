package policy

import "github.com/jido-run/jido/tools/definitions"

// Roles name the tool sets a sub-agent may use. The defaults are reader,
// editor, runner and full; a config file's [roles.NAME] table replaces or
// adds a role (the project file wins over the user file).

// defaultRoles builds the default roles from the tools' declarations: a reader tool is
// in every role, an editor or runner tool in its own, the rest only in "full".
func defaultRoles() map[string][]string {
	roles := map[string][]string{"reader": nil, "editor": nil, "runner": nil}
	for _, t := range definitions.All() {
		for name := range roles {
			if t.Role == definitions.RoleReader || string(t.Role) == name && t.Role != definitions.RoleFull {
				roles[name] = append(roles[name], t.Name)
			}
		}
	}
	roles["full"] = nil // nil: every tool
	return roles
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
