// Package policy decides, for every tool call of an LLM agent, whether it
// runs (Allow), needs the user's approval (Ask) or is refused (Deny).
//
// An Engine holds a Mode and a set of rules from four scopes: once (dropped
// after it decides one call), session (in memory), project and user (both
// stored in TOML config files). The engine is pure apart from reading and
// writing those config files, and safe for concurrent use.
//
// # Precedence
//
//  1. Deny always wins: if any deny rule of any scope matches, the call is
//     denied.
//  2. In read-only mode, a call that is not read-only is denied here: no
//     allow or ask rule can lift a read-only session.
//  3. Otherwise scopes are tried from the most specific to the least: once,
//     session, project, user; within a scope, in file (or insertion) order.
//     The first matching allow or ask rule decides.
//  4. Otherwise the mode's default decides:
//     - default: read-only tools Allow, everything else Ask.
//     - auto-edit: read-only tools Allow; non-destructive mutating file tools
//     (Mutating, not a shell tool, with paths) Allow; run_shell/run_tests
//     Allow when Class is "read-only"; everything else Ask.
//     - yolo: everything Allow (deny rules were already applied in 1).
//     - plan: read-only tools Allow; mutating file tools and run_shell Allow
//     (they act on an in-memory overlay, run_shell with builtins only); else
//     Ask (plan_apply, which writes the plan to disk).
//     - read-only: read-only tools Allow; everything else Deny (see 2).
//
// A "read-only tool" is a non-shell call with ReadOnly set and neither
// Mutating nor Destructive. Shell tools are run_shell and run_tests.
//
// # Matching
//
// Empty rule fields match anything. Allow rules match narrowly (every part of
// the call must be covered), deny and ask rules match broadly (any part of
// the call suffices), so that a rule can never allow more, or deny less, than
// it says:
//
//   - tool: a doublestar glob over the tool name ("*_file", "run_*").
//   - paths: allow: every path of the call matches one glob; deny/ask: any
//     path matches one glob. A rule with paths never matches a call without.
//   - hosts: like paths, over the host names a web tool's call reaches, without
//     regard to case ("docs.example.com", "*.example.com").
//   - command: a prefix of words. A command matches when its base name
//     (/usr/bin/git = git) and first arguments equal the prefix words. Allow:
//     every command of the call matches; deny/ask: any command matches. A rule
//     with a command never matches a call without commands. Two forms match
//     whole, not as a prefix: an interpreter's program after a code flag
//     ("python3 -c print(1)", "bash -c echo hi"), and a nameless command, a
//     redirection or risky assignments ("> out.txt", "BASH_ENV=./x.sh").
//   - class: read-only < mutating < network < destructive. Allow: the call's
//     class is at most the rule's; deny/ask: at least the rule's. The call's
//     class is Request.Class when set (an unknown value counts as
//     destructive); for a shell tool without Class it is destructive;
//     otherwise it comes from the flags (Destructive, Mutating, ReadOnly) and
//     a call without flags counts as mutating.
package policy

import (
	"fmt"
	"slices"
	"sync"
)

// Action is the outcome for a tool call.
type Action int

// Actions, from most to least permissive.
const (
	Allow Action = iota
	Ask
	Deny
)

// String returns "allow", "ask" or "deny" (the config table names).
func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

func (a Action) valid() bool { return a >= Allow && a <= Deny }

// Mode sets the default for calls no rule decides.
type Mode string

// Modes; see the package doc for what each one does.
const (
	ModeDefault  Mode = "default"
	ModeAutoEdit Mode = "auto-edit"
	ModeYolo     Mode = "yolo"
	ModePlan     Mode = "plan"
	ModeReadOnly Mode = "read-only"
)

// ParseMode checks that s names a mode.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeDefault, ModeAutoEdit, ModeYolo, ModePlan, ModeReadOnly:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q (want default, auto-edit, yolo, plan or read-only)", s)
}

// Scope says where a rule lives and how long it lasts.
type Scope string

// Scopes, from the most to the least specific.
const (
	ScopeOnce    Scope = "once"
	ScopeSession Scope = "session"
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
)

// scopeOrder is the evaluation order of scopes.
var scopeOrder = [...]Scope{ScopeOnce, ScopeSession, ScopeProject, ScopeUser}

func scopeIndex(s Scope) int {
	for i, o := range scopeOrder {
		if o == s {
			return i
		}
	}
	return -1
}

