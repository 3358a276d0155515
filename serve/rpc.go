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
	"unicode/utf8"
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

// maxFrame bounds one message's body: a file's content travels in a buffer's text. A
// longer message is refused and its body skipped, not read into memory.
const maxFrame = 64 << 20

// maxHeader bounds the header of one message (LSP's has one or two short fields).
const maxHeader = 4 << 10

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
// A body over maxFrame is answered with -32600 and skipped. A header that cannot be read
// (no Content-Length, a bad one, a line without a colon, a header over maxHeader) is
// answered with -32700 before Serve stops: where the next message starts is lost.
func (p *Peer) Serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var err error
	for {
		var body []byte
		body, err = p.readFrame()
		if big, ok := errors.AsType[*oversized](err); ok {
			p.reply(nil, nil, &Error{Code: CodeInvalidRequest, Message: big.Error()})
			if _, err = io.CopyN(io.Discard, p.r, big.length); err == nil {
				continue
			}
		}
		if bad, ok := errors.AsType[*badHeader](err); ok {
			p.reply(nil, nil, &Error{Code: CodeParseError, Message: bad.Error()})
		}
		if err != nil {
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
// the body. Its errors are a *badHeader, an *oversized body (still to be skipped), the end
// of input (io.EOF between messages), or a read's.
func (p *Peer) readFrame() ([]byte, error) {
	length := int64(-1)
	read := 0
	for {
		raw, err := p.r.ReadSlice('\n')
		read += len(raw)
		switch {
		case read > maxHeader || errors.Is(err, bufio.ErrBufferFull):
			return nil, &badHeader{fmt.Sprintf("a message's header is over %d bytes", maxHeader)}
		case errors.Is(err, io.EOF) && read == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return nil, errors.New("the input ended within a message's header")
		case err != nil:
			return nil, fmt.Errorf("reading a header: %w", err)
		}
		line := strings.TrimRight(string(raw), "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, &badHeader{fmt.Sprintf("a header line without a colon: %q", line)}
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 0 || length >= 0 && n != length {
			return nil, &badHeader{fmt.Sprintf("a bad Content-Length: %q (one, a number of bytes)", strings.TrimSpace(value))}
		}
		length = n
	}
	switch {
	case length < 0:
		return nil, &badHeader{"a message without a Content-Length header"}
	case length > maxFrame:
		return nil, &oversized{length}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(p.r, body); err != nil {
		return nil, fmt.Errorf("reading a message of %d bytes: %w", length, err)
	}
	return body, nil
}

// badHeader is a message's header that cannot be read: the connection cannot go on.
type badHeader struct{ reason string }

func (e *badHeader) Error() string {
	return "Parse error: " + e.reason + "; jido serve closes the connection, since where the next message starts is unknown"
}

// oversized is a message whose body is over maxFrame.
type oversized struct{ length int64 }

func (e *oversized) Error() string {
	return fmt.Sprintf("Invalid Request: a message of %d bytes, over the cap of %d MiB: it was skipped", e.length, maxFrame>>20)
}

// dispatch handles one message: a response goes to the call waiting for it, a request or a
// notification to the handler on a goroutine of its own. What is not a message is answered
// with the error JSON-RPC 2.0 calls for.
func (p *Peer) dispatch(ctx context.Context, body []byte) {
	m, refusal := decodeMessage(body)
	switch {
	case refusal != nil:
		p.reply(m.ID, nil, refusal)
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
	default:
		p.mu.Lock()
		ch := p.pending[string(m.ID)]
		delete(p.pending, string(m.ID))
		p.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// decodeMessage decodes one message. For bytes that are not one it returns the error to
// answer with (-32700 for what is not JSON, -32600 for JSON that is not a JSON-RPC 2.0
// request, notification or response, batches included) and a message holding the id to
// answer, when it has a valid one. Member names are matched exactly, as JSON-RPC has them.
func decodeMessage(body []byte) (*message, *Error) {
	m := &message{}
	if !utf8.Valid(body) {
		return m, &Error{Code: CodeParseError, Message: "Parse error: the message is not UTF-8"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		if _, notObject := errors.AsType[*json.UnmarshalTypeError](err); !notObject {
			return m, &Error{Code: CodeParseError, Message: "Parse error: the message is not JSON: " + err.Error()}
		}
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
			return m, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: a batch (a JSON array of messages): jido serve takes one message per frame"}
		}
		return m, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: a JSON object is expected"}
	}
	if id, ok := fields["id"]; ok {
		if !validID(id) {
			return m, &Error{Code: CodeInvalidRequest, Message: `Invalid Request: "id" must be a string, a number or null`}
		}
		m.ID = id
	}
	if string(fields["jsonrpc"]) != `"2.0"` {
		return m, &Error{Code: CodeInvalidRequest, Message: `Invalid Request: not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0"`}
	}
	m.JSONRPC, m.Params, m.Result = "2.0", fields["params"], fields["result"]
	if method, ok := fields["method"]; ok {
		if !bytes.HasPrefix(method, []byte(`"`)) || json.Unmarshal(method, &m.Method) != nil || m.Method == "" {
			return m, &Error{Code: CodeInvalidRequest, Message: `Invalid Request: "method" must be a non-empty string`}
		}
		return m, nil
	}
	if e, ok := fields["error"]; ok && json.Unmarshal(e, &m.Error) != nil {
		return m, &Error{Code: CodeInvalidRequest, Message: `Invalid Request: "error" must be an object with a code and a message`}
	}
	if len(m.ID) == 0 || m.Result == nil && m.Error == nil {
		return m, &Error{Code: CodeInvalidRequest, Message: `Invalid Request: neither a request (no "method") nor a response (an "id" with a "result" or an "error")`}
	}
	return m, nil
}

// validID reports whether raw is an id JSON-RPC 2.0 allows: a string, a number or null.
func validID(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64, nil:
		return true
	}
	return false
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
