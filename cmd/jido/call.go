package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
)

// callOptions are the parsed arguments of `jido call`.
type callOptions struct {
	sessionFlags
	tool    string
	args    string // JSON object, or "-" for standard input
	session string // --session NAME: the named session to carry on (sessions.go)
	meta    manager.CallMeta
}

func parseCall(args []string, stderr io.Writer) (*callOptions, error) {
	o := &callOptions{}
	fs := newFlagSet("call", stderr)
	o.register(fs)
	fs.StringVar(&o.session, "session", "", sessionFlagUsage)
	fs.StringVar(&o.meta.Cwd, "cwd", "", "directory inside the root the call's relative paths are resolved against (meta.cwd)")
	var timeout time.Duration
	fs.DurationVar(&timeout, "timeout", 0, "deadline of the call, e.g. 30s (meta.timeout; default: the tool's own)")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if o.session != "" {
		if err := checkSessionName(o.session); err != nil {
			return nil, err
		}
	}
	if timeout < 0 {
		return nil, fmt.Errorf("--timeout must be positive, got %v", timeout)
	}
	o.meta.Timeout = timeout.Seconds()
	switch fs.NArg() {
	case 1:
		o.tool, o.args = fs.Arg(0), "{}"
	case 2:
		o.tool, o.args = fs.Arg(0), fs.Arg(1)
	default:
		return nil, fmt.Errorf("call takes TOOL and an optional ARGS_JSON (or - for standard input), got %d arguments", fs.NArg())
	}
	return o, nil
}

// runCall implements `jido call`: exactly one ToolResult JSON object on stdout.
func runCall(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseCall(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido call: %v\n", err)
		return exitUsage
	}
	raw := []byte(o.args)
	if o.args == "-" {
		if raw, err = io.ReadAll(stdin); err != nil {
			fmt.Fprintf(stderr, "jido call: reading arguments: %v\n", err)
			return exitUsage
		}
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		writeJSON(stdout, manager.ToolResult{Name: o.tool, Error: definitions.NewError(definitions.ValidationError,
			"arguments are not a JSON object: %v", err).Hint(`Pass the arguments as one JSON object, e.g. '{"path":"README.md"}'`)})
		return exitUsage
	}
	return o.withNamedSession("call", o.session, stderr, func(ctx context.Context, s *manager.Session) int {
		res := s.Call(ctx, manager.ToolCall{Name: o.tool, Args: args, Meta: o.meta})
		writeJSON(stdout, res)
		if !res.OK {
			return exitToolError
		}
		return exitOK
	})
}

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
