package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
)

// Exit codes shared by the subcommands.
const (
	exitOK        = 0 // success
	exitToolError = 1 // a tool or snippet returned an error
	exitUsage     = 2 // the command line is wrong
)

const usage = `jido: a sandboxed tool runtime for coding agents

Usage:
  jido chat [--root DIR] [--mode MODE] [--provider P] [--model M] [--base-url URL] [--text-protocol] [--resume FILE|last]
  jido ask [--root DIR] [--yes] [--json] [--provider P] [--model M] QUESTION
  jido call [--root DIR] [--yes] [--mode MODE] [--role ROLE] [--profile NAME] [--allow-network] [--events FILE] TOOL [ARGS_JSON|-]
  jido eval [--root DIR] [--yes] [--mode MODE] [--events FILE] [--timeout DUR] -e SNIPPET [-e SNIPPET ...]
  jido mcp [--root DIR] [--http ADDR [--http-any] | --socket PATH] [--mode MODE] [--role ROLE] [--yes] [--allow-network] [--events FILE]
  jido undo [--root DIR] [--list] [--force] [CHANGE_ID]
  jido rules [--root DIR] [--revoke ID]
  jido trust [--root DIR]
  jido tools [--root DIR] [--tools DIR] [--profile NAME] [--role ROLE] [--format jsonschema|openai|gemini|anthropic|mcp]
  jido version

Flags come before the positional arguments. --profile NAME (every command that opens a
session) speaks another system's dialect: jido (default), forj, jidocode, emacs, forge,
claude or codex. chat and ask use Gemini when GEMINI_API_KEY
is set, and answer offline with a rule-based interpreter otherwise. Every command that
opens a session also takes --tools DIR (repeatable): Lua tools to load besides
.jido/tools/ and ~/.config/jido/tools/.
`

// run dispatches a command line and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "chat":
		return runChat(args[1:], stdout, stderr)
	case "ask":
		return runAsk(args[1:], stdout, stderr)
	case "call":
		return runCall(args[1:], stdin, stdout, stderr)
	case "eval":
		return runEval(args[1:], stdout, stderr)
	case "tools":
		return runTools(args[1:], stdout, stderr)
	case "mcp":
		return runMCP(args[1:], stdin, stdout, stderr)
	case "undo":
		return runUndo(args[1:], stdout, stderr)
	case "trust":
		return runTrust(args[1:], stdout, stderr)
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
	profile string
	tools   stringList // --tools DIRs of Lua tools, besides the user's and the project's
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// register adds the session flags to fs.
func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.root, "root", ".", "project root directory")
	fs.BoolVar(&f.yes, "yes", false, "approve every action of this call without asking")
	fs.StringVar(&f.events, "events", "", "append NDJSON events to this file")
	fs.BoolVar(&f.network, "allow-network", false, "let commands (run_shell, run_tests) reach the network")
	fs.StringVar(&f.mode, "mode", "", "approval mode: default, auto-edit, yolo, plan, read-only (default: the config's, else default)")
	fs.StringVar(&f.role, "role", "", "limit the session to a role's tools: reader, editor, runner, full, one from the config, or the profile's (forge: captain, type1, type2, type3, refinery, executor)")
	fs.StringVar(&f.profile, "profile", "", "the dialect of tool names, arguments and results: "+strings.Join(profile.Names(), ", ")+" (default: the config's profile, else jido)")
	fs.Var(&f.tools, "tools", "a directory of Lua tools (*.lua) to load too; repeatable")
}

// withSession opens the project root and one session as the flags say, reports tool files
// that failed to load on stderr, runs fn with the session (and a context cancelled by
// SIGINT or SIGTERM), closes everything, and returns fn's exit code. A root or event file
// that cannot be opened is a usage error reported on stderr.
func (f *sessionFlags) withSession(cmd string, stderr io.Writer, fn func(context.Context, *manager.Session) int) int {
	m, perms, done, err := f.openManager(nil, false)
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	defer done()
	warnUntrusted(perms, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s, err := m.Open(ctx, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitToolError
	}
	defer s.Close()
	reportToolErrors(s, stderr)
	return fn(ctx, s)
}

// rootSetup is what a project root needs: the approval rules of the user's and the root's
// config (with --mode over them), and its journal.
func (f *sessionFlags) rootSetup(root string) (manager.RootSetup, error) {
	perms, err := loadPermissions(root, f.mode)
	if err != nil {
		return manager.RootSetup{}, err
	}
	dir, err := journal.Dir(root)
	if err != nil {
		return manager.RootSetup{}, err
	}
	return manager.RootSetup{Permissions: perms, JournalDir: dir}, nil
}

// openManager opens the project root as the flags say, with approver answering the
// policy's asks (nil: headless); a long-lived process (chat, mcp) also sweeps the temp
// files of interrupted writes. Sessions may open other roots (an MCP client's), each set up
// by rootSetup. It returns the manager, the root's policy engine, and done, which closes the
// manager and the event file.
func (f *sessionFlags) openManager(approver manager.Approver, longLived bool) (*manager.Manager, *policy.Engine, func(), error) {
	setup, err := f.rootSetup(f.root)
	if err != nil {
		return nil, nil, nil, err
	}
	prof, err := profile.Get(cmp.Or(f.profile, setup.Permissions.Profile()))
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := manager.Config{
		Root: f.root, GitExcludes: userExcludes(), Network: f.network, Yes: f.yes, Role: f.role, Profile: prof, Approver: approver,
		Permissions: setup.Permissions, JournalDir: setup.JournalDir, OpenRoot: f.rootSetup,
		ToolDirs: append(userToolDirs(), f.tools...), SweepTemps: longLived,
	}
	closeEvents := func() {}
	if f.events != "" {
		events, err := os.OpenFile(f.events, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, nil, err
		}
		cfg.Events, closeEvents = events, func() { events.Close() }
	}
	m, err := manager.New(cfg)
	if err != nil {
		closeEvents()
		return nil, nil, nil, err
	}
	return m, setup.Permissions, func() { m.Close(); closeEvents() }, nil
}

// userToolDirs is the user's own directory of Lua tools ($XDG_CONFIG_HOME/jido/tools), when
// it exists.
func userToolDirs() []string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil
	}
	dir = filepath.Join(dir, "jido", "tools")
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil
	}
	return []string{dir}
}

// reportToolErrors prints the user tool files that failed to load, one line each.
func reportToolErrors(s *manager.Session, stderr io.Writer) {
	for _, err := range s.ToolLoadErrors() {
		fmt.Fprintf(stderr, "jido: tool file skipped: %v\n", err)
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("jido "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
