package buffers

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolError asserts that err is a ToolError of type typ and returns it.
func toolError(t *testing.T, err error, typ string) *definitions.ToolError {
	t.Helper()
	var te *definitions.ToolError
	require.True(t, errors.As(err, &te), "a ToolError: %v", err)
	assert.Equal(t, typ, te.Type, te.Message)
	return te
}

func create(t *testing.T, m *Memory, name, content string) {
	t.Helper()
	_, err := m.Create(definitions.BufferCreateParams{BufferName: name, Content: content})
	require.NoError(t, err)
}

func TestCreate(t *testing.T) {
	m := New()
	res, err := m.Create(definitions.BufferCreateParams{BufferName: "hello.py", Content: "def f():\n    pass\n\nf()\nprint(1)\n", Mode: "python-mode"})
	require.NoError(t, err)
	assert.Equal(t, &definitions.BufferCreateResult{BufferName: "hello.py", Mode: "python-mode", Lines: 5, Bytes: 32,
		Message: "Buffer 'hello.py' created with 5 lines"}, res)
	assert.Equal(t, "created, 5 lines", res.Outcome())

	for _, c := range []struct {
		name, content string
		lines         int
	}{{"empty", "", 0}, {"no final newline", "a\nb", 2}, {"one line", "a\n", 1}, {"blank line", "\n", 1}} {
		res, err := m.Create(definitions.BufferCreateParams{BufferName: c.name, Content: c.content})
		require.NoError(t, err, c.name)
		assert.Equal(t, c.lines, res.Lines, c.name)
	}

	_, err = m.Create(definitions.BufferCreateParams{BufferName: "hello.py", Content: "x"})
	toolError(t, err, definitions.ConflictError)
	_, err = m.Create(definitions.BufferCreateParams{BufferName: "m", Content: "x", Mode: "bad\nmode"})
	toolError(t, err, definitions.ValidationError)
	_, err = m.Create(definitions.BufferCreateParams{BufferName: "m", Content: "x", Mode: strings.Repeat("m", MaxModeBytes+1)})
	toolError(t, err, definitions.ValidationError)
}

func TestBadNames(t *testing.T) {
	m := New()
	for _, name := range []string{"", " ", "   ", "a\nb", "tab\there", "nul\x00", "bell\a", "del\x7f", "\xff\xfe", strings.Repeat("n", MaxNameBytes+1)} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			_, err := m.Create(definitions.BufferCreateParams{BufferName: name, Content: "x"})
			te := toolError(t, err, definitions.ValidationError)
			assert.Equal(t, "buffer_name", te.Details["field"])
			_, err = m.Append(definitions.BufferAppendParams{BufferName: name, Text: "x"})
			toolError(t, err, definitions.ValidationError)
		})
	}
	for _, name := range []string{"*scratch*", " *hidden*", "dir/file.txt", "naïve ünïcode", strings.Repeat("n", MaxNameBytes)} {
		_, err := m.Create(definitions.BufferCreateParams{BufferName: name, Content: "x"})
		assert.NoError(t, err, "%q is a good name", name)
	}
}

func TestLimits(t *testing.T) {
	m := NewWithLimits(Limits{Buffers: 2, Bytes: 10})
	create(t, m, "a", "12345")
	create(t, m, "b", "")
	_, err := m.Create(definitions.BufferCreateParams{BufferName: "c", Content: ""})
	te := toolError(t, err, definitions.ValidationError)
	assert.Equal(t, 2, te.Details["limit"])
	assert.NotEmpty(t, te.Recovery)

	_, err = m.Create(definitions.BufferCreateParams{BufferName: "a", Content: strings.Repeat("x", 11)})
	toolError(t, err, definitions.ValidationError) // the size is checked first
	_, err = m.Append(definitions.BufferAppendParams{BufferName: "a", Text: "123456"})
	te = toolError(t, err, definitions.ValidationError)
	assert.Contains(t, te.Message, "more than the limit of 10")
	_, err = m.Edit(definitions.BufferEditParams{BufferName: "a", OldText: "123", NewText: "123456789"})
	toolError(t, err, definitions.ValidationError)
	c, err := m.Content(definitions.BufferGetContentParams{BufferName: "a"})
	require.NoError(t, err)
	assert.Equal(t, "12345", c.Content, "a refused change changes nothing")
	_, err = m.Append(definitions.BufferAppendParams{BufferName: "a", Text: "67890"})
	assert.NoError(t, err, "up to the limit is fine")

	assert.Equal(t, DefaultLimits, New().limits)
}

