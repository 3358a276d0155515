package gemini

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/jido-run/jido/agent"
)

// failure converts what the SDK returned for a call made with ctx: the context's own
// error when it is done (a cancellation is not the service's failure), else an
// *agent.APIError. When the body of the answer broke off, its read error explains the
// failure better than the SDK's complaint about the truncated JSON.
func (p *Provider) failure(ctx context.Context, body *bodyFailure, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if broken := body.get(); broken != nil {
		err = broken
	}
	var known *agent.APIError
	if errors.As(err, &known) {
		return known
	}
	var e genai.APIError
	if !errors.As(err, &e) {
		return &agent.APIError{Provider: providerName, Message: err.Error()}
	}
	out := &agent.APIError{
		Provider:   providerName,
		Status:     e.Code,
		Message:    cmp.Or(e.Message, e.Status),
		RetryAfter: retryDelay(e.Details),
	}
	switch {
	case e.Code == 401 || e.Code == 403 || (e.Code == 400 && hasReason(e.Details, "API_KEY_INVALID")):
		out.Hint = "check GEMINI_API_KEY"
	case e.Code == 404:
		out.Hint = fmt.Sprintf("unknown model %s: pass --model, e.g. %s (or a wrong --base-url)", p.model, DefaultModel)
	case e.Code == 429:
		out.Hint = "rate limited"
	}
	return out
}

// retryDelay is the wait a google.rpc.RetryInfo among the error's details asks for, 0 if
// there is none.
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if !isDetail(d, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string) // a protobuf Duration in JSON: "37s", "0.5s"
		if delay, err := time.ParseDuration(s); err == nil && delay > 0 {
			return delay
		}
	}
	return 0
}

// hasReason reports whether a google.rpc.ErrorInfo among the details gives reason.
func hasReason(details []map[string]any, reason string) bool {
	for _, d := range details {
		if isDetail(d, "google.rpc.ErrorInfo") && d["reason"] == reason {
			return true
		}
	}
	return false
}

// isDetail reports whether an error detail is of the protobuf type named.
func isDetail(d map[string]any, typ string) bool {
	t, _ := d["@type"].(string)
	return strings.HasSuffix(t, "/"+typ)
}
