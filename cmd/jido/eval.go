package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
)

// snippetList collects repeated -e flags.
type snippetList []string

func (l *snippetList) String() string     { return strings.Join(*l, "\n") }
func (l *snippetList) Set(v string) error { *l = append(*l, v); return nil }

// evalOptions are the parsed arguments of `jido eval`.
type evalOptions struct {
	sessionFlags
	timeout  time.Duration
	snippets snippetList
	session  string // --session NAME: the named session to carry on (sessions.go)
}

func parseEval(args []string, stderr io.Writer) (*evalOptions, error) {
	o := &evalOptions{}
	fs := newFlagSet("eval", stderr)
	o.register(fs)
	fs.DurationVar(&o.timeout, "timeout", 0, "how long each snippet may take, its Lua work and the commands it waits for included (default: 30s of Lua work, each tool its own timeout; at most 1h)")
	fs.StringVar(&o.session, "session", "", sessionFlagUsage)
	fs.Var(&o.snippets, "e", "a Lua snippet to run (repeatable; run in order in one session)")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if o.session != "" {
		if err := checkSessionName(o.session); err != nil {
			return nil, err
		}
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: pass snippets with -e", fs.Arg(0))
	}
	if len(o.snippets) == 0 {
		return nil, fmt.Errorf("no snippet: pass one or more -e SNIPPET")
	}
	if o.timeout != 0 {
		if terr := manager.CheckTimeout(o.timeout); terr != nil {
			return nil, fmt.Errorf("--timeout: %s", terr.Message)
		}
	}
	return o, nil
}

// evalLine is the output of one snippet.
type evalLine struct {
	OK    bool                   `json:"ok"`
	Value any                    `json:"value"`
	Error *definitions.ToolError `json:"error,omitempty"`
}

// runEval implements `jido eval`: one JSON line per snippet.
func runEval(argv []string, stdout, stderr io.Writer) int {
	o, err := parseEval(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido eval: %v\n", err)
		return exitUsage
	}
	return o.withNamedSession("eval", o.session, stderr, func(ctx context.Context, s *manager.Session) int {
		code := exitOK
		for _, src := range o.snippets {
			line := evalSnippet(ctx, s, src, o.timeout)
			if !line.OK {
				code = exitToolError
			}
			writeJSON(stdout, line)
		}
		return code
	})
}

// evaluator is the part of a session eval needs.
type evaluator interface {
	Eval(ctx context.Context, src string) ([]any, *definitions.ToolError)
}

// evalSnippet runs one snippet and shapes its outcome: no value is null, one value itself,
// several values a JSON array.
func evalSnippet(ctx context.Context, s evaluator, src string, timeout time.Duration) evalLine {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = manager.WithTimeout(ctx, timeout)
		defer cancel()
	}
	vals, terr := s.Eval(ctx, src)
	if terr != nil {
		return evalLine{Error: terr}
	}
	switch len(vals) {
	case 0:
		return evalLine{OK: true}
	case 1:
		return evalLine{OK: true, Value: vals[0]}
	}
	return evalLine{OK: true, Value: vals}
}
