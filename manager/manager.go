// Package manager composes jido for programs that embed it: a Manager serves sessions on
// confined project roots, each session with its own hardened Lua VM, bridge, read tracking,
// policy rules and command runner.
//
// Concurrency: every method of Manager and Session is safe for concurrent use. Sessions are
// independent and run in parallel; the calls of one session are serialized (one VM, one
// goroutine owning it). Limits: Config.MaxSessions caps open sessions, Config.IdleTTL
// closes sessions left idle, Config.Limits (or WithLimits) bounds each call's Lua work, and
// Shutdown waits for running calls, then cancels them, which kills their commands.
package manager

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/web"
	"github.com/jido-run/jido/worker"
)

// staleTempAge is how old a leftover temp file of an interrupted write must be to be swept.
const staleTempAge = time.Hour

// Errors of Open and of calls on a manager that is shutting down.
var (
	ErrClosed          = errors.New("manager: shut down")
	ErrSessionExists   = errors.New("manager: a session with this id is open")
	ErrTooManySessions = errors.New("manager: too many open sessions")
)

// DefaultMaxResultBytes is Config.MaxResultBytes's default.
const DefaultMaxResultBytes = 1 << 20

// WebConfig is how sessions reach the web.
type WebConfig struct {
	// Fetch holds web_fetch's address rules and limits; each session gets a Fetcher of its
	// own, so its cache of recent fetches is its own.
	Fetch web.FetchConfig
	// Search answers web_search (nil: no provider is configured; the call says which
	// settings make one).
	Search web.Searcher
}

// Config configures a Manager.
type Config struct {
	Root string // the project root of sessions that do not name one (WithRoot)
	// Cwd is the working directory, inside Root, of the calls of Root's sessions that name
	// none (meta.cwd): where the user stands, for a front started in a subdirectory of the
	// project. "" is the root; WithCwd sets another per session.
	Cwd         string
	Limits      runtime.Limits   // per-call Lua limits (zero fields: defaults)
	Policy      *security.Policy // secret and protected paths (nil: defaults); Permissions' protected globs are added
	MaxFileSize int64            // read/write cap in bytes (0: 10 MiB)
	// MaxResultBytes caps the JSON of every value that leaves a session (a tool's result,
	// a Lua tool's, an eval's): a larger one is shrunk to valid JSON of the same shape
	// (jsoncap), with a note (0: DefaultMaxResultBytes).
	MaxResultBytes int
	NoSync         bool      // skip fsync on writes (scratch trees, tests); writes stay atomic
	Events         io.Writer // NDJSON event log of every session (nil: none)
	// GitExcludes is the content of git's global excludes file (core.excludesFile), which
	// the tree walks apply like git; nil: none. cmd/jido reads the user's (~/.gitconfig, ~/.config/git/ignore).
	GitExcludes []byte
	// SweepTemps removes, in the background, temp files that interrupted writes left (older
	// than an hour). It walks the whole tree, so long-lived processes (servers, chat) ask for
	// it and one-shot CLI calls do not: they would pay a full walk per call.
	SweepTemps bool
	// WarmShell prepares a session's command sandbox in the background after its first
	// call (shell.Lazy.Warm), so that its first command costs what later ones do. It keeps
	// one waiting helper process per session that can run commands, so agent front ends
	// (chat, ask, mcp) ask for it and one-shot CLI calls, the Go API's default, do not.
	WarmShell bool
	// Network lets run_shell and run_tests commands reach the network (default: none).
	Network bool
	// Web gives sessions the web tools, under the policy's network class; nil leaves
	// web_fetch and web_search out of every session (the Go API's default).
	Web *WebConfig
	// Permissions decides which calls run, ask or are refused; nil: every call runs (the Go
	// API's default; the CLI always loads one). Each session decides through its own fork of
	// it (policy.Engine.Fork), so that "allow for this session" stays in that session.
	// Approver answers the asks; without one a session is headless and an ask is a
	// permission-error naming the rule to add. Yes approves every ask (deny rules still
	// apply). Role limits the tools to a role's allow-list (policy.Engine.Role), "" for all.
	// WithApprover, WithMode and WithRole override them per session.
	Permissions *policy.Engine
	Approver    Approver
	Yes         bool
	Role        string
	// Profile is the dialect sessions speak unless WithProfile names another (nil: jido's
	// own names and shapes). A role the profile defines (forge's) is taken from it.
	Profile *profile.Profile
	// JournalDir keeps the before-state of every change set on Root, for undo (journal.Dir
	// gives the user's default for a root); "" keeps no journal.
	JournalDir string
	// OpenRoot sets up a root other than Root that a session names (WithRoot): its policy
	// and journal. nil: sessions can use Root only.
	OpenRoot func(root string) (RootSetup, error)
	// SandboxReadOnly and SandboxReadWrite are host paths commands may also read, or read
	// and write (the root, a private temp dir, system and toolchain directories always).
	SandboxReadOnly, SandboxReadWrite []string
	// SandboxHelper is the binary re-executed to confine commands ("" for the running
	// executable), which must call sandbox.MaybeHelper first thing in main or TestMain.
	SandboxHelper string
	// BuildCacheKey names the private build caches of Root's commands (shell.Options): the
	// worktrees of one repository give the same key to share them; "" is Root's path.
	BuildCacheKey string
	// GitDir, for a Root that is a linked worktree (its .git a file), is the worktree's own
	// git directory, and GitCommonDir the repository's common one (absolute paths): the git
	// tools read the repository there. The embedder that made the worktree names them; a
	// .git file, which the session's commands may rewrite, is never followed. "": the git
	// tools read Root/.git only.
	GitDir, GitCommonDir string
	// ToolDirs are directories of users' Lua tools (*.lua) besides each project's
	// .jido/tools: the user's own, --tools. Their files are reloaded when they change.
	ToolDirs []string
	// Tools are Go tools of the embedder's own (builtin.New), offered in every session
	// beside the built-in ones and gated, journaled, planned and rendered like them, as
	// their declarations say. A name must be snake_case and taken by no built-in tool.
	// Under a role, a tool is offered only if the role's config names it.
	Tools []*builtin.Tool
	// MaxSessions caps the sessions open at once (0: no cap); Open refuses more.
	MaxSessions int
	// IdleTTL closes a session no call has used for this long (0: never); calls on it then
	// fail with a hint to open a new one.
	IdleTTL time.Duration
	// Isolation is where sessions' Lua runs: IsolationProcess ("" too) in this process,
	// IsolationWorker in a worker process per session, under a memory ceiling: WorkerMemory
	// bytes (0: worker.DefaultMaxMemory, or more when twice Limits.MaxMemory needs more).
	Isolation    string
	WorkerMemory int64
	// OnWorkerStart, when set, is told of each worker process a session starts (in
	// IsolationWorker): a server reports how its Lua is bounded and confined.
	OnWorkerStart func(session string, w worker.Started)
}

