package manager

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jido-run/jido/journal"
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
	// RuleFile is the config file AllowAlways writes Rule to (the project's), "" when the
	// policy has none (then AllowAlways fails); RuleNote says what else the user should
	// know of it, e.g. that the file is not trusted, so that the rule applies to later
	// sessions only after `jido trust`.
	RuleFile string `json:"rule_file,omitempty"`
	RuleNote string `json:"rule_note,omitempty"`
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
	// journal is the session's view of the project's journal (nil: none), from which an
	// undo call's approval names the files it would restore or delete.
	journal *journal.Journal
}

// userInitiatedKey marks the context of a call the user made themselves (UserInitiated).
type userInitiatedKey struct{}

// UserInitiated returns a context under which a session's calls run with the user's own
// authority: a command the user typed (a chat's !cmd, its /undo), not one a model chose.
// The policy gate then lets a call it would ask about run without asking a second time:
// the user asked for exactly this call. Deny rules, a read-only mode, the session's role
// and plan mode still apply, and the approval events record it (by "user-initiated").
// Never use it for a call a model proposed.
func UserInitiated(ctx context.Context) context.Context {
	return context.WithValue(ctx, userInitiatedKey{}, true)
}

// isUserInitiated reports whether ctx carries UserInitiated's mark.
func isUserInitiated(ctx context.Context) bool {
	v, _ := ctx.Value(userInitiatedKey{}).(bool)
	return v
}

// Values of Event.Decision and Event.By for approval.decision events.
const (
	decidedBy = "user"           // the approver answered
	yesBy     = "yes"            // --yes (Config.Yes) approved
	userBy    = "user-initiated" // the user made the call themselves (UserInitiated)
	noOneBy   = "none"           // no approver: headless refusal
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
	case isUserInitiated(ctx):
		decided("allow-once", userBy)
		return nil
	case g.yes:
		decided("allow-once", yesBy)
		return nil
	case g.approver == nil:
		decided("deny", noOneBy)
		return definitions.NewError(definitions.PermissionError, "%s needs approval and no one can give it here: %s", c.Tool.Name, d.Reason).
			With("tool", c.Tool.Name).With("rule", d.Suggest).
			Hint(g.refusalHint(d))
	}
	ar := ApprovalRequest{Tool: c.Tool.Name, Args: c.Params, Class: class, Paths: req.Paths, Reason: d.Reason, Rule: d.Suggest}
	ar.RuleFile, ar.RuleNote = g.alwaysTarget()
	for _, cmd := range req.Commands {
		words := cmd.Args
		if cmd.Name != "" { // a nameless command is a redirection or assignments
			words = append([]string{cmd.Name}, words...)
		}
		ar.Commands = append(ar.Commands, strings.Join(words, " "))
	}
	if p, ok := c.Params.(definitions.UndoParams); ok {
		// What the undo would do, not its arguments ({} for "the last change").
		ar.Paths, ar.Preview = builtin.DescribeUndo(g.journal, p)
	} else {
		ar.Preview = preview(ctx, c)
	}
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

// refusalHint tells a headless caller every step that lets the refused call run: the rule,
// and where it can go. In the project's config a hand-written rule applies only once the
// file's new content is trusted (`jido trust`: every edit of a trusted file voids its trust
// too); the user's config needs no trust. An ask rule that decided the call must go first.
func (g *policyGate) refusalHint(d policy.Decision) string {
	var b strings.Builder
	b.WriteString("Ask the user to allow it")
	if d.Rule != nil && d.Rule.Action == policy.Ask {
		fmt.Fprintf(&b, ": the ask rule %s (%s) asks about this call, and an allow rule after it changes nothing; remove it (jido rules --revoke %s), or run with --yes.", d.Rule.ID, d.Rule.Source, d.Rule.ID)
		fmt.Fprintf(&b, " Without it, this rule allows the call:\n%s", d.Suggest)
		return b.String()
	}
	project := g.engine.ConfigFile(policy.ScopeProject)
	user := g.engine.ConfigFile(policy.ScopeUser)
	b.WriteString(", in one of these ways:\n")
	switch {
	case project == "":
	case g.engine.NeedsTrust():
		trust := "jido trust"
		if dir := filepath.Dir(filepath.Dir(project)); dir != "." {
			trust += " --root " + dir
		}
		fmt.Fprintf(&b, "- add the rule below to %s, then run `%s` (the project's config applies only while trusted, and an edit voids its trust)\n", project, trust)
	default:
		fmt.Fprintf(&b, "- add the rule below to %s\n", project)
	}
	if user != "" {
		fmt.Fprintf(&b, "- or add it to %s, the user's own config, which needs no trust\n", user)
	}
	b.WriteString("- or run with --yes (approves every call of this run)\n")
	b.WriteString(d.Suggest)
	return b.String()
}

// alwaysTarget is where AllowAlways records its rule, and what the user should know of it.
func (g *policyGate) alwaysTarget() (file, note string) {
	file = g.engine.ConfigFile(policy.ScopeProject)
	if file != "" && g.engine.NeedsTrust() && !g.engine.ProjectTrusted() {
		note = "that file is not trusted: the rule applies to this run, and to later ones after `jido trust`"
	}
	return file, note
}

// classNetwork is the policy class of the web tools' calls.
var classNetwork = shellclass.Network.String()

// commandsIsolated reports whether commands run in a private root (a variable for tests).
var commandsIsolated = sandbox.Isolates

// request describes a call for the policy: the tool's flags, the canonical paths it names,
// and for shell tools the parsed commands and their class.
func (g *policyGate) request(c builtin.Call) (policy.Request, string) {
	req := policy.Request{Tool: c.Tool.Name, ReadOnly: c.Tool.ReadOnly, Mutating: c.Tool.Mutating, Destructive: c.Tool.Destructive}
	if p, ok := c.Params.(definitions.UndoParams); ok && p.List {
		req.ReadOnly, req.Mutating = true, false // listing the change sets changes nothing
	}
	for _, name := range c.Tool.Paths(c.Params) {
		if canon, err := g.root.Resolve(name); err == nil {
			name = canon
		}
		req.Paths = append(req.Paths, name)
	}
	switch p := c.Params.(type) {
	case definitions.WebFetchParams:
		req.Class = classNetwork
		if u, err := url.Parse(p.URL); err == nil && u.Hostname() != "" {
			req.Hosts = []string{strings.ToLower(u.Hostname())}
		}
		return req, req.Class
	case definitions.WebSearchParams:
		req.Class = classNetwork
		return req, req.Class
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