func TestUnknownBuffer(t *testing.T) {
	m := New()
	create(t, m, "shown", "")
	create(t, m, " hidden", "")
	calls := map[string]func() error{
		"append": func() error {
			_, err := m.Append(definitions.BufferAppendParams{BufferName: "nope", Text: "x"})
			return err
		},
		"edit": func() error {
			_, err := m.Edit(definitions.BufferEditParams{BufferName: "nope", OldText: "a", NewText: "b"})
			return err
		},
		"content": func() error { _, err := m.Content(definitions.BufferGetContentParams{BufferName: "nope"}); return err },
		"goto": func() error {
			_, err := m.GotoLine(definitions.GotoLineParams{BufferName: "nope", LineNumber: 1})
			return err
		},
		"search": func() error {
			_, err := m.Search(definitions.SearchInBufferParams{BufferName: "nope", SearchText: "x"})
			return err
		},
		"snapshot": func() error {
			_, _, err := m.Snapshot("nope")
			return err
		},
		"saved": func() error { return m.Saved("nope", "a.txt", 1) },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			te := toolError(t, call(), definitions.ValidationError)
			assert.Contains(t, te.Message, `no buffer named "nope"`)
			assert.Equal(t, []string{"shown"}, te.Details["buffers"], "the visible buffers, not the hidden one")
			assert.NotEmpty(t, te.Recovery)
		})
	}
}

func TestAppend(t *testing.T) {
	m := New()
	create(t, m, "b", "a\n")
	res, err := m.Append(definitions.BufferAppendParams{BufferName: "b", Text: "b\nc"})
	require.NoError(t, err)
	assert.Equal(t, &definitions.BufferAppendResult{BufferName: "b", Appended: 3, Lines: 3, Bytes: 5}, res)
	_, v1, _ := m.Snapshot("b")
	_, err = m.Append(definitions.BufferAppendParams{BufferName: "b", Text: ""})
	require.NoError(t, err)
	text, v2, _ := m.Snapshot("b")
	assert.Equal(t, "a\nb\nc", text)
	assert.Equal(t, v1, v2, "appending nothing changes nothing")
}

