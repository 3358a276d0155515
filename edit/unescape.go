package edit

import "strings"

// escapes are the backslash sequences that a model over-escapes (it writes the two
// characters \n where the file has a line break), and the character each stands for.
var escapes = map[byte]byte{'n': '\n', 't': '\t', '"': '"', '\'': '\'', '`': '`', '$': '$', '\\': '\\'}

// unescaped is old_string and new_string with backslash sequences undone.
type unescaped struct {
	old, repl string
}

// unescapings returns the ways worth trying to undo over-escaping in old_string: every
// sequence, then only those the file does not hold literally (so that an old_string
// mixing the file's own \n, inside a string literal, with over-escaped quotes can match).
// It returns nothing for an old_string without such sequences. Only an old_string that
// matched nowhere as it is gets here, so its sequences are not in the file where they
// would match.
//
// new_string is unescaped all or nothing: fully (every kind the file does not hold
// literally, those old_string lacks included) when it is over-escaped as consistently as
// old_string was, else not at all; unescaping it only in part (its \n but not its \")
// would write neither what the model meant nor what it wrote.
func unescapings(body, old, repl string) []unescaped {
	all, absent := map[byte]bool{}, map[byte]bool{}
	for i := 0; i+1 < len(old); i++ {
		if old[i] != '\\' {
			continue
		}
		if c := old[i+1]; escapes[c] != 0 && !all[c] {
			all[c] = true
			absent[c] = !strings.Contains(body, old[i:i+2])
		}
		i++ // a pair is one unit: \\n is a backslash and an n
	}
	var out []unescaped
	for _, use := range []map[byte]bool{all, absent} {
		u := unescaped{unescape(old, use), repl}
		if overEscaped(old, repl, use) {
			u.repl = unescape(repl, replKinds(body, use, all))
		}
		if u.old != old && (len(out) == 0 || u.old != out[0].old) {
			out = append(out, u)
		}
	}
	return out
}

// overEscaped reports whether repl is over-escaped as old is: each character old wrote
// only as an escape (one of use), repl does not write raw either.
func overEscaped(old, repl string, use map[byte]bool) bool {
	for k, on := range use {
		if on && k != '\\' && !hasRaw(old, escapes[k]) && hasRaw(repl, escapes[k]) {
			return false
		}
	}
	return true
}

// hasRaw reports whether s holds c outside a backslash sequence.
func hasRaw(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && escapes[s[i+1]] != 0:
			i++
		case s[i] == c:
			return true
		}
	}
	return false
}

// replKinds are the escape kinds undone in new_string: those used for old_string, and the
// kinds old_string lacks whose sequence the file does not hold literally.
func replKinds(body string, use, inOld map[byte]bool) map[byte]bool {
	kinds := map[byte]bool{}
	for k := range escapes {
		kinds[k] = use[k] || (!inOld[k] && !strings.Contains(body, `\`+string(k)))
	}
	return kinds
}

// unescape replaces the backslash sequences of s whose character is in use.
func unescape(s string, use map[byte]bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && escapes[s[i+1]] != 0 {
			if use[s[i+1]] {
				b.WriteByte(escapes[s[i+1]])
			} else {
				b.WriteString(s[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
