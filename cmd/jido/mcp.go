package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jido-run/jido/manager"
	mcpserver "github.com/jido-run/jido/mcp"
)

// mcpOptions are the parsed arguments of `jido mcp`.
type mcpOptions struct {
	sessionFlags
	rootSet bool   // --root was given: over stdio it is every session's root, whatever the client's
	http    string // listen address of streamable HTTP ("" for stdio)
	httpAny bool   // let --http listen on an address other than loopback
	socket  string // path of a UNIX socket to serve streamable HTTP on ("" for none)
}

// served reports whether the server serves other processes (--http or --socket) rather
// than the client that started it (stdio).
func (o *mcpOptions) served() bool { return o.http != "" || o.socket != "" }

// parseMCP parses the arguments of `jido mcp`. A non-loopback --http address is refused
// without --http-any: the server runs tools for whoever connects. --http and --socket
// exclude each other.
func parseMCP(args []string, stderr io.Writer) (*mcpOptions, error) {
	o := &mcpOptions{}
	fs := newFlagSet("mcp", stderr)
	o.register(fs)
	fs.StringVar(&o.http, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio")
	fs.BoolVar(&o.httpAny, "http-any", false, "let --http listen on an address other than loopback")
	fs.StringVar(&o.socket, "socket", "", "serve streamable HTTP on a UNIX socket at this path (mode 0600, your uid only) instead of stdio")
	fs.IntVar(&o.callMemory, "call-memory", 256, "MiB of Lua data one call may allocate (strings, tables, closures), charged before each allocation")
	fs.IntVar(&o.workerMemory, "worker-memory", 0, "MiB a session's worker process may use (--isolation worker; 0: 1024, or more when twice --call-memory needs more)")
	fs.StringVar(&o.isolation, "isolation", "", "where sessions' Lua runs: worker (a process per session under a memory ceiling; the default with --http and --socket) or process (this one; the default over stdio)")
	fs.IntVar(&o.maxSessions, "max-sessions", defaultMaxSessions, "sessions open at once (each MCP client has one; with worker isolation, one worker process each); 0: no cap")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("mcp takes no arguments, got %q", fs.Args())
	}
	if o.callMemory < 1 {
		return nil, fmt.Errorf("--call-memory must be at least 1 (MiB), got %d", o.callMemory)
	}
	if o.workerMemory < 0 {
		return nil, fmt.Errorf("--worker-memory must be positive (MiB), got %d", o.workerMemory)
	}
	if o.maxSessions < 0 {
		return nil, fmt.Errorf("--max-sessions must be 0 (no cap) or more, got %d", o.maxSessions)
	}
	switch o.isolation {
	case "":
		o.isolation = manager.IsolationProcess
		if o.served() { // many clients in one process: none may take it down
			o.isolation = manager.IsolationWorker
		}
	case manager.IsolationProcess, manager.IsolationWorker:
	default:
		return nil, fmt.Errorf("--isolation must be worker or process, got %q", o.isolation)
	}
	o.rootSet = o.root.given
	o.root.cwd = "" // a client names paths from the root, wherever the server started
	switch {
	case o.http != "" && o.socket != "":
		return nil, errors.New("--http and --socket exclude each other: serve on one of them")
	case o.http == "" && o.httpAny:
		return nil, errors.New("--http-any needs --http")
	case o.http != "" && !o.httpAny:
		if err := loopbackOnly(o.http); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// loopbackOnly checks that addr (host:port) listens on loopback only.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v (want host:port, e.g. 127.0.0.1:8765)", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--http %q is not a loopback address: anyone who reaches it could run tools on this project; use 127.0.0.1, or add --http-any if you mean it", addr)
	}
	return nil
}

