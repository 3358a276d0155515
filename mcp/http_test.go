package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httpClient connects a client with opts (and roots) to the MCP endpoint url over
// streamable HTTP; the session ends with the test.
func httpClient(t *testing.T, url string, opts *sdk.ClientOptions, roots ...*sdk.Root) *sdk.ClientSession {
	t.Helper()
	return connectClient(t, &sdk.StreamableClientTransport{Endpoint: url}, opts, roots...)
}

// TestHTTPSessionsAreIndependent runs two HTTP clients on one server: each gets its own
// jido session, and one's "allow for this session" does not reach the other.
func TestHTTPSessionsAreIndependent(t *testing.T) {
	root := t.TempDir()
	srv, _ := newServer(t, manager.Config{Root: root, Permissions: projectPolicy(t, root)}, Options{}, map[string]string{"a.txt": "old\n"})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close) // after the clients' cleanups: they end their event streams

	allowing := &elicitations{action: "accept", decision: "allow_session"}
	denying := &elicitations{action: "accept", decision: "deny"}
	a := httpClient(t, hs.URL, &sdk.ClientOptions{ElicitationHandler: allowing.handler})
	b := httpClient(t, hs.URL, &sdk.ClientOptions{ElicitationHandler: denying.handler})
	for _, cs := range []*sdk.ClientSession{a, b} {
		ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt"}))
	}
	assert.Len(t, srv.m.Sessions(), 2, "one jido session per MCP session")

	ok(t, call(t, a, "write_file", map[string]any{"path": "a.txt", "content": "from a\n"}))
	ok(t, call(t, a, "read_file", map[string]any{"path": "a.txt"}))
	ok(t, call(t, a, "write_file", map[string]any{"path": "a.txt", "content": "from a again\n"}))
	assert.Equal(t, 1, allowing.count(), "allowed for a's session: asked once")

	ok(t, call(t, b, "read_file", map[string]any{"path": "a.txt"}))
	e := toolError(t, call(t, b, "write_file", map[string]any{"path": "a.txt", "content": "from b\n"}))
	assert.Equal(t, definitions.PermissionError, e["type"])
	assert.Equal(t, 1, denying.count(), "b is asked: a's session rule is a's alone")
	data, err := os.ReadFile(filepath.Join(root, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "from a again\n", string(data))

	require.NoError(t, a.Close())
	assert.Eventually(t, func() bool { return len(srv.m.Sessions()) == 1 }, 5*time.Second, 10*time.Millisecond,
		"the end of an MCP session closes its jido session")
}

func TestHTTPClientRootMustBeInsideTheServerRoot(t *testing.T) {
	base := t.TempDir()
	other := t.TempDir()
	writeTree(t, other, map[string]string{"where.txt": "other\n"})
	srv, _ := newServer(t, manager.Config{Root: base, OpenRoot: func(string) (manager.RootSetup, error) { return manager.RootSetup{}, nil }},
		Options{ClientRoots: true, ConfineRoots: true}, map[string]string{"sub/where.txt": "sub\n"})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close) // after the clients' cleanups: they end their event streams

	inside := httpClient(t, hs.URL, nil, fileRoot(filepath.Join(base, "sub")))
	assert.Contains(t, ok(t, call(t, inside, "read_file", map[string]any{"path": "where.txt"}))["content"], "sub")

	outside := httpClient(t, hs.URL, nil, fileRoot(other))
	_, err := outside.ListTools(t.Context(), nil)
	e, isWire := errors.AsType[*jsonrpc.Error](err)
	require.True(t, isWire, "a JSON-RPC error: %v", err)
	assert.Contains(t, e.Message, "outside the server's root")
	assert.Equal(t, int64(jsonrpc.CodeInternalError), e.Code, "a JSON-RPC code, never 0")
	var data map[string]any
	require.NoError(t, json.Unmarshal(e.Data, &data))
	assert.Equal(t, definitions.PermissionError, data["type"], "the ToolError is the data")
	te := toolError(t, call(t, outside, "read_file", map[string]any{"path": "where.txt"}))
	assert.Equal(t, definitions.PermissionError, te["type"])
	assert.Contains(t, te["message"], other)
}

func TestHTTPRefusesCrossOriginRequests(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	for site, want := range map[string]int{"cross-site": http.StatusForbidden, "": http.StatusOK} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, hs.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		res, err := hs.Client().Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, want, res.StatusCode, "Sec-Fetch-Site %q", site)
	}
}

