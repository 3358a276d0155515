package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jido-run/jido/tools/definitions"
)

// Defaults of the zero Agent and RetryPolicy.
const (
	defaultMaxSteps     = 40
	defaultContextChars = 400000
	defaultAttempts     = 4
	defaultBase         = time.Second
	defaultMax          = 30 * time.Second

	// keepChars is how much of an old tool result survives shortening.
	keepChars = 500
)

// ErrMaxSteps is returned (wrapped) by Send when the model was still calling tools after
// Agent.MaxSteps round trips. The history is consistent: another Send continues.
var ErrMaxSteps = errors.New("agent: too many steps")

// RetryPolicy bounds the retries of a failed model request (APIError.Retryable).
type RetryPolicy struct {
	Attempts int           // tries in all, the first included; 0: 4
	Base     time.Duration // wait before the second try, doubled for each further one; 0: 1s
	Max      time.Duration // longest wait; a longer Retry-After is not waited for; 0: 30s
}

// withDefaults fills in the zero fields.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Attempts <= 0 {
		p.Attempts = defaultAttempts
	}
	if p.Base <= 0 {
		p.Base = defaultBase
	}
	if p.Max <= 0 {
		p.Max = defaultMax
	}
	return p
}

// backoff is the wait after the given failed attempt (1-based): Base*2^(attempt-1) capped
// at Max, with jitter in its upper half so that clients that failed together spread out.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	d := p.Max
	if shift := attempt - 1; shift < 32 && p.Base<<shift > 0 && p.Base<<shift < p.Max {
		d = p.Base << shift
	}
	return d/2 + rand.N(d/2+1)
}

// Agent holds one conversation. It is not safe for concurrent use: one Send at a time.
type Agent struct {
	Provider Provider
	Exec     Executor
	Tools    []ToolSpec
	// ToolSource, when set, gives Tools afresh at the start of each Send: the session's
	// tools change when the user edits a Lua tool or the chat switches sessions.
	ToolSource   func() []ToolSpec
	System       string
	MaxSteps     int // model round trips per Send; 0: 40
	ContextChars int // budget of the conversation sent, in characters (bytes of UTF-8); 0: 400000
	Retry        RetryPolicy
	// OnEvent, when set, is told how the turn progresses, from Send's goroutine.
	OnEvent func(Event)

	history []Message
	usage   Usage // summed over the replies whose provider reported it
	asked   int   // model requests answered
	counted int   // of which reported their usage
}

// Usage is the tokens the agent's requests used so far (those whose provider reported
// them), the requests answered, and how many of them reported their usage.
func (a *Agent) Usage() (u Usage, requests, reported int) { return a.usage, a.asked, a.counted }