// Manager serves sessions on project roots.
type Manager struct {
	cfg    Config
	main   *project // Config.Root
	events *eventLog

	mu       sync.RWMutex        // read-locked by every call's begin: calls do not queue on it
	projects map[string]*project // by rootKey, the main one included
	sessions map[string]*Session
	closing  bool
	running  sync.WaitGroup // calls in progress; Add only under mu while !closing
	stop     chan struct{}  // closed by Shutdown: ends the idle sweeper
	done     chan struct{}  // closed when Shutdown has finished
}

// New opens the default project root (and, if asked, sweeps temp files left by
// interrupted writes, and rolls back a change set a crash interrupted).
func New(cfg Config) (*Manager, error) {
	switch {
	case cfg.Role == "" || cfg.Profile.HasRole(cfg.Role):
	case cfg.Permissions == nil:
		return nil, fmt.Errorf("a role needs a policy (Config.Permissions): roles are defined there")
	default:
		if _, ok := cfg.Permissions.Role(cfg.Role); !ok {
			return nil, unknownRole(cfg.Role)
		}
	}
	if err := checkTools(cfg.Tools); err != nil {
		return nil, err
	}
	if err := checkIsolation(cfg.Isolation); err != nil {
		return nil, err
	}
	cfg.MaxResultBytes = cmp.Or(cfg.MaxResultBytes, DefaultMaxResultBytes)
	key, err := rootKey(cfg.Root)
	if err != nil {
		return nil, err
	}
	main, err := openProject(&cfg, key, RootSetup{Permissions: cfg.Permissions, JournalDir: cfg.JournalDir, BuildCacheKey: cfg.BuildCacheKey, GitDir: cfg.GitDir, GitCommonDir: cfg.GitCommonDir})
	if err != nil {
		return nil, err
	}
	main.refs = 1 // the manager's own hold
	m := &Manager{
		cfg: cfg, main: main, events: newEventLog(cfg.Events),
		projects: map[string]*project{key: main}, sessions: map[string]*Session{},
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	if cfg.IdleTTL > 0 {
		go m.sweepIdle()
	}
	return m, nil
}

// toolName is the form of a tool's name: it is also its jido.<name> function.
var toolName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkTools refuses Config.Tools with a bad or taken name.
func checkTools(tools []*builtin.Tool) error {
	seen := map[string]bool{}
	for _, t := range tools {
		name := t.Def.Name
		switch {
		case !toolName.MatchString(name):
			return fmt.Errorf("Config.Tools: %q is not a snake_case tool name", name)
		case isBuiltin(name) || seen[name]:
			return fmt.Errorf("Config.Tools: the name %s is taken; choose another", name)
		}
		seen[name] = true
	}
	return nil
}

// goTool finds one of Config.Tools by name.
func (m *Manager) goTool(name string) (*builtin.Tool, bool) {
	for _, t := range m.cfg.Tools {
		if t.Def.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Root returns the absolute path of the default project root.
func (m *Manager) Root() string { return m.main.root.Path() }

// Session returns the open session with the given id.
func (m *Manager) Session(id string) (*Session, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, ok := m.sessions[id]
	return s, ok
}

// Sessions returns the ids of the open sessions, sorted.
func (m *Manager) Sessions() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Sorted(maps.Keys(m.sessions))
}

// Open starts a session with a fresh VM. id names it ("" for a random one); an id already
// open is refused with ErrSessionExists. In plan mode (the session's mode now), every tool
// acts on an empty plan of the session's own.
func (m *Manager) Open(_ context.Context, id string, opts ...SessionOption) (*Session, error) {
	o := sessionOptions{profile: m.cfg.Profile, role: m.cfg.Role}
	for _, opt := range opts {
		opt(&o)
	}
	if o.root == "" && o.cwd == "" {
		o.cwd = m.cfg.Cwd
	}
	if id == "" {
		id = newID()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closing:
		return nil, ErrClosed
	case m.sessions[id] != nil:
		return nil, fmt.Errorf("%w: %q", ErrSessionExists, id)
	case m.cfg.MaxSessions > 0 && len(m.sessions) >= m.cfg.MaxSessions:
		return nil, fmt.Errorf("%w: %d open, the cap is %d; close one (or raise Config.MaxSessions)", ErrTooManySessions, len(m.sessions), m.cfg.MaxSessions)
	}
	p, err := m.acquire(o.root)
	if err != nil {
		return nil, err
	}
	s, err := newSession(m, p, id, o)
	if err != nil {
		m.release(p)
		return nil, err
	}
	m.sessions[id] = s
	s.emit(Event{Event: "session.open", Session: id})
	return s, nil
}

// acquire returns the project of root ("" for the default one), opening it for its first
// session. The caller holds m.mu.
func (m *Manager) acquire(root string) (*project, error) {
	p := m.main
	if root != "" {
		key, err := rootKey(root)
		if err != nil {
			return nil, err
		}
		if p = m.projects[key]; p == nil {
			if m.cfg.OpenRoot == nil {
				return nil, fmt.Errorf("this manager serves only %s (Config.OpenRoot is not set), not %s", m.main.key, key)
			}
			setup, err := m.cfg.OpenRoot(key)
			if err != nil {
				return nil, err
			}
			if setup.Permissions == nil {
				setup.Permissions = m.cfg.Permissions
			}
			if p, err = openProject(&m.cfg, key, setup); err != nil {
				return nil, err
			}
			m.projects[key] = p
		}
	}
	p.refs++
	return p, nil
}

// release drops a session's hold on p, closing it with its last session (the default
// project stays until Shutdown). The caller holds m.mu.
func (m *Manager) release(p *project) {
	if p.refs--; p.refs == 0 {
		delete(m.projects, p.key)
		p.close()
	}
}

// forget removes a closed session. It takes m.mu.
func (m *Manager) forget(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
		m.release(s.p)
	}
}

// begin registers a call about to run; it fails once Shutdown has begun.
func (m *Manager) begin() error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closing {
		return ErrClosed
	}
	m.running.Add(1)
	return nil
}

