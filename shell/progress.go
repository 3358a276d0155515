package shell

import (
	"context"
	"time"
)

// Progress is the state of a running command, reported while it runs (for an MCP client's
// progress notifications, a chat's live view of the output).
type Progress struct {
	Elapsed time.Duration // since the command started
	Output  int64         // bytes the command wrote to stdout and stderr so far
	// Tail is the last bytes (up to TailBytes) the command wrote to stdout and stderr, in
	// the order received (the two pipes are read apart: lines written at once may swap),
	// possibly starting inside a line or a character. It is raw output: not redacted
	// (manager.Session.WithProgress redacts it), not made safe to print.
	Tail string
}

// TailBytes is how much of a running command's latest output Progress.Tail holds.
const TailBytes = 4 << 10

// progressKey is the context key of a progress reporter.
type progressKey struct{}

// reporter is a progress callback and its period.
type reporter struct {
	every time.Duration
	fn    func(Progress)
}

// WithProgress returns a context under which Runner.Run calls fn every period while a
// foreground command runs. fn runs on the goroutine waiting for the command: it must be quick.
func WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, &reporter{every: every, fn: fn})
}

// progressOf returns the reporter of ctx, nil when there is none.
func progressOf(ctx context.Context) *reporter {
	r, _ := ctx.Value(progressKey{}).(*reporter)
	if r == nil || r.every <= 0 || r.fn == nil {
		return nil
	}
	return r
}
