package search

import (
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// hit is what the reference and Search are compared on.
type hit struct {
	Line, EndLine, Column int
	MatchText             string
}

func (h hit) String() string {
	return fmt.Sprintf("%d-%d:%d:%q", h.Line, h.EndLine, h.Column, h.MatchText)
}

// referencePattern is the query as a plain Go regexp with rg's flags: ^ and $ at line ends.
func referencePattern(o Options) string {
	p := o.Query
	if !o.Regex {
		p = regexp.QuoteMeta(p)
	}
	if o.IgnoreCase {
		return "(?mi)" + p
	}
	return "(?m)" + p
}

// reference is the obvious slow search. Without Multiline: split the buffer into lines
// (a final '\n' ends the last line, it does not start another) and take each line's leftmost
// match. With Multiline: regexp.FindAllIndex over the buffer, matches starting on a line an
// earlier match of the group reached merged into it.
func reference(t testing.TB, o Options, data []byte) []hit {
	re := regexp.MustCompile(referencePattern(o))
	if !o.Multiline {
		var out []hit
		text := string(data)
		if text == "" {
			return nil
		}
		for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if l := re.FindStringIndex(line); l != nil {
				out = append(out, hit{i + 1, i + 1, l[0] + 1, strings.ToValidUTF8(line[l[0]:l[1]], "\uFFFD")})
			}
		}
		return out
	}
	lineOf := func(i int) int { return strings.Count(string(data[:i]), "\n") + 1 }
	var out []hit
	groupEnd := -1 // last line of the open group
	for _, l := range re.FindAllIndex(data, -1) {
		s, e := l[0], l[1]
		if s == len(data) && len(data) > 0 && data[len(data)-1] == '\n' {
			break // the non-line after the final '\n'
		}
		if len(data) == 0 {
			break
		}
		first, last := lineOf(s), lineOf(max(s, e-1))
		if len(out) > 0 && first <= groupEnd {
			groupEnd = max(groupEnd, last)
			out[len(out)-1].EndLine = groupEnd
			continue
		}
		ls := strings.LastIndexByte(string(data[:s]), '\n') + 1
		out = append(out, hit{first, last, s - ls + 1, strings.ToValidUTF8(string(data[s:e]), "\uFFFD")})
		groupEnd = last
	}
	return out
}

// searchHits runs Search with no line cut.
func searchHits(m *Matcher, data []byte) []hit {
	var out []hit
	m.Search(data, func(mt Match) bool {
		out = append(out, hit{mt.Line, mt.EndLine, mt.Column, mt.MatchText})
		return true
	})
	return out
}

// checkAgainstReference compiles o and asserts Search, Count and Matches agree with reference.
// It returns false when o is a query Compile rightly refuses.
func checkAgainstReference(t testing.TB, o Options, data []byte) bool {
	o.MaxLineBytes = 1 << 30
	m, err := Compile(o)
	if _, refErr := regexp.Compile(referencePattern(o)); refErr != nil {
		require.Error(t, err, "%#v: Go's regexp refuses it: %v", o, refErr)
	}
	if err != nil {
		var e *Error
		require.True(t, errors.As(err, &e), "%v", err)
		_, refErr := regexp.Compile(referencePattern(o))
		if refErr == nil {
			// Only a line break in a single-line query is refused where Go's regexp is not.
			require.False(t, o.Multiline, "%#v: %v", o, err)
			require.Equal(t, reasonLineBreak, e.Reason, "%#v", o)
		}
		return false
	}
	want := reference(t, o, data)
	got := searchHits(m, data)
	require.Equal(t, want, got, "options %#v\ndata %q", o, data)
	require.Equal(t, len(want), m.Count(data, 0), "Count %#v %q", o, data)
	require.Equal(t, min(len(want), 2), m.Count(data, 2), "Count limit %#v %q", o, data)
	require.Equal(t, len(want) > 0, m.Matches(data), "Matches %#v %q", o, data)
	return true
}

// pieces make up generated buffers: code-like words, case variants, the runes that fold to
// ASCII (Kelvin sign, long s), other UTF-8, invalid bytes, CR, whitespace.
var pieces = []string{
	"foo", "Foo", "FOO", "bar", "func", "main", "Main", "ctx", "context", "(", ")", "{", "}",
	"kelvin", "KELVIN", "\u212a", "ſ", "s", "S", "k", "sk", "é", "É", "ü", "straße", "→", "日本",
	"\xff", "\xc3", "\r", " ", " ", " ", "\t", "0", "42", "2024-01-02", "-", "_", ".", "a", "b", "ab",
	"\uFFFD", "//", "TODO", "x",
}

