// Package mcp serves jido's tools to MCP clients (editors, desktop agents) through the
// official Go SDK, github.com/modelcontextprotocol/go-sdk/mcp, imported here as sdk so that
// the two packages' names do not meet.
//
// # One jido session per MCP session
//
// A Server holds one manager.Manager for the process and gives every MCP session its own
// sdk.Server and its own jido session (Manager.Open), closed when the MCP session ends.
// A jido session is a VM, the files it has read, its "allow for this session" rules and
// its commands: none of it may leak between clients. Its own sdk.Server gives each session
// its own tool list too: the tools of a session depend on its root (user tools in
// .jido/tools), role and mode, and change while it lives. Over stdio there is one session;
// over streamable HTTP (a TCP port, or a UNIX socket behind a PeerListener) the SDK's
// handler asks for a server for each new session (see Handler).
//
// The jido session is opened on the first tools/list or tools/call, within that request,
// once the client's capabilities are known: its root (Options.ClientRoots) may come from
// the client's roots/list, and its approver from the client's elicitation capability.
// Each tools/list and, about once a second (Options.SyncEvery), a background loop re-read
// Session.Tools() and add or remove tools on the session's sdk.Server, which makes the SDK
// send notifications/tools/list_changed; the session lets it out only when the list
// changed since the client last had it (toolSet): the tools the jido session starts
// with are no change, since tools/list opens the session first.
//
// # Protocol versions
//
// The server speaks the protocol versions up to 2025-11-25, whose sessions are stateful:
// in the stateless 2026-07-28 protocol a server cannot send requests of its own in the
// middle of a call (elicitation becomes a result that makes the client repeat the whole
// call, which would repeat the part of a Lua tool that ran before the approval) and HTTP
// sessions do not exist. SDK clients fall back to 2025-11-25 by themselves.
//
// # Messages
//
// Over stdio, StdioTransport reads the client's lines in place of the SDK's transport,
// which ends the session at the first line that is not a message: here a line that is not
// a JSON-RPC message gets the error JSON-RPC 2.0 calls for (-32700 Parse error, -32600
// Invalid Request, with a null id when it has no valid one), a line over MaxMessage an
// error naming the cap, and the session goes on. Over HTTP, Handler checks a POST's
// message the same way before the SDK sees it, and answers 400 to one without
// Mcp-Session-Id that is not initialize (admit). Every error a request gets carries a
// JSON-RPC code (protocolError), where the SDK sends code 0 for an error without one.
//
// # Calls
//
// tools/call runs manager.Session.Call. A result is the structuredContent (checked against
// the tool's outputSchema by the tests) and one text content with its JSON; a tool error
// is a result with isError and the error's JSON ({type, message, details, recovery}). An
// unknown tool or bad arguments are tool errors too (validation-error), never protocol
// errors. Approvals go to the client as elicitation/create when it can answer them,
// otherwise the policy's headless rule applies. A call that carries a progress token gets
// notifications/progress while its command runs.
package mcp

