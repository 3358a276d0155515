package edit

import (
	"regexp"
	"strings"
	"sync"
)

// A normalization brings old_string and new_string to what the model meant, the same way
// for both, when neither matched as written: it is tried after every strategy and
// unescape, and reported as a prefix of the strategy that then matched.
type normalization struct {
	name string
	// apply returns both strings normalized, or ok false when they do not both have the
	// form it undoes.
	apply func(old, repl string) (string, string, bool)
}

// normalizations are tried in this order.
var normalizations = []normalization{
	{"blank-lines", dropSharedBlankLines},
	{"code-fence", dropCodeFences},
}

// dropSharedBlankLines drops the blank lines that both strings start with, or both end
// with, when they are the same: models add them around a block, to old_string and
// new_string alike.
func dropSharedBlankLines(old, repl string) (string, string, bool) {
	lead := leadingBlankLines(old)
	if lead != leadingBlankLines(repl) {
		lead = "" // not the same blank lines: what they change is part of the edit
	}
	old, repl = old[len(lead):], repl[len(lead):]
	trail := trailingBlankLines(old)
	if trail != trailingBlankLines(repl) {
		trail = ""
	}
	if lead == "" && trail == "" {
		return "", "", false
	}
	return old[:len(old)-len(trail)], repl[:len(repl)-len(trail)], true
}

// leadingBlankLines is the run of whole blank lines that s starts with.
func leadingBlankLines(s string) string {
	end := 0
	for {
		k := strings.IndexByte(s[end:], '\n')
		if k < 0 || strings.TrimSpace(s[end:end+k]) != "" {
			return s[:end]
		}
		end += k + 1
	}
}

// trailingBlankLines is the run of blank lines after s's last line break that follows
// text: in "a\n\n\n", the last two line breaks.
func trailingBlankLines(s string) string {
	last := strings.LastIndexFunc(s, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' })
	if last < 0 {
		return ""
	}
	k := strings.IndexByte(s[last:], '\n')
	if k < 0 {
		return ""
	}
	rest := s[last+k+1:]
	if !strings.Contains(rest, "\n") {
		return ""
	}
	return rest[:strings.LastIndexByte(rest, '\n')+1]
}

// fence is a Markdown code fence around a whole string: ```lang, the text, ```.
var fence = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?s)^[ \t]*(```+|~~~+)[A-Za-z0-9_+.#-]*[ \t]*\n(.*?)\n?[ \t]*(```+|~~~+)[ \t]*\n?$")
})

// dropCodeFences drops a code fence that wraps both strings, as aider does: models copy
// the fence of their own answer into old_string and new_string.
func dropCodeFences(old, repl string) (string, string, bool) {
	o, r := fence().FindStringSubmatch(old), fence().FindStringSubmatch(repl)
	if o == nil || r == nil || o[1] != o[3] || r[1] != r[3] {
		return "", "", false // RE2 has no backreference: the closing fence is checked here
	}
	return o[2], r[2], true
}
