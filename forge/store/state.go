package store

import (
	"encoding/json"
	"errors"
	"io/fs"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// stateFile is the name of the run's state snapshot inside its directory.
const stateFile = "state.json"

// runState is the content of state.json: what the first Events lines of events.ndjson
// add up to.
type runState struct {
	Events int                  `json:"events"` // lines of events.ndjson this snapshot includes
	Halted bool                 `json:"halted"`
	CR     string               `json:"cr,omitempty"` // the change request that halted the run
	Tasks  map[string]taskState `json:"tasks"`        // tasks never transitioned are absent (PENDING, attempt 0)
}

// taskState is one task's entry in runState.
type taskState struct {
	Status  Status `json:"status"`
	Attempt int    `json:"attempt"`
	Reason  string `json:"reason,omitempty"` // why the task is FAILED; "" in any other state
}

// newRunState returns the state of a run without events.
func newRunState() runState { return runState{Tasks: map[string]taskState{}} }

// apply replays one event; events of other components change nothing. Every event
// carries absolute values, so applying one twice is harmless.
func (s *runState) apply(e Event) {
	t, ok := s.Tasks[e.Task]
	if !ok {
		t.Status = Pending
	}
	switch e.Type {
	case EventTaskStatus:
		t.Status, t.Reason = e.To, ""
		if e.To == Failed {
			t.Reason = e.Reason
		}
		t.Attempt = max(t.Attempt, e.Attempt)
	case EventTaskAttempt:
		t.Attempt = e.Attempt
	case EventRunHalted:
		s.Halted, s.CR = true, e.CR
		return
	default:
		return
	}
	s.Tasks[e.Task] = t
}

// task returns the state of id (PENDING, attempt 0 when it never moved).
func (s *runState) task(id string) taskState {
	if t, ok := s.Tasks[id]; ok {
		return t
	}
	return taskState{Status: Pending}
}

// reload reads state.json and replays the events it has not seen; a missing or damaged
// snapshot is rebuilt from all events. The snapshot is rewritten when replay changed it.
// The caller holds r.mu.
func (r *Run) reload() error {
	st, err := r.loadState()
	if err != nil {
		return err
	}
	data, err := r.readEvents()
	if err != nil {
		return err
	}
	events, err := parseEvents(data, r.path(eventsFile))
	if err != nil {
		return err
	}
	r.state = st
	if len(events) <= st.Events {
		return nil
	}
	for _, e := range events[st.Events:] {
		r.state.apply(e)
	}
	r.state.Events = len(events)
	return r.saveState()
}

// loadState reads state.json; missing, not JSON or without a task map, it is the empty
// state, to be rebuilt from the events.
func (r *Run) loadState() (runState, error) {
	rel := r.path(stateFile)
	f, err := r.root.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return newRunState(), nil
	}
	if err != nil {
		return runState{}, ioError(err, "the run state", rel, "")
	}
	var st runState
	if json.Unmarshal(f.Data, &st) != nil || st.Tasks == nil {
		return newRunState(), nil
	}
	return st, nil
}

// saveState writes r.state to state.json atomically; the caller holds r.mu (or owns r).
func (r *Run) saveState() error {
	data, err := json.MarshalIndent(r.state, "", "  ")
	if err != nil {
		return definitions.NewError(definitions.InternalError, "encode the run state: %v", err)
	}
	rel := r.path(stateFile)
	if _, _, err := r.root.WriteFile(rel, append(data, '\n'), security.WriteOptions{}); err != nil {
		return ioError(err, "the run state", rel, "")
	}
	return nil
}

// record appends e to the log, then applies it and saves the snapshot: the order that
// lets Open repair a crash between the two writes. The caller holds r.mu.
func (r *Run) record(e Event) error {
	e.Time = time.Now()
	n, err := r.appendEvent(e)
	if err != nil {
		return err
	}
	r.state.apply(e)
	r.state.Events = n
	return r.saveState()
}

// MarkStatus moves task taskID to state to and returns the state it left. The task must
// exist and the state machine allow the transition (else a ConflictError naming the
// allowed next states); a halted run starts no task (no PENDING -> RUNNING).
func (r *Run) MarkStatus(taskID string, to Status) (Status, error) {
	return r.mark(taskID, to, "")
}

// Fail moves task taskID to FAILED, as MarkStatus does, recording why (Reason tells it
// until the task moves on).
func (r *Run) Fail(taskID, reason string) (Status, error) {
	return r.mark(taskID, Failed, reason)
}

// mark is MarkStatus with the reason of a move to FAILED.
func (r *Run) mark(taskID string, to Status, reason string) (Status, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if err := checkStatus("status", to); err != nil {
		return "", err
	}
	if err := r.taskExists(taskID); err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := r.state.task(taskID)
	if !cur.Status.CanGo(to) {
		return cur.Status, transitionError(taskID, cur.Status, to)
	}
	if to == Running && r.state.Halted {
		return cur.Status, definitions.NewError(definitions.ConflictError, "the run is halted by change request %s: no task starts", r.state.CR).
			With("task", taskID).With("cr", r.state.CR).Hint("wait for the plan to be revised")
	}
	e := Event{Type: EventTaskStatus, Task: taskID, From: cur.Status, To: to, Attempt: cur.Attempt, Reason: reason}
	if err := r.record(e); err != nil {
		return cur.Status, err
	}
	return cur.Status, nil
}

// Status returns the state of task taskID (PENDING until it first moves).
func (r *Run) Status(taskID string) (Status, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if err := r.taskExists(taskID); err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.task(taskID).Status, nil
}

// States returns the state of every task of the run: each task file, PENDING until it
// first moves, and each task that has a recorded state.
func (r *Run) States() (map[string]Status, error) {
	ids, err := r.taskIDs()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]Status, len(ids)+len(r.state.Tasks))
	for _, id := range ids {
		out[id] = Pending
	}
	for id, t := range r.state.Tasks {
		out[id] = t.Status
	}
	return out, nil
}

// NextAttempt starts a new attempt of task taskID and returns its number (1, 2, ...),
// recorded as a task.attempt event. The executor calls it before prepare_branch, whose
// branch forge/<taskId>/<attempt> and walkthrough directory it names.
func (r *Run) NextAttempt(taskID string) (int, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return 0, err
	}
	if err := r.taskExists(taskID); err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.state.task(taskID).Attempt + 1
	if err := r.record(Event{Type: EventTaskAttempt, Task: taskID, Attempt: n}); err != nil {
		return 0, err
	}
	return n, nil
}

// Attempt returns the current attempt of task taskID, 0 before the first.
func (r *Run) Attempt(taskID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.task(taskID).Attempt
}

// Reason returns why task taskID is FAILED (as Fail recorded it); "" when it is not, or
// when nobody said.
func (r *Run) Reason(taskID string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.task(taskID).Reason
}

// Halted reports whether a change request halted the run. Unlike the other accessors it
// rereads the run's files, so that a CR emitted through another process's Run (the
// Refinery's) is seen by the executor's.
func (r *Run) Halted() (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.reload(); err != nil {
		return false, err
	}
	return r.state.Halted, nil
}
