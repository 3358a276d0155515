// Package profile speaks the dialect of each system jido's tools come from (the seeds) and
// of the agents models are trained on: a profile renames tools and arguments, converts
// units, and reshapes results and errors, as data over the one implementation of each
// canonical tool. A profile never runs a tool itself; the manager does, through the same
// gate, journal and sandbox as a canonical call.
package profile

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// Default is the profile of a session that names none: jido's canonical tools.
const Default = "jido"

// Profile is one dialect: the tools it offers under its names, and how its calls and
// results map to the canonical ones.
type Profile struct {
	Name  string
	About string // one line: whose dialect this is
	Tools []*Tool
	// IgnoreUnknown drops arguments the dialect does not know instead of refusing the call
	// (seed 000: "Unknown fields are ignored").
	IgnoreUnknown bool
	// SandboxError is the error type of a refusal by the sandbox (a path outside the root,
	// a secret or protected file); "" keeps permission-error.
	SandboxError string
	// ErrorTypes renames the error types the dialect lacks to the one it reports them as
	// (Forj's run_shell fails with process-error, a timeout included).
	ErrorTypes map[string]string
	// Envelope wraps every result and error the way the dialect's clients expect them
	// (seed 001's {status, result, message}); nil keeps jido's {ok, result, error}.
	Envelope Envelope
	// Roles are the dialect's roles: the tools (by the dialect's names) each may call.
	Roles map[string][]string
	// Spawns say which roles each role may start as sub-agents (seed 002's spawn rules).
	Spawns map[string][]string
	// Provided are, per role, tools of an embedder that the role may also run, by their
	// own names (Forge's artifact, agent and merge tools, which `jido forge` binds to its
	// run): offered only in sessions that have them.
	Provided map[string][]string

	once   sync.Once
	byName map[string]*Tool

	namesOnce sync.Once
	renames   errorRewriter // canonical tool names in error texts to the dialect's
}

// Envelope wraps a dialect's results and errors.
type Envelope interface {
	Result(v any, message string) any
	Error(e *definitions.ToolError) any
}

// Tool is one tool of a dialect over a canonical tool.
type Tool struct {
	Name      string // in the dialect
	Canonical string // the tool that runs
	About     string // the dialect's description; "" keeps the canonical one
	Args      []Arg  // the dialect's arguments, in order
	// Inherit passes every canonical argument under its own name (the tool is the same in
	// the dialect), before Args.
	Inherit bool
	// Fixed are canonical arguments the dialect always passes (forj reads raw content).
	Fixed map[string]any
	// Route may pick another canonical tool, and adjust its arguments, once they are
	// mapped (emacs's directory_list globs when given a pattern); nil keeps Canonical.
	Route func(c *Call)
	// Routes lists the other canonical tools Route may pick (for roles' allow-lists).
	Routes []string
	// Shape turns the canonical result into the dialect's; nil keeps it as it is.
	Shape func(c *Call) any
	// OnPlan runs the call on the session's plan overlay beside the real files (forge's
	// plan_* tools) instead of on the files.
	OnPlan bool

	once sync.Once
	decl *definitions.Tool
	err  error
}

// Arg is one argument of a dialect's tool.
type Arg struct {
	Name  string  // in the dialect
	To    string  // the canonical argument; "" when the same as Name
	Scale float64 // canonical value = dialect value × Scale (milliseconds to seconds: 0.001); 0 is 1
	About string  // the dialect's description; "" keeps the canonical one
	// Schema is the argument's schema when its type differs from the canonical argument's;
	// Convert must then set the canonical arguments from it.
	Schema  *jsonschema.Schema
	Convert func(v any, canon map[string]any) *definitions.ToolError
	// Checks says Convert checks the value against Schema itself, faster than the schema
	// library would (forge's range, on every read).
	Checks bool
	// Required makes the argument required in the dialect even where the canonical one is
	// optional; Optional makes a required canonical argument optional (Default fills it).
	Required, Optional bool
	// Default is the canonical value passed when the dialect's call leaves the argument out.
	Default any
}

// Call is one call of a dialect's tool on its way through the canonical tool.
type Call struct {
	Tool   *Tool
	Args   map[string]any // as the dialect's client sent them
	Canon  map[string]any // as the canonical tool gets them
	Name   string         // the canonical tool that runs (Route may change it)
	Result any            // the canonical tool's result
}

var (
	registry = map[string]*Profile{}
	names    []string
)

// register adds a profile at package init.
func register(p *Profile) *Profile {
	registry[p.Name] = p
	names = append(names, p.Name)
	slices.Sort(names)
	return p
}

