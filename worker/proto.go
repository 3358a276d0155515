package worker

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/tools/definitions"
)

// Message types. The host sends hello once, which the worker answers with ready; then the
// host sends calls and bridge results, and the worker answers each call with the bridge
// requests of its jido.* calls, then done. A call is cancelled out of band: the host
// writes its id (8 bytes, big-endian) to the worker's cancel pipe (fd 3), which a
// goroutine of the worker reads while the call runs.
const (
	tHello  = "hello"  // host → worker: the session's limits and tools, the memory ceiling
	tReady  = "ready"  // worker → host: how the worker confined itself (Ready), or why it could not (Fail: it exits)
	tCall   = "call"   // host → worker: run a snippet (ID, Name, Src, Args, Timeout)
	tBridge = "bridge" // worker → host: the snippet of call ID calls Tool with Params (Seq)
	tResult = "result" // host → worker: the answer to bridge request Seq (Value or Err)
	tDone   = "done"   // worker → host: call ID ended (Values or Fail)
)

// message is every message of the protocol; T says which fields are set.
type message struct {
	T    string `json:"t"`
	ID   uint64 `json:"id,omitempty"`
	Seq  uint64 `json:"seq,omitempty"`
	Name string `json:"name,omitempty"` // call: the chunk's name
	Src  string `json:"src,omitempty"`
	Args []any  `json:"args,omitempty"`
	// Timeout, in call, is the call's own Lua time limit (runtime.WithTimeout); 0: the
	// session's Limits.Timeout.
	Timeout time.Duration          `json:"timeout,omitempty"`
	Tool    string                 `json:"tool,omitempty"`
	Params  map[string]any         `json:"params,omitempty"`
	Value   any                    `json:"value,omitempty"` // a result's: sent after the envelope (send)
	Err     *definitions.ToolError `json:"err,omitempty"`
	Values  []any                  `json:"values,omitempty"`
	Fail    *runtime.Error         `json:"fail,omitempty"`
	// Passed, in done, says that the call returned the result of bridge request Passed
	// unchanged: the host hands back its own Go value of it, as runtime.VM does in process.
	Passed uint64 `json:"passed,omitempty"`
	Hello  *hello `json:"hello,omitempty"`
	// Ready, in ready, says what confines the worker: what the kernel had of Landlock,
	// seccomp and no_new_privs.
	Ready *sandbox.SelfConfinement `json:"ready,omitempty"`
}

// hello configures a worker.
type hello struct {
	Limits runtime.Limits `json:"limits"`
	Tools  []toolSpec     `json:"tools,omitempty"` // the session's Go tools besides the built-in ones
	// RlimitAS, when set, is the address space the worker may add to what it has reserved
	// when it reads hello (the ceiling where no cgroup can be made).
	RlimitAS   int64 `json:"rlimit_as,omitempty"`
	GoMemLimit int64 `json:"gomemlimit,omitempty"` // the worker's soft Go memory limit
}

// toolSpec is what a worker needs of a Go tool: how its Lua arguments convert.
type toolSpec struct {
	Name       string   `json:"name"`
	Positional []string `json:"positional,omitempty"`
}

// maxMessage bounds one message, so that a broken peer cannot make the other allocate
// without end: well above what the limits let a call return.
const maxMessage = 256 << 20

// conn reads and writes length-prefixed JSON messages.
type conn struct {
	rmu sync.Mutex // serializes readers: a cancelled call's bridge request may still be reading
	r   *bufio.Reader
	mu  sync.Mutex // serializes writers
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder // onto buf
	// trusted is set on the worker's side, which reads what the host encoded: values are
	// parsed by parseValue, in one pass, rather than encoding/json's two.
	trusted bool
}

// headerBytes is a frame's header: the body's length, then the length of the value at
// its end (0: none), both 4-byte big-endian. The body is the JSON envelope, then the
// value's JSON.
const headerBytes = 8

func newConn(r io.Reader, w io.Writer) *conn {
	c := &conn{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10)}
	c.enc = json.NewEncoder(&c.buf)
	c.enc.SetEscapeHTML(false)
	return c
}

// send writes m and flushes it. A result's value travels after the envelope, apart, so
// that the worker can parse it in one pass (parseValue).
func (c *conn) send(m *message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Reset()
	c.buf.Write(make([]byte, headerBytes))
	var value any
	if m.T == tResult && m.Value != nil {
		env := *m
		value, env.Value = m.Value, nil
		m = &env
	}
	if err := c.enc.Encode(m); err != nil {
		return err
	}
	envEnd := c.buf.Len()
	if value != nil {
		if err := c.enc.Encode(value); err != nil {
			return err
		}
	}
	b := c.buf.Bytes()
	if len(b)-headerBytes > maxMessage {
		return fmt.Errorf("a message of %d bytes is over the protocol's %d", len(b)-headerBytes, maxMessage)
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-headerBytes))
	binary.BigEndian.PutUint32(b[4:], uint32(len(b)-envEnd))
	if _, err := c.w.Write(b); err != nil {
		return err
	}
	return c.w.Flush()
}

// read reads the next message. Numbers come back as int64 when integral and below 2^53
// in magnitude (as runtime.ToGo gives them), else float64.
func (c *conn) read() (*message, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	var hdr [headerBytes]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		return nil, err
	}
	n, vn := binary.BigEndian.Uint32(hdr[:]), binary.BigEndian.Uint32(hdr[4:])
	if n > maxMessage || vn > n {
		return nil, fmt.Errorf("a message of %d bytes (%d of value) is over the protocol's %d", n, vn, maxMessage)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, err
	}
	m := &message{}
	if err := json.Unmarshal(body[:n-vn], m); err != nil {
		return nil, fmt.Errorf("a malformed message: %w", err)
	}
	if vn > 0 {
		var err error
		if c.trusted {
			m.Value, err = parseValue(body[n-vn:])
		} else {
			err = json.Unmarshal(body[n-vn:], &m.Value)
		}
		if err != nil {
			return nil, fmt.Errorf("a malformed value: %w", err)
		}
	}
	for i := range m.Args {
		m.Args[i] = numbers(m.Args[i])
	}
	for i := range m.Values {
		m.Values[i] = numbers(m.Values[i])
	}
	m.Value = numbers(m.Value)
	if m.Params != nil {
		m.Params = numbers(m.Params).(map[string]any)
	}
	if m.Err != nil && m.Err.Details != nil {
		m.Err.Details = numbers(m.Err.Details).(map[string]any)
	}
	if m.Fail != nil {
		m.Fail.Value = numbers(m.Fail.Value)
	}
	return m, nil
}

// numbers replaces the integral float64s in v, in place, by int64s.
func numbers(v any) any {
	switch v := v.(type) {
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v)
		}
		return v
	case map[string]any:
		for k, e := range v {
			v[k] = numbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = numbers(e)
		}
	}
	return v
}
