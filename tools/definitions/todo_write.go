package definitions

// Location is a place in the project a todo points at.
type Location struct {
	Path    string `json:"path" jido:"path" jsonschema:"file, relative to the project root"`
	Line    int    `json:"line,omitempty" minimum:"1" jsonschema:"line, 1-based"`
	EndLine int    `json:"end_line,omitempty" minimum:"1" jsonschema:"last line of the range, inclusive"`
}

// TaskFilter narrows a list of todos or tasks.
type TaskFilter struct {
	Status string `json:"status,omitempty" jsonschema:"only items with this status"`
	Label  string `json:"label,omitempty" jsonschema:"only items with this label"`
	Path   string `json:"path,omitempty" jido:"notpath" jsonschema:"only items pointing at this file (or under this directory)"`
}

// TodoWriteParams are the arguments of todo_write (seed 000, section 4.10).
type TodoWriteParams struct {
	Action     string      `json:"action" enum:"create|update|complete|reopen|delete|list|export|replace" jsonschema:"what to do"`
	Title      string      `json:"title,omitempty" jsonschema:"the todo's title (create; update changes it)"`
	Note       *string     `json:"note,omitempty" jsonschema:"a note (create, update)"`
	ID         string      `json:"id,omitempty" jsonschema:"the todo (update, complete, reopen, delete)"`
	Location   *Location   `json:"location,omitempty" jsonschema:"the code it is about (create, update); the file must exist"`
	Labels     []string    `json:"labels,omitempty" jsonschema:"labels (create, update replaces them)"`
	Filter     *TaskFilter `json:"filter,omitempty" jsonschema:"list: status (open, completed), label or path"`
	ExportPath string      `json:"export_path,omitempty" jido:"path" jsonschema:"export: the Markdown file to write, inside the project (default docs/TODO.md)"`
	Todos      []TodoItem  `json:"todos,omitempty" jsonschema:"replace: the whole new list, in order"`
}

// TodoItem is one todo of a replace: the list as a planner keeps it whole.
type TodoItem struct {
	Title  string `json:"title" jsonschema:"the step"`
	Status string `json:"status,omitempty" enum:"open|in_progress|completed" jsonschema:"open (the default), in_progress or completed"`
}

// Todo is one todo of a session.
type Todo struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Note      string    `json:"note,omitempty"`
	Status    string    `json:"status"` // open, in_progress (set by replace), completed
	Location  *Location `json:"location,omitempty"`
	Labels    []string  `json:"labels,omitempty"`
	CreatedAt int64     `json:"created_at"` // Unix seconds
	UpdatedAt int64     `json:"updated_at"`
}

// TodoWriteResult is todo_write's result: a todo, the list, a deletion or an export.
type TodoWriteResult struct {
	Todo  *Todo   `json:"task,omitempty"`
	Todos *[]Todo `json:"tasks,omitempty"`
	BoardChange
}

// BoardChange is what todo_write and task return besides their items: a deletion (its id)
// or an export (the file, its change set and how many items it holds).
type BoardChange struct {
	Deleted bool   `json:"deleted,omitempty"`
	ID      string `json:"id,omitempty"`
	Backup
	Path  string `json:"path,omitempty"`
	Count *int   `json:"count,omitempty"`
}

// TodoWrite declares todo_write. It changes the session's todos, not the project, so it
// reads as far as approvals go; export writes a file through write_file's rules.
var TodoWrite = define[TodoWriteParams]("todo_write", Decl{Flags: Flags{ReadOnly: true}, Role: RoleReader})