// TestEditCorpus runs cases of package edit's corpus (edit/corpus_test.go) through
// buffer_edit: the same matching, strategies and refusals as edit_file.
func TestEditCorpus(t *testing.T) {
	cases := []struct {
		name, content, old, repl string
		all                      bool
		want, strategy           string
		n                        int
		kind                     string // a refusal: the edit error's kind
		typ                      string // and its tool error type
	}{
		{name: "exact_unique_substring", content: "old content here", old: "old content", repl: "new content", want: "new content here", strategy: "exact"},
		{name: "exact_twice_refused_with_both_lines", content: "x = 1\ny = 2\nx = 1\n", old: "x = 1", repl: "x = 2", kind: "ambiguous", typ: definitions.ConflictError},
		{name: "replace_all_every_occurrence", content: "foo bar foo baz foo", old: "foo", repl: "qux", all: true, want: "qux bar qux baz qux", strategy: "exact", n: 3},
		{name: "dollar_ampersand_is_literal", content: "a = x\n", old: "x", repl: "$&$&", want: "a = $&$&\n", strategy: "exact"},
		{name: "new_level_uses_the_files_tabs", content: "func f() {\n\tx()\n}\n", old: "    x()", repl: "    if ok {\n        x()\n    }",
			want: "func f() {\n\tif ok {\n\t\tx()\n\t}\n}\n", strategy: "indentation"},
		{name: "lf_multiline_old_on_crlf_file_writes_crlf", content: "alpha\r\nbeta\r\ngamma\r\n", old: "alpha\nbeta\ngamma", repl: "alpha\nbeta-updated\ngamma",
			want: "alpha\r\nbeta-updated\r\ngamma\r\n", strategy: "exact"},
		{name: "curly_apostrophe_kept", content: "it’s fine\n", old: "it's fine", repl: "it's great", want: "it’s great\n", strategy: "typography"},
		{name: "over_escaped_quotes", content: `This is a test string to find "me".`, old: `find \"me\"`, repl: `replace with \"this\"`,
			want: `This is a test string to replace with "this".`, strategy: "unescape"},
		{name: "stale_middle_line_refused", content: "a\nport = 9090\nb\n", old: "a\nport = 8080\nb", repl: "a\nport = 7070\nb", kind: "not_found", typ: definitions.ConflictError},
		{name: "elided_comment_line_refused", content: "class A:\n    def f(self):\n        return 1\n    def g(self):\n        return 2\n",
			old: "class A:\n    # ... existing code ...\n    def g(self):\n        return 2", repl: "class A:\n    def g(self):\n        return 3", kind: "not_found", typ: definitions.ConflictError},
		{name: "identical_strings_refused", content: "a\n", old: "a", repl: "a", kind: "no_change", typ: definitions.ValidationError},
		{name: "empty_old_fills_an_empty_buffer", content: "", old: "", repl: "new\n", want: "new\n", strategy: "exact"},
		{name: "empty_old_on_content_refused", content: "a\n", old: "", repl: "b", kind: "invalid", typ: definitions.ValidationError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New()
			create(t, m, "b", c.content)
			res, err := m.Edit(definitions.BufferEditParams{BufferName: "b", OldText: c.old, NewText: c.repl, ReplaceAll: c.all})
			text, _, _ := m.Snapshot("b")
			if c.kind != "" {
				te := toolError(t, err, c.typ)
				assert.Equal(t, c.kind, te.Details["kind"])
				assert.NotEmpty(t, te.Recovery)
				assert.Equal(t, c.content, text, "a refused edit changes nothing")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, text)
			assert.Equal(t, c.strategy, res.Strategy)
			assert.Equal(t, max(c.n, 1), res.Replacements)
			assert.Equal(t, countLines(c.want), res.Lines)
		})
	}
}

func TestEditReportsTheDiff(t *testing.T) {
	m := New()
	create(t, m, "b", "a\nb\nc\n")
	res, err := m.Edit(definitions.BufferEditParams{BufferName: "b", OldText: "b", NewText: "B1\nB2"})
	require.NoError(t, err)
	assert.Equal(t, 2, res.LinesAdded)
	assert.Equal(t, 1, res.LinesRemoved)
	assert.Contains(t, res.Diff, "-b\n")
	assert.Contains(t, res.Diff, "+B1\n")
	assert.Equal(t, "+2 -1", res.Outcome())

	_, err = m.Edit(definitions.BufferEditParams{BufferName: "b", OldText: "zzz", NewText: "y"})
	te := toolError(t, err, definitions.ConflictError)
	assert.Equal(t, "b", te.Details["buffer_name"])
}

func TestContent(t *testing.T) {
	m := New()
	create(t, m, "b", "1\n2\n3\n4")
	for _, c := range []struct {
		max       int
		want      string
		lines     int
		truncated bool
	}{{0, "1\n2\n3\n4", 4, false}, {2, "1\n2\n", 2, true}, {4, "1\n2\n3\n4", 4, false}, {10, "1\n2\n3\n4", 4, false}, {3, "1\n2\n3\n", 3, true}} {
		res, err := m.Content(definitions.BufferGetContentParams{BufferName: "b", MaxLines: c.max})
		require.NoError(t, err)
		assert.Equal(t, c.want, res.Content, "max_lines %d", c.max)
		assert.Equal(t, c.lines, res.Lines)
		assert.Equal(t, 4, res.TotalLines)
		assert.Equal(t, c.truncated, res.Truncated)
	}
	_, err := m.Content(definitions.BufferGetContentParams{BufferName: "b", MaxLines: -1})
	toolError(t, err, definitions.ValidationError)
}

