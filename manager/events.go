package manager

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/jido-run/jido/jsoncap"
	"github.com/jido-run/jido/tools/definitions"
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
	// Parent is, for a call a snippet or a user's Lua tool made, the call (or eval) it was
	// made in; its own CallID is the parent's with a sequence number: call-3.1.
	Parent string `json:"parent,omitempty"`
	// Args (tool.call) and Result or Error (tool.result): redacted, and capped to
	// maxEventValue bytes of JSON of the same shape.
	Args   json.RawMessage        `json:"args,omitempty"`
	Result json.RawMessage        `json:"result,omitempty"`
	Error  *definitions.ToolError `json:"error,omitempty"`
}

// maxEventValue caps the JSON of an event's arguments or result: the log records what a
// call was and did, the whole value went to the caller.
const maxEventValue = 8 << 10

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

// logging reports whether the session's events go anywhere: only then are arguments and
// results encoded for them.
func (s *Session) logging() bool { return s.m.events != nil || s.events != nil }

// eventValue is v as an event carries it: JSON, secrets redacted, capped (see jsoncap).
func (s *Session) eventValue(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil || string(data) == "null" {
		return nil
	}
	data, _ = s.p.redactor().Bytes(data)
	capped, _ := jsoncap.Cap(data, maxEventValue)
	return capped
}

// callEvents emits the tool.call event of a call of tool with args and returns what emits
// its tool.result.
func (s *Session) callEvents(id, parent, tool string, args any) func(result any, terr *definitions.ToolError) {
	start := time.Now()
	s.emit(Event{Event: "tool.call", Session: s.id, CallID: id, Parent: parent, Tool: tool, Args: s.eventValue(args)})
	return func(result any, terr *definitions.ToolError) {
		ok := terr == nil
		ev := Event{Event: "tool.result", Session: s.id, CallID: id, Parent: parent, Tool: tool, OK: &ok, DurationMS: durationMS(time.Since(start))}
		if ok {
			ev.Result = s.eventValue(result)
		} else {
			ev.ErrorType, ev.Error = terr.Type, terr
		}
		s.emit(ev)
	}
}

// observe is the bridge's Observe: the events of a call made inside the running call or
// eval, except the running call's own first call of its tool (the call itself, which Call
// reports).
func (s *Session) observe(tool string, args map[string]any) func(any, *definitions.ToolError) {
	if !s.logging() {
		return nil
	}
	if s.ownCall == tool {
		s.ownCall = "" // the snippet of a call reaches its tool once, first
		return nil
	}
	s.nested++
	id, parent := s.callID+"."+strconv.Itoa(s.nested), s.callID
	if n := len(s.inside); n > 0 {
		parent = s.inside[n-1] // a call made by a user's Lua tool
	}
	s.inside = append(s.inside, id)
	emitResult := s.callEvents(id, parent, tool, args)
	return func(result any, terr *definitions.ToolError) {
		s.inside = s.inside[:len(s.inside)-1]
		emitResult(result, terr)
	}
}
