package builtin

import (
	"context"

	"github.com/jido-run/jido/tools/definitions"
)

// Gate decides whether a tool call may run. Every call of every tool passes it, however
// it was made (jido.<tool>, jido.call, a user's Lua tool), after its arguments are
// validated and before anything happens; a refusal is returned to the snippet as the
// call's error. A nil Gate lets everything run.
type Gate interface {
	Check(ctx context.Context, call Call) *definitions.ToolError
}

// Call is a validated tool call awaiting the gate's decision.
type Call struct {
	Tool   *definitions.Tool
	Params any // the tool's params struct (definitions.*Params), by value; a user tool's checked arguments map
	// Preview runs the call as a dry run and returns its result (a diff for file edits);
	// nil for tools without dry_run.
	Preview func(ctx context.Context) (any, error)
	// Composite marks a user's Lua tool: each call it makes passes the gate on its own, so
	// a gate refuses it by its deny rules and role but does not ask about it.
	Composite bool
}

// gated runs the gate for a decoded call of t with params p; fn is the tool.
func gated[P, R any](ctx context.Context, d Deps, t *definitions.Tool, p P, fn func(context.Context, P) (R, error)) *definitions.ToolError {
	if t.IsDryRun(p) {
		return nil // a dry run changes nothing: it needs no approval
	}
	if d.Allow != nil {
		if terr := d.Allow(t); terr != nil {
			return terr
		}
	}
	if d.Gate == nil {
		return nil
	}
	call := Call{Tool: t, Params: p}
	if dry, ok := definitions.AsDryRun(t, p); ok {
		call.Preview = func(ctx context.Context) (any, error) { return fn(ctx, dry) }
	}
	return d.Gate.Check(ctx, call)
}
