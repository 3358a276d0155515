// Package agent is the conversation loop of jido chat and jido ask: it sends the
// conversation and the session's tools to a Provider (Gemini, an OpenAI-compatible server,
// the text protocol for models without function calling, or the offline interpreter),
// runs the tool calls the model asks for through an Executor (a manager.Session, so the
// sandbox and the approval gate apply), returns their results to the model, and repeats
// until the model answers without calling a tool.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Role says who wrote a message.
type Role string

// Roles of a conversation.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// ToolCall is one call the model asks for.
type ToolCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
	// Meta is the call's own settings (seed 000's envelope): its working directory and
	// its timeout; the zero value takes the session's.
	Meta CallMeta `json:"meta,omitzero"`
	// Invalid, when set, says why the model's call could not be understood (arguments
	// that are not a JSON object, a malformed text-protocol block): the loop does not run
	// it and answers with a validation-error result carrying this text.
	Invalid string `json:"invalid,omitempty"`
	// Opaque is provider data that must go back to the provider verbatim with the call
	// (Gemini's thought signatures); nil for most providers.
	Opaque json.RawMessage `json:"opaque,omitempty"`
}

// CallMeta carries per-call settings of a ToolCall.
type CallMeta struct {
	// Timeout bounds the call, in seconds; 0: the session's default.
	Timeout float64 `json:"timeout,omitempty"`
	// Cwd is a directory inside the project root that the call's relative paths are
	// resolved against ("" or ".": the root).
	Cwd string `json:"cwd,omitempty"`
}

// ToolResult answers one ToolCall.
type ToolResult struct {
	CallID string `json:"call_id,omitempty"`
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	// Content is the tool's result object when OK, else its error object
	// {type, message, details, recovery}: JSON, as the model is shown it.
	Content json.RawMessage `json:"content"`
	// Note, when set, says the content was shortened to keep the conversation inside the
	// model's context, and what was dropped.
	Note string `json:"note,omitempty"`
	// Outcome says in a few words what the call did, for people ("212 lines", "+3 -1"),
	// when its executor knows; it is not shown to the model.
	Outcome string `json:"outcome,omitempty"`
}

// Message is one turn of the conversation: a user's text, or the results of the tools
// the assistant called (Role User); the assistant's text and calls (Role Assistant).
type Message struct {
	Role    Role         `json:"role"`
	Text    string       `json:"text,omitempty"`
	Calls   []ToolCall   `json:"calls,omitempty"`
	Results []ToolResult `json:"results,omitempty"`
	// Usage is what the request that produced an assistant's message cost, when the
	// provider reports it; nil otherwise. Providers ignore it in the history they send.
	Usage *Usage `json:"usage,omitempty"`
}

// Usage counts the tokens of model requests, as the provider reports them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"` // the reply's, thoughts included
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"` // a JSON Schema object
}

// Request is what a Provider is asked: the conversation so far and the tools on offer.
type Request struct {
	System   string
	Messages []Message
	Tools    []ToolSpec
}

// Provider is a model backend.
type Provider interface {
	// Name names the backend and model for people, e.g. "gemini (gemini-2.5-flash)".
	Name() string
	// Complete sends the request and returns the assistant's reply, passing its text to
	// onText piece by piece as it streams in (onText may be nil). Errors of the service
	// are *APIError, so that the loop can retry what is worth retrying.
	Complete(ctx context.Context, req Request, onText func(string)) (Message, error)
}

// Executor runs one tool call and returns its result; manager.Session is adapted to it.
// It must be safe to call from several goroutines (read-only calls may run in parallel).
type Executor interface {
	Execute(ctx context.Context, call ToolCall) ToolResult
}

// APIError is a failure of the model service.
type APIError struct {
	Provider   string
	Status     int           // HTTP status (429, 500, ...; 200 for a reply that is unusable); 0 when the service was not reached
	Message    string        // the service's own message
	RetryAfter time.Duration // what the service asked to wait, 0 if it did not say
	Hint       string        // what the user can do, e.g. "check GEMINI_API_KEY"
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Provider, e.Message)
	if e.Status >= 300 {
		msg = fmt.Sprintf("%s: HTTP %d: %s", e.Provider, e.Status, e.Message)
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// Retryable reports whether the request may succeed if sent again: rate limits, server
// errors, and a service that could not be reached or cut the connection (Status 0).
func (e *APIError) Retryable() bool {
	switch e.Status {
	case 501, 505: // not implemented, HTTP version not supported: the same answer every time
		return false
	}
	return e.Status == 0 || e.Status == 429 || e.Status >= 500
}

// EventKind names what an Event reports.
type EventKind string

// Kinds of Event.
const (
	EventText       EventKind = "text"        // a piece of the assistant's streamed text
	EventToolCall   EventKind = "tool_call"   // a call about to run
	EventToolResult EventKind = "tool_result" // its result
	EventRetry      EventKind = "retry"       // the provider failed and the request is sent again
	EventNotice     EventKind = "notice"      // something the user should know (context shortened, ...)
)

// Event is what the loop reports to the user interface as a turn progresses.
type Event struct {
	Kind   EventKind
	Text   string      // EventText, EventRetry, EventNotice
	Call   *ToolCall   // EventToolCall, EventToolResult
	Result *ToolResult // EventToolResult
}