func randomBuffer(r *rand.Rand) []byte {
	var b strings.Builder
	lines := r.Intn(12)
	for i := 0; i < lines; i++ {
		n := r.Intn(8)
		if r.Intn(10) == 0 {
			n = 100 + r.Intn(400) // a long line
		}
		for j := 0; j < n; j++ {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		if i < lines-1 || r.Intn(2) == 0 {
			if r.Intn(5) == 0 {
				b.WriteString("\r")
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// regexps are queries with and without required literals, anchors, classes that contain
// '\n', empty matches, alternations and folding.
var regexps = []string{
	`foo`, `fo+`, `\w+`, `^`, `$`, `^$`, `^\s*$`, `x*`, `foo|bar`, `TODO|FIXME|x`, `(?i)k`, `(?i)kelvin`,
	`[a-z]+\d`, `\bfunc\b`, `a\sb`, `[^x]y`, `\Afoo`, `o\z`, `(foo)+bar`, `K`, `ſ`, `É`, `\x{FFFD}`,
	`[0-9]{4}-[0-9]{2}-[0-9]{2}`, `func \w+\(ctx`, `\S+$`, `(?s).o`, `b.`, `\d`, `é+`, `(?i)straSSe`,
	`(?i)É`, `\r$`, `o\r?$`, `(?-m)^f`, `[\s\S]`, `\bo`, `\B`, `(a|ab)(c|bcd)?`, `a\nb`, `\n`, `\s+`,
	`x|\n`, `\A\w`, `\w\z`, `ma(in|x)`, `(?i)ſk`, `\p{Greek}|→`, `.{3,5}`, `(?U)o+`,
	`\d+\.\d+`, `[a-z]-[a-z]`, `(?i)[a-z]x`, `\w\(`, `[é]x`, `[^a]foo[^b]`, `(?i)foo[ks]`, `\(\)|[0-9]-`,
	`\d\d-\d`, `(?i)o[0-9]x`, `[a-f]{2}-[0-9]`, `(\d)\s\d`, `b\s[a-z]`, `-[^\x80-\x{10FFFF}]`,
}

func randomQuery(r *rand.Rand, data []byte) Options {
	o := Options{IgnoreCase: r.Intn(2) == 0, Multiline: r.Intn(4) == 0}
	switch r.Intn(4) {
	case 0: // a literal taken from the buffer, maybe with its case changed
		if len(data) == 0 {
			o.Query = "foo"
			break
		}
		i := r.Intn(len(data))
		q := data[i:min(len(data), i+1+r.Intn(8))]
		if r.Intn(2) == 0 {
			q = []byte(flipCase(r, string(q)))
		}
		o.Query = string(q)
	case 1:
		o.Query = pieces[r.Intn(len(pieces))]
	default:
		o.Regex = true
		o.Query = regexps[r.Intn(len(regexps))]
	}
	return o
}

func flipCase(r *rand.Rand, s string) string {
	var b strings.Builder
	for _, c := range s {
		if r.Intn(2) == 0 {
			c = []rune(strings.ToUpper(string(c)))[0]
		} else {
			c = []rune(strings.ToLower(string(c)))[0]
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestAgainstReference is the property test: random buffers and queries, a fixed seed.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	checked, runs := 0, 20000
	if raceEnabled {
		runs /= 5 // the race detector makes it ten times slower; this is not about races
	}
	for range runs {
		data := randomBuffer(r)
		o := randomQuery(r, data)
		if !utf8.ValidString(o.Query) {
			_, err := Compile(o)
			require.Error(t, err)
			continue
		}
		if checkAgainstReference(t, o, data) {
			checked++
		}
	}
	require.Greater(t, checked, runs*3/4)
}

// TestEveryRegexpOnEveryBuffer runs each listed regexp in every mode over the same buffers.
func TestEveryRegexpOnEveryBuffer(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	buffers := make([][]byte, 40)
	if raceEnabled {
		buffers = buffers[:8]
	}
	for i := range buffers {
		buffers[i] = randomBuffer(r)
	}
	buffers = append(buffers, []byte(""), []byte("\n"), []byte("\n\n"), []byte("foo"), []byte("foo\r\n"), []byte("a\nb\r\n\r\nab"))
	for _, q := range regexps {
		for _, ic := range []bool{false, true} {
			for _, ml := range []bool{false, true} {
				for _, data := range buffers {
					checkAgainstReference(t, Options{Query: q, Regex: true, IgnoreCase: ic, Multiline: ml}, data)
				}
			}
		}
	}
}

// FuzzSearch: Search, Count and Matches agree with the reference in both line modes, and
// nothing panics.
func FuzzSearch(f *testing.F) {
	f.Add([]byte("foo\nbar foo\r\n\u212a ſ\n"), "foo", false, false)
	f.Add([]byte("a\nb\n\nab"), `a\sb`, true, false)
	f.Add([]byte("Kelvin \u212aelvin\n"), "kelvin", false, true)
	f.Add([]byte("x\xffy\n\xc3\n"), `.y|\x{FFFD}`, true, true)
	f.Add([]byte("2024-01-02\n"), `[0-9]{4}-[0-9]{2}`, true, false)
	f.Add([]byte("\n\n"), `^$`, true, false)
	f.Fuzz(func(t *testing.T, data []byte, query string, regex, ignoreCase bool) {
		if len(query) > 64 {
			return // keep regexp compilation cheap
		}
		for _, ml := range []bool{false, true} {
			o := Options{Query: query, Regex: regex, IgnoreCase: ignoreCase, Multiline: ml}
			if query == "" || !utf8.ValidString(query) {
				_, err := Compile(o)
				require.Error(t, err)
				return
			}
			if _, err := regexp.Compile(referencePattern(o)); err != nil {
				_, err := Compile(o)
				require.Error(t, err)
				return
			}
			checkAgainstReference(t, o, data)
		}
	})
}
