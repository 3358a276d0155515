package tasks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Task runs one task action other than export (which ExportTasks renders and the caller
// writes). p.Links, when set, must have been checked by the caller.
func (b *Board) Task(p definitions.TaskParams) (*definitions.TaskResult, *definitions.ToolError) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now().Unix()
	switch p.Action {
	case "create":
		if terr := checkTaskText(p, true); terr != nil {
			return nil, terr
		}
		if len(b.state.Tasks) >= MaxItems {
			return nil, invalid("the session has %d tasks, the most it keeps", MaxItems).Hint("Delete finished tasks first")
		}
		t := definitions.Task{ID: nextID("task", &b.state.NextTask), Title: p.Title, Status: "open", Acceptance: p.Acceptance,
			Links: p.Links, Labels: p.Labels, Priority: p.Priority, CreatedAt: now, UpdatedAt: now}
		if p.Description != nil {
			t.Description = *p.Description
		}
		b.state.Tasks = append(b.state.Tasks, t)
		return &definitions.TaskResult{Task: &t}, nil
	case "list":
		list := []definitions.Task{}
		for _, t := range b.state.Tasks {
			if matches(p.Filter, t.Status, t.Labels, taskPaths(t)) && len(list) < MaxListed {
				list = append(list, t)
			}
		}
		return &definitions.TaskResult{Tasks: &list}, nil
	}
	i := slices.IndexFunc(b.state.Tasks, func(t definitions.Task) bool { return t.ID == p.ID })
	if i < 0 {
		return nil, notFound("task", p.ID)
	}
	t := &b.state.Tasks[i]
	if terr := b.changeTask(t, p); terr != nil {
		return nil, terr
	}
	if p.Action == "delete" {
		b.state.Tasks = slices.Delete(b.state.Tasks, i, i+1)
		return &definitions.TaskResult{BoardChange: definitions.BoardChange{Deleted: true, ID: p.ID}}, nil
	}
	t.UpdatedAt = now
	copied := *t
	copied.Subtasks, copied.History = slices.Clone(t.Subtasks), slices.Clone(t.History)
	return &definitions.TaskResult{Task: &copied}, nil
}

// changeTask applies an action that changes task t (delete changes nothing here).
func (b *Board) changeTask(t *definitions.Task, p definitions.TaskParams) *definitions.ToolError {
	switch p.Action {
	case "update":
		if terr := checkTaskText(p, false); terr != nil {
			return terr
		}
		if p.Title != "" {
			t.Title = p.Title
		}
		if p.Description != nil {
			t.Description = *p.Description
		}
		if p.Acceptance != nil {
			t.Acceptance = p.Acceptance
		}
		if p.Links != nil {
			t.Links = p.Links
		}
		if p.Labels != nil {
			t.Labels = p.Labels
		}
		if p.Priority != "" {
			t.Priority = p.Priority
		}
	case "set_status":
		if p.Status == "" {
			return invalid("set_status needs `status`: open, in_progress, blocked or completed").With("field", "status")
		}
		t.Status = p.Status
	case "complete":
		t.Status = "completed"
	case "reopen":
		t.Status = "open"
	case "add_subtask":
		if p.Subtask == nil {
			return invalid("add_subtask needs `subtask` with a title").With("field", "subtask")
		}
		if terr := checkText("subtask.title", p.Subtask.Title, true); terr != nil {
			return terr
		}
		if len(t.Subtasks) >= MaxItems {
			return invalid("task %s has %d subtasks, the most it keeps", t.ID, MaxItems)
		}
		st := definitions.SubtaskState{ID: t.ID + "." + strconv.Itoa(lastSubtask(t)+1), Title: p.Subtask.Title}
		if p.Subtask.Done != nil {
			st.Done = *p.Subtask.Done
		}
		t.Subtasks = append(t.Subtasks, st)
	case "update_subtask":
		return updateSubtask(t, p.Subtask)
	case "add_note":
		if terr := checkText("note", p.Note, true); terr != nil {
			return terr
		}
		if len(t.History) >= MaxItems {
			return invalid("task %s has %d notes, the most it keeps", t.ID, MaxItems)
		}
		t.History = append(t.History, p.Note)
	case "delete":
	default:
		return invalid("unknown action %q", p.Action).With("field", "action")
	}
	return nil
}

