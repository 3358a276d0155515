package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// step is one scripted reply of fakeProvider.
type step struct {
	text  []string // streamed piece by piece; joined, the reply's text
	calls []ToolCall
	err   error // returned after the text was streamed
	hang  bool  // block until the request is cancelled
}

// fakeProvider replays steps, one per request, and records the requests.
type fakeProvider struct {
	mu       sync.Mutex
	steps    []step
	requests []Request
}

func (p *fakeProvider) Name() string { return "fake" }

func (p *fakeProvider) Complete(ctx context.Context, req Request, onText func(string)) (Message, error) {
	p.mu.Lock()
	p.requests = append(p.requests, Request{System: req.System, Messages: cloneMessages(req.Messages), Tools: req.Tools})
	if len(p.steps) == 0 {
		p.mu.Unlock()
		return Message{}, errors.New("fake: no step left")
	}
	s := p.steps[0]
	p.steps = p.steps[1:]
	p.mu.Unlock()
	for _, piece := range s.text {
		onText(piece)
	}
	if s.hang {
		<-ctx.Done()
		return Message{}, ctx.Err()
	}
	if s.err != nil {
		return Message{}, s.err
	}
	return Message{Text: strings.Join(s.text, ""), Calls: s.calls}, nil
}

func (p *fakeProvider) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

// execFunc adapts a function to Executor.
type execFunc func(ctx context.Context, call ToolCall) ToolResult

func (f execFunc) Execute(ctx context.Context, call ToolCall) ToolResult { return f(ctx, call) }

// echo is an Executor whose results name the call's path.
var echo = execFunc(func(_ context.Context, call ToolCall) ToolResult {
	return ToolResult{OK: true, Content: json.RawMessage(fmt.Sprintf(`{"done":%q}`, call.Args["path"]))}
})

var testTools = []ToolSpec{
	{Name: "read_file", Description: "reads", Parameters: map[string]any{"type": "object"}},
	{Name: "write_file", Description: "writes", Parameters: map[string]any{"type": "object"}},
}

func call(id, name, path string) ToolCall {
	return ToolCall{ID: id, Name: name, Args: map[string]any{"path": path}}
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) kinds() []EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var kinds []EventKind
	for _, e := range r.events {
		kinds = append(kinds, e.Kind)
	}
	return kinds
}

func (r *recorder) texts(kind EventKind) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var texts []string
	for _, e := range r.events {
		if e.Kind == kind {
			texts = append(texts, e.Text)
		}
	}
	return texts
}

func newAgent(p Provider, exec Executor, rec *recorder) *Agent {
	a := &Agent{Provider: p, Exec: exec, Tools: testTools, System: "be brief", Retry: RetryPolicy{Base: time.Millisecond, Max: 10 * time.Millisecond}}
	if rec != nil {
		a.OnEvent = rec.add
	}
	return a
}

// requireConsistent checks that every assistant message with calls is followed by one
// user message answering them all, in order.
func requireConsistent(t *testing.T, h []Message) {
	t.Helper()
	for i, m := range h {
		if m.Role != Assistant || len(m.Calls) == 0 {
			continue
		}
		require.Less(t, i+1, len(h), "calls of message %d are not answered", i)
		next := h[i+1]
		require.Equal(t, User, next.Role)
		require.Len(t, next.Results, len(m.Calls))
		for j, c := range m.Calls {
			assert.Equal(t, c.ID, next.Results[j].CallID)
			assert.Equal(t, c.Name, next.Results[j].Name)
		}
	}
}

// errorOf decodes the error object of a failed result.
func errorOf(t *testing.T, r ToolResult) map[string]any {
	t.Helper()
	require.False(t, r.OK)
	var e map[string]any
	require.NoError(t, json.Unmarshal(r.Content, &e))
	return e
}

