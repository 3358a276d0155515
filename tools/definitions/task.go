package definitions

// Subtask is a step of a task.
type Subtask struct {
	ID    string `json:"id,omitempty" jsonschema:"the subtask (update_subtask)"`
	Title string `json:"title,omitempty" jsonschema:"its title (add_subtask; update_subtask changes it)"`
	Done  *bool  `json:"done,omitempty" jsonschema:"whether it is done"`
}

// TaskParams are the arguments of task (seed 000, section 4.11).
type TaskParams struct {
	Action      string      `json:"action" enum:"create|update|set_status|complete|reopen|add_subtask|update_subtask|add_note|list|delete|export" jsonschema:"what to do"`
	Title       string      `json:"title,omitempty" jsonschema:"the task's title (create; update changes it)"`
	Description *string     `json:"description,omitempty" jsonschema:"what the task is (create, update)"`
	Acceptance  []string    `json:"acceptance,omitempty" jsonschema:"acceptance criteria (create, update replaces them)"`
	Links       []Location  `json:"links,omitempty" jsonschema:"code the task is about (create, update replaces them); each file must exist"`
	Labels      []string    `json:"labels,omitempty" jsonschema:"labels (create, update replaces them)"`
	Priority    string      `json:"priority,omitempty" enum:"low|medium|high|critical" jsonschema:"priority (create, update)"`
	ID          string      `json:"id,omitempty" jsonschema:"the task (every action but create, list and export)"`
	Status      string      `json:"status,omitempty" enum:"open|in_progress|blocked|completed" jsonschema:"set_status: the new status"`
	Subtask     *Subtask    `json:"subtask,omitempty" jsonschema:"add_subtask: {title}; update_subtask: {id, title?, done?}"`
	Note        string      `json:"note,omitempty" jsonschema:"add_note: the note, added to the task's history"`
	Filter      *TaskFilter `json:"filter,omitempty" jsonschema:"list: status, label or path"`
	ExportPath  string      `json:"export_path,omitempty" jido:"path" jsonschema:"export: the Markdown file to write, inside the project (default docs/roadmap.md)"`
}

// SubtaskState is a subtask of a task.
type SubtaskState struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// Task is one task of a session.
type Task struct {
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Description string         `json:"description,omitempty"`
	Acceptance  []string       `json:"acceptance,omitempty"`
	Subtasks    []SubtaskState `json:"subtasks,omitempty"`
	Status      string         `json:"status"` // open, in_progress, blocked, completed
	Labels      []string       `json:"labels,omitempty"`
	Priority    string         `json:"priority,omitempty"`
	Links       []Location     `json:"links,omitempty"`
	CreatedAt   int64          `json:"created_at"` // Unix seconds
	UpdatedAt   int64          `json:"updated_at"`
	History     []string       `json:"history,omitempty"` // notes, oldest first
}

// TaskResult is task's result: a task, the list, a deletion or an export.
type TaskResult struct {
	Task  *Task   `json:"task,omitempty"`
	Tasks *[]Task `json:"tasks,omitempty"`
	BoardChange
}

// TaskTool declares task. Like todo_write it changes the session's state, not the
// project; export writes a file through write_file's rules.
var TaskTool = define[TaskParams]("task", Decl{Flags: Flags{ReadOnly: true}, Role: RoleReader})