// Rule matches tool calls. Empty fields match anything.
type Rule struct {
	ID      string   `toml:"-"`                 // assigned: "<scope>-<n>", stable within an Engine
	Action  Action   `toml:"-"`                 // from the table name: [[allow]], [[ask]], [[deny]]
	Tool    string   `toml:"tool"`              // tool name or doublestar glob ("run_shell", "*_file", "*")
	Paths   []string `toml:"paths,omitempty"`   // doublestar globs over the call's root-relative paths
	Hosts   []string `toml:"hosts,omitempty"`   // globs over the host names a web tool's call reaches ("*.example.com")
	Command string   `toml:"command,omitempty"` // command prefix matched word by word, e.g. "git status"
	// Commands are prefixes of the commands of one line ("cd web", "npm test"): an allow
	// rule covers a line when each of its commands matches one of them; a deny or ask rule
	// applies when any does.
	Commands []string `toml:"commands,omitempty"`
	Class    string   `toml:"class,omitempty"` // "read-only" | "mutating" | "network" | "destructive"
	Scope    Scope    `toml:"-"`
	Source   string   `toml:"-"` // "path/to/config.toml:12" or "session"
}

// Command is one parsed simple command of a shell line.
type Command struct {
	Name string
	Args []string
}

// Request describes one tool call.
type Request struct {
	Tool        string
	ReadOnly    bool // the tool's flags
	Mutating    bool
	Destructive bool
	Paths       []string  // canonical root-relative paths the call reads or changes
	Hosts       []string  // for web tools: the lower-case host names the call reaches
	Commands    []Command // for shell tools
	Class       string    // for shell tools: "read-only" | "mutating" | "network" | "destructive"
	// RiskyEnv names the variables the call sets that change what programs load or run
	// (run_shell's env: GIT_CONFIG_*, BASH_ENV, LD_PRELOAD...). While one is set no allow
	// rule matches: what the rule was approved for is not what would run.
	RiskyEnv []string
}

// Decision is the engine's answer for one call.
type Decision struct {
	Action  Action
	Rule    *Rule  // the rule that decided, nil when the mode decided
	Reason  string // one sentence for the model or the user
	Suggest string // for Ask: the TOML rule that would allow this call
}

// entry is an active rule plus where it is stored.
type entry struct {
	rule Rule
	file string // config file for project/user rules
	ord  int    // index among the rule tables of file, in document order
}

// Engine decides tool calls. The zero value is not usable; use New or Load.
type Engine struct {
	mu    sync.Mutex
	mode  Mode
	rules [len(scopeOrder)][]*entry // by scopeIndex, in evaluation order
	next  [len(scopeOrder)]int      // last number used in IDs, per scope
	files [len(scopeOrder)]string   // config file per scope (project, user)
	roles map[string][]string
	// parent, for an engine made by Fork, holds the project and user rules, the roles, and
	// the mode when mode is "".
	parent *Engine
	// trustPath records the project config content the user trusts (LoadWithTrust);
	// ignored lists what an untrusted project config asked for and did not get.
	trustPath string
	ignored   []string
	// protected are the config files' protected globs (root-relative).
	protected []string
	profile   string      // the config's profile = "..." ("" when none sets it)
	model     ModelConfig // the [model] tables, the project's (trusted) over the user's
}