func TestSendRunsCallsUntilAnswer(t *testing.T) {
	p := &fakeProvider{steps: []step{
		{text: []string{"Let me ", "look."}, calls: []ToolCall{call("1", "read_file", "a.go")}},
		{calls: []ToolCall{call("2", "write_file", "b.go")}},
		{text: []string{"Done."}},
	}}
	rec := &recorder{}
	a := newAgent(p, echo, rec)

	answer, err := a.Send(t.Context(), "fix it")
	require.NoError(t, err)
	assert.Equal(t, "Done.", answer)

	h := a.History()
	require.Len(t, h, 6)
	assert.Equal(t, Message{Role: User, Text: "fix it"}, h[0])
	assert.Equal(t, "Let me look.", h[1].Text)
	assert.Equal(t, Assistant, h[1].Role)
	assert.JSONEq(t, `{"done":"a.go"}`, string(h[2].Results[0].Content))
	assert.True(t, h[2].Results[0].OK)
	assert.JSONEq(t, `{"done":"b.go"}`, string(h[4].Results[0].Content))
	assert.Equal(t, Message{Role: Assistant, Text: "Done."}, h[5])
	requireConsistent(t, h)

	reqs := p.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "be brief", reqs[0].System)
	assert.Equal(t, testTools, reqs[0].Tools)
	assert.Equal(t, h[:3], reqs[1].Messages, "the second request carries the first results")
	assert.Equal(t, []EventKind{EventText, EventText, EventToolCall, EventToolResult, EventToolCall, EventToolResult, EventText}, rec.kinds())
	assert.Equal(t, []string{"Let me ", "look.", "Done."}, rec.texts(EventText))

	// The conversation goes on.
	p.steps = []step{{text: []string{"Yes."}}}
	answer, err = a.Send(t.Context(), "sure?")
	require.NoError(t, err)
	assert.Equal(t, "Yes.", answer)
	assert.Len(t, p.Requests()[3].Messages, 7)
}

// TestCallsRunInOrderOneAtATime: the calls of a reply run one after another, in their
// order, and their results keep it.
func TestCallsRunInOrderOneAtATime(t *testing.T) {
	var (
		mu      sync.Mutex
		log     []string
		running int
	)
	exec := execFunc(func(ctx context.Context, c ToolCall) ToolResult {
		path := c.Args["path"].(string)
		mu.Lock()
		running++
		log = append(log, "start "+path)
		if running > 1 {
			log = append(log, "OVERLAP")
		}
		mu.Unlock()
		time.Sleep(time.Millisecond) // room for another call to start, were they concurrent
		mu.Lock()
		running--
		log = append(log, "end "+path)
		mu.Unlock()
		return ToolResult{OK: true, Content: json.RawMessage(`{}`)}
	})
	p := &fakeProvider{steps: []step{
		{calls: []ToolCall{call("1", "read_file", "r1"), call("2", "read_file", "r2"), call("3", "write_file", "w"), call("4", "read_file", "r3")}},
		{text: []string{"ok"}},
	}}
	a := newAgent(p, exec, nil)
	_, err := a.Send(t.Context(), "go")
	require.NoError(t, err)

	results := a.History()[2].Results
	require.Len(t, results, 4)
	for i, r := range results {
		assert.True(t, r.OK, "result %d: %s", i, r.Content)
		assert.Equal(t, fmt.Sprint(i+1), r.CallID, "results keep the order of the calls")
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"start r1", "end r1", "start r2", "end r2", "start w", "end w", "start r3", "end r3"}, log)
}

func indexOf(log []string, s string) int {
	for i, l := range log {
		if l == s {
			return i
		}
	}
	return -1
}

