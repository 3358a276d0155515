package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// dagFile is the name of the run's DAG inside its directory.
const dagFile = "dag.json"

// DAG is the content of dag.json, the one accepted shape:
//
//	{"tasks": [{"id": "A", "dependencies": []}, {"id": "C", "dependencies": ["A", "B"]}]}
//
// Every task must have a task file whose front matter lists the same dependencies (in
// any order): the front matter and the DAG must agree, so neither silently wins.
type DAG struct {
	Tasks []DAGTask `json:"tasks"`
}

// DAGTask is one node of the DAG and the tasks it depends on.
type DAGTask struct {
	ID           string   `json:"id"`
	Dependencies []string `json:"dependencies"`
}

// SetDAG validates dag (a *DAG, a DAG, or its JSON form decoded as map[string]any) and
// writes it to dag.json, returning that root-relative path. Checked: the shape (unknown
// keys are errors), valid distinct task ids, dependencies that are tasks of the DAG,
// no cycle (reported as its path, "A -> B -> A"), a task file for every task, and the
// agreement of each task's dependencies with its front matter.
func (r *Run) SetDAG(dag any) (string, error) {
	d, err := decodeDAG(dag)
	if err != nil {
		return "", err
	}
	if err := d.check(); err != nil {
		return "", err
	}
	for _, t := range d.Tasks {
		task, err := r.Task(t.ID)
		if err != nil {
			return "", err
		}
		if !sameSet(task.Dependencies, t.Dependencies) {
			return "", definitions.NewError(definitions.ValidationError, "the DAG gives task %s the dependencies %v, its front matter %v", t.ID, t.Dependencies, task.Dependencies).
				With("field", "dependencies").With("task", t.ID).
				Hint("make the DAG and the task's front matter list the same dependencies")
		}
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return "", definitions.NewError(definitions.InternalError, "encode the DAG: %v", err)
	}
	rel := r.path(dagFile)
	canonical, _, err := r.root.WriteFile(rel, append(data, '\n'), security.WriteOptions{})
	if err != nil {
		return "", ioError(err, "the DAG", rel, "")
	}
	return canonical, nil
}

// ReadDAG returns the run's DAG, checked again as SetDAG does (but for the task files),
// so that Order and Ready can rely on it.
func (r *Run) ReadDAG() (*DAG, error) {
	rel := r.path(dagFile)
	f, err := r.root.ReadFile(rel)
	if err != nil {
		return nil, ioError(err, "the DAG", rel, "write it with set_dag")
	}
	d, err := decodeDAG(json.RawMessage(f.Data))
	if err != nil {
		return nil, err
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	return d, nil
}

// decodeDAG turns v into a DAG through its JSON form, strictly: unknown keys and wrong
// types are ValidationErrors. Missing dependency lists become empty ones.
func decodeDAG(v any) (*DAG, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "the DAG is not JSON: %v", err).With("field", "dag")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var d DAG
	if err := dec.Decode(&d); err != nil {
		return nil, definitions.NewError(definitions.ValidationError, "the DAG does not have the shape {\"tasks\": [{\"id\": ..., \"dependencies\": [...]}]}: %v", err).
			With("field", "dag")
	}
	for i := range d.Tasks {
		if d.Tasks[i].Dependencies == nil {
			d.Tasks[i].Dependencies = []string{}
		}
	}
	return &d, nil
}

