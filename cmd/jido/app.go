package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/manager"
)

// Exit codes shared by the subcommands.
const (
	exitOK        = 0 // success
	exitToolError = 1 // a tool or snippet returned an error
	exitUsage     = 2 // the command line is wrong
)

const usage = `jido: a sandboxed tool runtime for coding agents

Usage:
  jido call [--root DIR] [--yes] [--mode MODE] [--role ROLE] [--allow-network] [--events FILE] TOOL [ARGS_JSON|-]
  jido eval [--root DIR] [--yes] [--mode MODE] [--events FILE] [--timeout DUR] -e SNIPPET [-e SNIPPET ...]
  jido undo [--root DIR] [--list] [--force] [CHANGE_ID]
  jido rules [--root DIR] [--revoke ID]
  jido tools [--format jsonschema]
  jido version

Flags come before the positional arguments.
`

// run dispatches a command line and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "call":
		return runCall(args[1:], stdin, stdout, stderr)
	case "eval":
		return runEval(args[1:], stdout, stderr)
	case "tools":
		return runTools(args[1:], stdout, stderr)
	case "undo":
		return runUndo(args[1:], stdout, stderr)
	case "rules":
		return runRules(args[1:], stdout, stderr)
	case "version", "--version":
		return runVersion(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "jido: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// sessionFlags are the flags of every command that opens a session.
type sessionFlags struct {
	root    string
	yes     bool
	events  string
	network bool
	mode    string
	role    string
}

// register adds the session flags to fs.
func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.root, "root", ".", "project root directory")
	fs.BoolVar(&f.yes, "yes", false, "approve every action of this call without asking")
	fs.StringVar(&f.events, "events", "", "append NDJSON events to this file")
	fs.BoolVar(&f.network, "allow-network", false, "let commands (run_shell, run_tests) reach the network")
	fs.StringVar(&f.mode, "mode", "", "approval mode: default, auto-edit, yolo, plan, read-only (default: the config's, else default)")
	fs.StringVar(&f.role, "role", "", "limit the session to a role's tools: reader, editor, runner, full, or one from the config")
}

// withSession opens the project root and one session as the flags say, runs fn with them
// (and a context cancelled by SIGINT or SIGTERM), closes everything, and returns fn's exit
// code. A root or event file that cannot be opened is a usage error reported on stderr.
func (f *sessionFlags) withSession(cmd string, stderr io.Writer, fn func(context.Context, *manager.Session) int) int {
	opts := manager.Options{Root: f.root, GitExcludes: userExcludes(), Network: f.network, Yes: f.yes, Role: f.role}
	perms, err := loadPermissions(f.root, f.mode)
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	opts.Permissions = perms
	if opts.JournalDir, err = journal.Dir(f.root); err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	if f.events != "" {
		events, err := os.OpenFile(f.events, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
			return exitUsage
		}
		defer events.Close()
		opts.Events = events
	}
	m, err := manager.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	defer m.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s, err := m.Open(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitToolError
	}
	defer s.Close()
	return fn(ctx, s)
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("jido "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
