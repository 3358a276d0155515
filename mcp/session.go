package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is one MCP session: its own sdk.Server, and the jido session opened for it.
type session struct {
	srv    *Server
	server *sdk.Server
	tools  toolSet

	mu   sync.Mutex
	jido *manager.Session // nil until opened
	err  error            // why it could not be opened: every request of the session fails with it

	loadErrors loadErrors // the user tool files that failed to load, reported once each
}

// newSession makes the sdk.Server of a new MCP session.
func (s *Server) newSession() *session {
	c := &session{srv: s, server: sdk.NewServer(s.implementation(), s.serverOptions())}
	c.tools = toolSet{server: c.server, call: c.call}
	c.server.AddReceivingMiddleware(c.intercept)
	c.server.AddSendingMiddleware(c.quiet)
	return c
}

// intercept sees every request of the session before the SDK handles it (handle), and
// gives the errors without a JSON-RPC code one (protocolError).
func (c *session) intercept(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := c.handle(ctx, method, req, next)
		return res, protocolError(err)
	}
}

// handle handles a request, mostly by next, the SDK's handler. tools/list opens the jido
// session if needed and re-reads its tools first. tools/call of a tool the server does not
// offer (unknown, left out by the role, or not listed yet) goes to the tools' handler
// here, where the SDK would answer a protocol error: the jido session runs it or says why
// not (a validation-error with the nearest name, a permission-error). logging/setLevel
// takes only the levels of the spec, where the SDK takes any string.
func (c *session) handle(ctx context.Context, method string, req sdk.Request, next sdk.MethodHandler) (sdk.Result, error) {
	switch r := req.(type) {
	case *sdk.ListToolsRequest:
		js, err := c.open(ctx, r.Session)
		if err != nil {
			return nil, err
		}
		c.tools.sync(js.Tools())
		c.reportLoadErrors(ctx, r.Session, js)
		c.tools.listed()
	case *sdk.CallToolRequest:
		if r.Params == nil || !c.tools.has(r.Params.Name) {
			return c.call(ctx, r)
		}
	case *sdk.ServerRequest[*sdk.SetLoggingLevelParams]:
		var level string
		if r.Params != nil {
			level = string(r.Params.Level)
		}
		if !slices.Contains(logLevels, level) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Invalid params: unknown logging level %q; the levels are %s", level, strings.Join(logLevels, ", "))}
		}
		res, err := next(ctx, method, req)
		if err == nil {
			c.logLevelSet(ctx, r.Session)
		}
		return res, err
	}
	return next(ctx, method, req)
}

// logLevels are the logging levels of MCP (RFC 5424's), least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// quiet sees every message the session sends: it drops a notifications/tools/list_changed
// that tells the client nothing (toolSet.notify), such as the one the SDK sends when the
// jido session's tools are first added.
func (c *session) quiet(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "notifications/tools/list_changed" && !c.tools.notify() {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// open returns the session's jido session, opening it on first use, within the request
// of ctx (roots/list goes out on its stream). A failure sticks: every later request of the
// MCP session fails with the same error; but not a server at its cap of sessions, which
// the next request asks again.
func (c *session) open(ctx context.Context, ss *sdk.ServerSession) (*manager.Session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jido != nil || c.err != nil {
		return c.jido, c.err
	}
	js, err := c.srv.openSession(ctx, ss)
	if errors.Is(err, manager.ErrTooManySessions) {
		return nil, fmt.Errorf("%w; retry later, when another client has gone (the server's operator sets the cap: jido mcp --max-sessions)", err)
	}
	c.jido, c.err = js, err
	if c.err == nil {
		c.tools.sync(c.jido.Tools())
		c.reportLoadErrors(ctx, ss, c.jido)
		c.srv.track(ss, true)
		go c.watch(ss, c.jido)
	}
	return c.jido, c.err
}

// openSession opens the jido session of the MCP session ss: on the root the client chose
// (see root), with the client's elicitation as its approver when the client can answer.
func (s *Server) openSession(ctx context.Context, ss *sdk.ServerSession) (*manager.Session, error) {
	root, err := s.root(ctx, ss)
	if err != nil {
		return nil, err
	}
	var opts []manager.SessionOption
	if root != "" {
		opts = append(opts, manager.WithRoot(root))
	}
	if canElicit(ss) {
		opts = append(opts, manager.WithApprover(elicitor{ss: ss, sessionOnly: s.opts.SessionApprovalsOnly}))
	}
	js, err := s.m.Open(ctx, "", opts...)
	if err == nil && root != "" && s.opts.ConfineRoots && !inside(js.Root(), s.m.Root()) {
		// The root was checked before it was opened; a link swapped in between moved it.
		js.Close()
		return nil, definitions.NewError(definitions.PermissionError, "the client's root %s is outside the server's root %s (it changed while it was opened)", js.Root(), s.m.Root()).
			Hint("Open a project inside " + s.m.Root())
	}
	return js, err
}

// watch keeps the session's tool list in step with js's until the MCP session ends, then
// closes js.
func (c *session) watch(ss *sdk.ServerSession, js *manager.Session) {
	ended := make(chan struct{})
	go func() {
		ss.Wait()
		close(ended)
	}()
	tick := time.NewTicker(c.srv.opts.SyncEvery)
	defer tick.Stop()
	for {
		select {
		case <-ended:
			js.Close()
			c.srv.track(ss, false)
			return
		case <-tick.C:
			c.tools.sync(js.Tools())
			c.reportLoadErrors(context.Background(), ss, js)
		}
	}
}

// track records (or forgets) a session whose jido session is open, for shutdown.
func (s *Server) track(ss *sdk.ServerSession, open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if open {
		s.live[ss] = true
	} else {
		delete(s.live, ss)
	}
}
