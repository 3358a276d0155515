package tasks

import (
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

// fixedBoard is a board whose clock stands still.
func fixedBoard() *Board {
	b := New()
	b.now = func() time.Time { return time.Unix(1700000000, 0) }
	return b
}

// TestTodoActions runs seed 000's todo_write actions in order, each result checked.
func TestTodoActions(t *testing.T) {
	b := fixedBoard()
	steps := []struct {
		p       definitions.TodoWriteParams
		outcome string // the result's Outcome, or the error's message part
		err     bool
	}{
		{definitions.TodoWriteParams{Action: "create", Title: "a", Note: ptr("n"), Labels: []string{"x"}, Location: &definitions.Location{Path: "a.go", Line: 3}}, "todo-1 open", false},
		{definitions.TodoWriteParams{Action: "create", Title: "b"}, "todo-2 open", false},
		{definitions.TodoWriteParams{Action: "create"}, "`title` is required", true},
		{definitions.TodoWriteParams{Action: "create", Title: "  "}, "`title` is required", true},
		{definitions.TodoWriteParams{Action: "create", Title: strings.Repeat("x", MaxText+1)}, "more than", true},
		{definitions.TodoWriteParams{Action: "complete", ID: "todo-1"}, "todo-1 completed", false},
		{definitions.TodoWriteParams{Action: "reopen", ID: "todo-1"}, "todo-1 open", false},
		{definitions.TodoWriteParams{Action: "update", ID: "todo-2", Title: "B", Labels: []string{"y"}}, "todo-2 open", false},
		{definitions.TodoWriteParams{Action: "complete", ID: "todo-9"}, `no todo has the id "todo-9"`, true},
		{definitions.TodoWriteParams{Action: "delete"}, "`id` is required", true},
		{definitions.TodoWriteParams{Action: "list", Filter: &definitions.TaskFilter{Label: "x"}}, "1 todo", false},
		{definitions.TodoWriteParams{Action: "list", Filter: &definitions.TaskFilter{Path: "a.go"}}, "1 todo", false},
		{definitions.TodoWriteParams{Action: "list", Filter: &definitions.TaskFilter{Status: "completed"}}, "0 todos", false},
		{definitions.TodoWriteParams{Action: "delete", ID: "todo-1"}, "deleted todo-1", false},
		{definitions.TodoWriteParams{Action: "create", Title: "c"}, "todo-3 open", false},
		{definitions.TodoWriteParams{Action: "list"}, "2 todos", false},
	}
	for i, s := range steps {
		res, terr := b.Todo(s.p)
		if s.err {
			require.NotNil(t, terr, "step %d", i)
			assert.Equal(t, definitions.ValidationError, terr.Type)
			assert.Contains(t, terr.Message, s.outcome, "step %d", i)
			continue
		}
		require.Nil(t, terr, "step %d: %v", i, terr)
		assert.Equal(t, s.outcome, res.Outcome(), "step %d", i)
	}
	md, n := b.ExportTodos()
	assert.Equal(t, 2, n)
	assert.Equal(t, "# TODO\n\n- [ ] B [y]\n- [ ] c\n", md)
}

// TestTaskActions runs seed 000's task actions in order, each result checked.
func TestTaskActions(t *testing.T) {
	b := fixedBoard()
	steps := []struct {
		p       definitions.TaskParams
		outcome string
		err     bool
	}{
		{definitions.TaskParams{Action: "create", Title: "ship", Description: ptr("the release"), Acceptance: []string{"tests pass"}, Priority: "high",
			Links: []definitions.Location{{Path: "main.go", Line: 1, EndLine: 9}}}, "task-1 open", false},
		{definitions.TaskParams{Action: "set_status", ID: "task-1"}, "needs `status`", true},
		{definitions.TaskParams{Action: "set_status", ID: "task-1", Status: "in_progress"}, "task-1 in_progress", false},
		{definitions.TaskParams{Action: "add_subtask", ID: "task-1"}, "needs `subtask`", true},
		{definitions.TaskParams{Action: "add_subtask", ID: "task-1", Subtask: &definitions.Subtask{Title: "write"}}, "task-1 in_progress", false},
		{definitions.TaskParams{Action: "add_subtask", ID: "task-1", Subtask: &definitions.Subtask{Title: "test", Done: ptr(true)}}, "task-1 in_progress", false},
		{definitions.TaskParams{Action: "update_subtask", ID: "task-1", Subtask: &definitions.Subtask{ID: "task-1.1", Done: ptr(true)}}, "task-1 in_progress", false},
		{definitions.TaskParams{Action: "update_subtask", ID: "task-1", Subtask: &definitions.Subtask{ID: "task-1.7"}}, `no subtask "task-1.7"`, true},
		{definitions.TaskParams{Action: "add_note", ID: "task-1"}, "`note` is required", true},
		{definitions.TaskParams{Action: "add_note", ID: "task-1", Note: "halfway"}, "task-1 in_progress", false},
		{definitions.TaskParams{Action: "complete", ID: "task-1"}, "task-1 completed", false},
		{definitions.TaskParams{Action: "reopen", ID: "task-1"}, "task-1 open", false},
		{definitions.TaskParams{Action: "update", ID: "task-1", Title: "ship 1.0", Labels: []string{"release"}}, "task-1 open", false},
		{definitions.TaskParams{Action: "create", Title: "later"}, "task-2 open", false},
		{definitions.TaskParams{Action: "list", Filter: &definitions.TaskFilter{Path: "main.go"}}, "1 task", false},
		{definitions.TaskParams{Action: "list", Filter: &definitions.TaskFilter{Status: "blocked"}}, "0 tasks", false},
		{definitions.TaskParams{Action: "delete", ID: "task-2"}, "deleted task-2", false},
		{definitions.TaskParams{Action: "update", ID: "task-2"}, `no task has the id "task-2"`, true},
	}
	for i, s := range steps {
		res, terr := b.Task(s.p)
		if s.err {
			require.NotNil(t, terr, "step %d", i)
			assert.Contains(t, terr.Message, s.outcome, "step %d", i)
			continue
		}
		require.Nil(t, terr, "step %d: %v", i, terr)
		assert.Equal(t, s.outcome, res.Outcome(), "step %d", i)
	}
	task := b.State().Tasks[0]
	assert.Equal(t, []definitions.SubtaskState{{ID: "task-1.1", Title: "write", Done: true}, {ID: "task-1.2", Title: "test", Done: true}}, task.Subtasks)
	assert.Equal(t, []string{"halfway"}, task.History)
	md, n := b.ExportTasks()
	assert.Equal(t, 1, n)
	assert.Equal(t, "# Roadmap\n\n## task-1: ship 1.0\n\nStatus: open · priority high · release\n\nthe release\n\n"+
		"Acceptance:\n- tests pass\n\nSubtasks:\n- [x] write\n- [x] test\n\nLinks:\n- `main.go:1-9`\n\nNotes:\n- halfway\n", md)
}

// TestBoardLimits refuses more items than a board keeps.
func TestBoardLimits(t *testing.T) {
	b := New()
	for range MaxItems {
		_, terr := b.Todo(definitions.TodoWriteParams{Action: "create", Title: "x"})
		require.Nil(t, terr)
	}
	_, terr := b.Todo(definitions.TodoWriteParams{Action: "create", Title: "one more"})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "the most it keeps")
	res, terr := b.Todo(definitions.TodoWriteParams{Action: "list"})
	require.Nil(t, terr)
	assert.Len(t, *res.Todos, MaxListed, "a list is capped")
}