import (
	"bytes"
	"cmp"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Server. Zero durations take the defaults given.
type Options struct {
	// Version is the server version reported to clients.
	Version string
	// ClientRoots lets a client that supports roots choose its session's root: the first
	// file:// root of its roots/list. Otherwise, and for a client without roots, a session
	// works on the manager's root (Config.Root).
	ClientRoots bool
	// ConfineRoots accepts a client's root only inside the manager's root, and refuses the
	// session otherwise. HTTP needs it: any local process can connect to a loopback port.
	ConfineRoots bool
	// Grace is how long Run and Serve let running calls finish at shutdown before they
	// cancel them (default 10 s).
	Grace time.Duration
	// ProgressEvery is the period of a call's progress notifications (default 1 s).
	ProgressEvery time.Duration
	// SyncEvery is the period at which a session's tool list is re-read (default 1 s).
	SyncEvery time.Duration
	// IdleTimeout closes an HTTP session no request has used for this long (0: never). A
	// client that vanished without ending its session would otherwise hold it forever.
	IdleTimeout time.Duration
	// Logger receives the SDK's log of sessions and transports (nil: none).
	Logger *slog.Logger
	// Token, when set, is the bearer token every HTTP request must carry
	// (Authorization: Bearer TOKEN); others get 401. Any local process can reach a
	// loopback port, so HTTP needs it.
	Token string
	// SessionApprovalsOnly lets a client's approval answer cover at most its session: the
	// form offers no "always", and an "always" answer counts as "for this session". A
	// client that is not the user's own process (HTTP) must not write a project rule,
	// which would also keep the project config trusted.
	SessionApprovalsOnly bool
	// Stderr receives, once each, the errors of user tool files that failed to load (nil:
	// only the clients get them, as log notifications).
	Stderr io.Writer
}

// Server serves the sessions of one manager to MCP clients.
type Server struct {
	m    *manager.Manager
	opts Options

	mu      sync.Mutex
	live    map[*sdk.ServerSession]bool // sessions whose jido session is open
	closing bool                        // shutdown is past its grace: HTTP requests are refused
	// pending counts the HTTP POSTs being answered and the calls read from the transports
	// of Connect and not answered yet: shutdown lets their answers out before it closes
	// the sessions, which drops the answers not yet written.
	pending inflight

	stderrMu sync.Mutex // one write to Options.Stderr at a time
}

// New returns a server of m's sessions.
func New(m *manager.Manager, opts Options) *Server {
	opts.Grace = cmp.Or(opts.Grace, 10*time.Second)
	opts.ProgressEvery = cmp.Or(opts.ProgressEvery, time.Second)
	opts.SyncEvery = cmp.Or(opts.SyncEvery, time.Second)
	return &Server{m: m, opts: opts, live: map[*sdk.ServerSession]bool{}}
}

// statelessEra is the first protocol version without sessions (see the package doc).
const statelessEra = "2026-07-28"

// serverOptions are the options of every session's sdk.Server.
func (s *Server) serverOptions() *sdk.ServerOptions {
	return &sdk.ServerOptions{
		Instructions: "jido's tools act on one project root, in a sandbox. Errors are JSON " +
			"with a type and recovery hints; edit a file only after reading it.",
		Logger: s.opts.Logger,
		// Tools are added when the jido session opens, after initialize: declare them now.
		// Logging: the errors of user tool files that failed to load are log messages.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}, Logging: &sdk.LoggingCapabilities{}},
		SupportedProtocolVersions: slices.DeleteFunc(sdk.SupportedProtocolVersions(), func(v string) bool {
			return v >= statelessEra
		}),
	}
}

// implementation is how the server introduces itself.
func (s *Server) implementation() *sdk.Implementation {
	return &sdk.Implementation{Name: "jido", Version: cmp.Or(s.opts.Version, "dev")}
}

// Connect serves one MCP session over t, with its own sdk.Server and, once the client
// lists or calls tools, its own jido session. It returns once the session is connected;
// the session ends when the client closes it (ServerSession.Wait).
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	// The session outlives ctx's cancellation: shutdown ends it (Run, Serve).
	return s.newSession().server.Connect(context.WithoutCancel(ctx), counted{t, &s.pending}, nil)
}

// Run serves one MCP session over t (stdio) until the client ends it or ctx is done, then
// shuts the manager down: running calls get Options.Grace to finish. It returns why the
// session ended when that was not the end of the input or ctx: a transport that failed.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	ss, err := s.Connect(ctx, t)
	if err != nil {
		s.shutdown()
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err = <-ended:
		s.shutdown()
		ss.Close()
		return err
	case <-ctx.Done():
	}
	s.shutdown()
	ss.Close()
	<-ended // the end that the shutdown brought about
	return nil
}

// newServerKey is the request context key of the sdk.Server that Handler makes for a new
// session.
type newServerKey struct{}

// Handler returns the streamable HTTP handler of the server: a new sdk.Server, so a new
// MCP session with its own jido session, for each initialize request without
// Mcp-Session-Id; the SDK routes the other requests to their session. Requests a browser
// marks as cross-origin are refused. A POST's message is checked first (admit).
//
// The SDK's handler also asks for a server on every request, only to read the protocol
// versions it speaks; those requests get a server that is never connected. The server of
// a new session is made before the SDK's handler runs and passed in the request's
// context, so that the two times the handler asks during that request get the same one.
func (s *Server) Handler() http.Handler {
	versions := sdk.NewServer(s.implementation(), s.serverOptions())
	h := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		if srv, ok := r.Context().Value(newServerKey{}).(*sdk.Server); ok {
			return srv
		}
		return versions
	}, &sdk.StreamableHTTPOptions{SessionTimeout: s.opts.IdleTimeout, Logger: s.opts.Logger, MaxRequestBodyBytes: MaxMessage})
	// A web page the user visits must not drive the server through the browser: refuse
	// cross-origin requests (the SDK already refuses a foreign Host on loopback).
	return http.NewCrossOriginProtection().Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authorized(w, r) {
			return
		}
		if r.Method == http.MethodPost {
			if !s.enter() {
				http.Error(w, "jido mcp is shutting down", http.StatusServiceUnavailable)
				return
			}
			defer s.pending.add(-1)
			starts, ok := admit(w, r)
			if !ok {
				return
			}
			if starts {
				r = r.WithContext(context.WithValue(r.Context(), newServerKey{}, s.newSession().server))
			}
		}
		h.ServeHTTP(w, r)
	}))
}

