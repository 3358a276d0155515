package gocache

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ProgramArg is the hidden first argument that makes the sandbox helper the cache program
// (see Command).
const ProgramArg = "__jido_gocache"

// Command is the GOCACHEPROG value that runs exe (the sandbox helper) as the cache program
// of the private cache dir, asking the Server listening on socket on a miss. It fails on
// a path the go command could not split back (one holding both kinds of quote).
func Command(exe, dir, socket string) (string, error) {
	var b strings.Builder
	for i, arg := range []string{exe, ProgramArg, dir, socket} {
		quote := "'"
		switch {
		case !strings.Contains(arg, "'"):
		case !strings.Contains(arg, `"`):
			quote = `"`
		default:
			return "", fmt.Errorf("gocache: %q holds both kinds of quote: GOCACHEPROG cannot name it", arg)
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quote + arg + quote)
	}
	return b.String(), nil
}

// ProgramMain runs the cache program on stdin and stdout with its arguments (those after
// ProgramArg: the private cache and the server's socket) and returns its exit status.
func ProgramMain(args []string) int {
	if len(args) != 2 || !filepath.IsAbs(args[0]) {
		fmt.Fprintln(os.Stderr, "jido gocache: the go command starts this program (GOCACHEPROG); it is not run by hand")
		return 2
	}
	root, err := os.OpenRoot(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "jido gocache: %v\n", err)
		return 1
	}
	defer root.Close()
	p := &program{dir: args[0], root: root, socket: args[1]}
	if err := p.serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "jido gocache: %v\n", err)
		return 1
	}
	return 0
}

// request and response are the messages of Go's cache-program protocol (see
// cmd/go/internal/cacheprog): one JSON object a line each way; a put's body follows its
// request as a JSON string of base64 on a line of its own.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// Limits of the protocol: a request line, a Server's answer, the wait for it.
const (
	maxRequest = 64 << 10
	maxAnswer  = 256
	askTimeout = 2 * time.Minute
)

// program is the cache program: Go's protocol over the private cache, in Go's own on-disk
// layout (so that a command that unsets GOCACHEPROG finds the same entries through
// GOCACHE), filled on a miss by the Server on socket. It runs inside the sandbox.
type program struct {
	dir    string // the private cache, absolute: DiskPaths are in it
	root   *os.Root
	socket string
}

// serve answers the go command's requests from r on w until close or the end of r. Gets
// are answered concurrently (a miss waits for the Server); a put is stored as its body
// streams in. It fails only on a stream it cannot follow.
func (p *program) serve(r io.Reader, w io.Writer) error {
	var mu sync.Mutex
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	send := func(res response) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(res)
		bw.Flush()
	}
	send(response{KnownCommands: []string{"get", "put", "close"}})
	var gets sync.WaitGroup
	defer gets.Wait()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, maxRequest)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue // Go ends each request with an empty line
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("malformed request: %w", err)
		}
		switch req.Command {
		case "get":
			gets.Go(func() { send(p.get(req)) })
		case "put":
			res, err := p.put(br, req)
			if err != nil {
				return err
			}
			send(res)
		case "close":
			gets.Wait()
			p.trim(time.Now())
			send(response{ID: req.ID})
			return nil
		default:
			if req.BodySize > 0 {
				if err := readBody(br, io.Discard); err != nil {
					return err
				}
			}
			send(response{ID: req.ID, Err: fmt.Sprintf("unknown command %q", req.Command)})
		}
	}
}

// get answers a get from the private cache, or after the Server filled it from the user's.
func (p *program) get(req request) response {
	res := response{ID: req.ID}
	a, ok := idFrom(req.ActionID)
	if !ok {
		res.Err = "malformed action ID"
		return res
	}
	e, err := p.lookup(a)
	if err != nil && p.ask(a) {
		e, err = p.lookup(a)
	}
	if err != nil {
		res.Miss = true
		return res
	}
	t := time.Unix(0, e.time)
	res.OutputID, res.Size, res.Time, res.DiskPath = e.out[:], e.size, &t, filepath.Join(p.dir, outputName(e.out))
	return res
}

// lookup finds the entry of a in the private cache, with its output there and whole, and
// marks both used.
func (p *program) lookup(a id) (entry, error) {
	e, _, err := readEntry(p.root, a)
	if err != nil {
		return e, err
	}
	info, err := p.root.Stat(outputName(e.out))
	if err != nil {
		return e, err
	}
	if !info.Mode().IsRegular() || info.Size() != e.size {
		return e, errBadEntry
	}
	if now := time.Now(); now.Sub(info.ModTime()) > usedInterval {
		p.root.Chtimes(entryName(a), now, now)
		p.root.Chtimes(outputName(e.out), now, now)
	}
	return e, nil
}

// ask asks the Server to fill the private cache with the user's entry of a, and reports
// whether it did.
func (p *program) ask(a id) bool {
	if p.socket == "" {
		return false
	}
	c, err := net.DialTimeout("unix", p.socket, askTimeout)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(askTimeout))
	if _, err := fmt.Fprintf(c, "%x\n", a); err != nil {
		return false
	}
	answer, err := readLine(bufio.NewReader(c), maxAnswer)
	return err == nil && string(answer) == answerHit
}

