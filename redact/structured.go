package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// maxBlock bounds a private key block: an unterminated block (truncated output) is
// redacted to the end of the input or this many bytes, whichever comes first.
const maxBlock = 64 << 10

// findPrivateKey replaces a PEM private key block, BEGIN line through the matching END
// line. Any label ending in PRIVATE KEY or PRIVATE KEY BLOCK counts (RSA, EC, DSA,
// OPENSSH, PGP, ENCRYPTED, ...). The block must contain key material (a run of 40 base64
// characters soon after the header), so a mere mention of the header in code or prose
// is kept.
func findPrivateKey(b []byte, start, end int) (int, int, bool) {
	h, ok := pemLabel(b, end)
	if !ok || !hasKeyBody(b[h:min(len(b), h+256)]) {
		return 0, 0, false
	}
	limit := min(len(b), start+maxBlock)
	if e := pemEnd(b[h:limit]); e >= 0 {
		return start, h + e, true
	}
	return start, unterminated(b, limit), true
}

// pemLabel checks that b[i:] is "<label>-----" with a private key label and returns the
// index after the dashes.
func pemLabel(b []byte, i int) (int, bool) {
	n := pemLabelChars.span(b, i, 64)
	if n > 64 || !bytes.HasPrefix(b[i+n:], []byte("-----")) {
		return 0, false
	}
	label := b[i : i+n]
	if !bytes.HasSuffix(label, []byte("PRIVATE KEY")) && !bytes.HasSuffix(label, []byte("PRIVATE KEY BLOCK")) {
		return 0, false
	}
	return i + n + 5, true
}

var pemLabelChars = newCharset("A-Z0-9 ")

// pemEnd returns the index just after the first private key END line in w, or -1.
func pemEnd(w []byte) int {
	const endLine = "-----END "
	off := 0
	for {
		i := bytes.Index(w[off:], []byte(endLine))
		if i < 0 {
			return -1
		}
		j := off + i + len(endLine)
		if e, ok := pemLabel(w, j); ok {
			return e
		}
		off = j
	}
}

