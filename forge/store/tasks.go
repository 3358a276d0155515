package store

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// taskHint says how to make a missing task exist.
const taskHint = "create it with create_task"

// CreateTask validates content (YAML front matter with id equal to taskID, type 1, 2, 3
// or refinery, dependencies, an optional status PENDING, title and tests) and writes it to
// tasks/<taskID>.md, returning that root-relative path. Rewriting a task is allowed while
// it is PENDING or STALE (re-planning); once started it is a ConflictError.
func (r *Run) CreateTask(taskID, content string) (string, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if _, err := parseTask(taskID, content); err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.state.task(taskID).Status; s != Pending && s != Stale {
		return "", definitions.NewError(definitions.ConflictError, "task %s is %s and cannot be rewritten", taskID, s).
			With("task", taskID).With("status", s).Hint("only PENDING or STALE tasks can be rewritten")
	}
	rel := r.path("tasks", taskID+".md")
	canonical, _, err := r.root.WriteFile(rel, []byte(content), security.WriteOptions{})
	if err != nil {
		return "", ioError(err, "task "+taskID, rel, "")
	}
	return canonical, nil
}

// ReadTask returns the document of task taskID as written.
func (r *Run) ReadTask(taskID string) (string, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	rel := r.path("tasks", taskID+".md")
	f, err := r.root.ReadFile(rel)
	if err != nil {
		return "", ioError(err, "task "+taskID, rel, taskHint)
	}
	return string(f.Data), nil
}

// Task returns task taskID parsed.
func (r *Run) Task(taskID string) (*Task, error) {
	content, err := r.ReadTask(taskID)
	if err != nil {
		return nil, err
	}
	return parseTask(taskID, content)
}

// Tasks returns every task of the run, parsed, in id order.
func (r *Run) Tasks() ([]*Task, error) {
	ids, err := r.taskIDs()
	if err != nil {
		return nil, err
	}
	tasks := make([]*Task, 0, len(ids))
	for _, id := range ids {
		t, err := r.Task(id)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// taskIDs lists the ids of the task files, in order; no tasks directory means none.
func (r *Run) taskIDs() ([]string, error) {
	rel := r.path("tasks")
	entries, err := r.root.ReadDir(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(err, "the tasks directory", rel, "")
	}
	var ids []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".md")
		if ok && e.Type().IsRegular() && checkTaskID("taskId", id) == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// taskExists returns a FileError when task taskID has no file.
func (r *Run) taskExists(taskID string) error {
	rel := r.path("tasks", taskID+".md")
	if _, err := r.root.Stat(rel); err != nil {
		return ioError(err, "task "+taskID, rel, taskHint)
	}
	return nil
}
