package chat

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Bracketed paste: the terminal wraps what is pasted in these markers once the program
// asks for it (PasteOn), so that a paste can be told from typing.
const (
	PasteOn    = "\x1b[?2004h" // written to the terminal: mark pastes
	PasteOff   = "\x1b[?2004l" // written on exit: stop marking them
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// defaultQuiet is how long the input must pause for a burst of it to end.
const defaultQuiet = 15 * time.Millisecond

// inlineMax is the longest one-line paste put in the line as it is.
const inlineMax = 500

// Pastes sits between the terminal and the line editor, which ends a line at every
// newline, so that pasted text arrives as one message however many lines it holds. A
// paste (bracketed, or lines that arrived together: already buffered, within Quiet of each
// other, as typing never does) of more than one line, or with tabs or control characters
// the editor would take for keys, reaches the editor as a placeholder such as
// "[paste #1: 12 lines]"; Expand puts the text back in the line the editor returns. A
// one-line paste is typed in as it is. It is safe for concurrent use.
type Pastes struct {
	// Quiet is the pause that ends a burst of input; 0: 15ms. Input is held that long
	// before the editor gets it.
	Quiet time.Duration

	mu    sync.Mutex
	texts map[string]string // placeholder -> pasted text
	n     int
}

// Filter copies src (the terminal) to dst (what the line editor reads) until src ends or
// dst fails, turning each paste into a placeholder.
func (p *Pastes) Filter(src io.Reader, dst io.Writer) error {
	chunks := make(chan []byte, 16)
	errc := make(chan error, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- bytes.Clone(buf[:n])
			}
			if err != nil {
				errc <- err
				close(chunks)
				return
			}
		}
	}()
	quiet := p.Quiet
	if quiet <= 0 {
		quiet = defaultQuiet
	}
	var burst []byte
	var timer <-chan time.Time
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				out, rest := p.translate(burst)
				if len(rest) > 0 { // a paste cut by the end of the input
					out = append(out, p.paste(rest[len(pasteStart):])...)
				}
				if _, err := dst.Write(out); err != nil {
					return err
				}
				if err := <-errc; err != io.EOF {
					return err
				}
				return nil
			}
			burst = append(burst, c...)
			timer = time.After(quiet)
		case <-timer:
			timer = nil
			var out []byte
			out, burst = p.translate(burst)
			if len(out) > 0 {
				if _, err := dst.Write(out); err != nil {
					return err
				}
			}
		}
	}
}

// translate turns a burst of input into what the editor gets; rest is a bracketed paste
// whose end has not come yet (it goes on in the next burst).
func (p *Pastes) translate(b []byte) (out, rest []byte) {
	for len(b) > 0 {
		i := bytes.Index(b, []byte(pasteStart))
		if i < 0 {
			return append(out, p.plain(b)...), nil
		}
		out = append(out, p.plain(b[:i])...)
		body := b[i+len(pasteStart):]
		j := bytes.Index(body, []byte(pasteEnd))
		if j < 0 {
			return out, b[i:]
		}
		out = append(out, p.paste(body[:j])...)
		b = body[j+len(pasteEnd):]
	}
	return out, nil
}

// plain is a burst outside bracketed pastes: typing, passed on as it is, or lines that
// came together (a newline followed by more text, nothing but text), a paste. Newlines
// that end such a burst are one Enter.
func (p *Pastes) plain(b []byte) []byte {
	text := bytes.TrimRight(b, "\r\n")
	if !bytes.ContainsAny(text, "\r\n") || bytes.ContainsFunc(text, func(r rune) bool {
		return r < ' ' && r != '\r' && r != '\n' && r != '\t' || r == 0x7f
	}) {
		return b
	}
	out := p.paste(text)
	if len(text) < len(b) {
		out = append(out, '\r')
	}
	return out
}

// paste is what the editor gets for pasted text: the text itself when it is one short
// line of printable characters, else a placeholder that Expand replaces.
func (p *Pastes) paste(b []byte) []byte {
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimRight(text, "\n") // a line copied with its newline: Enter is the user's to press
	if len(text) <= inlineMax && !strings.ContainsFunc(text, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return []byte(text)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.texts == nil {
		p.texts = map[string]string{}
	}
	p.n++
	size := fmt.Sprintf("%d chars", len([]rune(text)))
	if n := strings.Count(text, "\n") + 1; n > 1 {
		size = fmt.Sprintf("%d lines", n)
	}
	ph := fmt.Sprintf("[paste #%d: %s]", p.n, size)
	p.texts[ph] = text
	return []byte(ph)
}

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[paste #\d+: \d+ (?:lines|chars)\]`) })

// Expand replaces the placeholders in a line the editor returned with the text pasted.
// A placeholder stays valid for the chat's life, so that a line recalled from history
// expands again; one the user edited is left as it is.
func (p *Pastes) Expand(line string) string {
	if p == nil {
		return line
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return placeholder().ReplaceAllStringFunc(line, func(ph string) string {
		if t, ok := p.texts[ph]; ok {
			return t
		}
		return ph
	})
}
