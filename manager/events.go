package manager

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Event is one NDJSON line of the event log.
type Event struct {
	TS         time.Time `json:"ts"`
	Event      string    `json:"event"` // session.open, tool.call, approval.request, approval.decision, tool.result, session.close
	Session    string    `json:"session"`
	CallID     string    `json:"call_id,omitempty"`
	Tool       string    `json:"tool,omitempty"`
	OK         *bool     `json:"ok,omitempty"`
	ErrorType  string    `json:"error_type,omitempty"`
	DurationMS *float64  `json:"duration_ms,omitempty"`
	Reason     string    `json:"reason,omitempty"`   // approval.request: why the policy asks
	Command    string    `json:"command,omitempty"`  // approval.request of a command: it, with its cwd, env and stdin
	Decision   string    `json:"decision,omitempty"` // approval.decision: allow-once, allow-session, allow-always, deny
	By         string    `json:"by,omitempty"`       // approval.decision: user, yes (--yes), none (headless refusal)
}

// eventLog writes events as NDJSON, one line per event, safe for concurrent sessions.
type eventLog struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newEventLog(w io.Writer) *eventLog {
	if w == nil {
		return nil
	}
	return &eventLog{enc: json.NewEncoder(w)}
}

// emit writes e; a nil log discards it. A failing writer does not fail the tool call.
func (l *eventLog) emit(e Event) {
	if l == nil {
		return
	}
	e.TS = time.Now().UTC()
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.enc.Encode(e)
}

// durationMS converts d to milliseconds for an event.
func durationMS(d time.Duration) *float64 {
	ms := float64(d.Microseconds()) / 1000
	return &ms
}
