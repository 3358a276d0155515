package serve

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// The peer is written here rather than taken from a library: sourcegraph/jsonrpc2, the
// well-kept candidate, closes the connection on a frame that is not JSON and cannot
// answer with a null id, where JSON-RPC 2.0 wants a -32700 error and the connection kept.

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeBusy           = -32002 // a message or call is already running
	CodeCancelled      = -32800 // the request was cancelled (LSP's RequestCancelled)
)

// maxFrame bounds one message: a file's content travels in a buffer's text.
const maxFrame = 64 << 20

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc %d: %s", e.Code, e.Message) }

// message is any JSON-RPC message: a request (method and id), a notification (method, no
// id) or a response (id, result or error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Handler answers a request (id set) or takes a notification (the result is dropped).
// An *Error is sent as it is; another error as an internal error.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Peer is one end of a JSON-RPC 2.0 connection framed as in the Language Server Protocol
// (Content-Length headers): it serves the other end's requests and calls the other end.
// Requests are handled in the order they come, but those that may wait on the other end
// (async) run on goroutines of their own, so that the answers they wait for can be read.
type Peer struct {
	r       *bufio.Reader
	w       io.Writer
	handler Handler
	async   func(method string) bool

	wmu sync.Mutex // one frame at a time on w

	mu      sync.Mutex
	next    int64
	pending map[string]chan *message // our calls, by id
	closed  chan struct{}
	err     error // why the connection ended
	running sync.WaitGroup
}

// NewPeer makes a peer reading r and writing w, whose requests handler answers; a method
// for which async is true is handled on a goroutine of its own.
func NewPeer(r io.Reader, w io.Writer, handler Handler, async func(method string) bool) *Peer {
	return &Peer{r: bufio.NewReader(r), w: w, handler: handler, async: async, pending: map[string]chan *message{}, closed: make(chan struct{})}
}

// Serve reads messages until the input ends, a frame cannot be read, or ctx is done; it
// waits for the requests it started, and returns why it stopped (nil at the end of input).
func (p *Peer) Serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var err error
	for {
		var body []byte
		if body, err = p.readFrame(); err != nil {
			break
		}
		p.dispatch(ctx, body)
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	p.mu.Lock()
	p.err = cmp.Or(err, errPeerGone)
	close(p.closed)
	p.mu.Unlock()
	cancel()
	p.running.Wait()
	return err
}

// errPeerGone is what a call gets when the other end went away.
var errPeerGone = errors.New("the front end closed the connection")

// readFrame reads one message's bytes: headers (Content-Length required), a blank line,
// the body.
func (p *Peer) readFrame() ([]byte, error) {
	length := -1
	for {
		line, err := p.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && length < 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading a header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				return nil, errors.New("a message without a Content-Length header")
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("a header line without a colon: %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxFrame {
				return nil, fmt.Errorf("bad Content-Length %q (at most %d bytes)", strings.TrimSpace(value), maxFrame)
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(p.r, body); err != nil {
		return nil, fmt.Errorf("reading a message of %d bytes: %w", length, err)
	}
	return body, nil
}

// dispatch handles one message: a response goes to the call waiting for it, a request or a
// notification to the handler on a goroutine of its own.
func (p *Peer) dispatch(ctx context.Context, body []byte) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		p.reply(nil, nil, &Error{Code: CodeParseError, Message: "the message is not JSON: " + err.Error()})
		return
	}
	switch {
	case m.JSONRPC != "2.0":
		p.reply(m.ID, nil, &Error{Code: CodeInvalidRequest, Message: `not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0"`})
	case m.Method != "":
		handle := func() {
			res, err := p.handler(ctx, m.Method, m.Params)
			if len(m.ID) > 0 { // a notification is not answered
				p.reply(m.ID, res, err)
			}
		}
		if !p.async(m.Method) {
			handle()
			return
		}
		p.running.Add(1)
		go func() {
			defer p.running.Done()
			handle()
		}()
	case len(m.ID) > 0:
		p.mu.Lock()
		ch := p.pending[string(m.ID)]
		delete(p.pending, string(m.ID))
		p.mu.Unlock()
		if ch != nil {
			ch <- &m
		}
	default:
		p.reply(nil, nil, &Error{Code: CodeInvalidRequest, Message: "a message with neither a method nor an id"})
	}
}

// reply answers the request id with res, or with err.
func (p *Peer) reply(id json.RawMessage, res any, err error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	out := map[string]any{"jsonrpc": "2.0", "id": id}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: CodeInternalError, Message: err.Error()}
		}
		out["error"] = e
	} else {
		out["result"] = res
	}
	p.write(out)
}

// write sends one frame; a write error ends nothing here (the reader sees the end).
func (p *Peer) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var frame bytes.Buffer
	fmt.Fprintf(&frame, "Content-Length: %d\r\n\r\n", len(body))
	frame.Write(body)
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err = p.w.Write(frame.Bytes())
	return err
}

// Notify sends a notification.
func (p *Peer) Notify(method string, params any) error {
	return p.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Call calls method on the other end and decodes its result into result (when not nil).
// It ends with ctx, or when the connection does; an error answer is an *Error.
func (p *Peer) Call(ctx context.Context, method string, params, result any) error {
	p.mu.Lock()
	select {
	case <-p.closed:
		p.mu.Unlock()
		return p.err
	default:
	}
	p.next++
	id := strconv.FormatInt(p.next, 10)
	ch := make(chan *message, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}
	if err := p.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		forget()
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		forget()
		return ctx.Err()
	case <-p.closed:
		forget()
		return p.err
	}
}
