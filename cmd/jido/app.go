package main

import (
	"cmp"
	"context"
	"errors"
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
	"github.com/jido-run/jido/runtime"
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
  jido ask [--root DIR] [--yes] [--json] [--provider P] [--model M] QUESTION...
  jido call [--root DIR] [--yes] [--mode MODE] [--role ROLE] [--profile NAME] [--session NAME] [--cwd DIR] [--allow-network] [--web-allow HOST|NET] [--search-url URL] [--events FILE] TOOL [ARGS_JSON|-]
  jido eval [--root DIR] [--yes] [--mode MODE] [--session NAME] [--events FILE] [--timeout DUR] -e SNIPPET [-e SNIPPET ...]
  jido mcp [--root DIR] [--http ADDR [--http-any] | --socket PATH] [--mode MODE] [--role ROLE] [--yes] [--allow-network] [--web-allow HOST|NET] [--search-url URL] [--call-memory MIB] [--isolation worker|process] [--worker-memory MIB] [--max-sessions N] [--events FILE]
  jido serve --stdio [--root DIR] [--mode MODE] [--profile NAME] [--provider P] [--model M] [--base-url URL]
  jido forge [--root DIR] [--provider P] [--model M] [--base-url URL] [--parallel N] plan "GOAL" | run [RUN_ID] | status [--json] [RUN_ID] | events [RUN_ID]
  jido undo [--root DIR] [--list] [--force] [CHANGE_ID]
  jido rules [--root DIR] [--json] [--revoke ID]
  jido trust [--root DIR]
  jido tools [--root DIR] [--tools DIR] [--profile NAME] [--role ROLE] [--format jsonschema|openai|gemini|anthropic|mcp]
  jido version

Run jido COMMAND --help (or jido help COMMAND) for a command's flags. Flags may come before
or after the positional arguments; -- ends the flags, for an argument that starts with -.
--profile NAME (every command that opens a session) speaks another system's dialect: jido
(default), forj, jidocode, emacs, forge, claude or codex. chat and ask use the [model] of
~/.config/jido/config.toml, else Gemini when GEMINI_API_KEY is set, and answer offline
with a rule-based interpreter otherwise. Every command that opens a session also takes
--tools DIR (repeatable): Lua tools to load besides .jido/tools/ and ~/.config/jido/tools/.
`

// command is what the help of a subcommand says besides its flags.
type command struct {
	args    string // the positional arguments, for the usage line
	summary string // what the command does, one line
}

// commands are the subcommands, by name.
var commands = map[string]command{
	"chat":    {"", "Talk with the coding agent about the project, turn by turn."},
	"ask":     {"QUESTION...", "Answer one question through the tools, then exit (the words are joined into the question)."},
	"call":    {"TOOL [ARGS_JSON|-]", "Run one tool and print its ToolResult as one JSON object (- reads ARGS_JSON from standard input)."},
	"eval":    {"-e SNIPPET [-e SNIPPET ...]", "Run Lua snippets in one session, printing one JSON line per snippet."},
	"mcp":     {"", "Serve the tools to an MCP client, over stdio or streamable HTTP."},
	"serve":   {"--stdio", "Serve one session to an editor (Emacs's jido.el) over JSON-RPC on standard input and output."},
	"forge":   {"plan \"GOAL\" | run [RUN_ID] | status [RUN_ID] | events [RUN_ID]", "Forge (seed 002): a Captain plans tasks, agents do them in worktrees of their own, a Refinery merges."},
	"undo":    {"[CHANGE_ID]", "Undo the last change set (or CHANGE_ID), printing the ToolResult as JSON."},
	"rules":   {"", "Show the approval rules in force (a table; --json for scripts), or remove one."},
	"trust":   {"", "Show the project's config and Lua tools, and trust them as they are now."},
	"tools":   {"", "Print the catalogue of tools in a schema format."},
	"version": {"", "Print the version of jido and of the Go toolchain that built it."},
}

// helpFor returns the help of command name when args ask for it (-h, --help): the
// command's own parser decides, its output discarded, so that a flag's value or an
// argument after -- is never taken for a request of help.
func helpFor(name string, args []string) (string, bool) {
	var err error
	switch name {
	case "chat", "ask":
		_, err = parseChat(name, args, io.Discard)
	case "call":
		_, err = parseCall(args, io.Discard)
	case "eval":
		_, err = parseEval(args, io.Discard)
	case "mcp":
		_, err = parseMCP(args, io.Discard)
	case "forge":
		_, err = parseForge(args, io.Discard)
	case "serve":
		_, err = parseServe(args, io.Discard)
	case "undo":
		_, err = parseUndo(args, io.Discard)
	case "rules":
		_, err = parseRules(args, io.Discard)
	case "trust":
		_, err = parseTrust(args, io.Discard)
	case "tools":
		_, err = parseTools(args, io.Discard)
	case "version":
		err = parseVersion(args, io.Discard)
	}
	var help *helpRequest
	if errors.As(err, &help) {
		return help.text, true
	}
	return "", false
}

// run dispatches a command line and returns the process exit code. A command's --help
// (or -h, or jido help COMMAND) prints its help on stdout and succeeds.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if help, ok := helpFor(args[0], args[1:]); ok {
		fmt.Fprint(stdout, help)
		return exitOK
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
	case "forge":
		return runForge(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdin, stdout, stderr)
	case "undo":
		return runUndo(args[1:], stdout, stderr)
	case "trust":
		return runTrust(args[1:], stdout, stderr)
	case "rules":
		return runRules(args[1:], stdout, stderr)
	case "version", "--version":
		if len(args) > 1 && args[0] == "version" {
			if err := parseVersion(args[1:], stderr); err != nil {
				return exitUsage
			}
		}
		return runVersion(stdout)
	case "help", "-h", "--help":
		if len(args) > 1 {
			if help, ok := helpFor(args[1], []string{"--help"}); ok {
				fmt.Fprint(stdout, help)
				return exitOK
			}
			fmt.Fprintf(stderr, "jido help: unknown command %q\n\n%s", args[1], usage)
			return exitUsage
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "jido: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// sessionFlags are the flags of every command that opens a session.
type sessionFlags struct {
	root    projectRoot
	yes     bool
	events  string
	network bool
	mode    string
	role    string
	profile string
	tools   stringList // --tools DIRs of Lua tools, besides the user's and the project's
	// callMemory is the MiB of Lua data one call may allocate (0: the runtime's default),
	// and isolation where sessions' Lua runs ("": in process); set by jido mcp.
	callMemory   int
	isolation    string
	workerMemory int        // MiB of a worker process's ceiling (0: the default)
	workerLog    io.Writer  // told how workers are bounded and confined (jido mcp's stderr)
	maxSessions  int        // sessions open at once (0: no cap)
	webAllow     stringList // --web-allow: hosts and networks web_fetch may reach although private
	searchURL    string     // --search-url: the SearXNG instance web_search asks
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// register adds the session flags to fs.
func (f *sessionFlags) register(fs *flag.FlagSet) {
	f.registerProject(fs)
	fs.BoolVar(&f.yes, "yes", false, "approve every action of this call without asking")
	fs.StringVar(&f.events, "events", "", "append NDJSON events to this file")
	fs.StringVar(&f.mode, "mode", "", "approval mode: default, auto-edit, yolo, plan, read-only (default: the config's, else default)")
	fs.StringVar(&f.role, "role", "", "limit the session to a role's tools: reader, editor, runner, full, one from the config, or the profile's (forge: captain, type1, type2, type3, refinery, executor)")
	fs.StringVar(&f.profile, "profile", "", "the dialect of tool names, arguments and results: "+strings.Join(profile.Names(), ", ")+" (default: the config's profile, else jido)")
}

// registerProject adds the flags of what sessions may reach: the root, the network and
// the web, more Lua tools (all jido forge takes: its agents' roles, mode and profile are
// Forge's).
func (f *sessionFlags) registerProject(fs *flag.FlagSet) {
	registerRoot(fs, &f.root)
	fs.BoolVar(&f.network, "allow-network", false, "let commands (run_shell, run_tests) reach the network")
	fs.Var(&f.tools, "tools", "a directory of Lua tools (*.lua) to load too; repeatable")
	fs.Var(&f.webAllow, "web-allow", "a host (docs.corp, *.corp), address or network (10.1.0.0/16) web_fetch may reach although it is not public; repeatable")
	fs.StringVar(&f.searchURL, "search-url", "", "the SearXNG instance web_search asks (default: Exa with EXA_API_KEY, else Gemini with GEMINI_API_KEY)")
}

// withSession opens the project root and one session as the flags say, reports tool files
// that failed to load on stderr, runs fn with the session (and a context cancelled by
// SIGINT or SIGTERM), closes everything, and returns fn's exit code. A root or event file
// that cannot be opened is a usage error reported on stderr.
func (f *sessionFlags) withSession(cmd string, stderr io.Writer, fn func(context.Context, *manager.Session) int) int {
	return f.runSession(cmd, stderr, func(ctx context.Context, m *manager.Manager) (*manager.Session, error) { return m.Open(ctx, "") }, fn)
}

// runSession is withSession with the session opened by open (a named session restores its
// state).
func (f *sessionFlags) runSession(cmd string, stderr io.Writer, open func(context.Context, *manager.Manager) (*manager.Session, error), fn func(context.Context, *manager.Session) int) int {
	m, perms, done, err := f.openManager(nil, false, false)
	if err != nil {
		fmt.Fprintf(stderr, "jido %s: %v\n", cmd, err)
		return exitUsage
	}
	defer done()
	warnUntrusted(perms, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s, err := open(ctx, m)
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
// files of interrupted writes, and an agent's (chat, ask, mcp) sessions prepare their
// command sandbox after their first call (manager.Config.WarmShell). Sessions may open other roots (an MCP client's), each set up
// by rootSetup. It returns the manager, the root's policy engine, and done, which closes the
// manager and the event file.
func (f *sessionFlags) openManager(approver manager.Approver, longLived, agent bool) (*manager.Manager, *policy.Engine, func(), error) {
	setup, err := f.rootSetup(f.root.dir)
	if err != nil {
		return nil, nil, nil, err
	}
	prof, err := profile.Get(cmp.Or(f.profile, setup.Permissions.Profile()))
	if err != nil {
		return nil, nil, nil, err
	}
	webCfg, err := f.webConfig(context.Background())
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := manager.Config{
		Root: f.root.dir, Cwd: f.root.cwd, GitExcludes: userExcludes(), Network: f.network, Yes: f.yes, Role: f.role, Profile: prof, Approver: approver,
		Permissions: setup.Permissions, JournalDir: setup.JournalDir, OpenRoot: f.rootSetup,
		ToolDirs: append(userToolDirs(), f.tools...), SweepTemps: longLived, WarmShell: agent,
		Limits: runtime.Limits{MaxMemory: uint64(f.callMemory) << 20}, Isolation: f.isolation, WorkerMemory: int64(f.workerMemory) << 20,
		MaxSessions: f.maxSessions, Web: webCfg,
	}
	if f.workerLog != nil {
		cfg.OnWorkerStart = workerReporter(f.workerLog, f.maxSessions)
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

// newFlagSet returns a flag set that reports errors instead of exiting or printing: parse
// it with parseArgs, whose errors end with the command's usage line, for the caller to print.
func newFlagSet(name string, _ io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("jido "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// helpRequest is the error parseArgs returns for -h or --help: the command's help.
type helpRequest struct{ text string }

func (*helpRequest) Error() string { return "help requested" }

// parseArgs parses args with fs. Flags may come anywhere among the positional arguments
// (jido call read_file '{...}' --yes); "--" ends the flags, so that an argument that starts
// with "-" is taken as it is (jido ask -- -v means what?). -h, -help and --help, unless
// the command defines them, return a *helpRequest with the command's help. After it,
// fs.Args() are the positional arguments, in order.
func parseArgs(fs *flag.FlagSet, args []string) error {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil && (name == "h" || name == "help") {
			return &helpRequest{text: helpText(fs)}
		}
		flags = append(flags, a)
		if f == nil || hasValue || isBoolFlag(f) {
			continue // an unknown flag is fs.Parse's to report
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	if err := fs.Parse(append(append(flags, "--"), positional...)); err != nil {
		name := strings.TrimPrefix(fs.Name(), "jido ")
		return fmt.Errorf("%w\n%s\nRun 'jido %s --help' for its flags.", err, usageLine(name), name)
	}
	if f := fs.Lookup("root"); f != nil {
		if r, ok := f.Value.(*projectRoot); ok {
			r.locate()
		}
	}
	return nil
}

// isBoolFlag reports whether f takes no value (--yes rather than --root DIR).
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// usageLine is the one-line usage of the command name.
func usageLine(name string) string {
	line := "Usage: jido " + name + " [flags]"
	if args := commands[name].args; args != "" {
		line += " " + args
	}
	return line
}

// argNames name the values of the flags in help texts (--root DIR rather than --root STRING).
var argNames = map[string]string{
	"root": "DIR", "tools": "DIR", "cwd": "DIR", "events": "FILE", "transcript": "FILE", "resume": "FILE|last",
	"mode": "MODE", "role": "ROLE", "profile": "NAME", "provider": "NAME", "model": "NAME", "base-url": "URL",
	"timeout": "DURATION", "plan-timeout": "DURATION", "e": "SNIPPET", "http": "ADDR", "socket": "PATH",
	"revoke": "ID", "format": "FORMAT",
}

// helpText is the help of fs's command: its usage line, what it does, and its flags.
func helpText(fs *flag.FlagSet) string {
	name := strings.TrimPrefix(fs.Name(), "jido ")
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", usageLine(name), commands[name].summary)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			b.WriteString("\nFlags:\n")
			first = false
		}
		arg, text := flag.UnquoteUsage(f)
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		fmt.Fprintf(&b, "  %s%s", dashes, f.Name)
		if !isBoolFlag(f) {
			b.WriteString(" " + cmp.Or(argNames[f.Name], strings.ToUpper(cmp.Or(arg, "value"))))
		}
		b.WriteString("\n      " + text)
		switch {
		case f.DefValue == "" || f.DefValue == "false" || f.DefValue == "0" || f.DefValue == "0s":
		case arg == "string":
			fmt.Fprintf(&b, " (default %q)", f.DefValue)
		default:
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteString("\n")
	})
	if name != "version" {
		b.WriteString("\nFlags may also follow the arguments; -- ends the flags.\n")
	}
	return b.String()
}