// check validates the graph itself: tasks present, ids valid and distinct, dependencies
// known and listed once, no cycle.
func (d *DAG) check() error {
	if len(d.Tasks) == 0 {
		return definitions.NewError(definitions.ValidationError, "the DAG has no tasks").With("field", "tasks")
	}
	known := map[string]bool{}
	for i, t := range d.Tasks {
		if err := checkTaskID(fmt.Sprintf("tasks[%d].id", i), t.ID); err != nil {
			return err
		}
		if known[t.ID] {
			return definitions.NewError(definitions.ValidationError, "task %s appears twice in the DAG", t.ID).
				With("field", "tasks").With("task", t.ID)
		}
		known[t.ID] = true
	}
	for _, t := range d.Tasks {
		for j, dep := range t.Dependencies {
			if !known[dep] {
				return definitions.NewError(definitions.ValidationError, "task %s depends on %q, which is not a task of the DAG", t.ID, dep).
					With("field", "dependencies").With("task", t.ID).With("dependency", dep).
					Hint("add the task to the DAG or remove the dependency")
			}
			if slices.Contains(t.Dependencies[:j], dep) {
				return definitions.NewError(definitions.ValidationError, "task %s lists dependency %s twice", t.ID, dep).
					With("field", "dependencies").With("task", t.ID)
			}
		}
	}
	if cycle := d.cycle(); cycle != nil {
		path := strings.Join(cycle, " -> ")
		return definitions.NewError(definitions.ValidationError, "the DAG has a cycle: %s", path).
			With("field", "dependencies").With("cycle", cycle).Hint("remove one dependency of the cycle")
	}
	return nil
}

// cycle returns a dependency cycle as a path whose first and last ids are the same
// (A depends on B depends on A: [A B A]), or nil; a depth-first search in DAG order.
func (d *DAG) cycle() []string {
	deps := d.deps()
	const (
		unseen = iota
		open   // on the current search path
		closed // fully explored, on no cycle
	)
	mark := map[string]int{}
	var path []string
	var visit func(id string) []string
	visit = func(id string) []string {
		mark[id] = open
		path = append(path, id)
		for _, dep := range deps[id] {
			switch mark[dep] {
			case open:
				start := slices.Index(path, dep)
				return append(slices.Clone(path[start:]), dep)
			case unseen:
				if c := visit(dep); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		mark[id] = closed
		return nil
	}
	for _, t := range d.Tasks {
		if mark[t.ID] == unseen {
			if c := visit(t.ID); c != nil {
				return c
			}
		}
	}
	return nil
}

// deps maps each task id to its dependencies.
func (d *DAG) deps() map[string][]string {
	m := make(map[string][]string, len(d.Tasks))
	for _, t := range d.Tasks {
		m[t.ID] = t.Dependencies
	}
	return m
}

// Order returns the task ids in a topological order (every task after its
// dependencies), keeping the DAG's listing order where the dependencies allow. A cyclic
// DAG (never one SetDAG or ReadDAG returns) leaves the tasks on the cycle out.
func (d *DAG) Order() []string {
	deps := d.deps()
	placed := map[string]bool{}
	var order []string
	for progress := true; progress; {
		progress = false
		for _, t := range d.Tasks {
			if !placed[t.ID] && allOf(deps[t.ID], func(dep string) bool { return placed[dep] }) {
				placed[t.ID] = true
				order = append(order, t.ID)
				progress = true
				break // restart, so that earlier-listed tasks go first
			}
		}
	}
	return order
}

// Ready returns, in Order, the tasks that may start: PENDING (a task absent from states
// is PENDING) with every dependency DONE, MERGE_READY or MERGED, since a dependent
// branch merges the branches of its dependencies (prepare_branch) and needs only their
// work to exist.
func (d *DAG) Ready(states map[string]Status) []string {
	status := func(id string) Status {
		if s, ok := states[id]; ok {
			return s
		}
		return Pending
	}
	deps := d.deps()
	var ready []string
	for _, id := range d.Order() {
		if status(id) == Pending && allOf(deps[id], func(dep string) bool { return status(dep).satisfied() }) {
			ready = append(ready, id)
		}
	}
	return ready
}

// allOf reports whether ok holds for every id.
func allOf(ids []string, ok func(string) bool) bool {
	for _, id := range ids {
		if !ok(id) {
			return false
		}
	}
	return true
}

// sameSet reports whether a and b hold the same ids, in any order (neither repeats one).
func sameSet(a, b []string) bool {
	return len(a) == len(b) && allOf(a, func(id string) bool { return slices.Contains(b, id) })
}
