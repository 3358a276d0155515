package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is MCP's stdio transport, newline-delimited JSON-RPC messages, over In
// and Out. It stands in for the SDK's IOTransport, whose reader ends the session at the
// first line that is not a JSON-RPC message or is over its cap: the client's session is
// gone, and the server exits. Here such a line gets the JSON-RPC error it calls for
// (decodeMessage; tooLarge over MaxMessage) and the session goes on. Every error response
// carries a JSON-RPC code (protocolError). Batches are refused: MCP dropped them in
// 2025-06-18.
type StdioTransport struct {
	In  io.ReadCloser // closed at the end of the session, which unblocks a read in progress
	Out io.Writer     // never closed
}

// Connect starts reading In. Connect a StdioTransport once.
func (t *StdioTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{in: t.In, out: t.Out, incoming: make(chan received), closed: make(chan struct{})}
	go c.read(&lineReader{r: bufio.NewReaderSize(t.In, 64<<10), max: MaxMessage})
	return c, nil
}

// received is what the reading goroutine hands to Read: a message, or why reading ended.
type received struct {
	msg jsonrpc.Message
	err error
}

// lineConn is the connection of a StdioTransport.
type lineConn struct {
	in       io.ReadCloser
	out      io.Writer
	wmu      sync.Mutex // one line at a time on out
	incoming chan received
	closed   chan struct{}
	close    sync.Once
}

// read reads lines until the input ends or fails, or the connection is closed: it answers
// the lines that are not messages and hands the messages to Read.
func (c *lineConn) read(lr *lineReader) {
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			c.refuse(jsonrpc.ID{}, tooLarge)
			err = lr.skip()
			line = nil
		}
		if err != nil {
			c.hand(received{err: err})
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		msg, id, refusal := decodeMessage(line)
		if refusal != nil {
			c.refuse(id, refusal)
			continue
		}
		if !c.hand(received{msg: msg}) {
			return
		}
	}
}

// hand gives r to Read; it reports false when the connection closed first.
func (c *lineConn) hand(r received) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// refuse answers a line that is not a message.
func (c *lineConn) refuse(id jsonrpc.ID, e *jsonrpc.Error) {
	_ = c.writeLine(errorResponse(id, e)) // a failed write shows in the SDK's next one
}

// Read returns the next message; io.EOF once the input has ended or the connection closed.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write writes msg on one line; an error response without a JSON-RPC code is given one.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		coded := *r
		coded.Error = protocolError(r.Error)
		msg = &coded
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// writeLine writes data and a newline in one write.
func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close ends the connection and closes In.
func (c *lineConn) Close() error {
	c.close.Do(func() {
		close(c.closed)
		c.in.Close()
	})
	return nil
}

// SessionID is empty: stdio has one session.
func (c *lineConn) SessionID() string { return "" }

// lineReader reads lines of at most max bytes (line end excluded) from r, holding at most
// max bytes and one buffer of r at a time.
type lineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	rest bool // the line next refused has more bytes to skip
}

// errLineTooLong is next's error for a line over the cap; skip drops the rest of it.
var errLineTooLong = errors.New("line over the cap")

// next returns the next line without its end ("\n" or "\r\n"); the last line of the input
// may have no end. The line is valid until the next call.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	if cap(l.buf) > 1<<20 {
		l.buf = nil // do not keep a large message's buffer for the session's life
	}
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, chunk...)
		line := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
		switch {
		case len(line) > l.max:
			l.rest = errors.Is(err, bufio.ErrBufferFull)
			return nil, errLineTooLong
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// skip reads and drops the rest of a line next refused.
func (l *lineReader) skip() error {
	for l.rest {
		_, err := l.r.ReadSlice('\n')
		switch {
		case err == nil:
			l.rest = false
		case !errors.Is(err, bufio.ErrBufferFull):
			l.rest = false
			return err
		}
	}
	return nil
}
