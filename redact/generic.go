package redact

import (
	"bytes"
)

// keySuffixes classify an assignment by how its key ends, once lower-cased and stripped
// of '_', '-' and '.': "DB_PASSWORD", "client-secret", "spring.datasource.password".
// The first suffix that matches wins, so the longer, more specific ones come first.
var keySuffixes = []struct{ suffix, rule string }{
	{"secretaccesskey", "aws-secret-access-key"},
	{"privatekey", "generic-private-key"},
	{"apikey", "generic-api-key"},
	{"secretkey", "generic-secret"},
	{"secret", "generic-secret"},
	{"password", "generic-password"},
	{"passwd", "generic-password"},
	{"pwd", "generic-password"},
	{"token", "generic-token"},
}

// maxKey and maxValue bound the key and the value of an assignment.
const (
	maxKey   = 64
	maxValue = 1024
)

// assignment returns the rule that replaces the value assigned to a key whose name
// ends as keySuffixes maps to name; keywords are the prefilter (a substring of every
// such key).
func assignment(name string, keywords ...string) *Rule {
	return &Rule{Name: name, keywords: keywords, find: func(b []byte, start, end int) (int, int, bool) {
		return findAssignment(b, start, end, name)
	}}
}

// findAssignment finds the key around the keyword b[start:end], checks that it belongs
// to rule and is assigned a value, and returns the value when it looks like a secret.
func findAssignment(b []byte, start, end int, rule string) (int, int, bool) {
	ks, ke := start, end
	for ks > 0 && end-ks < maxKey && keyChars[b[ks-1]] {
		ks--
	}
	for ke < len(b) && ke-start < maxKey && keyChars[b[ke]] {
		ke++
	}
	if ke-ks > maxKey || keyRule(b[ks:ke]) != rule {
		return 0, 0, false
	}
	from, to, quoted, ok := assignedValue(b, ks, ke)
	if !ok {
		return 0, 0, false
	}
	v := b[from:to]
	secret := looksSecret(v, rule)
	if !secret && rule == "generic-password" && configLine(b, ks, from, to, quoted) {
		secret = looksPassword(v)
	}
	if !secret || (!quoted && looksLikeCode(v) && !envAssignment(b, ks, ke, from)) {
		return 0, 0, false
	}
	if rule == "generic-password" && (v[0] == '/' || v[0] == '~' || v[0] == '.') {
		return 0, 0, false // PWD=/home/user is a directory
	}
	return from, to, true
}

var keyChars = newCharset("A-Za-z0-9_.-")

// keyRule returns the rule a key name belongs to, or "".
func keyRule(key []byte) string {
	var buf [maxKey]byte
	k := buf[:0]
	for _, c := range key {
		if c != '_' && c != '-' && c != '.' {
			k = append(k, lower(c))
		}
	}
	for _, s := range keySuffixes {
		if bytes.HasSuffix(k, []byte(s.suffix)) {
			return s.rule
		}
	}
	return ""
}

// quotes a key or value may be enclosed in, the escaped ones first: a JSON document
// inside a string literal writes {\"password\": \"...\"}.
var quotes = []string{`\"`, `\'`, `"`, `'`, "`"}

// quoteAt returns the quote that starts at b[i:], or "".
func quoteAt(b []byte, i int) string {
	for _, q := range quotes {
		if bytes.HasPrefix(b[i:], []byte(q)) {
			return q
		}
	}
	return ""
}

