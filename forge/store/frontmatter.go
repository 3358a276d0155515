package store

import (
	"slices"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
	"go.yaml.in/yaml/v3"
)

// taskTypes are the agent types a task may name (seed 002 §5.1).
var taskTypes = []string{"1", "2", "3", "refinery"}

// Task is a task document: its front matter and the markdown after it.
type Task struct {
	ID           string   // equals the file's task id
	Type         string   // "1", "2", "3" or "refinery"
	Dependencies []string // ids of the tasks it needs; never nil
	Title        string
	// Tests is a shell command that must pass in the task's worktree once its agent is
	// done (front matter key tests); "" when the task names none.
	Tests string
	Body  string // the document after the front matter
}

// frontMatter holds the known keys as nodes, so that scalars keep their text
// (id: 001 stays "001", type: 1 and type: "1" agree); other keys are allowed and ignored.
type frontMatter struct {
	ID           yaml.Node `yaml:"id"`
	Type         yaml.Node `yaml:"type"`
	Dependencies yaml.Node `yaml:"dependencies"`
	Status       yaml.Node `yaml:"status"`
	Title        yaml.Node `yaml:"title"`
	Tests        yaml.Node `yaml:"tests"`
}

// splitFrontMatter returns the YAML between an opening "---" line at the very start of
// content and the next "---" line, and the body after it; ok is false without both.
func splitFrontMatter(content string) (front, body string, ok bool) {
	rest, ok := strings.CutPrefix(content, "---\n")
	if !ok {
		return "", "", false
	}
	if rest == "---" {
		return "", "", true
	}
	if after, found := strings.CutPrefix(rest, "---\n"); found {
		return "", after, true
	}
	if i := strings.Index(rest, "\n---\n"); i >= 0 {
		return rest[:i+1], rest[i+5:], true
	}
	if front, found := strings.CutSuffix(rest, "\n---"); found {
		return front + "\n", "", true
	}
	return "", "", false
}

// parseTask parses a task document whose file is named taskID; every error is a
// ValidationError naming the field.
func parseTask(taskID, content string) (*Task, error) {
	front, body, ok := splitFrontMatter(content)
	if !ok {
		return nil, definitions.NewError(definitions.ValidationError, "task %s has no YAML front matter", taskID).
			With("field", "content").With("task", taskID).
			Hint("start the document with a line \"---\", the YAML keys id, type and dependencies, and a closing \"---\" line")
	}
	var fm frontMatter
	if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "the front matter of task %s is not a YAML mapping: %v", taskID, err).
			With("field", "front matter").With("task", taskID)
	}
	t := &Task{Body: body, Dependencies: []string{}}
	var err error
	if t.ID, err = scalar(fm.ID, "id", true); err != nil {
		return nil, err
	}
	if t.ID != taskID {
		return nil, definitions.NewError(definitions.ValidationError, "front matter id %q differs from the task id %q", t.ID, taskID).
			With("field", "id").With("task", taskID).Hint("make the front matter's id equal the taskId")
	}
	if t.Type, err = scalar(fm.Type, "type", true); err != nil {
		return nil, err
	}
	if !slices.Contains(taskTypes, t.Type) {
		return nil, definitions.NewError(definitions.ValidationError, "invalid type %q of task %s", t.Type, taskID).
			With("field", "type").With("allowed", taskTypes)
	}
	if t.Title, err = scalar(fm.Title, "title", false); err != nil {
		return nil, err
	}
	if t.Tests, err = scalar(fm.Tests, "tests", false); err != nil {
		return nil, err
	}
	status, err := scalar(fm.Status, "status", false)
	if err != nil {
		return nil, err
	}
	if status != "" && Status(status) != Pending {
		return nil, definitions.NewError(definitions.ValidationError, "a new task's status must be PENDING, not %q", status).
			With("field", "status").Hint("omit status: the store keeps it (mark_task_status)")
	}
	if t.Dependencies, err = dependencies(taskID, fm.Dependencies); err != nil {
		return nil, err
	}
	return t, nil
}

// scalar returns the text of a scalar node; a missing or null node is "" (an error when
// need), any other kind an error naming field.
func scalar(n yaml.Node, field string, need bool) (string, error) {
	switch {
	case n.Kind == 0 || n.Tag == "!!null":
		if need {
			return "", definitions.NewError(definitions.ValidationError, "front matter field %s is required", field).With("field", field)
		}
		return "", nil
	case n.Kind != yaml.ScalarNode:
		return "", definitions.NewError(definitions.ValidationError, "front matter field %s must be a scalar", field).With("field", field)
	}
	return n.Value, nil
}

// dependencies returns the task ids of the dependencies node: a list of distinct valid
// ids other than taskID; missing or null is no dependency.
func dependencies(taskID string, n yaml.Node) ([]string, error) {
	deps := []string{}
	if n.Kind == 0 || n.Tag == "!!null" {
		return deps, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, definitions.NewError(definitions.ValidationError, "front matter field dependencies must be a list of task ids").
			With("field", "dependencies")
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return nil, definitions.NewError(definitions.ValidationError, "front matter field dependencies must be a list of task ids").
				With("field", "dependencies")
		}
		if err := checkTaskID("dependencies", c.Value); err != nil {
			return nil, err
		}
		if c.Value == taskID || slices.Contains(deps, c.Value) {
			return nil, definitions.NewError(definitions.ValidationError, "task %s lists dependency %s twice or depends on itself", taskID, c.Value).
				With("field", "dependencies").With("dependency", c.Value)
		}
		deps = append(deps, c.Value)
	}
	return deps, nil
}
