// Package serve is jido serve --stdio: one session for a front end (an editor) over
// JSON-RPC 2.0 on standard input and output, LSP-framed (docs/serve-protocol.md). The
// front end sends messages and single tool calls and cancels them; jido streams the
// turn's events, asks the front end to approve calls, and, when the front end lends
// them, acts on its buffers.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/manager"
)

// Config is what the server needs from its command: how to open the session and build its
// agent, and what to tell the front end of them.
type Config struct {
	// Open opens the session with the server's options (approver, buffers) added.
	Open func(ctx context.Context, opts ...manager.SessionOption) (*manager.Session, error)
	// NewAgent builds the agent that answers messages in s; its OnEvent is the server's.
	NewAgent func(ctx context.Context, s *manager.Session) (*agent.Agent, error)
	// Version and Root are told to the front end at initialize, with the session's
	// profile and the agent's provider.
	Version, Root string
}

// Server is one front end's session.
type Server struct {
	cfg  Config
	peer *Peer

	mu      sync.Mutex
	session *manager.Session
	agent   *agent.Agent
	stop    context.CancelFunc // of the running message or call; nil when none
	callID  string             // the agent's running tool call, which progress events name
	exit    chan struct{}      // closed by the exit notification
	exited  bool
}

// progressEvery is how often a running command's tail is sent.
const progressEvery = time.Second

// Run serves the front end on in and out until it sends exit, closes its end, or ctx
// ends; it closes the session.
func Run(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	s := &Server{cfg: cfg, exit: make(chan struct{})}
	s.peer = NewPeer(in, out, s.handle, func(method string) bool {
		return method == "message" || method == "call" || method == "undo" // they may wait for approvals and buffers
	})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.peer.Serve(ctx) }()
	var err error
	select {
	case err = <-served:
	case <-s.exit:
		cancel()
	case <-ctx.Done():
	}
	s.mu.Lock()
	if s.stop != nil {
		s.stop()
	}
	sess := s.session
	s.mu.Unlock()
	if sess != nil {
		sess.Close()
	}
	return err
}

// handle dispatches one request or notification of the front end.
func (s *Server) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "initialize":
		return s.initialize(ctx, params)
	case "exit":
		s.mu.Lock()
		if !s.exited {
			s.exited = true
			close(s.exit)
		}
		s.mu.Unlock()
		return nil, nil
	case "shutdown":
		return nil, nil
	case "cancel":
		s.mu.Lock()
		if s.stop != nil {
			s.stop()
		}
		s.mu.Unlock()
		return nil, nil
	}
	sess, a := s.current()
	if sess == nil {
		return nil, &Error{Code: CodeInvalidRequest, Message: "call initialize first"}
	}
	switch method {
	case "message":
		var p struct {
			Text string `json:"text"`
		}
		if err := decode(params, &p); err != nil || p.Text == "" {
			return nil, &Error{Code: CodeInvalidParams, Message: `message needs {"text": "..."}`}
		}
		return s.exclusive(ctx, func(ctx context.Context) (any, error) {
			ctx = sess.WithProgress(ctx, progressEvery, func(pr manager.Progress) {
				s.mu.Lock()
				id := s.callID
				s.mu.Unlock()
				s.peer.Notify("event", map[string]any{"kind": "progress", "id": id, "elapsed_ms": pr.Elapsed.Milliseconds(), "tail": pr.Tail})
			})
			text, err := a.Send(ctx, p.Text)
			if err != nil {
				return nil, err
			}
			s.peer.Notify("event", map[string]any{"kind": "done", "text": text})
			return map[string]any{"text": text}, nil
		})
	case "call":
		var p struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		}
		if err := decode(params, &p); err != nil || p.Name == "" {
			return nil, &Error{Code: CodeInvalidParams, Message: `call needs {"name": "tool", "args": {...}}`}
		}
		return s.exclusive(ctx, func(ctx context.Context) (any, error) {
			return sess.Call(ctx, manager.ToolCall{Name: p.Name, Args: p.Args}), nil
		})
	case "undo":
		var p struct {
			ChangeID string `json:"change_id"`
		}
		if err := decode(params, &p); err != nil {
			return nil, &Error{Code: CodeInvalidParams, Message: err.Error()}
		}
		args := map[string]any{}
		if p.ChangeID != "" {
			args["change_id"] = p.ChangeID
		}
		return s.exclusive(ctx, func(ctx context.Context) (any, error) {
			return sess.CallCanonical(ctx, manager.ToolCall{Name: "undo", Args: args}), nil
		})
	}
	return nil, &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("unknown method %q (see docs/serve-protocol.md)", method)}
}

