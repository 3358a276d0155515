package search

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brief is a Match as "line:column:match", or "line-endline:column:match" across lines.
func brief(m Match) string {
	if m.EndLine != m.Line {
		return fmt.Sprintf("%d-%d:%d:%s", m.Line, m.EndLine, m.Column, m.MatchText)
	}
	return fmt.Sprintf("%d:%d:%s", m.Line, m.Column, m.MatchText)
}

func searchAll(t *testing.T, o Options, data string) []Match {
	t.Helper()
	m, err := Compile(o)
	require.NoError(t, err)
	var out []Match
	n := m.Search([]byte(data), func(mt Match) bool {
		out = append(out, mt)
		return true
	})
	require.Equal(t, len(out), n)
	require.Equal(t, n, m.Count([]byte(data), 0), "Count")
	require.Equal(t, n > 0, m.Matches([]byte(data)), "Matches")
	return out
}

func TestSearch(t *testing.T) {
	lit := func(q string) Options { return Options{Query: q} }
	fold := func(q string) Options { return Options{Query: q, IgnoreCase: true} }
	rx := func(q string) Options { return Options{Query: q, Regex: true} }
	multi := func(q string) Options { return Options{Query: q, Regex: true, Multiline: true} }
	tests := []struct {
		name  string
		opts  Options
		data  string
		want  []string // brief of each Match
		texts []string // Text of each Match, when checked
	}{
		{"literal", lit("foo"), "a foo\nbar\nfoo foo\n", []string{"1:3:foo", "3:1:foo"}, []string{"a foo", "foo foo"}},
		{"first and last line without newline", lit("foo"), "foo\nx\nfoo", []string{"1:1:foo", "3:1:foo"}, nil},
		{"single line no newline", lit("o"), "foo", []string{"1:2:o"}, nil},
		{"no match", lit("zzz"), "foo\nbar\n", nil, nil},
		{"empty buffer", rx("^"), "", nil, nil},
		{"empty buffer literal", lit("a"), "", nil, nil},
		{"only a newline is one empty line", rx("^$"), "\n", []string{"1:1:"}, []string{""}},
		{"empty lines", rx("^$"), "a\n\nb\n\n", []string{"2:1:", "4:1:"}, nil},
		{"no line after the final newline", rx("x*"), "a\nb\n", []string{"1:1:", "2:1:"}, nil},
		{"empty last line without newline", rx("^$"), "a\n\n", []string{"2:1:"}, nil},
		{"CRLF text drops CR", lit("bar"), "foo\r\nbar\r\n", []string{"2:1:bar"}, []string{"bar"}},
		{"CRLF dollar does not skip CR", rx("foo$"), "foo\r\nfoo", []string{"2:1:foo"}, nil},
		{"CRLF CR is a character", rx(`o\r$`), "foo\r\nfoo", []string{"1:3:o\r"}, []string{"foo"}},
		{"lone CR at the end is kept", lit("a"), "a\r", []string{"1:1:a"}, []string{"a\r"}},
		{"caret per line", rx("^b"), "ab\nba\n", []string{"2:1:b"}, nil},
		{"dollar per line", rx("a$"), "ab\nba\n", []string{"2:2:a"}, nil},
		{`\A is a line start`, rx(`\Ab`), "ab\nba\n", []string{"2:1:b"}, nil},
		{`\z is a line end`, rx(`a\z`), "ab\nba\n", []string{"2:2:a"}, nil},
		{`(?-m) anchors are line anchors`, rx(`(?-m)^b\w$`), "ab\nba\n", []string{"2:1:ba"}, nil},
		{"regexp does not cross lines", rx(`a\sb`), "a\nb\na b\n", []string{"3:1:a b"}, nil},
		{"negated class does not cross lines", rx(`x[^a]y`), "x\ny\nxzy", []string{"3:1:xzy"}, nil},
		{"dotall does not cross lines", rx(`(?s)x.y`), "x\ny\nx.y", []string{"3:1:x.y"}, nil},
		{"no literal regexp", rx(`[0-9]{4}-[0-9]{2}`), "x\n2024-01 2025-02\nno\n1999-12", []string{"2:1:2024-01", "4:1:1999-12"}, nil},
		{"whole buffer scan", rx(`\d+`), "a\nb1 22\n\n333", []string{"2:2:1", "4:1:333"}, nil},
		{"several matches one line", lit("o"), "foo boo\nx", []string{"1:2:o"}, nil},
		{"several regexp matches one line", rx(`b\w`), "ab ac bd be", []string{"1:7:bd"}, nil},
		{"leftmost first", rx(`(a|ab)(c|bcd)`), "abcd", []string{"1:1:abcd"}, nil},
		{"regexp with literal", rx(`func \w+\(ctx`), "func a(ctx\nfunc (ctx\nx func bb(ctx)", []string{"1:1:func a(ctx", "3:3:func bb(ctx"}, nil},
		{"literal is not a regexp", lit("a.c"), "abc\na.c\n", []string{"2:1:a.c"}, nil},
		{"alternation", rx(`TODO|FIXME`), "a\n// FIXME x\nTODO\nfixme", []string{"2:4:FIXME", "3:1:TODO"}, nil},
		{"alternation leftmost", rx(`FIXME|TODO`), "TODO FIXME", []string{"1:1:TODO"}, nil},
		{"ignore case", fold("FoO"), "foo\nFOO\nfOo\nfo", []string{"1:1:foo", "2:1:FOO", "3:1:fOo"}, nil},
		{"ignore case aligned offset", fold("x1Z"), "zzx1zx1Z", []string{"1:3:x1z"}, nil},
		{"ignore case regexp", Options{Query: "F.O", Regex: true, IgnoreCase: true}, "fxo\nfoo", []string{"1:1:fxo", "2:1:foo"}, nil},
		{"kelvin sign folds to k", fold("k"), "a\n\u212a\nK", []string{"2:1:\u212a", "3:1:K"}, nil},
		{"kelvin word", fold("KELVIN"), "\u212aelvin", []string{"1:1:\u212aelvin"}, nil},
		{"long s folds to s", fold("S"), "ſ\nx", []string{"1:1:ſ"}, nil},
		{"only k and s", fold("sk"), "SK\nſ\u212a\nsx", []string{"1:1:SK", "2:1:ſ\u212a"}, nil},
		{"kelvin not without ignore case", lit("k"), "\u212a", nil, nil},
		{"non-ASCII needle", lit("straße"), "Straße\nstraße", []string{"2:1:straße"}, nil},
		{"non-ASCII needle folded", fold("ÉCOLE"), "école\nECOLE", []string{"1:1:école"}, nil},
		{"non-ASCII rune without case", fold("→X"), "a→x\n→", []string{"1:2:→x"}, nil},
		{"invalid UTF-8 data", lit("bar"), "foo\xffbar\n\xc3", []string{"1:5:bar"}, []string{"foo\uFFFDbar"}},
		{"invalid UTF-8 matched", rx(`o.b`), "fo\xffbar", []string{"1:2:o\uFFFDb"}, []string{"fo\uFFFDbar"}},
		{"U+FFFD matches an invalid byte as in Go", lit("\uFFFD"), "a\xffb\nc", []string{"1:2:\uFFFD"}, nil},
		{"empty match", rx("x*"), "ab\n\nx", []string{"1:1:", "2:1:", "3:1:x"}, nil},
		{"multiline spans lines", multi(`a\sb`), "a\nb\na b\n", []string{"1-2:1:a\nb", "3:1:a b"}, nil},
		{"multiline literal", Options{Query: "o\nb", Multiline: true}, "foo\nbar\nb", []string{"1-2:3:o\nb"}, []string{"foo"}},
		{"multiline newline", multi(`\n`), "a\nb", []string{"1:2:\n"}, nil},
		{"multiline continues after the match", multi(`a\nb|c`), "xa\nbc\nc", []string{"1-2:2:a\nb", "3:1:c"}, nil},
		{"multiline later match extends the group", multi(`a|b\ncd`), "ab\ncd\nx", []string{"1-2:1:a"}, nil},
		{"multiline dot stops at newline", multi(`a.*`), "ab\ncd", []string{"1:1:ab"}, nil},
		{"multiline caret after match", multi(`x\n|^y`), "x\ny", []string{"1:1:x\n", "2:1:y"}, nil},
		{"multiline word boundary mid-line", multi(`a\nb|\bc\nc`), "a\nbc\nc", []string{"1-2:1:a\nb"}, nil},
		{"multiline caret mid-line", multi(`x|^y\nz`), "xy\nz", []string{"1:1:x"}, nil},
		{"multiline CRLF", multi(`o\r\nb`), "foo\r\nbar", []string{"1-2:3:o\r\nb"}, []string{"foo"}},
		{"multiline ignore case", Options{Query: "O\nB", Multiline: true, IgnoreCase: true}, "foo\nbar", []string{"1-2:3:o\nb"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := searchAll(t, tt.opts, tt.data)
			var briefs, texts []string
			for _, m := range got {
				briefs = append(briefs, brief(m))
				texts = append(texts, m.Text)
				assert.True(t, utf8.ValidString(m.Text) && utf8.ValidString(m.MatchText))
			}
			assert.Equal(t, tt.want, briefs)
			if tt.texts != nil {
				assert.Equal(t, tt.texts, texts)
			}
			if !tt.opts.Multiline {
				checkAgainstReference(t, tt.opts, []byte(tt.data))
			}
		})
	}
}

