package forge

import (
	"cmp"
	"encoding/json"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/jido-run/jido/forge/gitops"
	"github.com/jido-run/jido/forge/store"
)

// Status is a run's state as jido forge status shows it.
type Status struct {
	Run    string       `json:"run"`
	Halted bool         `json:"halted"`
	Failed bool         `json:"failed"` // a task failed its last attempt
	Tasks  []TaskStatus `json:"tasks"`
}

// TaskStatus is one task's line of Status.
type TaskStatus struct {
	ID           string       `json:"id"`
	Type         string       `json:"type"`
	Title        string       `json:"title,omitempty"`
	Dependencies []string     `json:"dependencies"`
	Status       store.Status `json:"status"`
	Attempt      int          `json:"attempt"`
	Branch       string       `json:"branch,omitempty"` // its current attempt's
	Why          string       `json:"why,omitempty"`    // why it is FAILED
}

// Status returns the run's tasks (in the DAG's order when there is one) and states.
func (f *Forge) Status() (*Status, error) {
	tasks, err := f.run.Tasks()
	if err != nil {
		return nil, err
	}
	if dag, err := f.run.ReadDAG(); err == nil {
		order := dag.Order()
		slices.SortStableFunc(tasks, func(a, b *store.Task) int { return slices.Index(order, a.ID) - slices.Index(order, b.ID) })
	}
	states, err := f.run.States()
	if err != nil {
		return nil, err
	}
	halted, err := f.run.Halted()
	if err != nil {
		return nil, err
	}
	out := &Status{Run: f.run.ID(), Halted: halted, Failed: len(f.failed(states)) > 0, Tasks: []TaskStatus{}}
	for _, t := range tasks {
		ts := TaskStatus{ID: t.ID, Type: t.Type, Title: t.Title, Dependencies: t.Dependencies, Status: cmp.Or(states[t.ID], store.Pending),
			Attempt: f.run.Attempt(t.ID), Why: f.run.Reason(t.ID)}
		if ts.Attempt > 0 {
			ts.Branch, _ = gitops.BranchName(t.ID, ts.Attempt)
		}
		out.Tasks = append(out.Tasks, ts)
	}
	return out, nil
}

// WriteEvents writes the run's events as NDJSON: its state changes, then the events of
// its agents' sessions (tool calls and results), one process's log after another.
func (f *Forge) WriteEvents(w io.Writer) error {
	events, err := f.run.Events()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	dir := path.Join("artifacts", f.run.ID())
	entries, err := f.root.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), ".agents-") || !strings.HasSuffix(e.Name(), ".ndjson") {
			continue
		}
		file, err := f.root.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		if _, err := w.Write(file.Data); err != nil {
			return err
		}
	}
	return nil
}
