package tasks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Todo runs one todo_write action other than export (which ExportTodos renders and the
// caller writes). p.Location, when set, must have been checked by the caller.
func (b *Board) Todo(p definitions.TodoWriteParams) (*definitions.TodoWriteResult, *definitions.ToolError) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now().Unix()
	switch p.Action {
	case "create":
		if terr := checkTodoText(p, true); terr != nil {
			return nil, terr
		}
		if len(b.state.Todos) >= MaxItems {
			return nil, invalid("the session has %d todos, the most it keeps", MaxItems).Hint("Delete finished todos first")
		}
		t := definitions.Todo{ID: nextID("todo", &b.state.NextTodo), Title: p.Title, Status: "open", Location: p.Location,
			Labels: p.Labels, CreatedAt: now, UpdatedAt: now}
		if p.Note != nil {
			t.Note = *p.Note
		}
		b.state.Todos = append(b.state.Todos, t)
		return &definitions.TodoWriteResult{Todo: &t}, nil
	case "replace":
		return b.replaceTodos(p.Todos, now)
	case "list":
		list := []definitions.Todo{}
		for _, t := range b.state.Todos {
			if matches(p.Filter, t.Status, t.Labels, todoPaths(t)) && len(list) < MaxListed {
				list = append(list, t)
			}
		}
		return &definitions.TodoWriteResult{Todos: &list}, nil
	}
	i := slices.IndexFunc(b.state.Todos, func(t definitions.Todo) bool { return t.ID == p.ID })
	if i < 0 {
		return nil, notFound("todo", p.ID)
	}
	t := &b.state.Todos[i]
	switch p.Action {
	case "update":
		if terr := checkTodoText(p, false); terr != nil {
			return nil, terr
		}
		if p.Title != "" {
			t.Title = p.Title
		}
		if p.Note != nil {
			t.Note = *p.Note
		}
		if p.Location != nil {
			t.Location = p.Location
		}
		if p.Labels != nil {
			t.Labels = p.Labels
		}
	case "complete":
		t.Status = "completed"
	case "reopen":
		t.Status = "open"
	case "delete":
		b.state.Todos = slices.Delete(b.state.Todos, i, i+1)
		return &definitions.TodoWriteResult{BoardChange: definitions.BoardChange{Deleted: true, ID: p.ID}}, nil
	default:
		return nil, invalid("unknown action %q", p.Action).With("field", "action")
	}
	t.UpdatedAt = now
	copied := *t
	return &definitions.TodoWriteResult{Todo: &copied}, nil
}

// replaceTodos makes items the whole todo list: an item whose title matches a todo's keeps
// that todo's id, note, labels and location; the others are new.
func (b *Board) replaceTodos(items []definitions.TodoItem, now int64) (*definitions.TodoWriteResult, *definitions.ToolError) {
	if len(items) > MaxItems {
		return nil, invalid("%d todos: the most a session keeps is %d", len(items), MaxItems).With("field", "todos")
	}
	for i, it := range items { // all checked before anything changes
		if terr := checkText(fmt.Sprintf("todos[%d].title", i), it.Title, true); terr != nil {
			return nil, terr
		}
	}
	list := make([]definitions.Todo, 0, len(items))
	for _, it := range items {
		status := it.Status
		if status == "" {
			status = "open"
		}
		j := slices.IndexFunc(b.state.Todos, func(t definitions.Todo) bool { return t.Title == it.Title })
		var t definitions.Todo
		if j >= 0 {
			t = b.state.Todos[j]
			b.state.Todos = slices.Delete(b.state.Todos, j, j+1) // a title twice makes two todos
			if t.Status != status {
				t.UpdatedAt = now
			}
		} else {
			t = definitions.Todo{ID: nextID("todo", &b.state.NextTodo), Title: it.Title, CreatedAt: now, UpdatedAt: now}
		}
		t.Status = status
		list = append(list, t)
	}
	b.state.Todos = list
	shown := slices.Clone(list)
	return &definitions.TodoWriteResult{Todos: &shown}, nil
}

// checkTodoText checks the texts of a create (title required) or an update.
func checkTodoText(p definitions.TodoWriteParams, create bool) *definitions.ToolError {
	if terr := checkText("title", p.Title, create); terr != nil {
		return terr
	}
	if p.Note != nil {
		return checkText("note", *p.Note, false)
	}
	return nil
}

// todoPaths is the file a todo points at, if any.
func todoPaths(t definitions.Todo) []string {
	if t.Location == nil {
		return nil
	}
	return []string{t.Location.Path}
}

// ExportTodos renders the todos as Markdown (open first, then completed) and counts them.
func (b *Board) ExportTodos() (string, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var md strings.Builder
	md.WriteString("# TODO\n")
	for _, status := range []string{"open", "completed"} {
		for _, t := range b.state.Todos {
			if t.Status != status {
				continue
			}
			box := " "
			if status == "completed" {
				box = "x"
			}
			fmt.Fprintf(&md, "\n- [%s] %s", box, oneLine(t.Title))
			if t.Location != nil {
				fmt.Fprintf(&md, " (`%s`)", location(*t.Location))
			}
			if len(t.Labels) > 0 {
				fmt.Fprintf(&md, " [%s]", strings.Join(t.Labels, ", "))
			}
			if t.Note != "" {
				fmt.Fprintf(&md, "\n  %s", strings.ReplaceAll(t.Note, "\n", "\n  "))
			}
		}
	}
	md.WriteString("\n")
	return md.String(), len(b.state.Todos)
}

// oneLine joins a title's lines, so that a Markdown list item stays one item.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
