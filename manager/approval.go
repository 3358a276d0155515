package manager

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shellclass"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
	"mvdan.cc/sh/v3/syntax"
)

// Answer is an approver's reply to a call the policy asks about.
type Answer int

const (
	Deny         Answer = iota // refuse this call
	AllowOnce                  // run this call
	AllowSession               // run it, and calls like it for the rest of the session
	AllowAlways                // run it, and remember a rule in the project's config
)

// String names the answer as approval.decision events do.
func (a Answer) String() string {
	switch a {
	case AllowOnce:
		return "allow-once"
	case AllowSession:
		return "allow-session"
	case AllowAlways:
		return "allow-always"
	}
	return "deny"
}

// ApprovalRequest is what an approver is shown.
type ApprovalRequest struct {
	Tool     string   `json:"tool"`
	Args     any      `json:"args"`
	Class    string   `json:"class,omitempty"` // shell tools: read-only, mutating, network, destructive
	Paths    []string `json:"paths,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Preview  string   `json:"preview,omitempty"` // a unified diff for file changes, the command for shell
	Reason   string   `json:"reason"`            // why the policy asks
	Rule     string   `json:"rule"`              // the rule AllowAlways would add (TOML)
}

// Approver answers the calls the policy asks about (a terminal prompt, an MCP
// elicitation, a test script). Without one, a session is headless and such calls fail
// with a permission-error that says which rule to add.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Answer, error)
}

// policyGate is the session's builtin.Gate: the role's allow-list, then the session's
// fork of the policy engine, then the approver.
type policyGate struct {
	root     *security.Root
	engine   *policy.Engine
	approver Approver
	yes      bool     // approve every ask (jido call --yes); deny rules still apply
	role     string   // "" for none
	tools    []string // the role's tools, nil for all
	// record writes an approval event of the session (its id and the running call's are
	// filled in); set by newSession.
	record func(Event)
}

// Values of Event.Decision and Event.By for approval.decision events.
const (
	decidedBy = "user" // the approver answered
	yesBy     = "yes"  // --yes (Config.Yes) approved
	noOneBy   = "none" // no approver: headless refusal
)

// sessionGate makes the gate of a session on p: nil when there is no policy and the
// session asks for no mode or role (every call runs, the Go API's default). A mode or role
// without a policy gets one that allows everything else.
func (m *Manager) sessionGate(p *project, o sessionOptions) (*policyGate, error) {
	engine := p.perms
	role := cmp.Or(o.role, m.cfg.Role)
	if engine == nil {
		if o.mode == "" && role == "" && o.tools == nil {
			return nil, nil
		}
		engine = policy.New(policy.ModeYolo)
	}
	if o.mode != "" {
		if _, err := policy.ParseMode(string(o.mode)); err != nil {
			return nil, err
		}
	}
	g := &policyGate{root: p.root, engine: engine.Fork(o.mode), approver: o.approver, yes: m.cfg.Yes, role: role}
	if g.approver == nil {
		g.approver = m.cfg.Approver
	}
	switch {
	case o.tools != nil: // a forge planner: its parent's plan tools
		g.tools = o.tools
	case role == "":
	case o.profile.HasRole(role):
		g.tools = o.profile.RoleTools(role, false)
	default:
		tools, ok := engine.Role(role)
		if !ok {
			return nil, unknownRole(role)
		}
		g.tools = tools
	}
	return g, nil
}

// unknownRole is the error for a role no config defines.
func unknownRole(role string) error {
	return fmt.Errorf("unknown role %q (built in: reader, editor, runner, full; the forge profile's: captain, type1, type2, type3, refinery, executor)", role)
}

// Check implements builtin.Gate.
func (g *policyGate) Check(ctx context.Context, c builtin.Call) *definitions.ToolError {
	if g.tools != nil && !slices.Contains(g.tools, c.Tool.Name) {
		return definitions.NewError(definitions.PermissionError, "tool %s is not available to the %s role", c.Tool.Name, g.role).
			With("tool", c.Tool.Name).With("role", g.role).Hint("Use one of the role's tools: " + fmt.Sprint(g.tools))
	}
	req, class := g.request(c)
	d := g.engine.Decide(req)
	switch {
	case d.Action == policy.Allow:
		return nil
	case d.Action == policy.Deny:
		return definitions.NewError(definitions.PermissionError, "%s is denied: %s", c.Tool.Name, d.Reason).With("tool", c.Tool.Name).
			Hint("This call is not allowed by the policy; do something else or ask the user to change the rules")
	case c.Composite:
		return nil // a user tool's own calls are asked about one by one, with their previews
	}
	ev := Event{Event: "approval.request", Tool: c.Tool.Name, Reason: d.Reason}
	if p, ok := c.Params.(definitions.RunShellParams); ok {
		ev.Command = shellPreview(p)
	}
	g.record(ev)
	decided := func(decision, by string) {
		g.record(Event{Event: "approval.decision", Tool: c.Tool.Name, Decision: decision, By: by})
	}
	switch {
	case g.yes:
		decided("allow-once", yesBy)
		return nil
	case g.approver == nil:
		decided("deny", noOneBy)
		return definitions.NewError(definitions.PermissionError, "%s needs approval and no one can give it here: %s", c.Tool.Name, d.Reason).
			With("tool", c.Tool.Name).With("rule", d.Suggest).
			Hint("Ask the user to allow it: add this rule to .jido/config.toml, or run with --yes:\n" + d.Suggest)
	}
	ar := ApprovalRequest{Tool: c.Tool.Name, Args: c.Params, Class: class, Paths: req.Paths, Reason: d.Reason, Rule: d.Suggest}
	for _, cmd := range req.Commands {
		words := cmd.Args
		if cmd.Name != "" { // a nameless command is a redirection or assignments
			words = append([]string{cmd.Name}, words...)
		}
		ar.Commands = append(ar.Commands, strings.Join(words, " "))
	}
	ar.Preview = preview(ctx, c)
	answer, err := g.approver.Approve(ctx, ar)
	if err != nil {
		decided("deny", decidedBy)
		return definitions.NewError(definitions.PermissionError, "asking for approval of %s failed: %v", c.Tool.Name, err)
	}
	decided(answer.String(), decidedBy)
	scope := policy.ScopeOnce
	switch answer {
	case Deny:
		return definitions.NewError(definitions.PermissionError, "the user denied %s", c.Tool.Name).With("tool", c.Tool.Name).
			Hint("Do not retry the same call; ask the user what they want instead")
	case AllowSession:
		scope = policy.ScopeSession
	case AllowAlways:
		scope = policy.ScopeProject
	}
	if scope != policy.ScopeOnce {
		if _, err := g.engine.Remember(policy.RuleFor(req), scope); err != nil {
			return definitions.NewError(definitions.InternalError, "remembering the approval: %v", err)
		}
	}
	return nil
}

// commandsIsolated reports whether commands run in a private root (a variable for tests).
var commandsIsolated = sandbox.Isolates

// request describes a call for the policy: the tool's flags, the canonical paths it names,
// and for shell tools the parsed commands and their class.
func (g *policyGate) request(c builtin.Call) (policy.Request, string) {
	req := policy.Request{Tool: c.Tool.Name, ReadOnly: c.Tool.ReadOnly, Mutating: c.Tool.Mutating, Destructive: c.Tool.Destructive}
	for _, name := range c.Tool.Paths(c.Params) {
		if canon, err := g.root.Resolve(name); err == nil {
			name = canon
		}
		req.Paths = append(req.Paths, name)
	}
	var cls *shellclass.Result
	switch p := c.Params.(type) {
	case definitions.RunShellParams:
		r := shellclass.Classify(p.Command)
		if len(p.Cmd) > 0 {
			r = shellclass.ClassifyArgv(p.Cmd)
		}
		env, risky := shellclass.ClassifyEnv(p.Env)
		if p.Stdin != nil && (p.Env["BASH_ENV"] != "" || p.Env["ENV"] != "") {
			// The shell may source its startup file from standard input: stdin is code too.
			in := shellclass.Classify(*p.Stdin)
			env.Class = max(env.Class, in.Class)
			env.Reasons = append(env.Reasons, in.Reasons...)
		}
		r.Class = max(r.Class, env.Class)
		r.Reasons = append(r.Reasons, env.Reasons...)
		req.RiskyEnv = risky
		cls = &r
	case definitions.RunTestsParams:
		r := shellclass.ClassifyArgv(p.Command)
		if len(p.Command) == 0 {
			r = shellclass.Result{Class: shellclass.Mutating, Parsed: true} // a test run builds and writes caches
		}
		cls = &r
	}
	if cls == nil {
		return req, ""
	}
	req.Class = cls.Class.String()
	if req.Class == shellclass.ReadOnly.String() && !commandsIsolated() {
		// Without a private root a "read-only" command could still write .git/config and
		// the like: the user sees every command.
		req.Class = shellclass.Mutating.String()
	}
	for _, cmd := range cls.Commands {
		req.Commands = append(req.Commands, policy.Command{Name: cmd.Name, Args: cmd.Args})
	}
	return req, req.Class
}

// preview renders what the call would do: its dry run's diff, or the call's arguments.
func preview(ctx context.Context, c builtin.Call) string {
	if c.Preview != nil {
		if res, err := c.Preview(ctx); err == nil {
			if d, ok := res.(definitions.Differ); ok && d.ChangeDiff() != "" {
				return d.ChangeDiff()
			}
		}
	}
	if p, ok := c.Params.(definitions.RunShellParams); ok {
		return shellPreview(p)
	}
	data, _ := json.Marshal(c.Params)
	return string(data)
}

// maxStdinPreview caps the standard input shown with a command.
const maxStdinPreview = 2000

// shellPreview shows a run_shell call with every input that decides what runs: the
// command, and when given its working directory, its environment and its standard input
// (which BASH_ENV=/dev/stdin, for one, makes code).
func shellPreview(p definitions.RunShellParams) string {
	var b strings.Builder
	if p.Command != "" {
		b.WriteString(p.Command)
	} else {
		for i, a := range p.Cmd {
			if i > 0 {
				b.WriteByte(' ')
			}
			if q, err := syntax.Quote(a, syntax.LangBash); err == nil {
				a = q
			} else {
				a = strconv.Quote(a)
			}
			b.WriteString(a)
		}
	}
	if p.Cwd != "" && p.Cwd != "." {
		fmt.Fprintf(&b, "\n  in: %s", p.Cwd)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Env)) {
		fmt.Fprintf(&b, "\n  env: %s=%s", name, p.Env[name])
	}
	if p.Stdin != nil {
		in := *p.Stdin
		if len(in) > maxStdinPreview {
			in = in[:maxStdinPreview] + fmt.Sprintf("[... %d more bytes]", len(in)-maxStdinPreview)
		}
		fmt.Fprintf(&b, "\n  stdin: %q", in)
	}
	return b.String()
}
