package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/textproto"
	"github.com/jido-run/jido/forge"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
)

// forgeOptions are the flags of jido forge.
type forgeOptions struct {
	sessionFlags
	providerFlags
	parallel  int
	maxSteps  int
	maxTokens int
	json      bool
	action    string   // plan, run, status, events
	args      []string // after the action
}

func parseForge(argv []string, stderr io.Writer) (*forgeOptions, error) {
	o := &forgeOptions{}
	fs := newFlagSet("forge", stderr)
	o.sessionFlags.registerProject(fs)
	o.providerFlags.register(fs)
	fs.IntVar(&o.parallel, "parallel", 2, "run: tasks run at once")
	fs.IntVar(&o.maxSteps, "max-steps", 40, "model round trips of one agent")
	fs.IntVar(&o.maxTokens, "max-tokens", 2_000_000, "tokens of one agent's model requests, prompt and completion, as the service reports them")
	fs.BoolVar(&o.json, "json", false, "status, and run's summary: print JSON")
	if err := parseArgs(fs, argv); err != nil {
		return nil, err
	}
	o.root.cwd = "" // the agents work on the whole repository
	if fs.NArg() == 0 {
		return nil, fmt.Errorf("forge needs an action: plan \"GOAL\", run [RUN_ID], status [RUN_ID] or events [RUN_ID]")
	}
	o.action, o.args = fs.Arg(0), fs.Args()[1:]
	switch {
	case o.action == "plan" && len(o.args) == 0:
		return nil, fmt.Errorf("forge plan needs the goal: jido forge plan \"add a health endpoint\"")
	case o.action == "plan":
		o.args = []string{strings.Join(o.args, " ")}
	case !slices.Contains([]string{"run", "status", "events"}, o.action):
		return nil, fmt.Errorf("unknown forge action %q (want plan, run, status or events)", o.action)
	case len(o.args) > 1:
		return nil, fmt.Errorf("forge %s takes at most one RUN_ID", o.action)
	}
	return o, nil
}

// runForge implements jido forge: plan a run with the Captain, execute it, show its
// tasks' states and its events.
func runForge(argv []string, stdout, stderr io.Writer) int {
	o, err := parseForge(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido forge: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := o.forgeConfig(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido forge: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	runID := ""
	if o.action != "plan" && len(o.args) == 1 {
		runID = o.args[0]
	}
	f, err := forge.Open(cfg, runID, o.action == "plan")
	if err != nil {
		fmt.Fprintf(stderr, "jido forge: %s\n", termsafe.String(err.Error()))
		return exitToolError
	}
	defer f.Close()
	switch o.action {
	case "plan":
		fmt.Fprintf(stdout, "run %s\n", f.Run().ID())
		err = f.Plan(ctx, o.args[0])
	case "run":
		err = f.Execute(ctx)
		if perr := printStatus(f, o.json, stdout); err == nil {
			err = perr
		}
	case "status":
		err = printStatus(f, o.json, stdout)
	case "events":
		err = f.WriteEvents(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jido forge %s: %s\n", o.action, termsafe.String(err.Error()))
		return exitToolError
	}
	return exitOK
}

// forgeConfig is the Forge's configuration from the flags: the model of every agent (one
// that talks to a model: Forge's agents are models), and the base of their sessions.
func (o *forgeOptions) forgeConfig(ctx context.Context, log io.Writer) (forge.Config, error) {
	perms, err := loadPermissions(o.root.dir, "")
	if err != nil {
		return forge.Config{}, err
	}
	o.config = perms.Model()
	if kind := o.choose(o.config).provider; kind == "offline" || kind == "interpreter" || kind == "auto" && geminiKey() == "" && o.action != "status" && o.action != "events" {
		return forge.Config{}, errors.New("Forge's agents need a model: set GEMINI_API_KEY, or pass --provider openai --model M --base-url URL")
	}
	webCfg, err := o.webConfig(ctx)
	if err != nil {
		return forge.Config{}, err
	}
	return forge.Config{
		Repo: o.root.dir,
		Provider: func(ctx context.Context, role string) (agent.Provider, error) {
			p, _, err := o.providerFlags.open(ctx, nil)
			if err == nil && o.textProtocol {
				p = textproto.Wrap(p)
			}
			return p, err
		},
		Session:  manager.Config{GitExcludes: userExcludes(), Network: o.network, Web: webCfg, ToolDirs: append(userToolDirs(), o.tools...)},
		Parallel: o.parallel, MaxSteps: o.maxSteps, MaxTokens: o.maxTokens, Log: log,
	}, nil
}

// printStatus prints the run's tasks, a line each (or JSON): state, attempts, branch and,
// for a failed task, why.
func printStatus(f *forge.Forge, asJSON bool, w io.Writer) error {
	st, err := f.Status()
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	fmt.Fprintf(w, "run %s%s%s\n", st.Run, map[bool]string{true: " (halted by a change request)"}[st.Halted], map[bool]string{true: " (failed)"}[st.Failed])
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tTYPE\tSTATUS\tATTEMPT\tBRANCH\tDEPENDENCIES\tTITLE\tWHY")
	for _, t := range st.Tasks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", t.ID, t.Type, t.Status, t.Attempt, t.Branch, strings.Join(t.Dependencies, ","),
			termsafe.Line(t.Title), termsafe.Line(t.Why))
	}
	return tw.Flush()
}