// put stores a put's body as its output and the entry naming it, and answers with the
// output's path. The body is read whatever happens to the files, so that the stream stays
// in step; an error is returned only when the stream itself is broken.
func (p *program) put(br *bufio.Reader, req request) (response, error) {
	res := response{ID: req.ID}
	a, okA := idFrom(req.ActionID)
	o, okO := idFrom(req.OutputID)
	if !okA || !okO || req.BodySize < 0 || req.BodySize > MaxSize {
		res.Err = "malformed put: bad action ID, output ID or size"
		if req.BodySize > 0 {
			return res, readBody(br, io.Discard)
		}
		return res, nil
	}
	read := req.BodySize == 0 // Go sends no body line for an empty body
	var streamErr error
	err := writeFile(p.root, outputName(o), func(w io.Writer) error {
		if read {
			return nil
		}
		read = true
		sink := &cappedWriter{w: w, left: req.BodySize}
		if streamErr = readBody(br, sink); streamErr != nil {
			return streamErr
		}
		if sink.err == nil && sink.left != 0 {
			sink.err = fmt.Errorf("the body is shorter than its size, %d", req.BodySize)
		}
		return sink.err
	})
	if !read {
		streamErr = readBody(br, io.Discard)
	}
	if streamErr != nil {
		return res, streamErr
	}
	if err == nil {
		e := entry{out: o, size: req.BodySize, time: time.Now().UnixNano()}
		err = writeFile(p.root, entryName(a), func(w io.Writer) error {
			_, err := w.Write(e.format(a))
			return err
		})
	}
	if err != nil {
		res.Err = err.Error()
		return res, nil
	}
	res.DiskPath = filepath.Join(p.dir, outputName(o))
	return res, nil
}

// readBody copies a put's body, the line `"<base64>"` after its request's (and blank
// lines), decoded, to w.
func readBody(br *bufio.Reader, w io.Writer) error {
	c, err := br.ReadByte()
	for err == nil && (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
		c, err = br.ReadByte()
	}
	if err != nil || c != '"' {
		return errors.New("malformed put: no body after the request")
	}
	if _, err := io.Copy(w, base64.NewDecoder(base64.StdEncoding, &quoted{r: br})); err != nil {
		return fmt.Errorf("malformed put body: %w", err)
	}
	if c, err := br.ReadByte(); err != nil || c != '\n' {
		return errors.New("malformed put: the body's line does not end after its closing quote")
	}
	return nil
}

// quoted reads the inside of a JSON string that has no escapes (base64), up to and
// consuming its closing quote.
type quoted struct {
	r   *bufio.Reader
	end bool
}

func (q *quoted) Read(b []byte) (int, error) {
	if q.end {
		return 0, io.EOF
	}
	if _, err := q.r.Peek(1); err != nil {
		return 0, io.ErrUnexpectedEOF
	}
	chunk, _ := q.r.Peek(min(len(b), q.r.Buffered()))
	if i := bytes.IndexByte(chunk, '"'); i >= 0 {
		q.end = true
		chunk = chunk[:i]
		defer q.r.Discard(1)
	}
	n := copy(b, chunk)
	q.r.Discard(n)
	return n, nil
}

// cappedWriter writes up to left bytes to w and keeps the first error (a longer body
// too), then takes the rest without writing it: the stream is read to its end either way.
type cappedWriter struct {
	w    io.Writer
	left int64
	err  error
}

func (c *cappedWriter) Write(b []byte) (int, error) {
	if c.err == nil && int64(len(b)) > c.left {
		c.err = errors.New("the body is longer than its size")
	}
	if c.err == nil {
		_, c.err = c.w.Write(b)
		c.left -= int64(len(b))
	}
	return len(b), nil
}

// Go's rules for keeping its cache small (cmd/go/internal/cache): a used file's time is
// renewed at most once an hour; at most once a day, files unused for five days go.
const (
	usedInterval = time.Hour
	trimInterval = 24 * time.Hour
	trimLimit    = 5 * 24 * time.Hour
)

// trim removes the files of the private cache unused for trimLimit, at most once per
// trimInterval, noted in trim.txt as Go's own cache does (either may trim it).
func (p *program) trim(now time.Time) {
	if b, err := p.root.ReadFile("trim.txt"); err == nil {
		if t, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			if d := now.Sub(time.Unix(t, 0)); d < trimInterval && d > -usedInterval {
				return
			}
		}
	}
	writeFile(p.root, "trim.txt", func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%d", now.Unix())
		return err
	})
	cutoff := now.Add(-trimLimit)
	for i := range 256 {
		dir := fmt.Sprintf("%02x", i)
		entries, err := fs.ReadDir(p.root.FS(), dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
				p.root.RemoveAll(dir + "/" + e.Name())
			}
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine reads one line of at most max bytes and returns it without its newline; io.EOF
// at the end of r before a line starts.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case len(line) > max+1 || (len(line) > max && err != nil):
			return nil, errTooLong
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}