func TestContext(t *testing.T) {
	tests := []struct {
		name          string
		opts          Options
		data          string
		before, after [][]string // per match
	}{
		{"buffer edges", Options{Query: "x", Before: 2, After: 2}, "x\na\nb\nx",
			[][]string{nil, {"a", "b"}}, [][]string{{"a", "b"}, nil}},
		{"fewer lines than asked", Options{Query: "m", Before: 5, After: 5}, "a\nm\nb\n",
			[][]string{{"a"}}, [][]string{{"b"}}},
		{"overlapping matches keep their own context", Options{Query: "m", Before: 1, After: 1}, "a\nm1\nm2\nb",
			[][]string{{"a"}, {"m1"}}, [][]string{{"m2"}, {"b"}}},
		{"CRLF and empty lines", Options{Query: "m", Before: 2, After: 2}, "a\r\n\r\nm\r\n\r\nb\r\n",
			[][]string{{"a", ""}}, [][]string{{"", "b"}}},
		{"after follows the end line", Options{Query: `a\nb`, Regex: true, Multiline: true, Before: 1, After: 1}, "0\na\nb\nc\nd",
			[][]string{{"0"}}, [][]string{{"c"}}},
		{"no context asked", Options{Query: "m"}, "a\nm\nb", [][]string{nil}, [][]string{nil}},
		{"context is cut", Options{Query: "m", Before: 1, MaxLineBytes: 4}, "abcdefgh\nm",
			[][]string{{"abcd [4 bytes…]"}}, [][]string{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := searchAll(t, tt.opts, tt.data)
			require.Len(t, got, len(tt.before))
			for i, m := range got {
				assert.Equal(t, tt.before[i], m.Before, "before %d", i)
				assert.Equal(t, tt.after[i], m.After, "after %d", i)
			}
		})
	}
}

