package manager

import (
	"context"
	"strings"
	"time"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
)

// MaxCallTimeout is the longest one call or eval may take, the commands it waits for
// included. Each tool bounds itself first (run_shell's timeout, at most 10 minutes; the
// snippet's own Lua work, Limits.Timeout): this bounds a snippet that chains many. A
// call's own timeout (meta.timeout, a front's --timeout) may be anything up to it.
const MaxCallTimeout = time.Hour

// deadline is the cause of the end of a call that ran past its own timeout.
type deadline struct {
	timeout time.Duration
	own     bool // the caller's timeout, not MaxCallTimeout
}

func (d *deadline) Error() string {
	return "the call ran past its deadline of " + short(d.timeout)
}

// toolError is the error of a call that ran past d.
func (d *deadline) toolError() *definitions.ToolError {
	e := definitions.NewError(definitions.TimeoutError, "%s", d.Error()).
		With("limit", "call").With("timeout_s", d.timeout.Seconds())
	if d.own && d.timeout < MaxCallTimeout {
		return e.Hint("Give the call a longer timeout (at most " + short(MaxCallTimeout) + "), or split the work over several calls")
	}
	return e.Hint("Split the work over several calls")
}

// WithTimeout bounds the calls and evals made under the returned context to d of wall
// time, the commands they wait for included, and gives their Lua work as long (longer or
// shorter than the session's Limits.Timeout). A call that runs past it fails with a
// timeout-error saying so. d must be positive and at most MaxCallTimeout (CheckTimeout).
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeoutCause(ctx, d, &deadline{timeout: d, own: true})
	return runtime.WithTimeout(ctx, d), cancel
}

// CheckTimeout refuses a call's timeout that is not positive or over MaxCallTimeout.
func CheckTimeout(d time.Duration) *definitions.ToolError {
	if d <= 0 || d > MaxCallTimeout {
		return definitions.NewError(definitions.ValidationError, "the call's timeout must be more than 0 and at most %s, got %s", short(MaxCallTimeout), short(d)).
			With("field", "timeout").Hint("Give a timeout of at most " + short(MaxCallTimeout))
	}
	return nil
}

// bounded returns ctx bounded by the call's timeout (meta.timeout in seconds; 0: none), or,
// for a snippet that may chain tool calls (an eval, a user's tool), by MaxCallTimeout when
// neither it nor the caller's context sets a nearer deadline. A built-in tool's own
// script makes one tool call, which bounds itself: its hot path makes no timer.
func bounded(ctx context.Context, seconds float64, chains bool) (context.Context, context.CancelFunc, *definitions.ToolError) {
	if seconds != 0 {
		d := time.Duration(seconds * float64(time.Second))
		if terr := CheckTimeout(d); terr != nil {
			return nil, nil, terr.With("field", "meta.timeout")
		}
		ctx, cancel := WithTimeout(ctx, d)
		return ctx, cancel, nil
	}
	if dl, ok := ctx.Deadline(); !chains || ok && time.Until(dl) <= MaxCallTimeout {
		return ctx, func() {}, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, MaxCallTimeout, &deadline{timeout: MaxCallTimeout})
	return ctx, cancel, nil
}

// failure is the error of a call or eval that failed with err under ctx: a timeout-error
// naming the deadline when the call ran past one (whatever error that made the snippet or
// its tool return), else err as a ToolError.
func failure(ctx context.Context, err error) *definitions.ToolError {
	if d, ok := context.Cause(ctx).(*deadline); ok {
		return d.toolError()
	}
	return luaError(err)
}

// short writes d as people do: 1h, 10m, 90s, 1.5s (not 1h0m0s).
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