func TestList(t *testing.T) {
	m := New()
	create(t, m, "zeta", "z\n")
	create(t, m, " hidden", "")
	_, err := m.Create(definitions.BufferCreateParams{BufferName: "alpha", Content: "a\nb\n", Mode: "org-mode"})
	require.NoError(t, err)

	res, err := m.List(definitions.BufferListParams{})
	require.NoError(t, err)
	assert.Equal(t, []definitions.BufferInfo{
		{Name: "alpha", Mode: "org-mode", Lines: 2, Bytes: 4, Point: 1, Modified: true},
		{Name: "zeta", Lines: 1, Bytes: 2, Point: 1, Modified: true},
	}, res.Buffers)
	res, err = m.List(definitions.BufferListParams{IncludeHidden: true})
	require.NoError(t, err)
	require.Len(t, res.Buffers, 3)
	assert.Equal(t, definitions.BufferInfo{Name: " hidden", Point: 1, Hidden: true, Modified: true}, res.Buffers[0])

	_, v, err := m.Snapshot("alpha")
	require.NoError(t, err)
	require.NoError(t, m.Saved("alpha", "notes.org", v))
	res, _ = m.List(definitions.BufferListParams{})
	assert.Equal(t, "notes.org", res.Buffers[0].File)
	assert.False(t, res.Buffers[0].Modified, "saved")
	_, err = m.Append(definitions.BufferAppendParams{BufferName: "alpha", Text: "c\n"})
	require.NoError(t, err)
	res, _ = m.List(definitions.BufferListParams{})
	assert.True(t, res.Buffers[0].Modified, "changed since")

	empty, err := New().List(definitions.BufferListParams{})
	require.NoError(t, err)
	assert.NotNil(t, empty.Buffers, "an empty list, not null")
}

func TestGotoLine(t *testing.T) {
	m := New()
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	create(t, m, "b", b.String())
	two := 2
	res, err := m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: 5, Context: &two})
	require.NoError(t, err)
	assert.Equal(t, "line 5", res.Text, "without its CR")
	assert.Equal(t, 10, res.TotalLines)
	assert.Equal(t, []definitions.BufferLine{{Line: 3, Text: "line 3"}, {Line: 4, Text: "line 4"}, {Line: 5, Text: "line 5"}, {Line: 6, Text: "line 6"}, {Line: 7, Text: "line 7"}}, res.Context)
	c, _ := m.Content(definitions.BufferGetContentParams{BufferName: "b"})
	assert.Equal(t, 5, c.Point, "the point is remembered")

	res, err = m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: 10})
	require.NoError(t, err)
	assert.Len(t, res.Context, 4, "3 before, none after the last line")
	zero := 0
	res, err = m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: 1, Context: &zero})
	require.NoError(t, err)
	assert.Equal(t, []definitions.BufferLine{{Line: 1, Text: "line 1"}}, res.Context)

	for _, n := range []int{0, -1, 11} {
		_, err := m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: n})
		te := toolError(t, err, definitions.ValidationError)
		assert.Contains(t, te.Message, "out of range")
		assert.Equal(t, 10, te.Details["total_lines"])
	}
	big := MaxContext + 1
	_, err = m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: 1, Context: &big})
	toolError(t, err, definitions.ValidationError)
	c, _ = m.Content(definitions.BufferGetContentParams{BufferName: "b"})
	assert.Equal(t, 1, c.Point, "a refused goto_line leaves the point")

	// An edit that shortens the buffer keeps the point inside it.
	_, err = m.GotoLine(definitions.GotoLineParams{BufferName: "b", LineNumber: 10})
	require.NoError(t, err)
	_, err = m.Edit(definitions.BufferEditParams{BufferName: "b", OldText: "line 9\nline 10\n", NewText: ""})
	require.NoError(t, err)
	c, _ = m.Content(definitions.BufferGetContentParams{BufferName: "b"})
	assert.Equal(t, 8, c.Point)

	create(t, m, "empty", "")
	res, err = m.GotoLine(definitions.GotoLineParams{BufferName: "empty", LineNumber: 1})
	require.NoError(t, err, "an empty buffer has line 1")
	assert.Equal(t, 0, res.TotalLines)
	_, err = m.GotoLine(definitions.GotoLineParams{BufferName: "empty", LineNumber: 2})
	toolError(t, err, definitions.ValidationError)
}