func TestLongLines(t *testing.T) {
	long := strings.Repeat("a", 2000) + "NEEDLE" + strings.Repeat("b", 3000)
	tests := []struct {
		name      string
		opts      Options
		data      string
		text      string
		matchText string
	}{
		{"cut around the match", Options{Query: "NEEDLE", MaxLineBytes: 16}, long,
			"[…1995 bytes] aaaaaNEEDLEbbbbb [2995 bytes…]", "NEEDLE"},
		{"match at the start", Options{Query: "x", MaxLineBytes: 4}, "x123456789",
			"x123 [6 bytes…]", "x"},
		{"match at the end", Options{Query: "9", MaxLineBytes: 4}, "x123456789",
			"[…6 bytes] 6789", "9"},
		{"short line untouched", Options{Query: "b", MaxLineBytes: 4}, "abc", "abc", "b"},
		{"default limit is 500", Options{Query: "NEEDLE"}, long,
			"[…1753 bytes] " + strings.Repeat("a", 247) + "NEEDLE" + strings.Repeat("b", 247) + " [2753 bytes…]", "NEEDLE"},
		{"match longer than the limit", Options{Query: "a+", Regex: true, MaxLineBytes: 5}, "xaaaaaaaaa",
			"[…1 bytes] aaaaa [4 bytes…]", "aaaaa"},
		{"cuts keep UTF-8 valid", Options{Query: "X", MaxLineBytes: 6}, strings.Repeat("é", 10) + "X" + strings.Repeat("é", 10),
			"[…18 bytes] éXé [18 bytes…]", "X"},
		{"match text cut at a rune", Options{Query: "é+", Regex: true, MaxLineBytes: 5}, strings.Repeat("é", 10),
			"éé [16 bytes…]", "éé"},
		{"invalid UTF-8 in a cut line", Options{Query: "X", MaxLineBytes: 4}, "\xff\xff\xffX\xff\xff\xff\xff",
			"[…2 bytes] \uFFFDX\uFFFD [2 bytes…]", "X"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := searchAll(t, tt.opts, tt.data)
			require.Len(t, got, 1)
			assert.Equal(t, tt.text, got[0].Text)
			assert.Equal(t, tt.matchText, got[0].MatchText)
			assert.True(t, utf8.ValidString(got[0].Text))
		})
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		reason string // a part of the reason
	}{
		{"empty query", Options{}, "empty query"},
		{"empty regexp", Options{Regex: true}, "empty query"},
		{"unclosed group", Options{Query: "(", Regex: true}, "missing closing ): `(`"},
		{"unclosed group inside", Options{Query: "ab(c", Regex: true}, "missing closing )"},
		{"bad range says where", Options{Query: "x[z-a]", Regex: true}, "invalid character class range: `z-a` at byte 2"},
		{"bad repeat", Options{Query: "a**", Regex: true}, "invalid nested repetition operator"},
		{"newline only", Options{Query: `\n`, Regex: true}, reasonLineBreak},
		{"newline in a regexp", Options{Query: `a\nb`, Regex: true}, reasonLineBreak},
		{"newline class", Options{Query: `[\n]`, Regex: true}, reasonLineBreak},
		{"newline in a literal", Options{Query: "a\nb"}, reasonLineBreak},
		{"newline ignoring case", Options{Query: "\n", IgnoreCase: true}, reasonLineBreak},
		{"invalid UTF-8 query", Options{Query: "a\xff"}, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.opts)
			require.Nil(t, m)
			var e *Error
			require.True(t, errors.As(err, &e), "%v", err)
			assert.Equal(t, tt.opts.Query, e.Query)
			assert.Contains(t, e.Reason, tt.reason)
			assert.Contains(t, err.Error(), tt.reason)
		})
	}
	t.Run("wraps the syntax error", func(t *testing.T) {
		_, err := Compile(Options{Query: "(", Regex: true})
		var se *syntax.Error
		require.True(t, errors.As(err, &se))
		assert.Equal(t, syntax.ErrMissingParen, se.Code)
	})
	t.Run("line breaks are fine in multiline", func(t *testing.T) {
		_, err := Compile(Options{Query: `\n`, Regex: true, Multiline: true})
		require.NoError(t, err)
	})
}