// lastSubtask is the number of t's newest subtask (their ids go on rising after deletes).
func lastSubtask(t *definitions.Task) int {
	n := 0
	for _, st := range t.Subtasks {
		_, num, _ := strings.Cut(st.ID, t.ID+".")
		if k, err := strconv.Atoi(num); err == nil && k > n {
			n = k
		}
	}
	return n
}

// updateSubtask changes the title or done state of the subtask s names.
func updateSubtask(t *definitions.Task, s *definitions.Subtask) *definitions.ToolError {
	if s == nil || s.ID == "" {
		return invalid("update_subtask needs `subtask` with its id").With("field", "subtask")
	}
	i := slices.IndexFunc(t.Subtasks, func(st definitions.SubtaskState) bool { return st.ID == s.ID })
	if i < 0 {
		return invalid("task %s has no subtask %q", t.ID, s.ID).With("id", s.ID).Hint("Get the task to see its subtasks' ids")
	}
	if s.Title != "" {
		if terr := checkText("subtask.title", s.Title, false); terr != nil {
			return terr
		}
		t.Subtasks[i].Title = s.Title
	}
	if s.Done != nil {
		t.Subtasks[i].Done = *s.Done
	}
	return nil
}

// checkTaskText checks the texts of a create (title required) or an update.
func checkTaskText(p definitions.TaskParams, create bool) *definitions.ToolError {
	if terr := checkText("title", p.Title, create); terr != nil {
		return terr
	}
	if p.Description != nil {
		if terr := checkText("description", *p.Description, false); terr != nil {
			return terr
		}
	}
	for _, a := range p.Acceptance {
		if terr := checkText("acceptance", a, true); terr != nil {
			return terr
		}
	}
	return nil
}

// taskPaths are the files a task links to.
func taskPaths(t definitions.Task) []string {
	var out []string
	for _, l := range t.Links {
		out = append(out, l.Path)
	}
	return out
}

// ExportTasks renders the tasks as a Markdown roadmap and counts them.
func (b *Board) ExportTasks() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var md strings.Builder
	md.WriteString("# Roadmap\n")
	for _, t := range b.state.Tasks {
		fmt.Fprintf(&md, "\n## %s: %s\n\nStatus: %s", t.ID, oneLine(t.Title), t.Status)
		if t.Priority != "" {
			fmt.Fprintf(&md, " · priority %s", t.Priority)
		}
		if len(t.Labels) > 0 {
			fmt.Fprintf(&md, " · %s", strings.Join(t.Labels, ", "))
		}
		md.WriteString("\n")
		if t.Description != "" {
			fmt.Fprintf(&md, "\n%s\n", t.Description)
		}
		section(&md, "Acceptance", t.Acceptance, func(a string) string { return "- " + oneLine(a) })
		section(&md, "Subtasks", t.Subtasks, func(st definitions.SubtaskState) string {
			box := " "
			if st.Done {
				box = "x"
			}
			return fmt.Sprintf("- [%s] %s", box, oneLine(st.Title))
		})
		section(&md, "Links", t.Links, func(l definitions.Location) string { return "- `" + location(l) + "`" })
		section(&md, "Notes", t.History, func(n string) string { return "- " + strings.ReplaceAll(n, "\n", "\n  ") })
	}
	return md.String(), len(b.state.Tasks)
}

// section writes a titled Markdown list of items, if there are any.
func section[T any](md *strings.Builder, title string, items []T, line func(T) string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(md, "\n%s:\n", title)
	for _, it := range items {
		md.WriteString(line(it) + "\n")
	}
}
