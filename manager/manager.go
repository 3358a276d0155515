// Package manager composes jido: a Manager owns a confined project root and opens Sessions,
// each with its own hardened Lua VM, bridge and read tracking. Sessions are independent and may
// run in parallel; the calls of one session are serialized.
package manager

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/jido-run/jido/bridge"
	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/plan"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/walk"
)

// staleTempAge is how old a leftover temp file of an interrupted write must be to be swept.
const staleTempAge = time.Hour

// Options configure a Manager.
type Options struct {
	Root        string           // project root directory
	Limits      runtime.Limits   // per-call Lua limits (zero fields: defaults)
	Policy      *security.Policy // secret and protected paths (nil: defaults)
	MaxFileSize int64            // read/write cap in bytes (0: 10 MiB)
	NoSync      bool             // skip fsync on writes (scratch trees, tests); writes stay atomic
	Events      io.Writer        // NDJSON event log (nil: none)
	// GitExcludes is the content of git's global excludes file (core.excludesFile), which
	// the tree walks apply like git; nil: none. cmd/jido reads the user's (~/.gitconfig, ~/.config/git/ignore).
	GitExcludes []byte
	// SweepTemps removes, in the background, temp files that interrupted writes left (older
	// than an hour). It walks the whole tree, so long-lived processes (servers, chat) ask for
	// it and one-shot CLI calls do not: they would pay a full walk per call.
	SweepTemps bool
	// Network lets run_shell and run_tests commands reach the network (default: none).
	Network bool
	// Permissions decides which calls run, ask or are refused; nil: every call runs (the Go
	// API's default; the CLI always loads one). Approver answers the asks; without one a
	// session is headless and an ask is a permission-error naming the rule to add. Yes
	// approves every ask (deny rules still apply). Role limits the tools to a role's
	// allow-list (policy.Engine.Role), "" for all.
	Permissions *policy.Engine
	Approver    Approver
	Yes         bool
	Role        string
	// JournalDir keeps the before-state of every change set, for undo (journal.Dir gives the
	// user's default for a root); "" keeps no journal.
	JournalDir string
	// SandboxReadOnly and SandboxReadWrite are host paths commands may also read, or read
	// and write (the root, a private temp dir, system and toolchain directories always).
	SandboxReadOnly, SandboxReadWrite []string
	// SandboxHelper is the binary re-executed to confine commands ("" for the running
	// executable), which must call sandbox.MaybeHelper first thing in main or TestMain.
	SandboxHelper string
}

// Manager owns one project root and opens sessions on it.
type Manager struct {
	root    *security.Root
	walker  *walk.Walker
	journal *journal.Journal // nil without Options.JournalDir
	gate    bridge.Gate      // nil without Options.Permissions
	perms   *policy.Engine   // nil without Options.Permissions; its mode at Open decides plan mode
	shell   shell.Options
	limits  runtime.Limits
	events  *eventLog
}

// New opens the project root (and, if asked, sweeps temp files left by interrupted writes).
func New(opts Options) (*Manager, error) {
	root, err := security.Open(opts.Root, security.Options{Policy: opts.Policy, MaxFileSize: opts.MaxFileSize, NoSync: opts.NoSync})
	if err != nil {
		return nil, err
	}
	if opts.SweepTemps {
		go func() { _, _ = root.SweepTemps(staleTempAge) }()
	}
	gate, err := newGate(root, opts)
	if err != nil {
		root.Close()
		return nil, err
	}
	var jr *journal.Journal
	if opts.JournalDir != "" {
		if jr, err = journal.Open(opts.JournalDir, journal.Limits{}); err != nil {
			root.Close()
			return nil, err
		}
		if _, err := jr.Recover(root); err != nil {
			jr.Close()
			root.Close()
			return nil, fmt.Errorf("rolling back a change interrupted by a crash failed (its record stays in %s/pending for the next try): %w", opts.JournalDir, err)
		}
		go func() { _ = jr.Prune() }()
	}
	return &Manager{
		root: root, walker: walk.New(root, opts.GitExcludes), limits: opts.Limits, events: newEventLog(opts.Events), journal: jr, gate: gate,
		perms: opts.Permissions,
		shell: shell.Options{
			Root: root, Network: opts.Network, Helper: opts.SandboxHelper,
			ReadOnly: opts.SandboxReadOnly, ReadWrite: opts.SandboxReadWrite,
		},
	}, nil
}

// Root returns the absolute path of the project root.
func (m *Manager) Root() string { return m.root.Path() }

// Close releases the project root and the journal. Sessions must be closed first.
func (m *Manager) Close() error {
	if m.journal != nil {
		m.journal.Close()
	}
	return m.root.Close()
}

// Open starts a new session with a fresh VM; in plan mode (the policy's mode now), with an
// empty plan that every tool acts on.
func (m *Manager) Open(_ context.Context) (*Session, error) {
	reads := bridge.NewReadLog()
	sh := shell.NewLazy(m.shell)
	var pl *plan.Overlay
	if m.perms != nil && m.perms.Mode() == policy.ModePlan {
		pl = plan.New(m.root)
	}
	vm, err := runtime.New(runtime.Options{
		Limits: m.limits,
		Libraries: bridge.Libraries(bridge.Deps{
			Root: m.root, Reads: reads, Limits: m.limits, Walker: m.walker, Shell: sh, Journal: m.journal, Gate: m.gate, Plan: pl,
		}),
	})
	if err != nil {
		return nil, err
	}
	s := &Session{id: newID(), m: m, vm: vm, shell: sh, plan: pl}
	m.events.emit(Event{Event: "session.open", Session: s.id})
	return s, nil
}

// newID returns a random identifier for a session.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
