package manager

import (
	"io"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/profile"
	"github.com/jido-run/jido/runtime"
)

// SessionOption sets one property of a session at Open, over the manager's Config.
type SessionOption func(*sessionOptions)

// sessionOptions are the settings Open collects; zero fields take the Config's.
type sessionOptions struct {
	root     string
	role     string
	mode     policy.Mode
	approver Approver
	events   io.Writer
	limits   *runtime.Limits
	profile  *profile.Profile
	// conversation the session's change sets belong to ("" for the session's own id).
	conversation string
	// For a forge planner: the canonical tools its gate allows, and that it holds a plan.
	tools []string
	plan  bool
	state *SessionState // WithState: what the session starts with
	// buffers the session's buffer tools act on (WithBuffers); nil: its own, in memory
	buffers buffers.Buffers
	cwd     string // WithCwd: the working directory of calls without a meta.cwd
}

// WithCwd makes dir, a directory inside the root, the working directory of the session's
// calls and evals that name none (meta.cwd): where the user stands in the project, for a
// front started in a subdirectory. Open refuses a dir that is not a directory inside the
// root.
func WithCwd(dir string) SessionOption { return func(o *sessionOptions) { o.cwd = dir } }

// WithBuffers makes the session's buffer tools act on b (a live editor's buffers, say)
// instead of buffers of its own in memory; a session saved with its state then carries
// no buffers (they are the editor's).
func WithBuffers(b buffers.Buffers) SessionOption { return func(o *sessionOptions) { o.buffers = b } }

// WithRoot opens the session on another project root (Config.OpenRoot sets it up).
func WithRoot(dir string) SessionOption { return func(o *sessionOptions) { o.root = dir } }

// WithRole limits the session's tools to a role's allow-list (reader, editor, runner, full,
// or one of the config's).
func WithRole(role string) SessionOption { return func(o *sessionOptions) { o.role = role } }

// WithMode sets the session's approval mode, whatever the policy's mode is or becomes.
func WithMode(m policy.Mode) SessionOption { return func(o *sessionOptions) { o.mode = m } }

// WithApprover answers the session's asks (an MCP client's elicitation, a UI).
func WithApprover(a Approver) SessionOption { return func(o *sessionOptions) { o.approver = a } }

// WithEvents writes the session's events as NDJSON to w too (the manager's log gets them as well).
func WithEvents(w io.Writer) SessionOption { return func(o *sessionOptions) { o.events = w } }

// WithLimits sets the session's per-call Lua limits (zero fields: defaults).
func WithLimits(l runtime.Limits) SessionOption { return func(o *sessionOptions) { o.limits = &l } }

// WithProfile makes the session speak a dialect (profile.Get): its calls name the
// profile's tools with the profile's arguments, and get the profile's results and errors.
// A role the profile defines (forge's captain, type1, ...) limits its tools.
func WithProfile(p *profile.Profile) SessionOption { return func(o *sessionOptions) { o.profile = p } }

// WithConversation makes the session part of a conversation that may span several
// sessions (a chat's transcript id: a chat opens a new session when it enters or leaves
// plan mode, and again when it is resumed). Its change sets are journaled with the
// session's id and this conversation, and its undo without a change id undoes only the
// conversation's changes. Without it, the conversation is the session's own id.
func WithConversation(id string) SessionOption {
	return func(o *sessionOptions) { o.conversation = id }
}