// assignedValue parses what follows the key b[ks:ke]: an optional closing quote, an
// operator (= := : =>, but not == or ::), and a quoted or bare value on the same line;
// after ':' a bare value must follow a blank, as in YAML.
// It returns the value's range without its quotes.
func assignedValue(b []byte, ks, ke int) (from, to int, quoted, ok bool) {
	p, colon := ke, false
	if ks > 0 {
		if b[ks-1] == '\'' || b[ks-1] == '"' || b[ks-1] == '`' {
			q := b[ks-1 : ks]
			if ks > 1 && b[ks-2] == '\\' {
				q = b[ks-2 : ks]
			}
			if !bytes.HasPrefix(b[p:], q) {
				return 0, 0, false, false
			}
			p += len(q)
		}
	}
	p = skipSpace(b, p)
	switch {
	case p+1 < len(b) && (b[p] == ':' && b[p+1] == '=' || b[p] == '=' && b[p+1] == '>'):
		p += 2
	case p+1 < len(b) && b[p] == '=' && b[p+1] != '=' && b[p+1] != '~':
		p++
	case p+1 < len(b) && b[p] == ':' && b[p+1] != ':':
		p++
		colon = true
	default:
		return 0, 0, false, false
	}
	op := p
	p = skipSpace(b, p)
	if p >= len(b) {
		return 0, 0, false, false
	}
	if q := quoteAt(b, p); q != "" {
		from, to, ok = quotedValue(b, p+len(q), q)
		return from, to, true, ok
	}
	if colon && p == op {
		return 0, 0, false, false // "a:b:c" is a format or a list, not YAML's "key: value"
	}
	to = p
	for to < len(b) && to-p <= maxValue && !valueStop[b[to]] {
		to++
	}
	if to == p || to-p > maxValue {
		return 0, 0, false, false
	}
	if to < len(b) && (b[to] == '(' || b[to] == '[' || b[to] == '{') {
		return 0, 0, false, false // a call, index or composite literal: code
	}
	return p, to, false, true
}

// valueStop ends a bare value: blanks, quotes, and punctuation that separates values
// or starts code (calls, indexing) rather than belonging to a credential.
var valueStop = newCharset(" \t\r\n\"'`,;&|()[]{}<>\\\x00")

// quotedValue returns the range of a value from i up to the closing quote q on the same
// line; a backslash escapes the next byte in "..." and '...'.
func quotedValue(b []byte, i int, q string) (int, int, bool) {
	limit := min(len(b), i+maxValue)
	for j := i; j < limit; j++ {
		switch c := b[j]; {
		case c == '\n':
			return 0, 0, false
		case bytes.HasPrefix(b[j:], []byte(q)):
			return i, j, true
		case c == '\\' && len(q) == 1 && q != "`":
			j++
		}
	}
	return 0, 0, false
}

// minEntropy is the least Shannon entropy, in bits per byte, of a generic value. Three
// bits needs at least eight distinct bytes; random base62 of 16 bytes is about 3.8.
// On the Go source tree the threshold alone is a poor filter (without the other checks
// of looksSecret: 23 false positives at 3.0, 19 at 3.5, 0 at 4.0 but no hex secret and
// no password under 16 bytes passes 4.0); with them, any value from 2.0 to 3.5 gives
// the same result, and 3.0 still accepts a 10-character password.
const minEntropy = 3.0

// looksSecret reports whether v, assigned to a key of rule, looks like a credential
// rather than a placeholder, a word or a sentence.
func looksSecret(v []byte, rule string) bool {
	if rule == "aws-secret-access-key" {
		return len(v) == 40 && base64std.span(v, 0, 40) == 40 && !isPlaceholder(v) && entropy(v) >= minEntropy
	}
	return len(v) >= 8 && len(v) <= maxValue &&
		bytes.IndexAny(v, " \t") < 0 &&
		charClasses(v) >= 2 &&
		!isPlaceholder(v) &&
		!namesASecret(v) &&
		!wordLike(v) &&
		entropy(v) >= minEntropy
}

// minPassword is the shortest value a configuration line's password key is taken to hold.
const minPassword = 4

// looksPassword reports whether v, the value of a password key on a configuration line,
// is a password. People choose passwords (hunter2, letmein, a PIN), so the randomness
// looksSecret asks of a generic value does not apply; placeholders and names still do not
// count.
func looksPassword(v []byte) bool {
	return len(v) >= minPassword && len(v) <= maxValue &&
		bytes.IndexAny(v, " \t") < 0 &&
		!isPlaceholder(v) &&
		!namesASecret(v)
}