func TestCallsThatAreNotRun(t *testing.T) {
	cases := []struct {
		name     string
		call     ToolCall
		message  string
		recovery string
	}{
		{
			name:     "invalid",
			call:     ToolCall{ID: "1", Name: "read_file", Invalid: "arguments are not a JSON object: unexpected end of JSON input"},
			message:  "arguments are not a JSON object: unexpected end of JSON input",
			recovery: "Send the call again",
		},
		{
			name:     "unknown tool near a known one",
			call:     call("2", "read_fil", "a"),
			message:  "unknown tool `read_fil`; did you mean `read_file`?",
			recovery: "Call `read_file` instead",
		},
		{
			name:     "unknown tool",
			call:     call("3", "launch_rockets", "a"),
			message:  "unknown tool `launch_rockets`",
			recovery: "Available tools: `read_file`, `write_file`",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ran := false
			exec := execFunc(func(context.Context, ToolCall) ToolResult { ran = true; return ToolResult{OK: true} })
			p := &fakeProvider{steps: []step{{calls: []ToolCall{tc.call}}, {text: []string{"sorry"}}}}
			rec := &recorder{}
			a := newAgent(p, exec, rec)
			_, err := a.Send(t.Context(), "go")
			require.NoError(t, err)
			assert.False(t, ran, "the executor is not called")

			r := a.History()[2].Results[0]
			assert.Equal(t, tc.call.ID, r.CallID)
			assert.Equal(t, tc.call.Name, r.Name)
			e := errorOf(t, r)
			assert.Equal(t, "validation-error", e["type"])
			assert.Equal(t, tc.message, e["message"])
			require.NotEmpty(t, e["recovery"])
			assert.Contains(t, e["recovery"].([]any)[0], tc.recovery)
			if tc.call.Invalid == "" {
				assert.Equal(t, []any{"read_file", "write_file"}, e["details"].(map[string]any)["available"])
			}
			assert.Equal(t, []EventKind{EventToolCall, EventToolResult, EventText}, rec.kinds())
		})
	}
}

func TestRetry(t *testing.T) {
	rateLimited := &APIError{Provider: "fake", Status: 429, Message: "slow down"}
	cases := []struct {
		name     string
		attempts int
		steps    []step
		requests int
		answer   string
		retries  []string
		err      string
	}{
		{
			name:     "429 then success",
			steps:    []step{{err: rateLimited}, {text: []string{"hi"}}},
			requests: 2, answer: "hi",
			retries: []string{"rate limited (HTTP 429); retrying in"},
		},
		{
			name:     "server errors with Retry-After",
			steps:    []step{{err: &APIError{Status: 503, RetryAfter: 2 * time.Millisecond}}, {err: &APIError{Status: 500}}, {text: []string{"hi"}}},
			requests: 3, answer: "hi",
			retries: []string{"server error (HTTP 503); retrying in 2ms (attempt 2 of 4)", "server error (HTTP 500); retrying in"},
		},
		{
			name:     "unreachable service",
			steps:    []step{{err: &APIError{Provider: "fake", Message: "connection refused"}}, {text: []string{"hi"}}},
			requests: 2, answer: "hi",
			retries: []string{"no answer from the service (connection refused); retrying in"},
		},
		{
			name:     "400 is not retried",
			steps:    []step{{err: &APIError{Provider: "fake", Status: 400, Message: "bad request"}}},
			requests: 1, err: "fake: HTTP 400: bad request",
		},
		{
			name:     "not after streamed text",
			steps:    []step{{text: []string{"half an ans"}, err: &APIError{Provider: "fake", Status: 500, Message: "broken"}}},
			requests: 1, err: "fake: HTTP 500: broken",
		},
		{
			name:     "other errors are not retried",
			steps:    []step{{err: errors.New("no network")}},
			requests: 1, err: "no network",
		},
		{
			name:     "attempts run out",
			attempts: 2,
			steps:    []step{{err: rateLimited}, {err: rateLimited}, {text: []string{"never"}}},
			requests: 2, err: "fake: HTTP 429: slow down",
			retries: []string{"(attempt 2 of 2)"},
		},
		{
			name:     "Retry-After longer than Max",
			steps:    []step{{err: &APIError{Provider: "fake", Status: 429, Message: "quota", RetryAfter: time.Hour}}},
			requests: 1, err: "fake: HTTP 429: quota; the service asked to wait 1h0m0s, longer than the 10ms this client waits",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &fakeProvider{steps: tc.steps}
			rec := &recorder{}
			a := newAgent(p, echo, rec)
			a.Retry.Attempts = tc.attempts
			answer, err := a.Send(t.Context(), "hello")
			assert.Len(t, p.Requests(), tc.requests)
			retries := rec.texts(EventRetry)
			require.Len(t, retries, len(tc.retries))
			for i, want := range tc.retries {
				assert.Contains(t, retries[i], want)
			}
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.Empty(t, a.History(), "a turn whose first request failed leaves no trace")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.answer, answer)
		})
	}
}