// cancelCalls ends every running call (their commands are killed) and the calls waiting
// for their session: each session's VM is aborted.
func (m *Manager) cancelCalls() {
	m.mu.RLock()
	sessions := slices.Collect(maps.Values(m.sessions))
	m.mu.RUnlock()
	for _, s := range sessions {
		s.vm.Abort(ErrClosed)
	}
}

// sweepIdle closes, until Shutdown, the sessions idle for longer than Config.IdleTTL.
func (m *Manager) sweepIdle() {
	ttl := m.cfg.IdleTTL
	tick := time.NewTicker(min(max(ttl/4, 10*time.Millisecond), time.Minute))
	defer tick.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-tick.C:
			m.mu.RLock()
			sessions := slices.Collect(maps.Values(m.sessions))
			m.mu.RUnlock()
			for _, s := range sessions {
				if s.idleSince(now) > ttl {
					s.expire(ttl)
				}
			}
		}
	}
}

// Shutdown stops the manager: it refuses new sessions and calls, waits for the running
// calls until ctx ends, then cancels those still running (their commands are killed) and
// waits for them to return, closes every session and releases the roots and journals. It
// returns ctx's error when it had to cancel calls. Later calls wait for the first to finish.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		<-m.done
		return nil
	}
	m.closing = true
	m.mu.Unlock()
	close(m.stop)

	idle := make(chan struct{})
	go func() {
		m.running.Wait()
		close(idle)
	}()
	var err error
	select {
	case <-idle:
	default:
		select {
		case <-idle:
		case <-ctx.Done():
			err = ctx.Err()
			m.cancelCalls()
			<-idle
		}
	}
	m.mu.RLock()
	sessions := slices.Collect(maps.Values(m.sessions))
	m.mu.RUnlock()
	for _, s := range sessions {
		s.Close()
	}
	m.mu.Lock()
	m.release(m.main)
	m.mu.Unlock()
	close(m.done)
	return err
}

// Close shuts the manager down at once: running calls are cancelled (see Shutdown).
func (m *Manager) Close() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.Shutdown(ctx)
	return nil
}

// newID returns a random identifier for a session.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