// Send adds the user's text to the conversation and runs the loop: ask the model, run the
// calls it makes, give it their results, until it answers without calls. It returns that
// answer. When the first request of the turn fails (or ctx is cancelled during it), the
// user's message is taken back so that the same text can be sent again; a later failure
// keeps what happened, every call answered, so that the next Send continues from there.
func (a *Agent) Send(ctx context.Context, text string) (string, error) {
	if a.ToolSource != nil {
		a.Tools = a.ToolSource()
	}
	a.history = append(a.history, Message{Role: User, Text: text})
	for step := range a.maxSteps() {
		a.fit()
		reply, err := a.complete(ctx)
		if err != nil {
			if step == 0 {
				a.history = a.history[:len(a.history)-1] // fit never drops the last message
			}
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", err
		}
		a.history = append(a.history, reply)
		if len(reply.Calls) == 0 {
			return reply.Text, nil
		}
		a.history = append(a.history, Message{Role: User, Results: a.run(ctx, reply.Calls)})
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	return "", fmt.Errorf("%w: the model was still calling tools after %d requests; send a message to let it continue", ErrMaxSteps, a.maxSteps())
}

// History returns a copy of the conversation, e.g. to save it.
func (a *Agent) History() []Message { return cloneMessages(a.history) }

// SetHistory replaces the conversation, e.g. with a saved one. A last assistant message
// whose calls were never answered (the session ended while they ran) gets results saying
// so, since providers refuse a call without its result.
func (a *Agent) SetHistory(h []Message) {
	a.history = cloneMessages(h)
	if n := len(a.history); n > 0 && a.history[n-1].Role == Assistant && len(a.history[n-1].Calls) > 0 {
		calls := a.history[n-1].Calls
		results := make([]ToolResult, len(calls))
		for i, c := range calls {
			results[i] = cancelledResult(c, context.Canceled)
		}
		a.history = append(a.history, Message{Role: User, Results: results})
	}
}

// Reset starts a new conversation.
func (a *Agent) Reset() { a.history = nil }

// compactPrompt asks the model for the summary that replaces the conversation (Compact).
const compactPrompt = `Summarise our conversation so far for your own later use: it will replace the conversation, so keep what is needed to continue the work. Say what I asked for, what was decided, the files read or changed (paths) and what they hold that matters, commands run and their outcome, and what is left to do. Be concise; use short sections or lists. Do not call any tool: answer with the summary only.`

// ErrNothingToCompact is returned by Compact for an empty conversation.
var ErrNothingToCompact = errors.New("agent: the conversation is empty")

// Compact replaces the conversation with a summary of it that the model writes: the
// history becomes the request for the summary and the model's answer. The summary
// streams to OnEvent like any text. On error the conversation is left as it was.
func (a *Agent) Compact(ctx context.Context) (string, error) {
	if len(a.history) == 0 {
		return "", ErrNothingToCompact
	}
	if a.ToolSource != nil {
		a.Tools = a.ToolSource()
	}
	saved := a.history
	ask := Message{Role: User, Text: compactPrompt}
	a.history = append(cloneMessages(saved), ask)
	a.fit()
	reply, err := a.complete(ctx)
	if err == nil && reply.Text == "" {
		err = errors.New("agent: the model wrote no summary")
	}
	if err != nil {
		a.history = saved
		return "", err
	}
	a.history = []Message{ask, {Role: Assistant, Text: reply.Text, Usage: reply.Usage}}
	return reply.Text, nil
}

// cloneMessages copies the messages and their call and result lists, which fit modifies.
func cloneMessages(h []Message) []Message {
	out := slices.Clone(h)
	for i := range out {
		out[i].Calls = slices.Clone(out[i].Calls)
		out[i].Results = slices.Clone(out[i].Results)
	}
	return out
}

func (a *Agent) maxSteps() int {
	if a.MaxSteps > 0 {
		return a.MaxSteps
	}
	return defaultMaxSteps
}

func (a *Agent) emit(e Event) {
	if a.OnEvent == nil {
		return
	}
	a.OnEvent(e)
}

// complete asks the model for the next reply, retrying what the provider says may succeed
// when nothing of the failed attempt reached the user yet.
func (a *Agent) complete(ctx context.Context) (Message, error) {
	policy := a.Retry.withDefaults()
	req := Request{System: a.System, Messages: slices.Clone(a.history), Tools: a.Tools}
	for attempt := 1; ; attempt++ {
		streamed := false
		reply, err := a.Provider.Complete(ctx, req, func(s string) {
			if s != "" {
				streamed = true
				a.emit(Event{Kind: EventText, Text: s})
			}
		})
		if err == nil {
			reply.Role = Assistant
			a.asked++
			if u := reply.Usage; u != nil {
				a.counted++
				a.usage.PromptTokens += u.PromptTokens
				a.usage.CompletionTokens += u.CompletionTokens
			}
			return reply, nil
		}
		var apiErr *APIError
		if ctx.Err() != nil || streamed || attempt >= policy.Attempts || !errors.As(err, &apiErr) || !apiErr.Retryable() {
			return Message{}, err
		}
		wait := policy.backoff(attempt)
		if apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > policy.Max {
				return Message{}, fmt.Errorf("%w; the service asked to wait %s, longer than the %s this client waits", err, apiErr.RetryAfter, policy.Max)
			}
			wait = apiErr.RetryAfter
		}
		a.emit(Event{Kind: EventRetry, Text: retryText(apiErr, wait, attempt+1, policy.Attempts)})
		if err := sleep(ctx, wait); err != nil {
			return Message{}, err
		}
	}
}