// hasKeyBody reports whether w holds a run of 40 base64 characters, as every PEM body
// line but the last does (64 per line; 70 for OpenSSH).
func hasKeyBody(w []byte) bool {
	n := 0
	for _, c := range w {
		if base64std[c] {
			if n++; n >= 40 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// unterminated returns where a block cut at limit ends: limit itself at the end of the
// input, otherwise the end of the line (so the rest of the input does not start inside
// a word, which could make a second redaction differ from the first).
func unterminated(b []byte, limit int) int {
	if limit >= len(b) {
		return len(b)
	}
	if nl := bytes.IndexByte(b[limit:min(len(b), limit+4096)], '\n'); nl >= 0 {
		return limit + nl
	}
	return limit
}

// findGCPKey replaces the value of the "private_key" field of a Google Cloud
// service-account JSON key: "private_key": "-----BEGIN PRIVATE KEY-----\n...".
func findGCPKey(b []byte, _, end int) (int, int, bool) {
	p := skipSpace(b, end)
	if p >= len(b) || b[p] != ':' {
		return 0, 0, false
	}
	p = skipSpace(b, p+1)
	if p >= len(b) || b[p] != '"' || !bytes.HasPrefix(b[p+1:], []byte("-----BEGIN ")) {
		return 0, 0, false
	}
	from := p + 1
	limit := min(len(b), from+maxBlock)
	for i := from; i < limit; i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return from, i, true
		}
	}
	return from, unterminated(b, limit), true
}

// skipSpace returns the index of the first byte at or after i that is not a space or
// tab, looking at most 16 bytes ahead.
func skipSpace(b []byte, i int) int {
	for n := 0; i < len(b) && n < 16 && (b[i] == ' ' || b[i] == '\t'); n++ {
		i++
	}
	return i
}

// maxJWTSegment bounds the header and payload decoded at one candidate.
const maxJWTSegment = 8 << 10

// findJWT matches header.payload.signature where header and payload are base64url
// encodings of JSON objects (so both start with "eyJ", the encoding of `{"`). Decoding
// both is what separates a token from any dotted base64 string.
func findJWT(b []byte, start, _ int) (int, int, bool) {
	if start > 0 && (base64url[b[start-1]] || b[start-1] == '.') {
		return 0, 0, false
	}
	h, ok := jwtSegment(b, start)
	if !ok || h >= len(b) || b[h] != '.' || !bytes.HasPrefix(b[h+1:], []byte("eyJ")) {
		return 0, 0, false
	}
	p, ok := jwtSegment(b, h+1)
	if !ok || p >= len(b) || b[p] != '.' {
		return 0, 0, false
	}
	s := p + 1 + base64url.span(b, p+1, 4096)
	if s-p-1 > 4096 {
		return 0, 0, false
	}
	return start, s, true
}

// jwtSegment checks that b[i:] starts with a base64url JSON object (optionally padded)
// and returns the index after it.
func jwtSegment(b []byte, i int) (int, bool) {
	n := base64url.span(b, i, maxJWTSegment)
	if n < 8 || n > maxJWTSegment {
		return 0, false
	}
	seg := b[i : i+n]
	e := i + n
	for e < len(b) && e-i-n < 2 && b[e] == '=' {
		e++
	}
	var buf [1024]byte
	dec := buf[:0]
	if base64.RawURLEncoding.DecodedLen(n) > len(buf) {
		dec = make([]byte, 0, base64.RawURLEncoding.DecodedLen(n))
	}
	dec, err := base64.RawURLEncoding.AppendDecode(dec, seg)
	dec = bytes.TrimSpace(dec)
	if err != nil || len(dec) < 2 || dec[0] != '{' || !json.Valid(dec) {
		return 0, false
	}
	return e, true
}

// findURLPassword replaces the password of scheme://user:password@host, keeping the
// scheme, the user and the host. Documentation passwords (password, pass, secret, ***,
// $VAR, <...>) and URLs on documentation hosts (example.com, *.test) are kept.
func findURLPassword(b []byte, start, end int) (int, int, bool) {
	// scheme: a letter then letters, digits, + . -
	s := start
	for s > 0 && start-s < 32 && schemeChars[b[s-1]] {
		s--
	}
	for s < start && !isLetter(b[s]) {
		s++
	}
	if s == start || (s > 0 && isAlnum(b[s-1])) {
		return 0, 0, false
	}
	// authority: up to the first / ? # or a byte that cannot be in a URL
	a := end
	at := -1
	for a < len(b) && a-end < 512 && !authorityStop[b[a]] {
		if b[a] == '@' {
			at = a
		}
		a++
	}
	if at < 0 || at+1 >= len(b) || !(isAlnum(b[at+1]) || b[at+1] == '[') {
		return 0, 0, false
	}
	colon := bytes.IndexByte(b[end:at], ':')
	if colon < 0 {
		return 0, 0, false
	}
	from := end + colon + 1
	pw := b[from:at]
	if len(pw) < 3 || isPlaceholder(pw) || urlPlaceholder(pw) || exampleHost(b[at+1:a]) {
		return 0, 0, false
	}
	return from, at, true
}

var (
	schemeChars   = newCharset("A-Za-z0-9+.-")
	authorityStop = newCharset("/?#\"'`<>\\ \t\r\n\x00")
)

// urlPlaceholder reports URL passwords that are documentation: {password}, [pass].
func urlPlaceholder(pw []byte) bool {
	return pw[0] == '{' || pw[0] == '[' || pw[0] == '('
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return lower(c) >= 'a' && lower(c) <= 'z' }

// exampleHost reports whether the host of an authority (host[:port]) is reserved for
// documentation by RFC 2606: example.com, example.net, example.org and the .example,
// .test and .invalid top-level domains.
func exampleHost(hostport []byte) bool {
	host := hostport
	if i := bytes.IndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	var buf [64]byte
	h := string(lowerASCII(buf[:0], host))
	for _, d := range []string{"example.com", "example.net", "example.org", "example", "test", "invalid"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	return false
}
