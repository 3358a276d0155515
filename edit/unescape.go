package edit

import "strings"

// escapes are the backslash sequences that a model over-escapes (it writes the two
// characters \n where the file has a line break), and the character each stands for.
var escapes = map[byte]byte{'n': '\n', 't': '\t', '"': '"', '\'': '\'', '\\': '\\'}

// unescaped is old_string and new_string with backslash sequences undone.
type unescaped struct {
	old, repl string
}

// unescapings returns the ways worth trying to undo over-escaping in old_string, applied
// alike to new_string: every sequence, then only those the file does not hold literally (so
// that an old_string mixing the file's own \n, inside a string literal, with over-escaped
// quotes can match). It returns nothing for an old_string without such sequences. Only an
// old_string that matched nowhere as it is gets here, so its sequences are not in the file
// where they would match.
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
		u := unescaped{unescape(old, use), unescape(repl, use)}
		if u.old != old && (len(out) == 0 || u.old != out[0].old) {
			out = append(out, u)
		}
	}
	return out
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
