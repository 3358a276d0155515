package edit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzApply checks Apply against strings.Replace where jido's rules make them agree, and
// for every input that it does not panic and leaves the lines outside its reported edits
// as they were.
func FuzzApply(f *testing.F) {
	for _, c := range corpus {
		f.Add(c.content, c.req.OldString, c.req.NewString, c.req.ReplaceAll)
	}
	f.Fuzz(func(t *testing.T, content, old, repl string, all bool) {
		res, err := Apply(content, Request{OldString: old, NewString: repl, ReplaceAll: all})
		if err == nil {
			checkUntouched(t, content, res)
			Region(res.Content, res.Edits, 3)
		} else {
			var ee *Error
			require.ErrorAs(t, err, &ee)
			require.NotEmpty(t, ee.Message)
		}

		want, count, ok := replaceOracle(content, old, repl, all)
		if !ok {
			return
		}
		if want == content {
			var ee *Error
			require.ErrorAs(t, err, &ee)
			require.Equal(t, NoChange, ee.Kind)
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, res.Content)
		require.Equal(t, strategyExact, res.Strategy)
		require.Equal(t, count, res.Replacements)
	})
}

// replaceOracle returns what strings.Replace (strings.ReplaceAll with all) makes of content,
// and how many places it replaces, when Apply must give the same: old occurs exactly once
// (counting overlapping occurrences), or at least once with all, and none of jido's
// documented adjustments applies (CRLF and BOM handling, the deletion of whole lines, the
// final newline kept when a replacement reaches the end of the file).
func replaceOracle(content, old, repl string, all bool) (string, int, bool) {
	if old == "" || old == repl || strings.ContainsAny(content+old+repl, "\r\ufeff") {
		return "", 0, false
	}
	var starts []int
	for i := 0; ; i++ {
		k := strings.Index(content[i:], old)
		if k < 0 {
			break
		}
		i += k
		if len(starts) == 0 || !all || i >= starts[len(starts)-1]+len(old) {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 || (!all && len(starts) > 1) {
		return "", 0, false
	}
	for _, s := range starts {
		e := s + len(old)
		wholeLines := (s == 0 || content[s-1] == '\n') && (e == len(content) || content[e] == '\n') && content[e-1] != '\n'
		if repl == "" && wholeLines {
			return "", 0, false
		}
	}
	want := strings.Replace(content, old, repl, len(starts))
	last := starts[len(starts)-1] + len(old)
	if last == len(content) && want != "" && strings.HasSuffix(want, "\n") != strings.HasSuffix(content, "\n") {
		return "", 0, false
	}
	return want, len(starts), true
}