// authorized reports whether r carries the server's bearer token (always, without one);
// otherwise it answers 401 with the challenge of RFC 6750: error="invalid_token" for a
// wrong token, no error code for a request without one.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	got, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if bearer && subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1 {
		return true
	}
	challenge := `Bearer realm="jido mcp"`
	if bearer {
		challenge += `, error="invalid_token", error_description="not this server's token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	http.Error(w, "jido mcp: missing or wrong bearer token (Authorization: Bearer TOKEN, printed by jido mcp --http)", http.StatusUnauthorized)
	return false
}

// admit reads and checks the message of a POST before the SDK's handler sees it, and puts
// the body back for it. It answers, and reports !ok for: a body over MaxMessage (413); a
// message that is not JSON-RPC (400 with the JSON-RPC error, as over stdio); without
// Mcp-Session-Id, anything but an initialize request (400, as the transport spec says:
// the SDK would start a session that fails), except a request of the stateless protocol
// (2026-07-28), which the SDK answers with the versions this server speaks. starts reports
// a request without a session, for which the SDK starts one. A batch (protocol
// 2025-03-26) goes to the SDK, which takes it or not by the session's protocol version.
func admit(w http.ResponseWriter, r *http.Request) (starts, ok bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	if err != nil {
		http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
		return false, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) > MaxMessage {
		reject(w, http.StatusRequestEntityTooLarge, jsonrpc.ID{}, tooLarge)
		return false, false
	}
	session := r.Header.Get("Mcp-Session-Id") != ""
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) && session {
		return false, true
	}
	msg, id, refusal := decodeMessage(body)
	if refusal != nil {
		reject(w, http.StatusBadRequest, id, refusal)
		return false, false
	}
	if session {
		return false, true
	}
	if req, isRequest := msg.(*jsonrpc.Request); isRequest && (req.Method == "initialize" || stateless(r, req)) {
		return true, true
	}
	reject(w, http.StatusBadRequest, jsonrpc.ID{}, invalidRequest("no Mcp-Session-Id header: start a session with initialize, then send its id with every request"))
	return false, false
}

// stateless reports whether req is of the stateless protocol, which has no sessions: by
// the MCP-Protocol-Version header, or the version in the request's _meta.
func stateless(r *http.Request, req *jsonrpc.Request) bool {
	if r.Header.Get("MCP-Protocol-Version") >= statelessEra {
		return true
	}
	var params struct {
		Meta map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(req.Params, &params)
	_, ok := params.Meta[sdk.MetaKeyProtocolVersion]
	return ok
}

// reject answers an HTTP request with status and a JSON-RPC error response.
func reject(w http.ResponseWriter, status int, id jsonrpc.ID, e *jsonrpc.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errorResponse(id, e))
}

// enter registers a POST about to be answered; it fails once shutdown has closed the door.
// A POST carries a request, a notification or the client's answer to the server (an
// approval), so POSTs are taken until the running calls have ended.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.pending.add(1)
	return true
}

// Path is where Serve answers MCP requests.
const Path = "/mcp"

// Serve answers MCP over streamable HTTP on ln, at Path, until ctx is done; then it stops
// accepting connections, shuts the manager down (running calls get Options.Grace to
// finish), lets the responses being written go out, ends the sessions and closes the
// connections left (the clients' event streams).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle(Path, s.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		s.shutdown()
		return err
	case <-ctx.Done():
	}
	stopped := make(chan struct{})
	go func() {
		_ = hs.Shutdown(context.Background()) // stops listening; returns when idle or closed
		close(stopped)
	}()
	s.shutdown()
	hs.Close()
	<-stopped
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// flushWait bounds how long shutdown waits, after the calls, for the answers being
// written: a request cannot wait for the client any more (HTTP answers are refused).
const flushWait = 5 * time.Second

// shutdown shuts the manager down, giving running calls Options.Grace; then refuses HTTP
// requests, waits for the answers being written (the results of the last calls), and ends
// the sessions left.
func (s *Server) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Grace)
	defer cancel()
	_ = s.m.Shutdown(ctx) // an error says that calls were cancelled, as the grace intends
	s.mu.Lock()
	s.closing = true
	live := slices.Collect(maps.Keys(s.live))
	s.mu.Unlock()
	s.pending.wait(flushWait)
	for _, ss := range live {
		ss.Close()
	}
}
