package shell

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// maxSpool caps a stream's spool file; past it the rest is counted, not kept.
const maxSpool = 256 << 20

// output receives one stream of a command within a budget of limit bytes: all of it when
// it fits, else its first and last limit/2 bytes and the count of what was cut. When the
// stream outgrows the budget, everything (up to maxSpool) also goes to a spool file that
// the model can page with read_file. Memory stays O(limit) whatever the command prints.
type output struct {
	mu       sync.Mutex
	limit    int
	buf      []byte // the first bytes, up to limit
	tail     []byte // ring of the last limit/2 bytes, once past the budget
	tailPos  int
	total    int64
	openFile func() (io.WriteCloser, string, error) // creates the spool file, lazily
	spool    io.WriteCloser
	spooled  int64
	path     string // the spool file's root-relative path
	spoolErr error
	latest   *latest // the last bytes of both streams, for Progress.Tail (nil: not kept)
}

func newOutput(limit int, openFile func() (io.WriteCloser, string, error)) *output {
	return &output{limit: limit, openFile: openFile}
}

// Write never fails: a command must not die of a full disk or a refused spool file.
func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(p)
	o.total += int64(n)
	o.latest.write(p)
	if room := o.limit - len(o.buf); room > 0 {
		take := min(room, len(p))
		o.buf = append(o.buf, p[:take]...)
		p = p[take:]
		if len(p) == 0 {
			return n, nil
		}
	}
	if o.spool == nil && o.spoolErr == nil && o.openFile != nil {
		o.spool, o.path, o.spoolErr = o.openFile()
		if o.spoolErr == nil {
			o.toSpool(o.buf)
		}
	}
	o.toSpool(p)
	o.toTail(p)
	return n, nil
}

func (o *output) toSpool(p []byte) {
	if o.spool == nil || o.spooled >= maxSpool {
		return
	}
	p = p[:min(int64(len(p)), maxSpool-o.spooled)]
	if _, err := o.spool.Write(p); err != nil {
		o.spool.Close()
		o.spool, o.spoolErr = nil, err
		return
	}
	o.spooled += int64(len(p))
}

// toTail keeps the last limit/2 bytes in a ring.
func (o *output) toTail(p []byte) {
	size := o.limit / 2
	if size == 0 {
		return
	}
	if len(p) >= size {
		o.tail = append(o.tail[:0], p[len(p)-size:]...)
		o.tailPos = 0
		return
	}
	for len(p) > 0 {
		if len(o.tail) < size {
			take := min(size-len(o.tail), len(p))
			o.tail = append(o.tail, p[:take]...)
			p = p[take:]
			continue
		}
		k := copy(o.tail[o.tailPos:], p)
		o.tailPos = (o.tailPos + k) % size
		p = p[k:]
	}
}

// size is the number of bytes written so far.
func (o *output) size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.total
}

// tailBytes returns the ring's bytes in order (a copy).
func (o *output) tailBytes() []byte {
	return append(append([]byte(nil), o.tail[o.tailPos:]...), o.tail[:o.tailPos]...)
}

// close closes the spool file.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.spool != nil {
		o.spool.Close()
		o.spool = nil
	}
}

// text returns what the model sees: the whole stream, or head, a marker saying how much was
// cut and where the full output is, and tail; cut says whether anything was left out.
func (o *output) text() (s string, cut bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.total <= int64(o.limit) {
		return validUTF8(o.buf), false
	}
	head := o.buf[:o.limit/2]
	tail := o.tailBytes()
	head, tail = trimHead(head), trimTail(tail)
	omitted := o.total - int64(len(head)) - int64(len(tail))
	where := "the full output was not kept"
	switch {
	case o.path != "" && o.spooled < o.total:
		where = fmt.Sprintf("the first %d bytes are in %s (read_file pages it)", o.spooled, o.path)
	case o.path != "":
		where = "the full output is in " + o.path + " (read_file pages it)"
	case o.spoolErr != nil:
		where = "the full output could not be kept: " + o.spoolErr.Error()
	}
	return fmt.Sprintf("%s\n[... %d bytes cut of %d; %s ...]\n%s", validUTF8(head), omitted, o.total, where, validUTF8(tail)), true
}

// trimHead drops a rune cut at the end of head; trimTail one cut at the start of tail.
func trimHead(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}

func trimTail(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return b
}

// validUTF8 makes a string JSON can carry faithfully.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}

// since returns the stream's bytes after offset off that are still held (the first limit
// bytes and the last limit/2), the new offset, and whether bytes after off were dropped.
func (o *output) since(off int64) (string, int64, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []byte
	cut := false
	if off < int64(len(o.buf)) {
		out = append(out, o.buf[off:]...)
		off = int64(len(o.buf))
	}
	if o.total > off {
		tail := o.tailBytes()
		tailStart := o.total - int64(len(tail))
		if tailStart > off {
			cut = true
			out = append(out, fmt.Sprintf("\n[... %d bytes cut; see the output files ...]\n", tailStart-off)...)
			off = tailStart
		}
		out = append(out, tail[off-tailStart:]...)
		off = o.total
	}
	return validUTF8(out), off, cut
}

// latest keeps the last TailBytes written to a command's stdout and stderr together, in
// the order written: what a live view of the command shows. Safe for concurrent writers.
type latest struct {
	mu  sync.Mutex
	buf []byte
}

// write appends p, dropping the oldest bytes past TailBytes; a nil latest keeps nothing.
func (l *latest) write(p []byte) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) >= TailBytes {
		l.buf = append(l.buf[:0], p[len(p)-TailBytes:]...)
		return
	}
	if over := len(l.buf) + len(p) - TailBytes; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	l.buf = append(l.buf, p...)
}

// String returns the bytes kept.
func (l *latest) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