func TestRetryWaitIsCancellable(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	p := &fakeProvider{steps: []step{{err: &APIError{Status: 429}}}}
	a := newAgent(p, echo, nil)
	a.Retry = RetryPolicy{Base: time.Hour, Max: time.Hour}
	a.OnEvent = func(e Event) {
		if e.Kind == EventRetry {
			cancel()
		}
	}
	_, err := a.Send(ctx, "hello")
	require.ErrorIs(t, err, context.Canceled)
	assert.Len(t, p.Requests(), 1)
}

func TestBackoffStaysWithinBounds(t *testing.T) {
	p := RetryPolicy{Base: 100, Max: 1000}.withDefaults()
	for attempt, upper := range map[int]time.Duration{1: 100, 2: 200, 3: 400, 4: 800, 5: 1000, 40: 1000} {
		for range 20 {
			d := p.backoff(attempt)
			assert.GreaterOrEqual(t, d, upper/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, upper, "attempt %d", attempt)
		}
	}
	assert.Equal(t, RetryPolicy{Attempts: 4, Base: time.Second, Max: 30 * time.Second}, RetryPolicy{}.withDefaults())
}

func TestMaxSteps(t *testing.T) {
	loop := step{calls: []ToolCall{call("1", "read_file", "a")}}
	p := &fakeProvider{steps: []step{loop, loop, loop, {text: []string{"finally"}}}}
	a := newAgent(p, echo, nil)
	a.MaxSteps = 3

	_, err := a.Send(t.Context(), "go")
	require.ErrorIs(t, err, ErrMaxSteps)
	assert.Contains(t, err.Error(), "after 3 requests")
	assert.Len(t, p.Requests(), 3)
	h := a.History()
	require.Len(t, h, 7)
	assert.NotEmpty(t, h[6].Results, "the last calls are answered")
	requireConsistent(t, h)

	answer, err := a.Send(t.Context(), "continue")
	require.NoError(t, err)
	assert.Equal(t, "finally", answer)
}

// bigResult is a result of n+3 chars of content.
func bigResult(id string, n int) ToolResult {
	return ToolResult{CallID: id, Name: "read_file", OK: true, Content: json.RawMessage(`"x` + strings.Repeat("é", n/2) + `"`)}
}

// turn is a past turn: the user's text, one call, its big result, the answer.
func turn(text, id string, size int) []Message {
	return []Message{
		{Role: User, Text: text},
		{Role: Assistant, Calls: []ToolCall{call(id, "read_file", "a")}},
		{Role: User, Results: []ToolResult{bigResult(id, size)}},
		{Role: Assistant, Text: "seen " + text},
	}
}

func TestContextIsShortenedOldestFirst(t *testing.T) {
	old1, old2, latest := turn("one", "1", 5000), turn("two", "2", 5000), turn("three", "3", 5000)
	history := append(append(append([]Message{}, old1...), old2...), latest...)
	p := &fakeProvider{steps: []step{{text: []string{"ok"}}}}
	rec := &recorder{}
	a := newAgent(p, echo, rec)
	a.ContextChars = 8000 // room for one full result and two shortened ones
	a.SetHistory(history)

	_, err := a.Send(t.Context(), "four")
	require.NoError(t, err)
	sent := p.Requests()[0].Messages
	require.Len(t, sent, 13, "no turn was dropped")
	for _, i := range []int{2, 6} {
		r := sent[i].Results[0]
		assert.True(t, strings.HasPrefix(r.Note, "shortened to fit the context: the value was 5003 bytes"), r.Note)
		var text string
		require.NoError(t, json.Unmarshal(r.Content, &text), "shortened content stays JSON of the same type")
		assert.True(t, strings.HasPrefix(text, "xéé"), text)
		assert.Contains(t, text, "chars cut]")
		assert.LessOrEqual(t, len(r.Content), keepChars)
	}
	assert.Equal(t, history[10], sent[10], "the latest results are intact")
	assert.Equal(t, []string{"The conversation outgrew its budget of 8000 chars: shortened 2 old tool results."}, rec.texts(EventNotice))
	requireConsistent(t, sent)
	assert.Equal(t, sent, a.History()[:13], "the history keeps the shortened form")
}

