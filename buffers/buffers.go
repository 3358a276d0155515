// Package buffers keeps a session's named text buffers (seed 001's buffer tools): created,
// appended to, edited with package edit's matching, read, searched and navigated, all in
// memory. It knows nothing of Lua or files: saving a buffer to a file is its caller's
// work, through the same rules as write_file.
//
// Buffers is the interface the tools use; Memory is the in-memory implementation each
// session gets. Another implementation (a live editor's buffers) can take its place.
package buffers

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jido-run/jido/tools/definitions"
)

// Buffers are a session's named buffers. Every method returns a *definitions.ToolError
// as its error when the call is refused (unknown buffer, bad name, limit).
type Buffers interface {
	Create(p definitions.BufferCreateParams) (*definitions.BufferCreateResult, error)
	Append(p definitions.BufferAppendParams) (*definitions.BufferAppendResult, error)
	Edit(p definitions.BufferEditParams) (*definitions.BufferEditResult, error)
	Content(p definitions.BufferGetContentParams) (*definitions.BufferGetContentResult, error)
	List(p definitions.BufferListParams) (*definitions.BufferListResult, error)
	GotoLine(p definitions.GotoLineParams) (*definitions.GotoLineResult, error)
	Search(p definitions.SearchInBufferParams) (*definitions.SearchInBufferResult, error)
	// Snapshot returns a buffer's whole text, for buffer_save, and its version: a number
	// that changes whenever the text does.
	Snapshot(name string) (text string, version int, err error)
	// Saved records that the buffer's text at version was written to path (root-relative).
	Saved(name, path string, version int) error
}

// Limits bound what a session's buffers may hold.
type Limits struct {
	Buffers int // buffers per session
	Bytes   int // bytes per buffer
}

// The default limits, and the other bounds of a buffer's names and results.
const (
	DefaultMaxBuffers = 64
	DefaultMaxBytes   = 8 << 20
	MaxNameBytes      = 256 // of a buffer's name
	MaxModeBytes      = 64  // of its mode hint
	MaxMatches        = 200 // matches of a search
	MaxMatchLine      = 500 // characters of a match's line shown
	DefaultContext    = 3   // lines around goto_line's line
	MaxContext        = 50
)

// DefaultLimits are the limits of New.
var DefaultLimits = Limits{Buffers: DefaultMaxBuffers, Bytes: DefaultMaxBytes}

// invalid is the validation error of a bad request.
func invalid(format string, args ...any) *definitions.ToolError {
	return definitions.NewError(definitions.ValidationError, format, args...)
}

// CheckName refuses a name no buffer may have: empty or blank, over MaxNameBytes, not
// UTF-8, or holding control characters.
func CheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("`buffer_name` is required and may not be blank").With("field", "buffer_name")
	case len(name) > MaxNameBytes:
		return invalid("buffer name is %d bytes, more than %d", len(name), MaxNameBytes).With("field", "buffer_name").
			Hint("Use a short name, such as the file's name")
	case !utf8.ValidString(name):
		return invalid("buffer name %q is not valid UTF-8", name).With("field", "buffer_name")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return invalid("buffer name %q holds a control character", name).With("field", "buffer_name").
			Hint("Use printable characters only (no line breaks or tabs)")
	}
	return nil
}

// checkMode refuses a mode hint that is too long or not printable.
func checkMode(mode string) error {
	if len(mode) > MaxModeBytes || !utf8.ValidString(mode) || strings.IndexFunc(mode, unicode.IsControl) >= 0 {
		return invalid("mode %q: give a short printable mode name such as python-mode", mode).With("field", "mode")
	}
	return nil
}

// Hidden reports whether a buffer of this name is hidden: it starts with a space.
func Hidden(name string) bool { return strings.HasPrefix(name, " ") }

// countLines counts the lines of text: a last line without a line break counts, an
// empty text has none.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// splitLines returns the lines of text without their line breaks (nor a CR before one).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// cut shortens a line to n characters, saying so.
func cut(line string, n int) string {
	if utf8.RuneCountInString(line) <= n {
		return line
	}
	i := 0
	for range n {
		_, w := utf8.DecodeRuneInString(line[i:])
		i += w
	}
	return line[:i] + fmt.Sprintf("… [%d more bytes]", len(line)-i)
}