// serve runs srv.Serve on a loopback port until the returned cancel; served receives its
// result.
func serve(t *testing.T, srv *Server) (url string, cancel context.CancelFunc, served chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served = make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(cancel)
	return "http://" + ln.Addr().String() + Path, cancel, served
}

func TestServeShutsDownAfterRunningCalls(t *testing.T) {
	cases := []struct {
		name    string
		grace   time.Duration
		command string
		ok      bool // the running call completes
	}{
		{"within the grace", 10 * time.Second, "sleep 1; echo done", true},
		{"past the grace", 200 * time.Millisecond, "sleep 30", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := newServer(t, manager.Config{}, Options{Grace: c.grace, ProgressEvery: 50 * time.Millisecond}, nil)
			url, cancel, served := serve(t, srv)
			running := make(chan struct{}, 100)
			cs := httpClient(t, url, &sdk.ClientOptions{ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
				running <- struct{}{}
			}})
			result := make(chan *sdk.CallToolResult, 1)
			go func() {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{
					Name: "run_shell", Arguments: map[string]any{"command": c.command}, Meta: sdk.Meta{"progressToken": 1},
				})
				assert.NoError(t, err)
				result <- res
			}()
			<-running // the command runs
			start := time.Now()
			cancel()
			res := <-result
			if c.ok {
				assert.Contains(t, ok(t, res)["stdout"], "done")
			} else {
				toolError(t, res)
			}
			select {
			case err := <-served:
				assert.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not return")
			}
			assert.Less(t, time.Since(start), c.grace+5*time.Second)
			_, err := srv.m.Open(t.Context(), "")
			assert.ErrorIs(t, err, manager.ErrClosed, "the manager is shut down")
		})
	}
}

// bearer is an HTTP client that sends Authorization: Bearer token.
func bearer(token string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

// roundTripper makes a function an http.RoundTripper.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestHTTPNeedsTheToken(t *testing.T) {
	root := t.TempDir()
	srv, _ := newServer(t, manager.Config{Root: root}, Options{Token: "s3cret-token"}, map[string]string{"a.txt": "alpha\n"})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)

	for name, header := range map[string]string{"none": "", "wrong": "Bearer s3cret-tokem", "not bearer": "Basic s3cret-token", "prefix": "Bearer s3cret"} {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if header != "" {
				req.Header.Set("Authorization", header)
			}
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
			challenge := res.Header.Get("WWW-Authenticate")
			assert.True(t, strings.HasPrefix(challenge, `Bearer realm="jido mcp"`), challenge)
			if strings.HasPrefix(header, "Bearer ") {
				assert.Contains(t, challenge, `error="invalid_token"`, "RFC 6750: a token that is not the server's")
			} else {
				assert.NotContains(t, challenge, "error=", "RFC 6750: no error code for a request without a token")
			}
		})
	}
	assert.Empty(t, srv.m.Sessions(), "no session was opened")
	cs := connectClient(t, &sdk.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: bearer("s3cret-token")}, nil)
	assert.Contains(t, ok(t, call(t, cs, "read_file", map[string]any{"path": "a.txt"}))["content"], "alpha")
}

// TestHTTPClientsCannotApproveAlways: with SessionApprovalsOnly (HTTP), the form offers no
// "always"; a client answering it anyway is refused (the SDK checks the answer against the
// form), and no rule is written to the project's config.
func TestHTTPClientsCannotApproveAlways(t *testing.T) {
	root := t.TempDir()
	srv, _ := newServer(t, manager.Config{Root: root, Permissions: projectPolicy(t, root)}, Options{SessionApprovalsOnly: true}, map[string]string{"a.txt": "old\n"})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)

	always := &elicitations{action: "accept", decision: "allow_always"}
	a := httpClient(t, hs.URL, &sdk.ClientOptions{ElicitationHandler: always.handler})
	ok(t, call(t, a, "read_file", map[string]any{"path": "a.txt"}))
	e := toolError(t, call(t, a, "write_file", map[string]any{"path": "a.txt", "content": "new\n"}))
	assert.Equal(t, definitions.PermissionError, e["type"])
	require.Equal(t, 1, always.count())
	form := always.asked[0]
	assert.NotContains(t, form.Message, "Always")
	assert.NotContains(t, fmt.Sprint(form.RequestedSchema), "allow_always")
	_, err := os.Stat(filepath.Join(root, ".jido", "config.toml"))
	assert.True(t, os.IsNotExist(err), "no project rule was written")

	session := &elicitations{action: "accept", decision: "allow_session"}
	b := httpClient(t, hs.URL, &sdk.ClientOptions{ElicitationHandler: session.handler})
	ok(t, call(t, b, "read_file", map[string]any{"path": "a.txt"}))
	ok(t, call(t, b, "write_file", map[string]any{"path": "a.txt", "content": "newer\n"}))
	ok(t, call(t, b, "read_file", map[string]any{"path": "a.txt"}))
	ok(t, call(t, b, "write_file", map[string]any{"path": "a.txt", "content": "newest\n"}))
	assert.Equal(t, 1, session.count(), "for the session: asked once")
}