func TestSearch(t *testing.T) {
	m := New()
	create(t, m, "b", "Hello world\nsay hello, HELLO\nnaïve héllo Hello\r\nend")
	search := func(text string, sensitive bool) *definitions.SearchInBufferResult {
		t.Helper()
		res, err := m.Search(definitions.SearchInBufferParams{BufferName: "b", SearchText: text, CaseSensitive: sensitive})
		require.NoError(t, err)
		return res
	}
	res := search("hello", false)
	assert.Equal(t, []definitions.BufferMatch{
		{Line: 1, Column: 1, Text: "Hello world"},
		{Line: 2, Column: 5, Text: "say hello, HELLO"},
		{Line: 2, Column: 12, Text: "say hello, HELLO"},
		{Line: 3, Column: 13, Text: "naïve héllo Hello"},
	}, res.Matches, "columns count characters: ï and é are one each")
	assert.Equal(t, 4, res.Count)
	assert.Equal(t, "4 matches", res.Outcome())

	res = search("Hello", true)
	assert.Equal(t, 2, res.Count)
	assert.Equal(t, 3, res.Matches[1].Line)
	assert.Equal(t, 1, search("HÉLLO", false).Count, "case folding beyond ASCII")
	assert.Equal(t, 0, search("HÉLLO", true).Count)
	assert.Equal(t, []definitions.BufferMatch{{Line: 1, Column: 7, Text: "Hello world"}}, search("world\nsay", false).Matches, "a match may span lines")
	assert.Equal(t, 0, search("absent", false).Count)
	assert.NotNil(t, search("absent", false).Matches)

	_, err := m.Search(definitions.SearchInBufferParams{BufferName: "b", SearchText: ""})
	toolError(t, err, definitions.ValidationError)

	create(t, m, "many", strings.Repeat("aa\n", MaxMatches+5))
	many, err := m.Search(definitions.SearchInBufferParams{BufferName: "many", SearchText: "a"})
	require.NoError(t, err)
	assert.Len(t, many.Matches, MaxMatches)
	assert.True(t, many.Truncated)
	assert.Equal(t, 100, many.Matches[MaxMatches-1].Line)
	assert.Equal(t, 2, many.Matches[MaxMatches-1].Column, "non-overlapping, left to right")

	create(t, m, "overlap", "aaaa")
	assert.Equal(t, 2, func() int {
		r, _ := m.Search(definitions.SearchInBufferParams{BufferName: "overlap", SearchText: "aa"})
		return r.Count
	}())

	create(t, m, "long", strings.Repeat("x", 2*MaxMatchLine)+"needle")
	long, err := m.Search(definitions.SearchInBufferParams{BufferName: "long", SearchText: "needle"})
	require.NoError(t, err)
	assert.Equal(t, 2*MaxMatchLine+1, long.Matches[0].Column)
	assert.Contains(t, long.Matches[0].Text, "more bytes]", "a long line is cut")
}

// TestSafeForConcurrentUse: calls from several goroutines (run with -race).
func TestSafeForConcurrentUse(t *testing.T) {
	m := New()
	create(t, m, "b", "")
	done := make(chan struct{})
	for i := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := range 50 {
				_, _ = m.Append(definitions.BufferAppendParams{BufferName: "b", Text: fmt.Sprintf("%d-%d\n", i, j)})
				_, _ = m.List(definitions.BufferListParams{})
				_, _ = m.Search(definitions.SearchInBufferParams{BufferName: "b", SearchText: "1-"})
			}
		}()
	}
	for range 4 {
		<-done
	}
	c, err := m.Content(definitions.BufferGetContentParams{BufferName: "b"})
	require.NoError(t, err)
	assert.Equal(t, 200, c.TotalLines)
}