// configLine reports whether the assignment whose key starts at ks and whose value is
// b[from:to] makes up its whole line, as in .env, YAML, TOML, INI or JSON: only blanks,
// "export ", a list dash or an opening quote before the key, and only the closing quote,
// a comma, blanks and a comment after the value.
func configLine(b []byte, ks, from, to int, quoted bool) bool {
	ls := bytes.LastIndexByte(b[:ks], '\n') + 1
	head := bytes.TrimLeft(b[ls:ks], " \t")
	head = bytes.TrimPrefix(head, []byte("export "))
	head = bytes.TrimPrefix(head, []byte("- "))
	if len(head) > 2 || len(bytes.Trim(head, `"'\`)) > 0 {
		return false
	}
	end := to
	if quoted {
		end += len(quoteAt(b, to))
	}
	for ; end < len(b) && b[end] != '\n'; end++ {
		switch c := b[end]; {
		case c == '#' || bytes.HasPrefix(b[end:], []byte("//")):
			return end > to && (b[end-1] == ' ' || b[end-1] == '\t') // a trailing comment
		case c != ',' && c != ' ' && c != '\t' && c != '\r':
			return false
		}
	}
	return true
}

// envAssignment reports whether the key b[ks:ke] is written as in a .env file or a shell,
// upper case and directly followed by '=' and the value: DB_PASSWORD=letmein holds a
// word, not code.
func envAssignment(b []byte, ks, ke, from int) bool {
	if from != ke+1 || b[ke] != '=' {
		return false
	}
	for _, c := range b[ks:ke] {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// wordLike reports whether v is made of words: no digit, and every part between '-',
// '_', '.' and '/' is lower case, upper case, or camel case (BLOCK-MAPPING-START,
// "text/plain", "HeaderName"). Random letters almost never alternate cases that neatly.
func wordLike(v []byte) bool {
	i := 0
	for i < len(v) {
		j := i
		for j < len(v) && !isWordSep(v[j]) {
			j++
		}
		if !isWord(v[i:j]) {
			return false
		}
		i = j + 1
	}
	return true
}

func isWordSep(c byte) bool { return c == '-' || c == '_' || c == '.' || c == '/' }

// isWord reports whether w is empty, all upper case, or lower-case runs each but the
// first starting with one upper-case letter (word, Word, wordWord, WordWord).
func isWord(w []byte) bool {
	upper := 0
	for _, c := range w {
		if 'A' <= c && c <= 'Z' {
			upper++
		}
	}
	if upper == len(w) {
		return true
	}
	for i, c := range w {
		switch {
		case 'a' <= c && c <= 'z':
		case 'A' <= c && c <= 'Z':
			if i+1 >= len(w) || !('a' <= w[i+1] && w[i+1] <= 'z') {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// secretWords are the words of key names. A value containing one is itself a name
// (testRSA2048PrivateKey, "X-Fake-Connection-Token", "encodeUserPassword") or a
// documentation default ("mysecretpassword"); in a random credential any of them occurs
// with a probability below 1e-3.
var secretWords = []string{"key", "token", "secret", "password", "passwd"}

// namesASecret reports whether v contains one of secretWords, ignoring case.
func namesASecret(v []byte) bool {
	var buf [64]byte
	lv := lowerASCII(buf[:0], v)
	for _, w := range secretWords {
		if bytes.Contains(lv, []byte(w)) {
			return true
		}
	}
	return false
}

// looksLikeCode reports whether a bare value is code rather than a literal: an
// identifier or a selector without a digit (tokenType, req.Password, os.Args), or an
// expression or YAML syntax starting with one of @ * # ! & = : (@ref, *ptr, # comment,
// !tag, &addr). Literal credentials nearly always contain a digit or a symbol.
func looksLikeCode(v []byte) bool {
	if bytes.IndexByte([]byte("@*#!&=:"), v[0]) >= 0 {
		return true
	}
	for _, c := range v {
		if !(isLetter(c) || c == '_' || c == '$' || c == '.') {
			return false
		}
	}
	return true
}
