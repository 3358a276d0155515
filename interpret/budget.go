package interpret

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// DefaultBudget is the time the model has to plan when Interpreter.Budget is not set.
const DefaultBudget = 3 * time.Second

// retryWait is the pause before the retry of a 429 or 5xx whose answer did not say how long
// to wait.
const retryWait = 100 * time.Millisecond

// Reasons of a Plan's Fallback: why the rules answered for a model.
const (
	FallbackTimeout     = "timeout"      // no plan within the budget (or before the caller's deadline)
	FallbackRateLimited = "rate_limited" // HTTP 429, retried once if the budget allowed
	FallbackServerError = "server_error" // HTTP 5xx, retried once if the budget allowed
	FallbackInvalidPlan = "invalid_plan" // an answer that is no plan, or no call of it passed the checks
	FallbackCanceled    = "canceled"     // the caller gave up
	FallbackError       = "error"        // any other failure (the service not reached, 4xx, ...)
)

// ServiceError is a Model's failure as its service answered it. A Model wraps its errors in
// one so that the Interpreter can tell what is worth sending again: 429 and 5xx are retried
// once, inside the budget (agent/offline adapts agent.APIError to it).
type ServiceError struct {
	Status     int           // the HTTP status; 0 when the service was not reached
	RetryAfter time.Duration // the wait the service asked for, 0 if it did not say
	Err        error         // the failure as the Model reported it
}

func (e *ServiceError) Error() string { return e.Err.Error() }
func (e *ServiceError) Unwrap() error { return e.Err }

// retryable reports whether a request that failed with status may succeed if sent again.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// budget is the time the model has to plan.
func (in *Interpreter) budget() time.Duration {
	if in.Budget <= 0 {
		return DefaultBudget
	}
	return in.Budget
}

// askInBudget asks the model for a plan within the budget, sending the request once more
// after a 429 or 5xx when the wait the service asks for still ends inside it. It returns
// the checked plan, or why there is none, and the number of requests sent. The budget is a
// deadline on ctx, so it holds even against a Model that never answers: ask stops waiting.
func (in *Interpreter) askInBudget(ctx context.Context, query string, c Context) (Plan, int, error) {
	budget := in.budget()
	ctx, cancel := context.WithTimeoutCause(ctx, budget,
		fmt.Errorf("no plan within the %v budget: %w", budget, context.DeadlineExceeded))
	defer cancel()
	if err := ctx.Err(); err != nil { // nothing sent
		return Plan{}, 0, fmt.Errorf("model: %w", context.Cause(ctx))
	}
	for attempt := 1; ; attempt++ {
		p, err := in.ask(ctx, query, c)
		var se *ServiceError
		if err == nil || attempt == 2 || !errors.As(err, &se) || !retryable(se.Status) {
			return p, attempt, err
		}
		wait := se.RetryAfter
		if wait <= 0 {
			wait = retryWait
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= wait {
			return Plan{}, attempt, fmt.Errorf("%w (not retried: a wait of %v ends past the budget)", err, wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return Plan{}, attempt, fmt.Errorf("%w (then %w)", err, context.Cause(ctx))
		}
	}
}

// fallbackReason names why the model's plan was not used, err being what askInBudget said.
func fallbackReason(err error) string {
	var se *ServiceError
	switch {
	case errors.As(err, &se) && se.Status == http.StatusTooManyRequests:
		return FallbackRateLimited
	case errors.As(err, &se) && se.Status >= 500:
		return FallbackServerError
	case errors.Is(err, context.DeadlineExceeded):
		return FallbackTimeout
	case errors.Is(err, context.Canceled):
		return FallbackCanceled
	case errors.Is(err, ErrInvalidPlan):
		return FallbackInvalidPlan
	}
	return FallbackError
}
