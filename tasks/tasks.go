// Package tasks keeps a session's todos and tasks (seed 000's todo_write and task): an
// in-memory board whose state a session saves and restores, and the Markdown an export
// writes. It knows nothing of files: checking locations and writing exports is its
// callers' work.
package tasks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// Limits of a board, so that a session cannot grow without bound.
const (
	MaxItems  = 1000    // todos, and tasks, per board
	MaxText   = 8 << 10 // bytes of a title, note, description or criterion
	MaxListed = 200     // entries of a list
)

// Board is a session's todos and tasks. Its methods are safe for concurrent use.
type Board struct {
	mu    sync.Mutex
	state State
	now   func() time.Time
}

// State is what a board holds, as it is saved with a session (a chat transcript).
type State struct {
	Todos    []definitions.Todo `json:"todos,omitempty"`
	Tasks    []definitions.Task `json:"tasks,omitempty"`
	NextTodo int                `json:"next_todo,omitempty"` // the number of the next todo's id
	NextTask int                `json:"next_task,omitempty"`
}

// New returns an empty board.
func New() *Board { return &Board{now: time.Now} }

// State returns a copy of what the board holds.
func (b *Board) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return State{Todos: slices.Clone(b.state.Todos), Tasks: slices.Clone(b.state.Tasks), NextTodo: b.state.NextTodo, NextTask: b.state.NextTask}
}

// Restore replaces what the board holds (a resumed session).
func (b *Board) Restore(s State) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state = State{Todos: slices.Clone(s.Todos), Tasks: slices.Clone(s.Tasks), NextTodo: s.NextTodo, NextTask: s.NextTask}
}

// invalid is the validation error of a bad request.
func invalid(format string, args ...any) *definitions.ToolError {
	return definitions.NewError(definitions.ValidationError, format, args...)
}

// checkText refuses an empty required text or one over MaxText.
func checkText(field, s string, required bool) *definitions.ToolError {
	switch {
	case required && strings.TrimSpace(s) == "":
		return invalid("`%s` is required and may not be blank", field).With("field", field)
	case len(s) > MaxText:
		return invalid("`%s` is %d bytes, more than %d", field, len(s), MaxText).With("field", field).Hint("Keep it short; put details in a file")
	}
	return nil
}

// nextID returns the next id of a kind ("todo-3") and advances the counter.
func nextID(kind string, n *int) string {
	*n++
	return kind + "-" + strconv.Itoa(*n)
}

// notFound is the error for an id that names nothing.
func notFound(kind, id string) *definitions.ToolError {
	if id == "" {
		return invalid("`id` is required for this action").With("field", "id")
	}
	return invalid("no %s has the id %q", kind, id).With("id", id).Hint("List them to see their ids")
}

// matches reports whether an item with status, labels and paths passes the filter.
func matches(f *definitions.TaskFilter, status string, labels []string, paths []string) bool {
	if f == nil {
		return true
	}
	if f.Status != "" && f.Status != status || f.Label != "" && !slices.Contains(labels, f.Label) {
		return false
	}
	if f.Path == "" {
		return true
	}
	prefix := strings.TrimSuffix(f.Path, "/") + "/"
	return slices.ContainsFunc(paths, func(p string) bool { return p == f.Path || strings.HasPrefix(p, prefix) })
}

// location renders a place as path:line or path:line-end.
func location(l definitions.Location) string {
	switch {
	case l.Line == 0:
		return l.Path
	case l.EndLine > l.Line:
		return fmt.Sprintf("%s:%d-%d", l.Path, l.Line, l.EndLine)
	}
	return fmt.Sprintf("%s:%d", l.Path, l.Line)
}
