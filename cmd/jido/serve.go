package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/serve"
	"github.com/jido-run/jido/termsafe"
)

// serveOptions are the flags of jido serve: a chat's, over the editor protocol.
type serveOptions struct {
	chatOptions
	stdio bool
}

func parseServe(argv []string, stderr io.Writer) (*serveOptions, error) {
	o := &serveOptions{}
	fs := newFlagSet("serve", stderr)
	o.sessionFlags.register(fs)
	o.providerFlags.register(fs)
	fs.BoolVar(&o.stdio, "stdio", false, "speak the editor protocol (JSON-RPC 2.0, LSP framing) on standard input and output (docs/serve-protocol.md)")
	if err := parseArgs(fs, argv); err != nil {
		return nil, err
	}
	o.root.cwd = "" // the editor names paths from the root, wherever it started jido
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("serve takes no arguments, got %q", fs.Args())
	case !o.stdio:
		return nil, errors.New("serve needs --stdio (the only transport)")
	}
	return o, nil
}

// runServe implements jido serve --stdio: one session for an editor.
func runServe(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseServe(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido serve: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	m, _, done, err := o.openManager(nil, true, true)
	if err != nil {
		fmt.Fprintf(stderr, "jido serve: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer done()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := serve.Config{
		Open: func(ctx context.Context, opts ...manager.SessionOption) (*manager.Session, error) {
			return m.Open(ctx, "", opts...)
		},
		NewAgent: func(ctx context.Context, s *manager.Session) (*agent.Agent, error) {
			a, notice, err := o.newAgent(ctx, chat.NewExecutor(s), s)
			if err != nil {
				return nil, err
			}
			if notice != "" {
				fmt.Fprintln(stderr, "jido serve:", notice)
			}
			return a, nil
		},
		Version: jidoVersion(), Root: o.rootPath(),
	}
	if err := serve.Run(ctx, cfg, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "jido serve: %s\n", termsafe.String(err.Error()))
		return exitToolError
	}
	return exitOK
}