// TestTodoReplace replaces the whole list as Claude Code's TodoWrite and Codex's
// update_plan do: a title kept keeps its todo's id and note; the others are new.
func TestTodoReplace(t *testing.T) {
	b := fixedBoard()
	_, terr := b.Todo(definitions.TodoWriteParams{Action: "create", Title: "read the code", Note: ptr("n")})
	require.Nil(t, terr)
	res, terr := b.Todo(definitions.TodoWriteParams{Action: "replace", Todos: []definitions.TodoItem{
		{Title: "read the code", Status: "completed"}, {Title: "fix the bug", Status: "in_progress"}, {Title: "run the tests"},
	}})
	require.Nil(t, terr)
	require.Len(t, *res.Todos, 3)
	assert.Equal(t, definitions.Todo{ID: "todo-1", Title: "read the code", Note: "n", Status: "completed", CreatedAt: 1700000000, UpdatedAt: 1700000000}, (*res.Todos)[0])
	assert.Equal(t, []string{"todo-2", "todo-3"}, []string{(*res.Todos)[1].ID, (*res.Todos)[2].ID})
	assert.Equal(t, []string{"in_progress", "open"}, []string{(*res.Todos)[1].Status, (*res.Todos)[2].Status})

	res, terr = b.Todo(definitions.TodoWriteParams{Action: "replace", Todos: []definitions.TodoItem{{Title: "run the tests", Status: "completed"}}})
	require.Nil(t, terr)
	assert.Equal(t, "todo-3", (*res.Todos)[0].ID, "a kept title keeps its id")
	assert.Len(t, b.State().Todos, 1, "the todos left out are gone")

	_, terr = b.Todo(definitions.TodoWriteParams{Action: "replace", Todos: []definitions.TodoItem{{Title: "new"}, {Title: " "}}})
	require.NotNil(t, terr)
	assert.Contains(t, terr.Message, "todos[1].title")
	assert.Equal(t, "todo-3", b.State().Todos[0].ID, "a refused replace changes nothing")
	assert.Equal(t, 3, b.State().NextTodo, "not even the next id")

	res, terr = b.Todo(definitions.TodoWriteParams{Action: "replace"})
	require.Nil(t, terr)
	assert.Empty(t, *res.Todos, "an empty list clears the todos")
}