// Get returns the named profile; "" is the default.
func Get(name string) (*Profile, error) {
	if name == "" {
		name = Default
	}
	if p, ok := registry[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("unknown profile %q (want one of %s)", name, strings.Join(names, ", "))
}

// Names lists the profiles, sorted.
func Names() []string { return slices.Clone(names) }

// Canonical reports whether p speaks jido's own names and shapes (no mapping at all).
func (p *Profile) Canonical() bool { return p == nil || p.Name == Default }

// Lookup returns the dialect's tool called name.
func (p *Profile) Lookup(name string) (*Tool, bool) {
	p.once.Do(func() {
		p.byName = make(map[string]*Tool, len(p.Tools))
		for _, t := range p.Tools {
			p.byName[t.Name] = t
		}
	})
	t, ok := p.byName[name]
	return t, ok
}

// Offers reports whether p has a tool of that name; the default profile offers every
// canonical tool.
func (p *Profile) Offers(name string) bool {
	if p.Canonical() {
		_, ok := definitions.Lookup(name)
		return ok
	}
	_, ok := p.Lookup(name)
	return ok
}

// Unknown is the error of a call that names no tool of p: when another profile (or jido's
// catalogue) has a tool of that name, it says which, and what p calls the same tool.
func (p *Profile) Unknown(name string) *definitions.ToolError {
	var known []string
	for _, t := range p.Tools {
		known = append(known, t.Name)
	}
	var owners []string
	canonical, onPlan := "", false
	if _, ok := definitions.Lookup(name); ok && !p.Canonical() {
		owners, canonical = append(owners, Default), name
	}
	for _, n := range names {
		if o := registry[n]; o != p && !o.Canonical() {
			if t, ok := o.Lookup(name); ok {
				owners = append(owners, n)
				canonical, onPlan = t.Canonical, t.OnPlan
			}
		}
	}
	if len(owners) == 0 {
		return definitions.UnknownTool(name, known)
	}
	of := "the " + owners[0] + " profile"
	if len(owners) > 1 {
		of = "the " + strings.Join(owners, ", ") + " profiles"
	}
	e := definitions.NewError(definitions.ValidationError, "`%s` is a tool of %s, not of the %s profile this session speaks", name, of, p.Name).
		With("tool", name).With("profile", p.Name).With("profiles", owners)
	mine := ""
	for _, t := range p.Tools {
		if t.Canonical == canonical {
			mine = t.Name
			break
		}
	}
	if p.Canonical() {
		mine, known = canonical, definitions.Names()
		if onPlan {
			return e.Hint("jido plans in plan mode (--mode plan), where " + canonical + " and every tool act on the plan, and plan_apply writes it")
		}
	}
	if mine != "" {
		return e.With("did_you_mean", mine).Hint("Call `" + mine + "`, this profile's name for it")
	}
	return e.Hint("This profile's tools: " + strings.Join(known, ", "))
}

// Role returns the dialect tools of one of p's roles.
func (p *Profile) Role(name string) ([]string, bool) {
	tools, ok := p.Roles[name]
	return tools, ok
}

// Decl is the tool's declaration in the dialect: its name, description, flags and the
// schema of its arguments, for exporters and for checking a call's arguments.
func (t *Tool) Decl() (*definitions.Tool, error) {
	t.once.Do(func() { t.decl, t.err = declare(t) })
	return t.decl, t.err
}

// Map checks a dialect call's arguments and returns the canonical tool to run and its
// arguments. Argument errors name the dialect's arguments.
func (p *Profile) Map(t *Tool, args map[string]any) (*Call, *definitions.ToolError) {
	decl, err := t.Decl()
	if err != nil {
		return nil, definitions.NewError(definitions.InternalError, "profile %s: %v", p.Name, err)
	}
	if p.IgnoreUnknown {
		args = known(decl, args)
	}
	rest, own := t.selfChecked(args)
	checked, terr := decl.Check(rest)
	if terr != nil {
		return nil, terr
	}
	for k, v := range own {
		checked[k] = v
	}
	canon := make(map[string]any, len(checked)+len(t.Fixed))
	for k, v := range t.Fixed {
		canon[k] = v
	}
	if t.Inherit {
		for k, v := range checked {
			canon[k] = v
		}
	}
	for i := range t.Args {
		a := &t.Args[i]
		v, ok := checked[a.Name]
		if given := args[a.Name]; given == nil { // left out (or null): the canonical default applies
			ok = false
		}
		if !ok {
			if a.Default != nil {
				canon[a.target()] = a.Default
			}
			continue
		}
		switch {
		case a.Convert != nil:
			if terr := a.Convert(v, canon); terr != nil {
				return nil, terr.With("field", a.Name)
			}
		case a.Scale != 0:
			f, _ := v.(float64)
			canon[a.target()] = f * a.Scale
		default:
			canon[a.target()] = v
		}
	}
	c := &Call{Tool: t, Args: args, Canon: canon, Name: t.Canonical}
	if t.Route != nil {
		t.Route(c)
	}
	return c, nil
}

// selfChecked takes out of args the arguments whose Convert checks them (Arg.Checks).
func (t *Tool) selfChecked(args map[string]any) (rest, own map[string]any) {
	for _, a := range t.Args {
		v, ok := args[a.Name]
		if !a.Checks || !ok || v == nil {
			continue
		}
		if own == nil {
			own, rest = map[string]any{}, maps.Clone(args)
		}
		own[a.Name] = v
		delete(rest, a.Name)
	}
	if own == nil {
		return args, nil
	}
	return rest, own
}

// known keeps the arguments decl declares.
func known(decl *definitions.Tool, args map[string]any) map[string]any {
	props := decl.Schema().Properties
	for k := range args {
		if _, ok := props[k]; !ok {
			kept := make(map[string]any, len(args))
			for k, v := range args {
				if _, ok := props[k]; ok {
					kept[k] = v
				}
			}
			return kept
		}
	}
	return args
}

// target is the canonical argument a sets.
func (a *Arg) target() string {
	if a.To != "" {
		return a.To
	}
	return a.Name
}

// Result is what the dialect's client gets of a call that succeeded.
func (p *Profile) Result(c *Call) any {
	v := c.Result
	if c.Tool.Shape != nil {
		v = c.Tool.Shape(c)
	}
	msg := ""
	if m, ok := v.(messaged); ok {
		v, msg = m.value, m.message
	}
	if p.Envelope != nil {
		return p.Envelope.Result(v, msg)
	}
	return v
}

// Error is a failed call's error in the dialect (t's argument names, when the error is
// of a call of t; t may be nil), and the value its envelope shows the client (nil without
// an envelope: the error itself is shown).
func (p *Profile) Error(t *Tool, e *definitions.ToolError) (*definitions.ToolError, any) {
	if t != nil {
		e = p.names().rewrite(t.speak(e))
	}
	if p.SandboxError != "" && e.Type == definitions.PermissionError && e.Details["sandbox"] != nil {
		mapped := *e
		mapped.Type = p.SandboxError
		e = &mapped
	}
	if typ, ok := p.ErrorTypes[e.Type]; ok {
		mapped := *e
		mapped.Type = typ
		e = &mapped
	}
	if p.Envelope != nil {
		return e, p.Envelope.Error(e)
	}
	return e, nil
}

// messaged is a dialect result with the human-readable message its envelope carries.
type messaged struct {
	value   any
	message string
}

// withMessage pairs a result with its envelope's message.
func withMessage(v any, format string, args ...any) any {
	return messaged{value: v, message: fmt.Sprintf(format, args...)}
}

// HasRole reports whether p defines the role.
func (p *Profile) HasRole(role string) bool {
	if p == nil {
		return false
	}
	_, ok := p.Roles[role]
	return ok
}

// RoleTools returns the canonical tools a role of p may run: those of its dialect tools
// on the plan overlay (onPlan), or on the files, with the role's Provided tools. A role
// without such tools gets an empty, non-nil list: it may run none.
func (p *Profile) RoleTools(role string, onPlan bool) []string {
	out := []string{}
	for _, name := range p.Roles[role] {
		t, ok := p.Lookup(name)
		if !ok || t.OnPlan != onPlan {
			continue
		}
		for _, c := range append([]string{t.Canonical}, t.Routes...) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	if !onPlan {
		out = append(out, p.Provided[role]...)
	}
	return out
}

// names returns the replacer of canonical tool names by the dialect's in error texts
// ("Read it with read_file first" in Claude's dialect names Read).
func (p *Profile) names() errorRewriter {
	p.namesOnce.Do(func() {
		var pairs []string
		done := map[string]bool{}
		for _, t := range p.Tools {
			if t.OnPlan || t.Name == t.Canonical || done[t.Canonical] {
				continue
			}
			done[t.Canonical] = true
			pairs = append(pairs, "`"+t.Canonical+"`", "`"+t.Name+"`")
			if strings.Contains(t.Canonical, "_") {
				pairs = append(pairs, t.Canonical, t.Name)
			}
		}
		p.renames = errorRewriter{strings.NewReplacer(pairs...)}
	})
	return p.renames
}

// speak rewrites an error of the canonical tool in the dialect's argument names: a
// `quoted` name always, a bare one when it cannot be an ordinary word (it has an
// underscore), and details.field.
func (t *Tool) speak(e *definitions.ToolError) *definitions.ToolError {
	var pairs []string
	for _, a := range t.Args {
		if a.To == "" || a.To == a.Name {
			continue
		}
		pairs = append(pairs, "`"+a.To+"`", "`"+a.Name+"`")
		if strings.Contains(a.To, "_") {
			pairs = append(pairs, a.To, a.Name)
		}
	}
	if len(pairs) == 0 {
		return e
	}
	return errorRewriter{strings.NewReplacer(pairs...)}.rewrite(e)
}

// errorRewriter rewrites the texts of an error (message, hints, details.field).
type errorRewriter struct{ *strings.Replacer }

func (r errorRewriter) rewrite(e *definitions.ToolError) *definitions.ToolError {
	out := *e
	out.Message = r.Replace(e.Message)
	out.Recovery = make([]string, len(e.Recovery))
	for i, h := range e.Recovery {
		out.Recovery[i] = r.Replace(h)
	}
	if f, ok := e.Details["field"].(string); ok {
		out.Details = maps.Clone(e.Details)
		out.Details["field"] = strings.Trim(r.Replace("`"+f+"`"), "`")
	}
	return &out
}

// MaySpawn reports whether an agent of role may start a sub-agent of role child (seed
// 002's spawn rules; a role without rules spawns nothing).
func (p *Profile) MaySpawn(role, child string) bool {
	return slices.Contains(p.Spawns[role], child)
}