// post sends body to the MCP endpoint url with the headers a client sends and header;
// it returns the status, the headers and the body of the answer.
func post(t *testing.T, url string, header map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for name, value := range header {
		req.Header.Set(name, value)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header, string(data)
}

// initializeRequest is the initialize request of a raw client.
const initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestHTTPChecksTheMessageFirst: a POST's message is checked before the SDK sees it. Without
// Mcp-Session-Id only initialize is taken (400 otherwise, as the transport spec says); a
// message that is not JSON-RPC gets 400 with the JSON-RPC error stdio would answer; a
// body over the cap gets 413.
func TestHTTPChecksTheMessageFirst(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	status, header, _ := post(t, hs.URL, nil, initializeRequest)
	require.Equal(t, http.StatusOK, status)
	session := map[string]string{"Mcp-Session-Id": header.Get("Mcp-Session-Id")}
	require.NotEmpty(t, session["Mcp-Session-Id"])
	status, _, _ = post(t, hs.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, status)

	cases := []struct {
		name    string
		session map[string]string
		body    string
		status  int
		code    int64
		id      any
	}{
		{"a request without session", nil, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, nil},
		{"a ping without session", nil, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, nil},
		{"a notification without session", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, nil},
		{"a batch without session", nil, "[" + initializeRequest + "]", http.StatusBadRequest, jsonrpc.CodeInvalidRequest, nil},
		{"not JSON", nil, `{not json`, http.StatusBadRequest, jsonrpc.CodeParseError, nil},
		{"not JSON in a session", session, `{not json`, http.StatusBadRequest, jsonrpc.CodeParseError, nil},
		{"no jsonrpc in a session", session, `{"id":4,"method":"ping"}`, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, 4.0},
		{"a null id in a session", session, `{"jsonrpc":"2.0","id":null,"method":"ping"}`, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, nil},
		{"over the cap", session, `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessage) + `"}}`, http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, header, body := post(t, hs.URL, c.session, c.body)
			assert.Equal(t, c.status, status, body)
			assert.Equal(t, "application/json", header.Get("Content-Type"))
			var answer map[string]any
			require.NoError(t, json.Unmarshal([]byte(body), &answer), body)
			code, _ := errorOf(t, answer)
			assert.Equal(t, c.code, code, body)
			assert.Contains(t, answer, "id")
			assert.Equal(t, c.id, answer["id"])
		})
	}
	status, _, body := post(t, hs.URL, session, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	assert.Equal(t, http.StatusOK, status, "the session is served: %s", body)
	assert.Contains(t, body, `"id":6,"result":{}`)
}

// TestHTTPTakesStatelessRequestsWithoutSession: a request of the stateless protocol
// (2026-07-28) has no session; the SDK answers it with the versions this server speaks,
// and the SDK's client, which tries that protocol first (server/discover), falls back to
// a session of 2025-11-25.
func TestHTTPTakesStatelessRequestsWithoutSession(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	var discovered []string // the answers to server/discover
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		res, err := http.DefaultTransport.RoundTrip(r)
		if err != nil || r.Header.Get("Mcp-Method") != "server/discover" {
			return res, err
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		discovered = append(discovered, string(data))
		res.Body = io.NopCloser(strings.NewReader(string(data)))
		return res, err
	})}
	cs := connectClient(t, &sdk.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: client}, nil)
	assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	require.NotEmpty(t, discovered, "the client tried the stateless protocol")
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(discovered[0]), &answer), discovered[0])
	code, _ := errorOf(t, answer)
	assert.Equal(t, int64(sdk.CodeUnsupportedProtocolVersion), code, discovered[0])
	assert.Contains(t, discovered[0], "2025-11-25", "the versions the server speaks")
}
