package store

import (
	"slices"

	"github.com/jido-run/jido/tools/definitions"
)

// Status is the state of a task in the state machine of seed 002 §8.5.
type Status string

// The task states.
const (
	Pending    Status = "PENDING"     // waiting for its dependencies or for the executor
	Running    Status = "RUNNING"     // an agent works on the current attempt
	Done       Status = "DONE"        // the attempt finished; its branch awaits the Refinery
	MergeReady Status = "MERGE_READY" // the Refinery verified the branch
	Merged     Status = "MERGED"      // merged; final
	Failed     Status = "FAILED"      // the attempt failed; may be retried
	Stale      Status = "STALE"       // a change request made the task obsolete
)

// transitions lists the allowed next states of each state: the happy path, failure and
// retry, and STALE from anything not yet merged (and back to PENDING once re-planned).
var transitions = map[Status][]Status{
	Pending:    {Running, Stale},
	Running:    {Done, Failed, Stale},
	Done:       {MergeReady, Stale},
	MergeReady: {Merged, Stale},
	Merged:     nil,
	Failed:     {Pending, Stale},
	Stale:      {Pending},
}

// Statuses returns every state, in the order of the happy path then the others.
func Statuses() []Status {
	return []Status{Pending, Running, Done, MergeReady, Merged, Failed, Stale}
}

// Next returns the states s may go to (none for MERGED or an unknown state).
func (s Status) Next() []Status { return slices.Clone(transitions[s]) }

// CanGo reports whether the state machine allows s -> to.
func (s Status) CanGo(to Status) bool { return slices.Contains(transitions[s], to) }

// satisfied reports whether a dependency in state s lets its dependents start: its work
// exists on a branch (DONE), was verified (MERGE_READY) or merged (MERGED).
func (s Status) satisfied() bool { return s == Done || s == MergeReady || s == Merged }

// checkStatus validates a state given by a caller.
func checkStatus(field string, s Status) error {
	if _, ok := transitions[s]; ok {
		return nil
	}
	return definitions.NewError(definitions.ValidationError, "invalid %s %q", field, s).
		With("field", field).With("allowed", Statuses())
}

// transitionError is the ConflictError of a transition the state machine forbids.
func transitionError(task string, from, to Status) error {
	return definitions.NewError(definitions.ConflictError, "task %s cannot go from %s to %s", task, from, to).
		With("task", task).With("from", from).With("to", to).With("allowed", from.Next()).
		Hint("allowed next states are listed in details.allowed")
}