func TestSearchStops(t *testing.T) {
	m, err := Compile(Options{Query: "x"})
	require.NoError(t, err)
	data := []byte("x\nx\nx\nx\n")
	var lines []int
	n := m.Search(data, func(mt Match) bool {
		lines = append(lines, mt.Line)
		return len(lines) < 2
	})
	assert.Equal(t, 2, n)
	assert.Equal(t, []int{1, 2}, lines)
	for _, tt := range []struct{ limit, want int }{{0, 4}, {-1, 4}, {1, 1}, {3, 3}, {9, 4}} {
		assert.Equal(t, tt.want, m.Count(data, tt.limit), "limit %d", tt.limit)
	}
}

func TestLineNumbersFarApart(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		if i%997 == 0 {
			fmt.Fprintf(&b, "line %d has the NEEDLE\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	for _, o := range []Options{{Query: "NEEDLE"}, {Query: "needle", IgnoreCase: true}, {Query: `NEE\w+`, Regex: true}, {Query: `[A-Z]{6}`, Regex: true}} {
		var got []int
		for _, m := range searchAll(t, o, b.String()) {
			got = append(got, m.Line)
			assert.Equal(t, fmt.Sprintf("line %d has the NEEDLE", m.Line), m.Text)
		}
		assert.Equal(t, []int{997, 1994, 2991, 3988, 4985}, got, "%+v", o)
	}
}

func TestBinary(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("hello\n"), false},
		{"NUL early", []byte("a\x00b"), true},
		{"NUL at the last byte of 8 KiB", []byte(strings.Repeat("a", 8191) + "\x00"), true},
		{"NUL after 8 KiB", append([]byte(strings.Repeat("a", 8192)), 0), false},
		{"invalid UTF-8 is not binary", []byte("\xff\xfe"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, Binary(tt.data)) })
	}
}

