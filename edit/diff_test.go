package edit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiff(t *testing.T) {
	cases := []struct {
		name, before, after string
		added, removed      int
		has, hasNot         []string
	}{
		{name: "counts_lines", before: "a\nb\nc\n", after: "a\nB\nc\nd\n", added: 2, removed: 1,
			has: []string{"--- f.go\n+++ f.go\n", "-b\n", "+B\n", "+d\n"}},
		{name: "crlf_and_bom_are_not_shown", before: "\ufeffa\r\nb\r\n", after: "\ufeffa\r\nc\r\n", added: 1, removed: 1,
			has: []string{"-b\n", "+c\n"}, hasNot: []string{"\r", bom}},
		{name: "missing_final_newline_is_marked", before: "a\nb", after: "a\nc", added: 1, removed: 1,
			has: []string{"\\ No newline at end of file"}},
		{name: "new_file", before: "", after: "x\n", added: 1, has: []string{"@@ -0,0 +1 @@\n+x\n"}},
		{name: "no_change", before: "same\n", after: "same\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, added, removed := Diff("f.go", c.before, c.after)
			assert.Equal(t, c.added, added)
			assert.Equal(t, c.removed, removed)
			for _, s := range c.has {
				assert.Contains(t, d, s)
			}
			for _, s := range c.hasNot {
				assert.NotContains(t, d, s)
			}
			if c.before == c.after {
				assert.Empty(t, d)
			}
		})
	}
}

func TestRegion(t *testing.T) {
	var ten strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&ten, "l%d\n", i)
	}
	numbered := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "%6d\tl%d\n", i, i)
		}
		return b.String()
	}
	cases := []struct {
		name    string
		content string
		spans   []Span
		context int
		want    string
	}{
		{"context_around_one_edit", ten.String(), []Span{{5, 5}}, 2, numbered(3, 7)},
		{"overlapping_contexts_merge", ten.String(), []Span{{4, 4}, {2, 2}}, 1, numbered(1, 5)},
		{"distant_edits_are_separated", ten.String(), []Span{{2, 2}, {8, 8}}, 1, numbered(1, 3) + "...\n" + numbered(7, 9)},
		{"deletion_shows_its_neighbours", ten.String(), []Span{{3, 2}}, 1, numbered(2, 3)},
		{"multi_line_edit", ten.String(), []Span{{9, 10}}, 1, numbered(8, 10)},
		{"out_of_range_is_clamped", "l1\nl2\nl3\n", []Span{{50, 60}}, 1, numbered(3, 3)},
		{"crlf_and_bom_not_shown", "\ufeffl1\r\nl2\r\n", []Span{{1, 1}}, 1, numbered(1, 2)},
		{"empty_content", "", []Span{{1, 1}}, 3, ""},
		{"no_spans", ten.String(), nil, 3, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Region(c.content, c.spans, c.context))
		})
	}
}

func TestRegionLimits(t *testing.T) {
	long := strings.Repeat("é", maxRegionLineRunes+5)
	got := Region(long, []Span{{1, 1}}, 0)
	assert.Equal(t, "     1\t"+strings.Repeat("é", maxRegionLineRunes)+" … [line cut: 5 more characters]\n", got)

	many := strings.Repeat("x\n", 2*maxRegionLines)
	got = Region(many, []Span{{1, 2 * maxRegionLines}}, 0)
	assert.Equal(t, maxRegionLines+1, strings.Count(got, "\n"))
	assert.True(t, strings.HasSuffix(got, "... (more edited lines not shown)\n"))
}

// TestDiffWindowMatchesWholeFileDiff checks that diffing only the changed window gives the
// same unified diff as go-udiff over the whole files, line numbers included, for edits at the
// start, middle and end of a file, with and without final newlines.
func TestDiffWindowMatchesWholeFileDiff(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	base := b.String()
	cases := map[string]func(string) string{
		"change first line":    func(s string) string { return strings.Replace(s, "line 1\n", "LINE 1\n", 1) },
		"change a middle one":  func(s string) string { return strings.Replace(s, "line 150\n", "line 150 changed\n", 1) },
		"insert in the middle": func(s string) string { return strings.Replace(s, "line 99\n", "line 99\nnew a\nnew b\n", 1) },
		"delete lines":         func(s string) string { return strings.Replace(s, "line 20\nline 21\nline 22\n", "", 1) },
		"change last line":     func(s string) string { return strings.Replace(s, "line 300\n", "line 300!\n", 1) },
		"drop final newline":   func(s string) string { return strings.TrimSuffix(s, "\n") },
		"append at the end":    func(s string) string { return s + "tail\n" },
		"two far apart edits": func(s string) string {
			return strings.Replace(strings.Replace(s, "line 10\n", "ten\n", 1), "line 290\n", "x\n", 1)
		},
		"change inside a line": func(s string) string { return strings.Replace(s, "line 77\n", "line 7x7\n", 1) },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			after := change(base)
			want, err := udiff.ToUnifiedDiff("f", "f", base, udiff.Lines(base, after), udiff.DefaultContextLines)
			require.NoError(t, err)
			got, added, removed := Diff("f", base, after)
			assert.Equal(t, want.String(), got)
			assert.Equal(t, strings.Count(got, "\n+")-strings.Count(got, "\n+++"), added)
			assert.Equal(t, strings.Count(got, "\n-")-strings.Count(got, "\n---"), removed)
		})
	}
}

func TestChanged(t *testing.T) {
	cases := []struct {
		name, before, after string
		want                Span
		ok                  bool
	}{
		{"equal", "a\nb\n", "a\nb\n", Span{}, false},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", Span{2, 2}, true},
		{"two far apart", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", Span{1, 5}, true},
		{"inserted lines", "a\nc\n", "a\nb1\nb2\nc\n", Span{2, 3}, true},
		{"deleted line", "a\nb\nc\n", "a\nc\n", Span{2, 1}, true},
		{"last line without newline", "a\nb", "a\nbb", Span{2, 2}, true},
		{"crlf shown as lf", "a\r\nb\r\n", "a\r\nx\r\n", Span{2, 2}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Changed(c.before, c.after)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.want, got)
		})
	}
}