// Profile is the profile the config files name (the project's over the user's), or "".
func (e *Engine) Profile() string {
	if e.parent != nil {
		return e.parent.Profile()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.profile
}

// Model is the model the config files name in their [model] tables: the trusted project's
// fields over the user's (a project that names another provider replaces the user's table
// whole). The zero ModelConfig when none has one.
func (e *Engine) Model() ModelConfig {
	if e.parent != nil {
		return e.parent.Model()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.model
}

// New returns an engine in mode with no rules and the default roles.
func New(mode Mode) *Engine {
	return &Engine{mode: mode, roles: defaultRoles()}
}

// Fork returns the engine of one session over e. The once and session rules it remembers
// are its own, so that "allow for this session" stays in the session that said it; after
// them it applies all of e's rules (e's own in-memory rules, then project and user), and it
// remembers project and user rules, and takes roles, through e. Its mode is mode, or e's
// mode as it changes when mode is "".
func (e *Engine) Fork(mode Mode) *Engine {
	return &Engine{mode: mode, parent: e}
}

// isShared reports whether the rules of scope index si live in the parent.
func (e *Engine) isShared(si int) bool {
	return e.parent != nil && (scopeOrder[si] == ScopeProject || scopeOrder[si] == ScopeUser)
}

// scopedList is one engine's rules of one scope.
type scopedList struct {
	e    *Engine
	si   int
	list []*entry
}

// lists returns the rule lists in evaluation order: a fork's own once and session rules,
// then its parent's lists (the parent's in-memory rules, then project and user). The caller
// holds e.mu; a fork's lock is always taken before its parent's.
func (e *Engine) lists() []scopedList {
	var out []scopedList
	for si, list := range e.rules {
		if !e.isShared(si) {
			out = append(out, scopedList{e, si, list})
		}
	}
	if e.parent != nil {
		e.parent.mu.Lock()
		out = append(out, e.parent.lists()...)
		e.parent.mu.Unlock()
	}
	return out
}

// dropOnce removes a once rule that decided a call; the caller holds the lock of the engine
// that asked, which is e or a fork of e.
func (e *Engine) dropOnce(asker *Engine, si int, en *entry) {
	if e != asker {
		e.mu.Lock()
		defer e.mu.Unlock()
	}
	e.rules[si] = slices.DeleteFunc(e.rules[si], func(x *entry) bool { return x == en })
}

// Mode returns the current mode.
func (e *Engine) Mode() Mode {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.currentMode()
}

// currentMode is the mode in force; the caller holds e.mu.
func (e *Engine) currentMode() Mode {
	if e.mode == "" && e.parent != nil {
		return e.parent.Mode()
	}
	return e.mode
}

// SetMode switches the mode. An unknown mode behaves like ModeDefault.
func (e *Engine) SetMode(m Mode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mode = m
}

// Decide returns the decision for one call. A once-scoped rule that decides
// is dropped.
func (e *Engine) Decide(r Request) Decision {
	e.mu.Lock()
	defer e.mu.Unlock()

	lists := e.lists()
	for _, sl := range lists {
		for _, en := range sl.list {
			if en.rule.Action == Deny && matches(&en.rule, r) {
				return e.ruleDecision(en, r)
			}
		}
	}
	mode := e.currentMode()
	if mode == ModeReadOnly && !isReadOnlyCall(r) {
		return Decision{Action: Deny, Reason: fmt.Sprintf("the session is read-only: %s is not allowed", describeCall(r))}
	}
	for _, sl := range lists {
		for _, en := range sl.list {
			if en.rule.Action == Deny || !matches(&en.rule, r) {
				continue
			}
			d := e.ruleDecision(en, r)
			if scopeOrder[sl.si] == ScopeOnce {
				sl.e.dropOnce(e, sl.si, en)
			}
			return d
		}
	}
	return modeDecision(mode, r)
}

// ruleDecision builds the decision made by en.
func (e *Engine) ruleDecision(en *entry, r Request) Decision {
	rule := cloneRule(en.rule)
	d := Decision{
		Action: rule.Action,
		Rule:   &rule,
		Reason: fmt.Sprintf("%s rule %s (%s) matches %s", rule.Action, rule.ID, rule.Source, describeCall(r)),
	}
	if d.Action == Ask {
		d.Suggest = suggest(r)
	}
	return d
}

// modeDecision is the mode's default for a call no rule decided.
func modeDecision(m Mode, r Request) Decision {
	allow := func(why string) Decision {
		return Decision{Action: Allow, Reason: fmt.Sprintf("mode %s allows %s: %s", m, describeCall(r), why)}
	}
	if m == ModeYolo {
		return allow("yolo mode allows everything not denied")
	}
	if isReadOnlyCall(r) {
		return allow("the tool is read-only")
	}
	switch m {
	case ModeReadOnly:
		return Decision{Action: Deny, Reason: fmt.Sprintf("the session is read-only: %s is not allowed", describeCall(r))}
	case ModeAutoEdit:
		if isFileMutation(r) && !r.Destructive {
			return allow("file edits are allowed in auto-edit mode")
		}
		if isShell(r.Tool) && r.Class == classReadOnly {
			return allow("the command is read-only")
		}
	case ModePlan:
		if isFileMutation(r) {
			return allow("plan mode applies file changes to an overlay")
		}
		if r.Tool == "run_shell" {
			return allow("plan mode runs commands with builtins over the overlay, never a program")
		}
	}
	name := m
	if _, err := ParseMode(string(m)); err != nil {
		name = ModeDefault
	}
	return Decision{
		Action:  Ask,
		Reason:  fmt.Sprintf("mode %s needs approval for %s", name, describeCall(r)),
		Suggest: suggest(r),
	}
}

// Rules lists every active rule in evaluation order: deny rules first (by
// scope, then file order), then allow and ask rules (by scope, then file
// order).
func (e *Engine) Rules() []Rule {
	e.mu.Lock()
	defer e.mu.Unlock()
	lists := e.lists()
	var out []Rule
	for _, deny := range []bool{true, false} {
		for _, sl := range lists {
			for _, en := range sl.list {
				if (en.rule.Action == Deny) == deny {
					out = append(out, cloneRule(en.rule))
				}
			}
		}
	}
	return out
}

// Remember validates r and adds it at scope, active immediately. Once and
// session rules live in memory; project and user rules are appended to the
// config file given to Load (created with its parent directories, written
// atomically). The returned rule carries its ID, Scope and Source.
func (e *Engine) Remember(r Rule, scope Scope) (Rule, error) {
	si := scopeIndex(scope)
	if si < 0 {
		return Rule{}, fmt.Errorf("policy: unknown scope %q", scope)
	}
	if !r.Action.valid() {
		return Rule{}, fmt.Errorf("policy: invalid action %d", int(r.Action))
	}
	if f, msg := validateRule(r); msg != "" {
		return Rule{}, fmt.Errorf("policy: bad rule: %s: %s", f, msg)
	}
	if e.isShared(si) {
		return e.parent.Remember(r, scope)
	}
	r = cloneRule(r)
	r.Scope = scope

	e.mu.Lock()
	defer e.mu.Unlock()
	en := &entry{rule: r}
	switch scope {
	case ScopeOnce, ScopeSession:
		en.rule.Source = "session"
	default:
		path := e.files[si]
		if path == "" {
			return Rule{}, fmt.Errorf("policy: no %s config file to remember the rule in", scope)
		}
		ord, line, before, after, err := appendRuleToFile(path, r)
		if err != nil {
			return Rule{}, err
		}
		// jido wrote the file the user trusted: it stays trusted. Decided on the bytes jido
		// read and recorded for the bytes it wrote, never on a later read.
		if scope == ScopeProject && e.trustPath != "" && e.trusts(before) {
			if err := e.recordDigest(bundle(after, e.projectToolsLocked())); err != nil {
				return Rule{}, err
			}
		}
		en.file, en.ord = path, ord
		en.rule.Source = fmt.Sprintf("%s:%d", path, line)
	}
	e.next[si]++
	en.rule.ID = fmt.Sprintf("%s-%d", scope, e.next[si])
	e.rules[si] = append(e.rules[si], en)
	return cloneRule(en.rule), nil
}

// Revoke removes the rule with the given ID. A project or user rule is also
// removed from its config file, which is rewritten without that table
// (other content and comments are kept).
func (e *Engine) Revoke(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for si, list := range e.rules {
		for i, en := range list {
			if en.rule.ID != id {
				continue
			}
			if en.file != "" {
				removed, before, after, err := removeRuleFromFile(en.file, en.ord, en.rule)
				if err != nil {
					return err
				}
				if after != nil && en.rule.Scope == ScopeProject && e.trustPath != "" && e.trusts(before) {
					if err := e.recordDigest(bundle(after, e.projectToolsLocked())); err != nil {
						return err
					}
				}
				e.rules[si] = append(list[:i:i], list[i+1:]...)
				if removed >= 0 {
					e.renumberFile(en.file, removed)
				}
				return nil
			}
			e.rules[si] = append(list[:i:i], list[i+1:]...)
			return nil
		}
	}
	if e.parent != nil {
		return e.parent.Revoke(id)
	}
	return fmt.Errorf("policy: no rule %q", id)
}

// renumberFile updates ordinals and Source lines of the rules stored in path
// after the rule table at ordinal removed was deleted from it.
func (e *Engine) renumberFile(path string, removed int) {
	lines := ruleLines(path)
	for _, list := range e.rules {
		for _, en := range list {
			if en.file != path {
				continue
			}
			if en.ord > removed {
				en.ord--
			}
			if en.ord < len(lines) {
				en.rule.Source = fmt.Sprintf("%s:%d", path, lines[en.ord])
			}
		}
	}
}

func cloneRule(r Rule) Rule {
	if r.Paths != nil {
		r.Paths = append([]string(nil), r.Paths...)
	}
	if r.Commands != nil {
		r.Commands = append([]string(nil), r.Commands...)
	}
	if r.Hosts != nil {
		r.Hosts = append([]string(nil), r.Hosts...)
	}
	return r
}
