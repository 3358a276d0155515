package manager

import (
	"context"
	"time"

	"github.com/jido-run/jido/shell"
)

// Progress is the state of a running command (run_shell, run_tests): time elapsed and bytes
// of output so far.
type Progress = shell.Progress

// WithProgress returns a context under which a call's commands report their progress to fn
// every period while they run (an MCP server turns these into progress notifications). fn
// must be quick: it runs on the goroutine that waits for the command.
func WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	return shell.WithProgress(ctx, every, fn)
}

// WithProgress is the package's WithProgress for a call in this session, with each
// Progress.Tail redacted by the project's rules and secret values, as the call's result
// will be: what a person watches the command print holds no more than what the model sees.
func (s *Session) WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	return shell.WithProgress(ctx, every, func(p Progress) {
		if p.Tail != "" {
			p.Tail, _ = s.p.redactor().String(p.Tail)
		}
		fn(p)
	})
}