// runMCP implements `jido mcp`: an MCP server on standard input and output, or on
// streamable HTTP with --http or --socket, until the client leaves or SIGINT/SIGTERM;
// running calls then get a grace period to finish.
func runMCP(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseMCP(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido mcp: %v\n", err)
		return exitUsage
	}
	var ln net.Listener
	switch {
	case o.http != "":
		ln, err = net.Listen("tcp", o.http)
	case o.socket != "":
		// Before the manager starts goroutines: the socket's mode comes from the umask.
		ln, err = mcpserver.ListenSocket(o.socket, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jido mcp: %v\n", err)
		return exitToolError
	}
	if ln != nil {
		defer ln.Close() // a UNIX socket's file goes with it
	}
	o.workerLog = stderr
	m, perms, done, err := o.openManager(nil, true, true)
	if err != nil {
		fmt.Fprintf(stderr, "jido mcp: %v\n", err)
		return exitUsage
	}
	defer done()
	warnUntrusted(perms, stderr)
	// Over stdio --root fixes the root; over HTTP it bounds the roots clients may choose.
	opts := mcpserver.Options{
		Version:      version,
		ClientRoots:  o.served() || !o.rootSet,
		ConfineRoots: o.served(),
		IdleTimeout:  httpIdleTimeout,
		// An HTTP client is any local process that has the token or the uid, not the
		// user's own terminal: its answers approve at most for its session.
		SessionApprovalsOnly: o.served(),
		Stderr:               stderr, // user tool files that failed to load
	}
	var tokenPath string
	if o.http != "" {
		if opts.Token, tokenPath, err = writeMCPToken(ln.Addr()); err != nil {
			fmt.Fprintf(stderr, "jido mcp: %v\n", err)
			return exitToolError
		}
		defer os.Remove(tokenPath)
	}
	srv := mcpserver.New(m, opts)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	switch {
	case ln == nil:
		err = srv.Run(ctx, &mcpserver.StdioTransport{In: readCloser(stdin), Out: stdout})
	case o.socket != "":
		// The kernel vouches for the peer's uid (mcpserver.PeerListener): no token.
		fmt.Fprintf(stderr, "jido mcp: listening on unix:%s, path %s (processes of uid %d only)\n", ln.Addr(), mcpserver.Path, os.Geteuid())
		err = srv.Serve(ctx, ln)
	default:
		fmt.Fprintf(stderr, "jido mcp: listening on http://%s%s\n", ln.Addr(), mcpserver.Path)
		fmt.Fprintf(stderr, "jido mcp: clients must send the header \"Authorization: Bearer %s\" (the token is also in %s, readable by you only)\n", opts.Token, tokenPath)
		err = srv.Serve(ctx, ln)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jido mcp: %v\n", err)
		return exitToolError
	}
	return exitOK
}

// TokenEnv fixes the HTTP bearer token (for a client configuration that names it);
// without it every start makes a new random one.
const TokenEnv = "JIDO_MCP_TOKEN"

// writeMCPToken returns the bearer token of an HTTP server listening on addr (TokenEnv's,
// else 32 random bytes in hex) and the file, readable by the user only, where it writes
// it for clients to read: $XDG_CONFIG_HOME/jido/mcp/<port>.token.
func writeMCPToken(addr net.Addr) (token, path string, err error) {
	token = os.Getenv(TokenEnv)
	if token == "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", "", err
		}
		token = hex.EncodeToString(b[:])
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", "", fmt.Errorf("no directory for the token file: %w", err)
	}
	dir = filepath.Join(dir, "jido", "mcp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	_, port, _ := net.SplitHostPort(addr.String())
	path = filepath.Join(dir, port+".token")
	os.Remove(path) // a stale file of a server that died: its mode is not trusted either
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", "", fmt.Errorf("writing the token file: %w", err)
	}
	_, err = f.WriteString(token + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return token, path, err
}

// defaultMaxSessions caps a server's open sessions unless --max-sessions says otherwise:
// with worker isolation, what the workers may use together is the cap times each one's
// ceiling, a bound the operator can read at start.
const defaultMaxSessions = 64

// httpIdleTimeout closes an HTTP session unused for this long: a client that vanished
// would otherwise keep its jido session open for the life of the server.
const httpIdleTimeout = time.Hour

// readCloser returns r as an io.ReadCloser: the session closes it at its end, which
// unblocks a read waiting on standard input.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}