// retryText says why and when a request is sent again, e.g.
// "rate limited (HTTP 429); retrying in 2s (attempt 2 of 4)".
func retryText(e *APIError, wait time.Duration, next, attempts int) string {
	why := fmt.Sprintf("server error (HTTP %d)", e.Status)
	switch e.Status {
	case 0:
		why = "no answer from the service (" + e.Message + ")"
	case 429:
		why = "rate limited (HTTP 429)"
	}
	if wait >= time.Second {
		wait = wait.Round(100 * time.Millisecond)
	} else {
		wait = wait.Round(time.Millisecond)
	}
	return fmt.Sprintf("%s; retrying in %s (attempt %d of %d)", why, wait, next, attempts)
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run answers the calls one after another, in order. (A session runs its calls one at a
// time, and search and glob already use every core: four reads fanned out took as long
// as four in a row, BenchmarkTurnFourReads.)
func (a *Agent) run(ctx context.Context, calls []ToolCall) []ToolResult {
	results := make([]ToolResult, len(calls))
	for i, c := range calls {
		results[i] = a.runOne(ctx, c)
	}
	return results
}

// tool finds the offered tool a call names.
func (a *Agent) tool(name string) (ToolSpec, bool) {
	i := slices.IndexFunc(a.Tools, func(t ToolSpec) bool { return t.Name == name })
	if i < 0 {
		return ToolSpec{}, false
	}
	return a.Tools[i], true
}

// runOne answers one call: it runs it through the Executor if it is valid, names an
// offered tool and the turn was not cancelled; otherwise it says why it did not.
func (a *Agent) runOne(ctx context.Context, call ToolCall) ToolResult {
	a.emit(Event{Kind: EventToolCall, Call: &call})
	var r ToolResult
	switch _, known := a.tool(call.Name); {
	case ctx.Err() != nil:
		r = cancelledResult(call, ctx.Err())
	case call.Invalid != "":
		r = errorResult(call, definitions.NewError(definitions.ValidationError, "%s", call.Invalid).
			Hint("Send the call again as one JSON object of arguments that matches the tool's parameters"))
	case !known:
		names := make([]string, len(a.Tools))
		for i, t := range a.Tools {
			names[i] = t.Name
		}
		r = errorResult(call, definitions.UnknownTool(call.Name, names).With("available", names))
	default:
		r = a.Exec.Execute(ctx, call)
		r.CallID, r.Name = call.ID, call.Name
	}
	a.emit(Event{Kind: EventToolResult, Call: &call, Result: &r})
	return r
}

// errorResult is the failed result of call carrying e.
func errorResult(call ToolCall, e *definitions.ToolError) ToolResult {
	content, _ := json.Marshal(e) // strings, string lists and scalar details always marshal
	return ToolResult{CallID: call.ID, Name: call.Name, OK: false, Content: content}
}

// cancelledResult answers a call that did not run because the turn was interrupted
// (context.Canceled) or ran out of time.
func cancelledResult(call ToolCall, cause error) ToolResult {
	if errors.Is(cause, context.DeadlineExceeded) {
		return errorResult(call, definitions.NewError(definitions.TimeoutError, "the call did not run: the turn ran out of time").
			Hint("Tell the user what is left to do"))
	}
	return errorResult(call, definitions.NewError(definitions.PermissionError, "the call did not run: the user interrupted the turn").
		Hint("Do not run it again unless the user asks"))
}
