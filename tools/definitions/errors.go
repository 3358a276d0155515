package definitions

import (
	"fmt"
	"strings"
)

// Error types of a ToolResult: a closed set that models and clients switch on.
const (
	ValidationError = "validation-error" // the call itself is wrong: unknown tool, bad or missing argument
	FileError       = "file-error"       // the file system said no: missing file, directory, too large, binary
	ProcessError    = "process-error"    // a process could not run or failed
	PermissionError = "permission-error" // denied by policy (outside the root, secret, protected) or by the user
	ConflictError   = "conflict-error"   // stale file, text not found or ambiguous, target exists
	TimeoutError    = "timeout-error"    // a deadline or budget ran out
	NetworkError    = "network-error"    // a remote host could not be reached or answered wrongly
	InternalError   = "internal-error"   // a bug in jido; the session survives
	// LuaError is an error raised by a snippet of `jido eval` that is none of the above:
	// the script's own error() or a sandbox limit it hit. It extends the closed set because
	// a script's failure is neither the model's call being invalid nor a host failure.
	LuaError = "lua-error"
	// WorkerError is a call whose Lua worker process (the "worker" isolation mode) died
	// under it or could not start: killed, over its memory ceiling, a fatal Go error. It
	// extends the closed set because it is none of the above: not the call's fault nor a
	// bug of the tool, and the session's state (in the host) is intact, so the same call
	// may simply be retried; the next call starts a new worker.
	WorkerError = "worker-error"
)

// ToolError is the structured error of a tool result: what was wrong and how to recover.
type ToolError struct {
	Type     string         `json:"type"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details,omitempty"`
	Recovery []string       `json:"recovery,omitempty"`
}

// Error makes ToolError an error.
func (e *ToolError) Error() string { return e.Type + ": " + e.Message }

// NewError builds a ToolError with a formatted message.
func NewError(typ string, format string, args ...any) *ToolError {
	return &ToolError{Type: typ, Message: fmt.Sprintf(format, args...)}
}

// With adds a detail and returns the error, for chaining.
func (e *ToolError) With(key string, value any) *ToolError {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Hint adds recovery hints and returns the error, for chaining.
func (e *ToolError) Hint(hints ...string) *ToolError {
	e.Recovery = append(e.Recovery, hints...)
	return e
}

// ErrorFromValue rebuilds a ToolError from its decoded form (a map with type, message,
// details, recovery), as it comes back from a Lua snippet or through JSON; a *ToolError is
// returned as is. ok is false when v is neither.
func ErrorFromValue(v any) (*ToolError, bool) {
	if e, isErr := v.(*ToolError); isErr && e != nil {
		return e, true
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, false
	}
	typ, _ := m["type"].(string)
	msg, _ := m["message"].(string)
	if typ == "" || msg == "" {
		return nil, false
	}
	e := &ToolError{Type: typ, Message: msg}
	if d, isMap := m["details"].(map[string]any); isMap && len(d) > 0 {
		e.Details = d
	}
	if r, isList := m["recovery"].([]any); isList {
		for _, h := range r {
			if s, isString := h.(string); isString {
				e.Recovery = append(e.Recovery, s)
			}
		}
	}
	return e, true
}

// IsKnownType reports whether typ is one of the error types above.
func IsKnownType(typ string) bool {
	switch typ {
	case ValidationError, FileError, ProcessError, PermissionError, ConflictError, TimeoutError, NetworkError, InternalError, LuaError, WorkerError:
		return true
	}
	return false
}

// quoteList renders names as `a`, `b` for messages.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}