// noMatchQueries cover every search path: literal, folded literal (aligned and by line),
// regexp with a literal, alternation, no literal at all, multiline.
var noMatchQueries = []Options{
	{Query: "NotThere"},
	{Query: "notthere", IgnoreCase: true},
	{Query: "kelvin", IgnoreCase: true},
	{Query: "sk", IgnoreCase: true},
	{Query: "ÉCOLE", IgnoreCase: true},
	{Query: `func \w+\(zzz`, Regex: true},
	{Query: `TODO|FIXME`, Regex: true},
	{Query: `[0-9]{4}-[0-9]{2}-[0-9]{2}`, Regex: true},
	{Query: `\d\d:\d\d:\d\d`, Regex: true},
	{Query: `[A-Z]{9}`, Regex: true},
	{Query: `\d\s+\d`, Regex: true, Multiline: true},
	{Query: `zz\nzz`, Regex: true, Multiline: true},
	{Query: "NotThere", Multiline: true},
}

func TestConcurrentUse(t *testing.T) {
	data := []byte(strings.Repeat("alpha beta\nGamma \u212aelvin\n2024-01-02\n", 300))
	for _, o := range []Options{{Query: "beta"}, {Query: "kelvin", IgnoreCase: true}, {Query: `\d{4}`, Regex: true}, {Query: `a\nG`, Regex: true, Multiline: true}} {
		m, err := Compile(o)
		require.NoError(t, err)
		want := m.Count(data, 0)
		require.Equal(t, 300, want, "%+v", o)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					assert.Equal(t, want, m.Search(data, func(Match) bool { return true }))
				}
			}()
		}
		wg.Wait()
	}
}

// TestDenseCandidates: when the rarest byte of a literal turns out common in the buffer, the
// finder switches to its SWAR scan; matches at every alignment, and near the end, are found.
func TestDenseCandidates(t *testing.T) {
	queries := []Options{
		{Query: "qa"}, {Query: "QA", IgnoreCase: true}, {Query: "q-a"}, {Query: `\dqa\d`, Regex: true},
		{Query: `(?i)qa[0-9]`, Regex: true}, {Query: "qkA", IgnoreCase: true}, {Query: "q"},
	}
	for _, o := range queries {
		for _, noise := range []string{"qb", "Qb q-b", "qqqq"} {
			for pad := 0; pad < 20; pad++ {
				var b strings.Builder
				for i := 0; i < 300; i++ {
					b.WriteString(noise)
					if i%50 == 49 {
						b.WriteString("\n")
					}
				}
				b.WriteString(strings.Repeat("x", pad) + "1qA2 qa3 q-a 4qa5 q\u212aA\n" + strings.Repeat("y", pad) + "qa")
				checkAgainstReference(t, o, []byte(b.String()))
			}
		}
	}
}

