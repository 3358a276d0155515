package builtin

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jido-run/jido/tools/definitions"
)

const (
	// MaxLineChars is where read_file cuts a long line in numbered output.
	MaxLineChars = 2000
	// sniffBytes is how much of a file is looked at to tell binary from text.
	sniffBytes = 8192
	// maxReadBuffer bounds the read buffer of a large file, which is streamed line by line.
	maxReadBuffer = 64 << 10
)

// smallReaders recycles the read buffers of files smaller than the sniff block, the common
// case: a new buffer for each call costs zeroing it.
var smallReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, sniffBytes) }}

// newReader returns a buffered reader of file fitted to its size (a small file needs only
// the sniff block); give it back with releaseReader once it is no longer used.
func newReader(file io.Reader, size int64) *bufio.Reader {
	if size >= sniffBytes {
		return bufio.NewReaderSize(file, int(min(size+1, maxReadBuffer)))
	}
	r := smallReaders.Get().(*bufio.Reader)
	r.Reset(file)
	return r
}

// releaseReader pools r again when it came from the pool (a larger one is dropped).
func releaseReader(r *bufio.Reader) {
	if r.Size() == sniffBytes {
		r.Reset(nil)
		smallReaders.Put(r)
	}
}

// lineWindow is the 1-based inclusive range of lines to return.
type lineWindow struct{ from, to int }

// window computes the lines read_file returns from its params.
func window(p definitions.ReadFileParams) (lineWindow, *definitions.ToolError) {
	if p.StartLine == 0 && p.EndLine == 0 {
		from := max(1, p.Offset)
		return lineWindow{from, from + p.Limit - 1}, nil
	}
	if p.Offset != 0 {
		return lineWindow{}, definitions.NewError(definitions.ValidationError, "read_file: give either offset/limit or start_line/end_line, not both").
			Hint("Drop offset, or drop start_line and end_line")
	}
	start := max(1, p.StartLine)
	end := p.EndLine
	if end == 0 {
		end = start + p.Limit - 1
	}
	if end < start {
		return lineWindow{}, definitions.NewError(definitions.ValidationError, "read_file: end_line %d is before start_line %d", end, start).
			With("field", "end_line").Hint("Pass end_line >= start_line")
	}
	from, to := max(1, start-p.IncludeContext), end+p.IncludeContext
	return lineWindow{from, min(to, from+p.Limit-1)}, nil
}

// lineReader renders the selected lines of a text stream.
type lineReader struct {
	p        definitions.ReadFileParams
	win      lineWindow
	latin1   bool
	out      strings.Builder // becomes the content without a copy
	res      *definitions.ReadFileResult
	stopped  bool   // max_bytes reached: later lines are only counted
	lastLine int    // last line written to out
	scratch  []byte // the line being rendered, reused
}

// readLines reads text from r (already sniffed as text) and fills res with the requested window.
func readLines(ctx context.Context, r *bufio.Reader, p definitions.ReadFileParams, win lineWindow, res *definitions.ReadFileResult) error {
	lr := &lineReader{p: p, win: win, latin1: res.Encoding == "latin-1", res: res}
	lr.out.Grow(int(min(res.Size+res.Size/4+64, int64(p.MaxBytes)))) // room for the numbers
	n := 0
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: assemble it (bounded by the file size cap).
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			n++
			if n%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if n >= win.from && n <= win.to {
				lr.add(n, line)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	res.TotalLines = n
	res.Content = lr.out.String()
	if lr.lastLine > 0 {
		res.StartLine, res.EndLine = win.from, lr.lastLine
	}
	if !lr.stopped && win.to < n {
		res.Truncated, res.NextOffset = true, win.to+1
	}
	return nil
}

// add renders line n, unless max_bytes is reached.
func (lr *lineReader) add(n int, line []byte) {
	if lr.stopped {
		return
	}
	var rendered []byte
	if lr.p.LineNumbers {
		rendered = lr.numbered(n, line)
	} else {
		rendered = lr.decode(line)
	}
	if lr.out.Len()+len(rendered) > lr.p.MaxBytes {
		lr.stopped, lr.res.Truncated, lr.res.NextOffset = true, true, n
		if lr.lastLine > 0 {
			return
		}
		rendered = cutUTF8(rendered, lr.p.MaxBytes) // one line alone is over the cap: give its head
	}
	lr.out.Write(rendered)
	lr.lastLine = n
}

// numbered renders a line as `cat -n` does, without its line break, cut at MaxLineChars.
func (lr *lineReader) numbered(n int, line []byte) []byte {
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	text := lr.decode(line)
	b := lr.scratch[:0]
	for pad := 6 - len(strconv.Itoa(n)); pad > 0; pad-- {
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\t')
	if extra := runesOver(text); extra > 0 {
		cut := text
		for i := 0; i < MaxLineChars; i++ {
			_, size := utf8.DecodeRune(cut)
			cut = cut[size:]
		}
		b = append(b, text[:len(text)-len(cut)]...)
		b = append(b, " … [line cut: "+strconv.Itoa(extra)+" more characters]"...)
		lr.res.LinesCut++
	} else {
		b = append(b, text...)
	}
	lr.scratch = append(b, '\n')
	return lr.scratch
}

// runesOver returns how many runes text has beyond MaxLineChars. A line of at most
// MaxLineChars bytes cannot have more runes, so the common short line is not counted.
func runesOver(text []byte) int {
	if len(text) <= MaxLineChars {
		return 0
	}
	return max(0, utf8.RuneCount(text)-MaxLineChars)
}

// decode converts a latin-1 line to UTF-8; UTF-8 lines are returned as they are.
func (lr *lineReader) decode(line []byte) []byte {
	if !lr.latin1 {
		return line
	}
	out := make([]byte, 0, len(line)+len(line)/4)
	for _, c := range line {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// cutUTF8 returns at most n bytes of b, not splitting a rune.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// sniff tells text from binary by the first block of a file and names its encoding.
// A NUL byte means binary; a UTF-8 BOM is reported and skipped; invalid UTF-8 is read as latin-1.
func sniff(r *bufio.Reader) (encoding string, binary bool) {
	head, _ := r.Peek(sniffBytes)
	if bytes.IndexByte(head, 0) >= 0 {
		return "", true
	}
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		_, _ = r.Discard(3)
		return "utf-8-bom", false
	}
	if len(head) == sniffBytes {
		// The block may end inside a rune: drop its last rune, complete or not.
		head = cutUTF8(head, len(head)-1)
	}
	if utf8.Valid(head) {
		return "utf-8", false
	}
	return "latin-1", false
}
