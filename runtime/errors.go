package runtime

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Kind classifies a failed Call.
type Kind string

// The kinds of failure of a Call.
const (
	KindSyntax    Kind = "syntax"    // the source does not compile, or is over MaxSourceBytes
	KindRuntime   Kind = "runtime"   // the snippet raised an error (error(), a bad operation, a bridge error raised)
	KindTimeout   Kind = "timeout"   // the snippet's Lua time passed its limit (Limits.Timeout, or WithTimeout's)
	KindCancelled Kind = "cancelled" // the caller's context ended (its deadline, a cancel, Abort)
	KindBudget    Kind = "budget"    // the instruction budget was used up
	KindMemory    Kind = "memory"    // the call would have allocated more than its MaxMemory
	KindLimit     Kind = "limit"     // a capped builtin or conversion refused (string size, depth, cycles, ...)
	KindInternal  Kind = "internal"  // a Go panic was recovered; the VM was discarded
)

// Error is the error of a failed Call, and of ToGo.
type Error struct {
	Kind    Kind
	Message string // short, no Go stack traces, at most 4 KiB
	Value   any    // the raised Lua value converted to Go (nil if none), e.g. a bridge error table
}

// Error returns the kind and the message.
func (e *Error) Error() string { return string(e.Kind) + ": " + e.Message }

// Causes of a call's cancellation, told apart with context.Cause.
var (
	errTimeout = errors.New("deadline exceeded")
	errBudget  = errors.New("instruction budget exhausted")
	errMemory  = errors.New("memory budget used up")
)

// newError builds an *Error whose message is formatted and truncated.
func newError(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: truncate(fmt.Sprintf(format, args...))}
}

// truncate cuts s to maxMessageBytes on a UTF-8 boundary and says so.
func truncate(s string) string {
	if len(s) <= maxMessageBytes {
		return s
	}
	const mark = " ...(truncated)"
	cut := maxMessageBytes - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
