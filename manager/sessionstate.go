package manager

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/tools/builtin"
)

// SessionState is what a session carries from one process to the next (jido call
// --session NAME): the files it has read, at the versions it read them, the approvals
// given "for the session", its todos and tasks, and its buffers. Not its Lua VM (fresh for
// every call anyway), its commands or its plan. It is plain JSON data; where it is kept is
// the caller's business (the manager knows nothing of files).
//
// Restoring it (WithState) gives the new session no more than the old one had: an edit of
// a file read before still compares the file's version now with the one recorded, so a
// file changed since is refused as stale; approvals are restored only as session rules of
// the same root.
type SessionState struct {
	// Root is the project root of the session (its absolute, symlink-free path): a state
	// restores only into a session of the same root.
	Root      string        `json:"root"`
	Reads     []FileRead    `json:"reads,omitempty"`
	Approvals []Approval    `json:"approvals,omitempty"`
	Board     tasks.State   `json:"board,omitzero"`
	Buffers   buffers.State `json:"buffers,omitzero"`
}

// FileRead is a file the session has read (or written), at the version it saw: the
// fields of security.Version, the modification time in nanoseconds since the epoch.
type FileRead struct {
	Path    string      `json:"path"` // canonical, root-relative, slash-separated
	Dev     uint64      `json:"dev"`
	Ino     uint64      `json:"ino"`
	Size    int64       `json:"size"`
	ModTime int64       `json:"mtime_ns"`
	Mode    fs.FileMode `json:"mode"`
}

// Approval is an allow rule the user gave "for the session" (AllowSession): what
// policy.RuleFor made of the approved call.
type Approval struct {
	Tool     string   `json:"tool"`
	Paths    []string `json:"paths,omitempty"`
	Command  string   `json:"command,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Class    string   `json:"class,omitempty"`
}

// ErrBadState is the error of Open with a SessionState that cannot be restored (another
// root, a path or rule no session could have recorded); errors.Is finds it.
var ErrBadState = errors.New("the session state cannot be restored")

// WithState opens the session with the state another session had (Session.State): the
// files it read, its session approvals, its board and its buffers. Open fails with
// ErrBadState when the state is of another root or is not one a session could have made.
func WithState(st SessionState) SessionOption {
	return func(o *sessionOptions) { o.state = &st }
}

// State returns what the session holds that WithState restores. It waits for a running
// call to end (so it must not be called from within one), and works on a closed session.
func (s *Session) State() SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := SessionState{Root: s.p.key, Board: s.board.State(), Buffers: s.bufs.State()}
	for path, v := range s.reads.Versions() {
		st.Reads = append(st.Reads, FileRead{Path: path, Dev: v.Dev, Ino: v.Ino, Size: v.Size, ModTime: v.ModTime.UnixNano(), Mode: v.Mode})
	}
	slices.SortFunc(st.Reads, func(a, b FileRead) int { return strings.Compare(a.Path, b.Path) })
	if s.gate != nil {
		st.Approvals = s.gate.sessionApprovals(s.p.perms)
	}
	return st
}

// sessionApprovals are the allow rules the session's own engine remembers for the session
// (those the approver granted with AllowSession), not its parent's.
func (g *policyGate) sessionApprovals(parent *policy.Engine) []Approval {
	var inherited []policy.Rule
	if parent != nil {
		inherited = parent.Rules()
	}
	var out []Approval
	for _, r := range g.engine.Rules() {
		if r.Scope != policy.ScopeSession || r.Action != policy.Allow {
			continue
		}
		if i := slices.IndexFunc(inherited, func(p policy.Rule) bool { return reflect.DeepEqual(p, r) }); i >= 0 {
			inherited = slices.Delete(inherited, i, i+1) // the parent's own session rule
			continue
		}
		out = append(out, Approval{Tool: r.Tool, Paths: slices.Clone(r.Paths), Command: r.Command, Commands: slices.Clone(r.Commands), Class: r.Class})
	}
	return out
}

// restoreState fills a new session's read log, gate, board and buffers from st, or says
// why it cannot. Nothing of st is trusted beyond what the session could have recorded
// itself: reads are canonical paths inside the root (and an edit still checks the file's
// version now against the one recorded), approvals are allow rules of one named tool,
// remembered for the session only.
func restoreState(st SessionState, p *project, gate *policyGate, reads *builtin.ReadLog, board *tasks.Board, bufs *buffers.Memory) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadState, fmt.Sprintf(format, args...))
	}
	if st.Root != p.key {
		return bad("it is the state of a session on %s, not %s", cmp.Or(st.Root, `""`), p.key)
	}
	versions := make(map[string]security.Version, len(st.Reads))
	for _, r := range st.Reads {
		if !fs.ValidPath(r.Path) || strings.ContainsAny(r.Path, "\x00\\") || r.Size < 0 {
			return bad("a read of %q is not of a root-relative file", r.Path)
		}
		versions[r.Path] = security.Version{Dev: r.Dev, Ino: r.Ino, Size: r.Size, ModTime: time.Unix(0, r.ModTime), Mode: r.Mode}
	}
	if len(st.Board.Todos) > tasks.MaxItems || len(st.Board.Tasks) > tasks.MaxItems {
		return bad("the board holds more than %d todos or tasks", tasks.MaxItems)
	}
	if err := bufs.Restore(st.Buffers); err != nil {
		return bad("%v", err)
	}
	if len(st.Approvals) > 0 && gate != nil {
		for _, a := range st.Approvals {
			if a.Tool == "" || strings.ContainsAny(a.Tool, "*?[]{}") {
				return bad("an approval names no single tool (%q)", a.Tool)
			}
			rule := policy.Rule{Action: policy.Allow, Tool: a.Tool, Paths: a.Paths, Command: a.Command, Commands: a.Commands, Class: a.Class}
			if _, err := gate.engine.Remember(rule, policy.ScopeSession); err != nil {
				return bad("approval of %s: %v", a.Tool, err)
			}
		}
	}
	reads.Restore(versions)
	board.Restore(st.Board)
	return nil
}