func TestContextDropsOldTurns(t *testing.T) {
	history := append(turn("one", "1", 3000), turn("two", "2", 3000)...)
	p := &fakeProvider{steps: []step{
		{calls: []ToolCall{call("3", "read_file", "big")}},
		{text: []string{"ok"}},
	}}
	exec := execFunc(func(context.Context, ToolCall) ToolResult { return bigResult("", 3000) })
	rec := &recorder{}
	a := newAgent(p, exec, rec)
	a.ContextChars = 2000 // less than the latest result alone
	a.SetHistory(history)

	_, err := a.Send(t.Context(), "three")
	require.NoError(t, err)
	reqs := p.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []Message{{Role: User, Text: "three"}}, reqs[0].Messages, "old turns are dropped, never the current one")
	second := reqs[1].Messages
	require.Len(t, second, 3)
	assert.Equal(t, bigResult("3", 3000).Content, second[2].Results[0].Content, "the results the model has yet to read are intact")
	assert.Empty(t, second[2].Results[0].Note)
	requireConsistent(t, second)
	assert.Equal(t, []string{"The conversation outgrew its budget of 2000 chars: shortened an old tool result and dropped the 2 oldest turns."},
		rec.texts(EventNotice), "one notice, when something was done")

	// A current turn larger than the budget is sent whole, and the user is told.
	p.steps = []step{{text: []string{"ok"}}}
	rec.events = nil
	_, err = a.Send(t.Context(), strings.Repeat("x", 3000))
	require.NoError(t, err)
	assert.Equal(t, []Message{{Role: User, Text: strings.Repeat("x", 3000)}}, p.Requests()[2].Messages)
	assert.Equal(t, []string{"The conversation outgrew its budget of 2000 chars: dropped the oldest turn. It is still 3000 chars."}, rec.texts(EventNotice))
}

func TestShorten(t *testing.T) {
	long := `{"output_mode":"content","text":"a` + strings.Repeat("é", 999) + `a","matches":[` + strings.Repeat(`{"line":1},`, 200) + `{"line":2}]}`
	cases := []struct {
		name, content, note string
		changed             bool
	}{
		{name: "short", content: `"` + strings.Repeat("a", 998) + `"`},
		{name: "already shortened", content: long, note: "shortened before"},
		{name: "long", content: long, changed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ToolResult{Content: json.RawMessage(tc.content), Note: tc.note}
			assert.Equal(t, tc.changed, shorten(&r))
			if !tc.changed {
				assert.Equal(t, tc.content, string(r.Content))
				return
			}
			assert.True(t, strings.HasPrefix(r.Note, "shortened to fit the context: the value was"), r.Note)
			assert.LessOrEqual(t, len(r.Content), keepChars)
			var obj map[string]any
			require.NoError(t, json.Unmarshal(r.Content, &obj), "still valid JSON of the same shape")
			assert.Equal(t, "content", obj["output_mode"])
			assert.Contains(t, obj["text"], "chars cut]")
			assert.True(t, strings.HasPrefix(obj["text"].(string), "aé"), "cut on a rune boundary")
		})
	}
}