func TestZeroBytesIsExact(t *testing.T) {
	// Only flags at or above a real zero byte may be false; the finder verifies every flag.
	for _, x := range []uint64{0, 1, 0xff, 0x0100, 0x8000000000000000, 0x0001000100010001, 0xffffffffffffffff} {
		const ones, high = 0x0101010101010101, 0x8080808080808080
		got := (x - ones) &^ x & high
		for i := 0; i < 8; i++ {
			if byte(x>>(8*i)) == 0 {
				assert.NotZero(t, got&(0x80<<(8*i)), "%#x byte %d", x, i)
			}
		}
	}
}

// TestFixedWidthIsExact: a query that is a run of one-ASCII-byte parts around a literal (a
// date) is found by the literal and a byte-set check of its neighbours, with no regexp; one
// with a wider or variable part still runs the regexp on the candidate's line.
func TestFixedWidthIsExact(t *testing.T) {
	tests := []struct {
		query       string
		ignoreCase  bool
		exact       bool
		lead, trail int // context bytes checked before and after the literal
	}{
		{`[0-9]{4}-[0-9]{2}-[0-9]{2}`, false, true, 4, 5},
		{`[0-9]{4}-[0-9]{2}-[0-9]{2}`, true, true, 4, 5},
		{`(\d\d):(\d\d)`, false, true, 2, 2},
		{`\w\(`, false, true, 1, 0},
		{`(?i)x[0-9]y`, false, true, 2, 0},
		{`foo`, false, true, 0, 0},
		{`é`, false, true, 0, 0},
		{`\d+-\d`, false, false, 1, 1},             // the edge byte of \d+ only
		{`[0-9]{2}-.`, false, false, 2, 0},         // . may be a wider rune
		{`(?i)[a-z]-k`, false, false, 0, 0},        // [a-z] folds to U+212A, k too
		{`x-\d|y`, false, false, 0, 0},             // an alternation
		{`^\d-\d`, false, false, 1, 1},             // an assertion
		{`(\d-\d)+`, false, false, 1, 1},           // a repeat
		{`\d[^a]-[\d]{2}`, false, false, 0, 2},     // [^a] has wider runes
		{`aa-\dbbbb-\dc`, false, true, 4, 2},       // the rarer literal wins; all is checked
		{`\d{3}`, false, false, 0, 0},              // no literal at all
		{`[0-9]-[0-9]`, false, true, 1, 1},         // as in the reference test
		{`(?s)[\x00-\x7f]-x`, false, true, 1, 0},   // a class with '\n' loses it
		{`[\x00-\x7f]+-x`, false, false, 1, 0},     // edge byte
		{`(?:)[0-9](?:)-[0-9]`, false, true, 1, 1}, // empty parts
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			m, err := Compile(Options{Query: tt.query, Regex: true, IgnoreCase: tt.ignoreCase})
			require.NoError(t, err)
			assert.Equal(t, tt.exact, m.exact, "exact")
			if len(m.finders) == 1 {
				assert.Equal(t, []int{tt.lead, tt.trail}, []int{len(m.finders[0].before), len(m.finders[0].after)})
			}
			for _, ml := range []bool{false, true} {
				o := Options{Query: tt.query, Regex: true, IgnoreCase: tt.ignoreCase, Multiline: ml}
				checkAgainstReference(t, o, []byte(fixedWidthText))
			}
		})
	}
}

// fixedWidthText has dates and near misses at line edges, next to invalid UTF-8, CR and runes
// that fold to ASCII letters.
const fixedWidthText = "2024-01-02\n2024-01-0\n12024-01-023 x2024-1-02\r\n\xff2024-01-02\xff\n" +
	"aa-1bbbb-2c aa-1bbbb-2 12:34 1:23 f( (x X1Y x1\u212a\n-1 1- 1-1-1 \u212a-k k-k\n" +
	"12-\u00e9 12-x 12--\n2024-01-02 2025-12-31\n1-a\n1-x\n"

// raceEnabled is set by race_test.go: allocation counts are meaningless under -race.
var raceEnabled bool
