package redact

import (
	"bytes"
	"math"
)

// entropy returns the Shannon entropy of b in bits per byte. Random credentials (base62,
// base64, hex) score 3.5 to 6; words, identifiers and repeated characters score lower,
// which is what lets the generic assignment rules tell "hunter2-Xk9q" from "changeme".
func entropy(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	n := float64(len(b))
	h := 0.0
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// charClasses counts how many of lower-case letters, upper-case letters, digits and other
// bytes occur in b. Generated secrets almost always mix at least two.
func charClasses(b []byte) int {
	var lower, upper, digit, other int
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			lower = 1
		case 'A' <= c && c <= 'Z':
			upper = 1
		case '0' <= c && c <= '9':
			digit = 1
		default:
			other = 1
		}
	}
	return lower + upper + digit + other
}

// oneChar reports whether b is a single byte repeated ("xxxxxxxx", "********").
func oneChar(b []byte) bool {
	for _, c := range b {
		if c != b[0] {
			return false
		}
	}
	return true
}

// placeholderWords are values, compared case-insensitively, that stand for a secret
// without being one.
var placeholderWords = []string{
	"null", "nil", "none", "true", "false", "undefined", "empty", "string",
	"password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key",
	"required", "optional", "hidden", "masked", "unset", "default",
}

// placeholderParts are substrings, matched case-insensitively, that mark a documentation
// or template value: "your_token_here", "<password>", "${DB_PASSWORD}", "{{ .Secret }}".
var placeholderParts = []string{
	"example", "changeme", "change_me", "change-me", "placeholder", "your_", "your-",
	"yourpass", "yourtoken", "yoursecret", "redacted", "xxxx", "****", "....", "dummy",
	"<", ">", "${", "{{", "}}", "$(", "%s", "%v", "%(",
}

// isPlaceholder reports whether v is a template, documentation placeholder or a keyword
// rather than a credential. It also recognises this package's own replacement marker, so
// redacting twice changes nothing.
func isPlaceholder(v []byte) bool {
	if len(v) == 0 || oneChar(v) || bytes.Contains(v, []byte(markerPrefix)) {
		return true
	}
	if v[0] == '$' || v[0] == '%' {
		return true // $VAR, $(cmd), %s, %(name)s
	}
	for _, w := range placeholderWords {
		if bytes.EqualFold(v, []byte(w)) {
			return true
		}
	}
	var buf [64]byte
	lv := lowerASCII(buf[:0], v)
	for _, p := range placeholderParts {
		if bytes.Contains(lv, []byte(p)) {
			return true
		}
	}
	return false
}

// lowerASCII appends b with ASCII letters lower-cased to dst.
func lowerASCII(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, lower(c))
	}
	return dst
}

// lower folds one ASCII letter to lower case.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
