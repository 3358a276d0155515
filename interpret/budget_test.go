package interpret

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reply is one answer of a scriptedModel.
type reply struct {
	answer string
	err    error
	hang   bool // never answer, whatever ctx says (a model that sleeps forever)
	honour bool // with hang: give up when ctx is done
}

// scriptedModel answers the n-th request with replies[n] and counts the requests.
type scriptedModel struct {
	replies []reply

	mu    sync.Mutex
	calls int
}

func (m *scriptedModel) AskJSON(ctx context.Context, _ string, _ map[string]any) ([]byte, error) {
	m.mu.Lock()
	r := m.replies[min(m.calls, len(m.replies)-1)]
	m.calls++
	m.mu.Unlock()
	if r.hang {
		if r.honour {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		select {} // the goroutine stays blocked: the test binary ends it
	}
	return []byte(r.answer), r.err
}

func (m *scriptedModel) requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// status is a Model error carrying an HTTP status, as agent/offline reports agent.APIError.
func status(code int, retryAfter time.Duration) error {
	return &ServiceError{Status: code, RetryAfter: retryAfter, Err: errors.New("gemini: HTTP " + http.StatusText(code))}
}

const goFilesPlan = `{"needs_tools":true,"tools":[{"name":"glob","args":{"pattern":"**/*.go"},"confidence":0.8}],"rationale":"Find them."}`

// TestBudgetCutsASleepingModel is the timing claim: a model that sleeps past the
// budget, even one that ignores its context, leaves the rules to answer within budget +
// 100 ms of the start.
func TestBudgetCutsASleepingModel(t *testing.T) {
	const budget = 300 * time.Millisecond
	for _, honour := range []bool{false, true} {
		name := map[bool]string{false: "ignores ctx", true: "honours ctx"}[honour]
		t.Run(name, func(t *testing.T) {
			m := &scriptedModel{replies: []reply{{hang: true, honour: honour}}}
			start := time.Now()
			p := (&Interpreter{Model: m, Budget: budget}).Interpret(t.Context(), "find all go files", Context{})
			elapsed := time.Since(start)
			t.Logf("fallback after %v (budget %v)", elapsed, budget)
			assert.Less(t, elapsed, budget+100*time.Millisecond)
			assert.Equal(t, SourceRules, p.Source)
			assert.Equal(t, FallbackTimeout, p.Fallback)
			assert.Equal(t, 1, p.ModelAttempts)
			require.Len(t, p.Tools, 1)
			assert.Equal(t, "glob", p.Tools[0].Name)
			assert.Contains(t, p.Notes, "no plan within the 300ms budget")
		})
	}
}

func TestModelRetries(t *testing.T) {
	cases := []struct {
		name     string
		replies  []reply
		budget   time.Duration
		source   string
		fallback string
		attempts int
		note     string
	}{
		{
			name:    "429 then a plan: the retry is used",
			replies: []reply{{err: status(429, time.Millisecond)}, {answer: goFilesPlan}},
			source:  SourceModel, attempts: 2,
		},
		{
			name:    "503 then a plan, no wait said",
			replies: []reply{{err: status(503, 0)}, {answer: goFilesPlan}},
			source:  SourceModel, attempts: 2,
		},
		{
			name:    "500 twice: the rules",
			replies: []reply{{err: status(500, 0)}, {err: status(500, 0)}},
			source:  SourceRules, fallback: FallbackServerError, attempts: 2, note: "Internal Server Error",
		},
		{
			name:    "429 twice: the rules",
			replies: []reply{{err: status(429, 0)}, {err: status(429, 0)}},
			source:  SourceRules, fallback: FallbackRateLimited, attempts: 2,
		},
		{
			name:    "429 asking to wait past the budget: not retried",
			replies: []reply{{err: status(429, time.Minute)}, {answer: goFilesPlan}},
			source:  SourceRules, fallback: FallbackRateLimited, attempts: 1, note: "not retried: a wait of 1m0s ends past the budget",
		},
		{
			name:    "400: not retried",
			replies: []reply{{err: status(400, 0)}, {answer: goFilesPlan}},
			source:  SourceRules, fallback: FallbackError, attempts: 1,
		},
		{
			name:    "an error without a status: not retried",
			replies: []reply{{err: errors.New("connection refused")}, {answer: goFilesPlan}},
			source:  SourceRules, fallback: FallbackError, attempts: 1, note: "connection refused",
		},
		{
			name:    "an answer that is no plan: not retried",
			replies: []reply{{answer: `{"tools":[]}`}, {answer: goFilesPlan}},
			source:  SourceRules, fallback: FallbackInvalidPlan, attempts: 1, note: "needs_tools is missing",
		},
		{
			name:    "429 then silence: the budget ends it",
			replies: []reply{{err: status(429, 0)}, {hang: true, honour: true}},
			budget:  time.Second,
			source:  SourceRules, fallback: FallbackTimeout, attempts: 2, note: "no plan within the 1s budget",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := &scriptedModel{replies: tc.replies}
			p := (&Interpreter{Model: m, Budget: tc.budget}).Interpret(t.Context(), "find all go files", Context{})
			assert.Equal(t, tc.source, p.Source)
			assert.Equal(t, tc.fallback, p.Fallback)
			assert.Equal(t, tc.attempts, p.ModelAttempts)
			assert.Equal(t, tc.attempts, m.requests())
			require.Len(t, p.Tools, 1)
			assert.Equal(t, "glob", p.Tools[0].Name)
			assert.Contains(t, p.Notes, tc.note)
			if tc.source == SourceModel {
				assert.InDelta(t, 0.8, p.Tools[0].Confidence, 1e-9, "the model's confidence is kept")
			}
		})
	}
}

func TestBudgetDefault(t *testing.T) {
	assert.Equal(t, DefaultBudget, (&Interpreter{}).budget())
	assert.Equal(t, DefaultBudget, (&Interpreter{Budget: -time.Second}).budget())
	assert.Equal(t, time.Second, (&Interpreter{Budget: time.Second}).budget())
	assert.Equal(t, 3*time.Second, DefaultBudget, "issue 19: the default budget is 3 s")
}

func TestFallbackOfTheCallersContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	m := &scriptedModel{replies: []reply{{answer: goFilesPlan}}}
	p := (&Interpreter{Model: m}).Interpret(ctx, "find all go files", Context{})
	assert.Equal(t, SourceRules, p.Source)
	assert.Equal(t, FallbackCanceled, p.Fallback)
	assert.Zero(t, p.ModelAttempts, "nothing was sent")
	assert.Zero(t, m.requests())
}

func TestPlanWithoutModelHasNoFallback(t *testing.T) {
	p := (&Interpreter{}).Interpret(t.Context(), "find all go files", Context{})
	assert.Equal(t, SourceRules, p.Source)
	assert.Empty(t, p.Fallback)
	assert.Zero(t, p.ModelAttempts)
}