func TestCancel(t *testing.T) {
	t.Run("while a tool runs", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		started := make(chan struct{})
		exec := execFunc(func(ctx context.Context, c ToolCall) ToolResult {
			close(started)
			<-ctx.Done()
			return ToolResult{OK: false, Content: json.RawMessage(`{"type":"timeout-error","message":"killed"}`)}
		})
		p := &fakeProvider{steps: []step{{calls: []ToolCall{call("1", "write_file", "a"), call("2", "write_file", "b")}}}}
		a := newAgent(p, exec, nil)
		go func() { <-started; cancel() }()

		_, err := a.Send(ctx, "go")
		require.ErrorIs(t, err, context.Canceled)
		h := a.History()
		require.Len(t, h, 3)
		requireConsistent(t, h)
		assert.JSONEq(t, `{"type":"timeout-error","message":"killed"}`, string(h[2].Results[0].Content), "the running call's own result is kept")
		e := errorOf(t, h[2].Results[1])
		assert.Equal(t, "the call did not run: the user interrupted the turn", e["message"])

		// The next turn continues the consistent conversation.
		p.steps = []step{{text: []string{"stopped"}}}
		answer, err := a.Send(t.Context(), "what happened?")
		require.NoError(t, err)
		assert.Equal(t, "stopped", answer)
		assert.Len(t, p.Requests()[1].Messages, 4)
	})

	t.Run("during the first request", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		p := &fakeProvider{steps: []step{{text: []string{"thinking"}, hang: true}}}
		a := newAgent(p, echo, nil)
		a.SetHistory(turn("one", "1", 10))
		a.OnEvent = func(e Event) { cancel() }

		_, err := a.Send(ctx, "two")
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, turn("one", "1", 10), a.History(), "the unanswered message is taken back")
	})

	t.Run("during a later request", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		p := &fakeProvider{steps: []step{{calls: []ToolCall{call("1", "read_file", "a")}}, {hang: true}}}
		a := newAgent(p, echo, nil)
		a.OnEvent = func(e Event) {
			if e.Kind == EventToolResult {
				cancel()
			}
		}
		_, err := a.Send(ctx, "go")
		require.ErrorIs(t, err, context.Canceled)
		h := a.History()
		require.Len(t, h, 3, "what happened is kept")
		requireConsistent(t, h)
	})

	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithDeadline(t.Context(), time.Now())
		defer cancel()
		p := &fakeProvider{steps: []step{{calls: []ToolCall{call("1", "read_file", "a")}}}}
		a := newAgent(p, echo, nil)
		_, err := a.Send(ctx, "go")
		require.ErrorIs(t, err, context.DeadlineExceeded)
		h := a.History()
		requireConsistent(t, h)
		assert.Equal(t, "the call did not run: the turn ran out of time", errorOf(t, h[2].Results[0])["message"])
	})
}

func TestSetHistoryAnswersDanglingCalls(t *testing.T) {
	a := &Agent{}
	dangling := []Message{{Role: User, Text: "go"}, {Role: Assistant, Calls: []ToolCall{call("1", "read_file", "a")}}}
	a.SetHistory(dangling)
	h := a.History()
	require.Len(t, h, 3)
	requireConsistent(t, h)
	assert.Equal(t, "permission-error", errorOf(t, h[2].Results[0])["type"])
	assert.Len(t, dangling, 2, "the caller's slice is not changed")

	h[2].Results[0].Name = "changed"
	assert.Equal(t, "read_file", a.History()[2].Results[0].Name, "History returns a copy")

	a.Reset()
	assert.Empty(t, a.History())
}

func TestToolSourceRefreshesTheToolsEachTurn(t *testing.T) {
	offered := [][]ToolSpec{testTools[:1], testTools}
	turn := 0
	p := &fakeProvider{steps: []step{{text: []string{"one"}}, {text: []string{"two"}}}}
	a := &Agent{Provider: p, Exec: echo, ToolSource: func() []ToolSpec {
		defer func() { turn++ }()
		return offered[turn]
	}}
	_, err := a.Send(t.Context(), "first")
	require.NoError(t, err)
	_, err = a.Send(t.Context(), "second")
	require.NoError(t, err)
	reqs := p.Requests()
	assert.Len(t, reqs[0].Tools, 1)
	assert.Len(t, reqs[1].Tools, 2, "a tool added between turns is offered")
}

// TestRetryable: rate limits, server errors and a lost connection are retried; a request
// the server does not implement is not (the usual wrong --base-url).
func TestRetryable(t *testing.T) {
	for status, want := range map[int]bool{0: true, 429: true, 500: true, 502: true, 503: true, 501: false, 505: false, 400: false, 404: false} {
		assert.Equal(t, want, (&APIError{Status: status}).Retryable(), "%d", status)
	}
}
