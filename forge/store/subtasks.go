package store

import (
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// Subtask is one entry of a Type 3 or Refinery agent's own task list (seed 002 §6).
type Subtask struct {
	SubtaskID   string `json:"subtaskId"` // "<taskId>-s<n>", n counting from 1
	Title       string `json:"title"`
	Description string `json:"description"`
	Type        int    `json:"type"`   // agent type: 1 or 2
	Status      Status `json:"status"` // PENDING when added
}

// AddSubtask adds a subtask to task taskID's list, stored as
// <taskID>/subtasks/<subtaskId>.json, and returns its id. typ is the agent type, 1 or 2
// (0 means 1).
func (r *Run) AddSubtask(taskID, title, description string, typ int) (string, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if strings.TrimSpace(title) == "" {
		return "", required("title")
	}
	if typ == 0 {
		typ = 1
	}
	if typ != 1 && typ != 2 {
		return "", definitions.NewError(definitions.ValidationError, "invalid subtask type %d", typ).
			With("field", "type").With("allowed", []int{1, 2})
	}
	if err := r.taskExists(taskID); err != nil {
		return "", err
	}
	r.mu.Lock() // numbering: two calls must not take the same n
	defer r.mu.Unlock()
	existing, err := r.Subtasks(taskID)
	if err != nil {
		return "", err
	}
	n := 1
	if len(existing) > 0 {
		n = subtaskNumber(existing[len(existing)-1].SubtaskID) + 1
	}
	s := Subtask{SubtaskID: taskID + "-s" + strconv.Itoa(n), Title: title, Description: description, Type: typ, Status: Pending}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return "", definitions.NewError(definitions.InternalError, "encode the subtask: %v", err)
	}
	rel := r.path(taskID, "subtasks", s.SubtaskID+".json")
	if _, _, err := r.root.WriteFile(rel, append(data, '\n'), security.WriteOptions{MustNotExist: true}); err != nil {
		return "", ioError(err, "subtask "+s.SubtaskID, rel, "")
	}
	return s.SubtaskID, nil
}

// Subtasks returns task taskID's subtasks in the order they were added; none is an
// empty list.
func (r *Run) Subtasks(taskID string) ([]Subtask, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return nil, err
	}
	dir := r.path(taskID, "subtasks")
	entries, err := r.root.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Subtask{}, nil
	}
	if err != nil {
		return nil, ioError(err, "the subtasks of task "+taskID, dir, "")
	}
	subtasks := []Subtask{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() {
			continue
		}
		rel := dir + "/" + e.Name()
		f, err := r.root.ReadFile(rel)
		if err != nil {
			return nil, ioError(err, "subtask "+e.Name(), rel, "")
		}
		var s Subtask
		if err := json.Unmarshal(f.Data, &s); err != nil {
			return nil, definitions.NewError(definitions.FileError, "subtask file %s is damaged: %v", e.Name(), err).With("path", rel)
		}
		subtasks = append(subtasks, s)
	}
	slices.SortFunc(subtasks, func(a, b Subtask) int { return subtaskNumber(a.SubtaskID) - subtaskNumber(b.SubtaskID) })
	return subtasks, nil
}

// subtaskNumber returns n of an id "<taskId>-s<n>" (0 if malformed), so that s10 sorts
// after s9.
func subtaskNumber(id string) int {
	i := strings.LastIndex(id, "-s")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(id[i+2:])
	return n
}
