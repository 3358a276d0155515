package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// Event types the store itself writes and replays into state.json.
const (
	EventTaskStatus  = "task.status"  // a transition: Task, From, To, Attempt, and to FAILED its Reason
	EventTaskAttempt = "task.attempt" // a new attempt started: Task, Attempt
	EventRunHalted   = "run.halted"   // a change request halted the run: CR
)

// eventsFile is the name of the run's event log inside its directory.
const eventsFile = "events.ndjson"

// Event is one line of events.ndjson.
type Event struct {
	Time    time.Time      `json:"time"` // RFC 3339 with nanoseconds
	Type    string         `json:"type"`
	Task    string         `json:"task,omitempty"`
	From    Status         `json:"from,omitempty"`
	To      Status         `json:"to,omitempty"`
	Attempt int            `json:"attempt,omitempty"`
	CR      string         `json:"cr,omitempty"`
	Reason  string         `json:"reason,omitempty"` // why a task moved to FAILED
	Data    map[string]any `json:"data,omitempty"`   // free payload of other Forge components
}

// AppendEvent appends e to the run's event log, for other Forge components (agent tool
// calls and results). Time defaults to now. The store's own types are refused: they
// change the task states, which only MarkStatus, NextAttempt and EmitCR may do.
func (r *Run) AppendEvent(e Event) error {
	if e.Type == "" {
		return required("type")
	}
	if slices.Contains([]string{EventTaskStatus, EventTaskAttempt, EventRunHalted}, e.Type) {
		return definitions.NewError(definitions.ValidationError, "event type %s is written by the store itself", e.Type).
			With("field", "type").Hint("use MarkStatus, NextAttempt or EmitCR")
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.appendEvent(e)
	return err
}

// Events reads the run's event log back, oldest first; no log means no events.
func (r *Run) Events() ([]Event, error) {
	data, err := r.readEvents()
	if err != nil {
		return nil, err
	}
	return parseEvents(data, r.path(eventsFile))
}

// appendEvent adds one line to events.ndjson and returns the number of lines it then
// holds; the caller holds r.mu. The log is rewritten whole through Root.WriteFile rather
// than opened with O_APPEND: every access stays inside security.Root (a host-path open
// would reopen the symlink races the Root closes) and a crash leaves the old or the new
// log, never a torn line. The cost is a copy of the log per event, bounded by the Root's
// file size cap; a run holds hundreds of events, not millions.
func (r *Run) appendEvent(e Event) (int, error) {
	line, err := json.Marshal(e)
	if err != nil {
		return 0, definitions.NewError(definitions.ValidationError, "event is not encodable: %v", err).With("field", "data")
	}
	data, err := r.readEvents()
	if err != nil {
		return 0, err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(append(data, line...), '\n')
	rel := r.path(eventsFile)
	if _, _, err := r.root.WriteFile(rel, data, security.WriteOptions{}); err != nil {
		return 0, ioError(err, "the event log", rel, "")
	}
	return bytes.Count(data, []byte{'\n'}), nil
}

// readEvents returns the raw event log; a missing log is empty.
func (r *Run) readEvents() ([]byte, error) {
	rel := r.path(eventsFile)
	f, err := r.root.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(err, "the event log", rel, "")
	}
	return f.Data, nil
}

// parseEvents decodes NDJSON; a line that is not an event is a FileError naming it.
func parseEvents(data []byte, rel string) ([]Event, error) {
	var events []Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, definitions.NewError(definitions.FileError, "the event log is damaged at line %d: %v", n, err).
				With("path", rel).With("line", n)
		}
		events = append(events, e)
	}
	return events, nil
}
