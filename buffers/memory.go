package buffers

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/tools/definitions"
)

// Memory is a session's buffers, in memory. Its methods are safe for concurrent use.
type Memory struct {
	mu     sync.Mutex
	limits Limits
	bufs   map[string]*buffer
}

// buffer is one buffer of a Memory.
type buffer struct {
	text    string
	mode    string
	point   int    // the current line, 1-based
	version int    // bumped by every change of text
	file    string // where it was last saved
	saved   int    // the version it was last saved at
}

var _ Buffers = (*Memory)(nil)

// New returns an empty set of buffers with the default limits.
func New() *Memory { return NewWithLimits(DefaultLimits) }

// NewWithLimits returns an empty set of buffers with limits l (a zero field: its default).
func NewWithLimits(l Limits) *Memory {
	if l.Buffers <= 0 {
		l.Buffers = DefaultMaxBuffers
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultMaxBytes
	}
	return &Memory{limits: l, bufs: map[string]*buffer{}}
}

// get returns the buffer named name, or the error that says it does not exist. The caller
// holds m.mu.
func (m *Memory) get(name string) (*buffer, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if b, ok := m.bufs[name]; ok {
		return b, nil
	}
	names := []string{}
	for n := range m.bufs {
		if !Hidden(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return nil, invalid("no buffer named %q", name).With("buffer_name", name).With("buffers", names).
		Hint("buffer_list shows the session's buffers; buffer_create makes one")
}

// checkSize refuses a text over the size limit of a buffer.
func (m *Memory) checkSize(name string, n int) error {
	if n > m.limits.Bytes {
		return invalid("buffer %q would hold %d bytes, more than the limit of %d", name, n, m.limits.Bytes).
			With("buffer_name", name).With("limit", m.limits.Bytes).
			Hint("Keep large content in files: write_file writes one directly")
	}
	return nil
}

// Create makes a buffer.
func (m *Memory) Create(p definitions.BufferCreateParams) (*definitions.BufferCreateResult, error) {
	if err := CheckName(p.BufferName); err != nil {
		return nil, err
	}
	if err := checkMode(p.Mode); err != nil {
		return nil, err
	}
	if err := m.checkSize(p.BufferName, len(p.Content)); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.bufs[p.BufferName]; ok {
		return nil, definitions.NewError(definitions.ConflictError, "a buffer named %q exists", p.BufferName).With("buffer_name", p.BufferName).
			Hint("Change it with buffer_edit or buffer_append, or create a buffer of another name")
	}
	if len(m.bufs) >= m.limits.Buffers {
		return nil, invalid("this session has %d buffers, the limit", len(m.bufs)).With("limit", m.limits.Buffers).
			Hint("Save what you need with buffer_save and work in an existing buffer")
	}
	m.bufs[p.BufferName] = &buffer{text: p.Content, mode: p.Mode, point: 1, version: 1}
	n := countLines(p.Content)
	return &definitions.BufferCreateResult{BufferName: p.BufferName, Mode: p.Mode, Lines: n, Bytes: len(p.Content),
		Message: "Buffer '" + p.BufferName + "' created with " + definitions.Count(n, "line")}, nil
}

// Append adds text at the end of a buffer.
func (m *Memory) Append(p definitions.BufferAppendParams) (*definitions.BufferAppendResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(p.BufferName)
	if err != nil {
		return nil, err
	}
	if err := m.checkSize(p.BufferName, len(b.text)+len(p.Text)); err != nil {
		return nil, err
	}
	if p.Text != "" {
		b.text += p.Text
		b.version++
	}
	return &definitions.BufferAppendResult{BufferName: p.BufferName, Appended: len(p.Text), Lines: countLines(b.text), Bytes: len(b.text)}, nil
}

// Edit replaces text in a buffer with package edit's matching.
func (m *Memory) Edit(p definitions.BufferEditParams) (*definitions.BufferEditResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(p.BufferName)
	if err != nil {
		return nil, err
	}
	r, err := edit.Apply(b.text, edit.Request{OldString: p.OldText, NewString: p.NewText, ReplaceAll: p.ReplaceAll})
	if err != nil {
		return nil, editError(p.BufferName, err)
	}
	if err := m.checkSize(p.BufferName, len(r.Content)); err != nil {
		return nil, err
	}
	diff, added, removed := edit.Diff(p.BufferName, b.text, r.Content)
	b.text = r.Content
	b.version++
	return &definitions.BufferEditResult{BufferName: p.BufferName, Diff: diff, LinesAdded: added, LinesRemoved: removed,
		Strategy: r.Strategy, Replacements: r.Replacements, Lines: countLines(b.text)}, nil
}

// editHints tell the model how to recover from each kind of refused edit.
var editHints = map[edit.ErrorKind][]string{
	edit.NotFound:  {"Read the buffer again (buffer_get_content) and copy old_text from it exactly, with enough lines to be unique", "details.closest shows the nearest text in the buffer"},
	edit.Ambiguous: {"Add surrounding lines to old_text so that it matches once", "Or set replace_all: true to replace every occurrence"},
	edit.NoChange:  {"The edit changes nothing: give the new text in new_text"},
	edit.Invalid:   {"Check the edit's arguments against the tool's description"},
}

// editError is edit's tool error of a refused edit of the named buffer.
func editError(name string, err error) error {
	terr := edit.ToolError(err, editHints)
	var ee *edit.Error
	if te, ok := terr.(*definitions.ToolError); ok && errors.As(err, &ee) {
		te.With("buffer_name", name).With("kind", ee.Kind.String())
	}
	return terr
}

// Content returns a buffer's text, or its first lines.
func (m *Memory) Content(p definitions.BufferGetContentParams) (*definitions.BufferGetContentResult, error) {
	if p.MaxLines < 0 {
		return nil, invalid("max_lines is %d; give a positive number, or leave it out for all lines", p.MaxLines).With("field", "max_lines")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(p.BufferName)
	if err != nil {
		return nil, err
	}
	total := countLines(b.text)
	res := &definitions.BufferGetContentResult{BufferName: p.BufferName, Mode: b.mode, Content: b.text, TotalLines: total, Lines: total, Point: b.pointIn(total)}
	if p.MaxLines > 0 && p.MaxLines < total {
		end := 0
		for range p.MaxLines {
			end += strings.IndexByte(b.text[end:], '\n') + 1
		}
		res.Content, res.Lines, res.Truncated = b.text[:end], p.MaxLines, true
	}
	return res, nil
}

// pointIn returns the buffer's point, kept inside its total lines (an edit may have
// shortened it since goto_line).
func (b *buffer) pointIn(total int) int { return max(1, min(b.point, total)) }

// List describes the buffers by name.
func (m *Memory) List(p definitions.BufferListParams) (*definitions.BufferListResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	res := &definitions.BufferListResult{Buffers: []definitions.BufferInfo{}}
	for name, b := range m.bufs {
		if Hidden(name) && !p.IncludeHidden {
			continue
		}
		n := countLines(b.text)
		res.Buffers = append(res.Buffers, definitions.BufferInfo{Name: name, Mode: b.mode, Lines: n, Bytes: len(b.text), Point: b.pointIn(n),
			Hidden: Hidden(name), File: b.file, Modified: b.file == "" || b.saved != b.version})
	}
	slices.SortFunc(res.Buffers, func(a, b definitions.BufferInfo) int { return strings.Compare(a.Name, b.Name) })
	return res, nil
}

// GotoLine moves a buffer's point to a line and returns it with its context.
func (m *Memory) GotoLine(p definitions.GotoLineParams) (*definitions.GotoLineResult, error) {
	context := DefaultContext
	if p.Context != nil {
		context = *p.Context
	}
	if context < 0 || context > MaxContext {
		return nil, invalid("context is %d; give 0 to %d lines", context, MaxContext).With("field", "context")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(p.BufferName)
	if err != nil {
		return nil, err
	}
	lines := splitLines(b.text)
	last := max(1, len(lines)) // an empty buffer has the line its point is on
	if p.LineNumber < 1 || p.LineNumber > last {
		return nil, invalid("line %d is out of range: buffer %q has %s", p.LineNumber, p.BufferName, definitions.Count(len(lines), "line")).
			With("field", "line_number").With("total_lines", len(lines)).
			Hint("Give a line from 1 to the buffer's last line")
	}
	b.point = p.LineNumber
	res := &definitions.GotoLineResult{BufferName: p.BufferName, Line: p.LineNumber, TotalLines: len(lines), Context: []definitions.BufferLine{}}
	if len(lines) == 0 {
		return res, nil
	}
	res.Text = lines[p.LineNumber-1]
	for i := max(1, p.LineNumber-context); i <= min(len(lines), p.LineNumber+context); i++ {
		res.Context = append(res.Context, definitions.BufferLine{Line: i, Text: lines[i-1]})
	}
	return res, nil
}

// Search finds literal text in a buffer, ignoring case unless asked not to: the line and
// column of each match, non-overlapping, up to MaxMatches.
func (m *Memory) Search(p definitions.SearchInBufferParams) (*definitions.SearchInBufferResult, error) {
	if p.SearchText == "" {
		return nil, invalid("`search_text` may not be empty").With("field", "search_text")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(p.BufferName)
	if err != nil {
		return nil, err
	}
	return search(p, b.text), nil
}

// search is Search on text. Folding case maps each character to one character, so lines
// and columns counted in the folded text are those of the original.
func search(p definitions.SearchInBufferParams, text string) *definitions.SearchInBufferResult {
	hay, needle := text, p.SearchText
	if !p.CaseSensitive {
		hay, needle = fold(hay), fold(needle)
	}
	lines := splitLines(text)
	res := &definitions.SearchInBufferResult{BufferName: p.BufferName, Matches: []definitions.BufferMatch{}}
	line, lineStart, counted := 1, 0, 0 // counted: where line breaks were counted up to
	for pos := 0; pos <= len(hay); {
		i := strings.Index(hay[pos:], needle)
		if i < 0 {
			break
		}
		at := pos + i
		if len(res.Matches) == MaxMatches {
			res.Truncated = true
			break
		}
		if n := strings.Count(hay[counted:at], "\n"); n > 0 {
			line += n
			lineStart = strings.LastIndexByte(hay[:at], '\n') + 1
		}
		counted = at
		var lineText string
		if line-1 < len(lines) {
			lineText = cut(lines[line-1], MaxMatchLine)
		}
		res.Matches = append(res.Matches, definitions.BufferMatch{Line: line, Column: utf8.RuneCountInString(hay[lineStart:at]) + 1, Text: lineText})
		pos = at + len(needle)
	}
	res.Count = len(res.Matches)
	return res
}

// fold maps each character of s to its lower case, one character for one (invalid bytes
// become U+FFFD, still one character each).
func fold(s string) string {
	return strings.Map(unicode.ToLower, s)
}

// Snapshot returns a buffer's text and version.
func (m *Memory) Snapshot(name string) (string, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(name)
	if err != nil {
		return "", 0, err
	}
	return b.text, b.version, nil
}

// Saved records where the buffer was saved, at which version.
func (m *Memory) Saved(name, path string, version int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(name)
	if err != nil {
		return err
	}
	b.file, b.saved = path, version
	return nil
}
