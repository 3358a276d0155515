package textproto

import "strings"

// blockFilter passes a streamed reply on without its tool-call blocks, which the user sees
// as tool-call events instead. It holds back only the start of a line that may open a
// block, so prose streams as it comes. It recognises blocks as Parse does.
type blockFilter struct {
	out     func(string)
	held    strings.Builder // the start of the current line, or the current line of a block
	inBlock bool
	passing bool // the current line cannot open a block
}

// write takes the next piece of the stream.
func (f *blockFilter) write(s string) {
	var out strings.Builder
	for s != "" {
		piece := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			piece = s[:i+1]
		}
		s = s[len(piece):]
		f.line(piece, &out)
	}
	if out.Len() > 0 {
		f.out(out.String())
	}
}

// line takes a piece of one line, with its newline if it ends the line.
func (f *blockFilter) line(piece string, out *strings.Builder) {
	ends := strings.HasSuffix(piece, "\n")
	switch {
	case f.passing:
		out.WriteString(piece)
	case f.inBlock:
		f.held.WriteString(piece)
		if ends {
			f.inBlock = !isFence(f.held.String(), closeFence)
			f.held.Reset()
		}
	default:
		f.held.WriteString(piece)
		held := f.held.String()
		switch {
		case ends && isFence(held, callFence):
			f.inBlock = true
			f.held.Reset()
		case !ends && mayOpen(held):
			// Wait for the rest of the line.
		default:
			out.WriteString(held)
			f.held.Reset()
			f.passing = !ends
		}
	}
	if ends {
		f.passing = false
	}
}

// flush passes on what is held at the end of the stream, unless it is a block.
func (f *blockFilter) flush() {
	if held := f.held.String(); held != "" && !f.inBlock && !isFence(held, callFence) {
		f.out(held)
	}
	f.held.Reset()
}

// mayOpen reports whether the start of a line may still turn out to open a block.
func mayOpen(start string) bool {
	t := strings.TrimLeft(start, " \t")
	return strings.HasPrefix(callFence, t) || strings.HasPrefix(t, callFence) && strings.Trim(t[len(callFence):], blanks) == ""
}