// decode reads params into v; absent params are an empty object.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	return json.Unmarshal(params, v)
}

// current returns the session and its agent, nil before initialize.
func (s *Server) current() (*manager.Session, *agent.Agent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session, s.agent
}

// exclusive runs fn as the session's one running operation, which cancel ends.
func (s *Server) exclusive(ctx context.Context, fn func(context.Context) (any, error)) (any, error) {
	s.mu.Lock()
	if s.stop != nil {
		s.mu.Unlock()
		return nil, &Error{Code: CodeBusy, Message: "a message or call is running: wait for it, or cancel it"}
	}
	ctx, stop := context.WithCancel(ctx)
	s.stop = stop
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.stop = nil
		s.mu.Unlock()
		stop()
	}()
	res, err := fn(ctx)
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, &Error{Code: CodeCancelled, Message: "cancelled"}
	}
	return res, err
}

// initialize opens the session for the front end's capabilities.
func (s *Server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Capabilities struct {
			Buffers bool `json:"buffers"`
		} `json:"capabilities"`
	}
	if err := decode(params, &p); err != nil {
		return nil, &Error{Code: CodeInvalidParams, Message: err.Error()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != nil {
		return nil, &Error{Code: CodeInvalidRequest, Message: "already initialized"}
	}
	opts := []manager.SessionOption{manager.WithApprover(approver{s.peer})}
	if p.Capabilities.Buffers {
		opts = append(opts, manager.WithBuffers(&Editor{peer: s.peer, limits: buffers.DefaultLimits}))
	}
	sess, err := s.cfg.Open(ctx, opts...)
	if err != nil {
		return nil, err
	}
	a, err := s.cfg.NewAgent(ctx, sess)
	if err != nil {
		sess.Close()
		return nil, err
	}
	a.OnEvent = s.event
	s.session, s.agent = sess, a
	var tools []string
	for _, t := range sess.Tools() {
		tools = append(tools, t.Name)
	}
	return map[string]any{"server": "jido", "version": s.cfg.Version, "session": sess.ID(), "root": s.cfg.Root,
		"profile": sess.Profile().Name, "provider": a.Provider.Name(), "tools": tools}, nil
}

// event sends one event of the agent's turn to the front end.
func (s *Server) event(e agent.Event) {
	out := map[string]any{"kind": string(e.Kind)}
	switch {
	case e.Result != nil:
		out["id"], out["name"], out["ok"], out["outcome"], out["content"] = e.Result.CallID, e.Result.Name, e.Result.OK, e.Result.Outcome, e.Result.Content
	case e.Call != nil:
		out["id"], out["name"], out["args"] = e.Call.ID, e.Call.Name, e.Call.Args
		s.mu.Lock()
		s.callID = e.Call.ID
		s.mu.Unlock()
	default:
		out["text"] = e.Text
	}
	s.peer.Notify("event", out)
}

// approver asks the front end about the calls the policy asks about.
type approver struct{ peer *Peer }

// answers maps the front end's words to answers.
var answers = map[string]manager.Answer{"once": manager.AllowOnce, "session": manager.AllowSession, "always": manager.AllowAlways, "deny": manager.Deny}

// Approve sends the approve request; an error or an unknown answer denies.
func (a approver) Approve(ctx context.Context, req manager.ApprovalRequest) (manager.Answer, error) {
	var res struct {
		Answer string `json:"answer"`
	}
	if err := a.peer.Call(ctx, "approve", req, &res); err != nil {
		return manager.Deny, nil
	}
	return answers[res.Answer], nil
}
