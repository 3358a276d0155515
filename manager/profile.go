package manager

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/tools/definitions"
)

// dialect is what a session with a profile keeps: the profile, the dialect tools its role
// allows, and the planner, a session of its own on a plan overlay beside the files, on
// which forge's plan_* tools run.
type dialect struct {
	profile *profile.Profile // nil: jido's own names
	role    []string         // the dialect tools of the session's role; nil: all
	opts    sessionOptions   // the session's options, for its planner

	planMu  sync.Mutex
	planner *Session
}

// init reads the profile and the role of a session's options.
func (d *dialect) init(o sessionOptions) {
	d.opts = o
	if o.profile.Canonical() {
		return
	}
	d.profile = o.profile
	if o.profile.HasRole(o.role) {
		role, _ := o.profile.Role(o.role)
		d.role = append([]string{}, role...)
	}
}

// Profile returns the profile the session speaks.
func (s *Session) Profile() *profile.Profile {
	if s.profile == nil {
		p, _ := profile.Get(profile.Default)
		return p
	}
	return s.profile
}

// speaks reports whether the session maps its calls through a profile.
func (s *Session) speaks() bool { return s.profile != nil }

// ownTool reports whether name is a tool of the project's or the embedder's own, which
// every profile offers under its name.
func (s *Session) ownTool(name string) bool {
	if _, ok := s.m.goTool(name); ok {
		return true
	}
	_, ok := s.p.tools.Current().Lookup(name)
	return ok
}

// dialectTools are the declarations of the profile's tools the session offers: those its
// role allows whose canonical tool its mode runs (the plan tools run on the planner).
func (s *Session) dialectTools() []*definitions.Tool {
	var out []*definitions.Tool
	for _, t := range s.profile.Tools {
		if !s.dialectAllows(t.Name) || !t.OnPlan && !s.modeRuns(t.Canonical) {
			continue
		}
		decl, err := t.Decl()
		if err != nil {
			continue // a broken declaration: its calls fail with the error; tests cover every profile
		}
		out = append(out, decl)
	}
	return out
}

// dialectAllows reports whether the session's role lets it call the dialect tool.
func (s *Session) dialectAllows(name string) bool {
	return s.role == nil || slices.Contains(s.role, name)
}

// callDialect runs a call in the session's profile: it maps the call to its canonical tool,
// runs it (on the planner for the plan tools), and maps the result or error back.
func (s *Session) callDialect(ctx context.Context, call ToolCall) ToolResult {
	res := ToolResult{ID: call.ID, Name: call.Name}
	t, ok := s.profile.Lookup(call.Name)
	var terr *definitions.ToolError
	switch {
	case !ok:
		terr = s.profile.Unknown(call.Name)
	case !s.dialectAllows(call.Name):
		terr = definitions.NewError(definitions.PermissionError, "tool %s is not available to the %s role", call.Name, s.opts.role).
			With("tool", call.Name).With("role", s.opts.role).Hint("Use one of the role's tools: " + strings.Join(s.role, ", "))
	}
	var c *profile.Call
	if terr == nil {
		c, terr = s.profile.Map(t, call.Args)
	}
	if terr != nil { // in the dialect's names already
		res.Error, res.Result = s.profile.Error(nil, terr)
		return res
	}
	run := s
	if t.OnPlan {
		if run, terr = s.planner(); terr != nil {
			res.Error, res.Result = s.profile.Error(t, terr)
			return res
		}
		s.busy.Add(1) // a session used only through its plan is not idle
		defer func() {
			s.lastUsed.Store(time.Now().UnixNano())
			s.busy.Add(-1)
		}()
	}
	canon := run.CallCanonical(ctx, ToolCall{ID: call.ID, Name: c.Name, Args: c.Canon, Meta: call.Meta})
	res.ID, res.Note = canon.ID, canon.Note
	if !canon.OK {
		res.Error, res.Result = s.profile.Error(t, canon.Error)
		return res
	}
	c.Result = canon.Result
	res.OK, res.Result, res.canonical = true, s.profile.Result(c), canon.Result
	return res
}

// planner returns the session's planner, opening it on first use: a session on the same
// project in plan mode, whose gate allows the canonical tools of the role's plan tools.
func (s *Session) planner() (*Session, *definitions.ToolError) {
	s.dialect.planMu.Lock()
	defer s.dialect.planMu.Unlock()
	if s.dialect.planner != nil {
		return s.dialect.planner, nil
	}
	o := s.opts
	o.profile, o.mode, o.plan = profile.Jido, policy.ModePlan, true
	o.tools = nil
	if s.role != nil {
		o.tools = s.profile.RoleTools(o.role, true)
	}
	o.role = ""
	p, err := newSession(s.m, s.p, s.id+"/plan", o)
	if err != nil {
		return nil, definitions.NewError(definitions.InternalError, "opening the session's plan: %v", err)
	}
	s.dialect.planner = p
	p.emit(Event{Event: "session.open", Session: p.id})
	return p, nil
}

// planCall runs a canonical call on the planner, for jido.call of a plan tool.
func (s *Session) planCall(ctx context.Context, tool string, args map[string]any) (any, *definitions.ToolError) {
	p, terr := s.planner()
	if terr != nil {
		return nil, terr
	}
	r := p.CallCanonical(ctx, ToolCall{Name: tool, Args: args})
	return r.Result, r.Error
}

// closePlanner closes the session's planner, if it has one: its plan, not applied, is
// dropped with the session.
func (s *Session) closePlanner() {
	s.dialect.planMu.Lock()
	p := s.dialect.planner
	s.dialect.planner = nil
	s.dialect.planMu.Unlock()
	if p != nil {
		p.Close() // not registered with the manager: forget leaves the project to s
	}
}
