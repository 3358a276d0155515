package main

import (
	"context"
	"fmt"
	"io"

	"github.com/jido-run/jido/manager"
)

// undoOptions are the parsed arguments of `jido undo`.
type undoOptions struct {
	sessionFlags
	list, force bool
	id          string // "" for the last change set
}

func parseUndo(args []string, stderr io.Writer) (*undoOptions, error) {
	o := &undoOptions{}
	fs := newFlagSet("undo", stderr)
	o.register(fs)
	fs.BoolVar(&o.list, "list", false, "list the change sets, newest first")
	fs.BoolVar(&o.force, "force", false, "undo even if files changed since")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch fs.NArg() {
	case 0:
	case 1:
		o.id = fs.Arg(0)
	default:
		return nil, fmt.Errorf("undo takes at most one CHANGE_ID, got %d arguments", fs.NArg())
	}
	return o, nil
}

// runUndo implements `jido undo`: the undo tool, approved by the command itself; one
// ToolResult JSON object on stdout.
func runUndo(argv []string, stdout, stderr io.Writer) int {
	o, err := parseUndo(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido undo: %v\n", err)
		return exitUsage
	}
	o.yes = true // the user asked for this undo on the command line
	args := map[string]any{"list": o.list, "force": o.force}
	if o.id != "" {
		args["change_id"] = o.id
	}
	return o.withSession("undo", stderr, func(ctx context.Context, s *manager.Session) int {
		res := s.Call(ctx, manager.ToolCall{Name: "undo", Args: args})
		writeJSON(stdout, res)
		if !res.OK {
			return exitToolError
		}
		return exitOK
	})
}
