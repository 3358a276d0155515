package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// inflight counts work in progress that shutdown waits for. Its zero value is ready.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0; a new one each time n leaves 0
}

// add adds delta to the work in progress.
func (f *inflight) add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n += delta
	if f.n == 0 {
		close(f.idle)
	}
}

// wait returns once nothing is in progress, or after d.
func (f *inflight) wait(d time.Duration) {
	f.mu.Lock()
	idle, busy := f.idle, f.n > 0
	f.mu.Unlock()
	if !busy {
		return
	}
	select {
	case <-idle:
	case <-time.After(d):
	}
}

// counted wraps a transport so that its connection counts in calls the requests it has
// read and not answered yet.
type counted struct {
	sdk.Transport
	calls *inflight
}

// Connect connects the transport and wraps its connection.
func (t counted) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countedConn{Connection: c, calls: t.calls}, nil
}

// countedConn is the connection of a counted transport.
type countedConn struct {
	sdk.Connection
	calls *inflight

	mu     sync.Mutex
	open   int  // its calls read and not answered
	closed bool // then it answers nothing more: its open calls no longer count
}

// Read reads a message, counting a call (a request that expects an answer).
func (c *countedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.count(1)
	}
	return msg, err
}

// Write writes a message; an answer ends the call it answers.
func (c *countedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.count(-1)
	}
	return err
}

// Close closes the connection; its calls not answered will never be.
func (c *countedConn) Close() error {
	err := c.Connection.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed && c.open > 0 {
		c.calls.add(-c.open)
	}
	c.closed, c.open = true, 0
	return err
}

// count adds delta to the open calls of an open connection.
func (c *countedConn) count(delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.open+delta < 0 {
		return
	}
	c.open += delta
	c.calls.add(delta)
}
