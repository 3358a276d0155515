package edit

import (
	"regexp"
	"strings"
	"sync"
)

// commentMarks are trimmed from a line before it is checked for a placeholder.
const commentMarks = " \t/#*;-<>!{}"

// Placeholders, as left of a line once its comment marks are trimmed: with an ellipsis
// ("... existing code ...", "rest of methods ...", "... 20 more lines") or a stand-in
// phrase without one ("rest unchanged", "existing code here").
var (
	elided = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(\.\.\.|…)?\s*(rest|remaining|remainder|existing|other|previous|more|same|unchanged|omitted|\d+ more)\b[\w ,]{0,40}?\s*(\.\.\.|…)?$`)
	})
	standIn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(the )?(rest|remainder)( of( the)? \w+( \w+)?)? (unchanged|remains( the same| unchanged)?|as before|here|omitted)$|^existing (code|content|implementation)( here| unchanged)?$|^(code|content|implementation) (unchanged|omitted)$|^unchanged$`)
	})
)

// placeholder reports whether line stands for lines left out rather than being code: a
// comment such as "// ... existing code ..." or "# rest unchanged", or a bare "..." when
// bare is set (in Python a bare "..." is a statement).
func placeholder(line string, bare bool) bool {
	trimmed := strings.TrimSpace(line)
	t := strings.Trim(trimmed, commentMarks)
	comment := t != trimmed
	ellipsis := strings.Contains(t, "...") || strings.Contains(t, "…")
	switch {
	case t == "..." || t == "…":
		return comment || bare
	case t == "" || !comment && !ellipsis:
		return false // code, or a sentence
	case ellipsis:
		return elided().MatchString(t)
	}
	return standIn().MatchString(t)
}

// checkElision refuses a new_string that leaves out code behind a placeholder line that
// old_string does not have: edits replace text literally, so the code would be deleted.
// A bare "..." counts only when new_string has at least two fewer non-blank lines.
func checkElision(old, repl string) error {
	olds := map[string]bool{}
	for l := range strings.SplitSeq(old, "\n") {
		olds[strings.TrimSpace(l)] = true
	}
	bare := nonBlankLines(repl)+2 <= nonBlankLines(old)
	for i, l := range strings.Split(repl, "\n") {
		if !olds[strings.TrimSpace(l)] && placeholder(l, bare) {
			return errElided(i+1, strings.TrimSpace(l))
		}
	}
	return nil
}

// nonBlankLines counts the lines of s with text.
func nonBlankLines(s string) int {
	n := 0
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}
