// Package redact removes credentials from text before it is returned to a language model
// (shell output, file contents, search results). Each secret is replaced by
// "[REDACTED:<rule>]" and the surrounding text is kept, so the model still sees the shape
// of the data: "password=[REDACTED:generic-password]".
//
// Rules of Default, in priority order (when matches overlap, their union is replaced and
// named after the first rule of this list):
//
//   - gcp-service-account-key: the "private_key" field of a service-account JSON file
//   - private-key: a PEM block "-----BEGIN ... PRIVATE KEY( BLOCK)?-----" through its END
//     line; an unterminated block up to the end of the input or 64 KiB
//   - aws-access-key-id: AKIA|ASIA|ABIA|ACCA + 16 upper-case letters or digits
//   - aws-secret-access-key: 40 base64 characters assigned to aws_secret_access_key
//   - azure-storage-account-key: the AccountKey= of a storage connection string
//   - github-token: ghp_|gho_|ghu_|ghs_|ghr_ + 36 or more base62
//   - github-fine-grained-pat: github_pat_ + 82 or more [A-Za-z0-9_]
//   - gitlab-token: glpat- + 20 or more base64url
//   - npm-token: npm_ + 36 base62
//   - pypi-token: pypi-AgEIcHlwaS5vcmc + 50 or more base64url
//   - slack-token: xoxb-, xoxa-, xoxp-, xoxr-, xoxs- + dash-separated base62 groups
//   - slack-webhook: the path of https://hooks.slack.com/services/T.../B.../...
//   - stripe-key: sk_live_, rk_live_, sk_test_, rk_test_ + 24 or more base62
//   - twilio-api-key: SK + 32 lower-case hex digits
//   - sendgrid-api-key: SG. + 22 base64url + . + 43 base64url
//   - anthropic-api-key: sk-ant-api03-..., sk-ant-admin01-...
//   - openai-api-key: sk- + 48 base62 (legacy), sk-proj-, sk-svcacct-, sk-admin- + 20 or more
//   - google-api-key: AIza + 35 base64url (Google Cloud and Gemini keys)
//   - huggingface-token: hf_ + 34 base62 with both letter cases
//   - groq-api-key: gsk_ + 52 base62
//   - replicate-api-token: r8_ + 37 base62
//   - xai-api-key: xai- + 80 base62
//   - jwt: eyJ... . eyJ... . signature, whose first two segments decode to JSON objects
//   - url-credentials: the password of scheme://user:password@host
//   - generic-private-key, generic-api-key, generic-secret, generic-password,
//     generic-token: the value assigned to a key whose name ends in private_key, api_key
//     (apikey), secret (secret_key, client_secret), password (passwd, pwd) or token
//     (access_token, auth_token), in the forms key=value, key: value, "key": "value",
//     KEY="value", export KEY=value, key := "value", key => 'value'; only the value is
//     replaced, and only when it looks random (8+ bytes, 3+ bits of entropy per byte,
//     two character classes, no blanks) and is not a placeholder ($VAR, <...>, ${...},
//     changeme, example, xxxx, null, ...), a name (it contains key, token, secret or
//     password, or is made of words like BLOCK-END) or code (req.Password, getToken(),
//     a bare identifier without digits). A password that is the whole of its line, as
//     in .env, YAML, TOML or JSON (DB_PASSWORD=hunter2, password: "s3cret1"), needs only
//     4+ bytes and no blank: people choose passwords, they do not look random
//
// Token rules require a non-alphanumeric byte on both sides, so a prefix found inside a
// longer word or hex string is not a token.
//
// Cost: every keyword of every rule is compiled into one case-insensitive Aho-Corasick
// automaton, so text without candidates costs one table lookup per byte; a rule's own
// check (hand-written scanner, regexp, base64 and JSON decoding, entropy) runs only at a
// keyword hit, on a bounded window. Nothing is allocated when nothing matches. Text that
// contains secrets is scanned once more after replacement (see Redactor.redact), which
// makes redaction idempotent.
package redact

import (
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// markerPrefix starts every replacement. No rule matches a marker, and an assigned value
// or URL password containing one counts as a placeholder, so markers are never redacted.
const markerPrefix = "[REDACTED:"

// finder checks a keyword hit: b[start:end] is the keyword (exactly as written in the
// rule when the rule is case-sensitive, otherwise in any case). It returns the byte
// range to replace, which need not contain the keyword (an assignment rule replaces the
// value, not the key).
type finder func(b []byte, start, end int) (from, to int, ok bool)

// Rule is one credential format.
type Rule struct {
	Name string // e.g. "aws-access-key-id"; appears in the replacement

	keywords      []string // prefilter: find runs only where one of these occurs
	caseSensitive bool     // keywords must match byte for byte, not just case-folded
	find          finder   // compiled matcher and validator, run at a keyword hit
}

// Redactor applies a rule set; safe for concurrent use. Get one from Default.
type Redactor struct {
	rules []*Rule  // priority order
	names []string // sorted
	ac    *automaton
	kws   []keyword // by automaton keyword id
}

// keyword is one prefilter literal and the rule it triggers.
type keyword struct {
	text  string
	exact bool
	rule  int // index in Redactor.rules, which is also its priority
}

// match is a range to replace and the rule that found it.
type match struct {
	from, to int
	rule     int
}

// newRedactor compiles rules; earlier rules win when matches overlap.
func newRedactor(rules []*Rule) *Redactor {
	r := &Redactor{rules: rules}
	var texts []string
	for i, rl := range rules {
		r.names = append(r.names, rl.Name)
		for _, kw := range rl.keywords {
			r.kws = append(r.kws, keyword{text: kw, exact: rl.caseSensitive, rule: i})
			texts = append(texts, kw)
		}
	}
	sort.Strings(r.names)
	r.ac = newAutomaton(texts)
	return r
}

var defaultRedactor = sync.OnceValue(func() *Redactor { return newRedactor(defaultRules()) })

// Default returns the built-in rule set. The Redactor is shared; it is immutable.
func Default() *Redactor { return defaultRedactor() }

// Rules returns the names of the rules, sorted.
func (r *Redactor) Rules() []string { return slices.Clone(r.names) }

// String returns s with every secret replaced, and how many were replaced per rule (nil
// map when none). When nothing matches it returns s itself.
func (r *Redactor) String(s string) (string, map[string]int) {
	// The engine only reads its input, so viewing the string's bytes is safe.
	out, counts := r.redact(unsafe.Slice(unsafe.StringData(s), len(s)))
	if counts == nil {
		return s, nil
	}
	// out was allocated by redact and is referenced nowhere else.
	return unsafe.String(unsafe.SliceData(out), len(out)), counts
}

// Bytes is String for []byte; when nothing matches it returns the input slice itself (no
// copy, no allocation). Otherwise the result is a new slice and b is not modified.
func (r *Redactor) Bytes(b []byte) ([]byte, map[string]int) {
	return r.redact(b)
}

// maxPasses bounds the passes of redact.
const maxPasses = 8

// redact replaces the matches of b and scans the result again until nothing more
// matches. A second pass finds something only when a secret is glued to another one:
// in "xoxb-...-----BEGIN ... PRIVATE KEY-----", the Slack token lacks a boundary until
// the key block has become "[REDACTED:private-key]". Repeating makes redaction
// idempotent, and costs one extra scan of inputs that contain secrets.
func (r *Redactor) redact(b []byte) ([]byte, map[string]int) {
	ms := r.matches(b)
	if len(ms) == 0 {
		return b, nil
	}
	counts := make(map[string]int)
	out := r.replace(nil, b, ms, counts)
	for pass := 1; pass < maxPasses; pass++ {
		ms = r.matches(out)
		if len(ms) == 0 {
			break
		}
		out = r.replace(nil, out, ms, counts)
	}
	return out, counts
}

// matches returns the ranges to replace, sorted and disjoint.
//
// The automaton's loop is a chain of dependent table loads, so one stream of bytes
// leaves the CPU mostly waiting. Long inputs are scanned as four quarters interleaved in
// one loop, which runs nearly three times as fast as one stream: each quarter but the
// first starts in the root state maxKeyword-1 bytes early (enough context for any
// keyword) and reports only keywords ending in its own quarter.
func (r *Redactor) matches(b []byte) []match {
	q := len(b) / 4
	if q < 4*r.ac.maxLen {
		return merge(r.scan(b, 0, len(b), 0, nil)) // short input: one stream
	}
	a := r.ac
	next, class, stride := a.next, &a.class, a.stride
	var ms []match
	row0, row1, row2, row3 := int32(0), r.warm(b, q), r.warm(b, 2*q), r.warm(b, 3*q)
	// Equal-length views of the quarters, so that one bounds check covers all four.
	b0 := b[:q]
	b1, b2, b3 := b[q:][:len(b0)], b[2*q:][:len(b0)], b[3*q:][:len(b0)]
	for i := range b0 {
		row0 = next[row0+int32(class[b0[i]])]
		row1 = next[row1+int32(class[b1[i]])]
		row2 = next[row2+int32(class[b2[i]])]
		row3 = next[row3+int32(class[b3[i]])]
		if row0|row1|row2|row3 < 0 {
			if row0 < 0 {
				row0 = -row0
				ms = r.check(b, i+1, row0/stride, ms)
			}
			if row1 < 0 {
				row1 = -row1
				ms = r.check(b, q+i+1, row1/stride, ms)
			}
			if row2 < 0 {
				row2 = -row2
				ms = r.check(b, 2*q+i+1, row2/stride, ms)
			}
			if row3 < 0 {
				row3 = -row3
				ms = r.check(b, 3*q+i+1, row3/stride, ms)
			}
		}
	}
	return merge(r.scan(b, 4*q, len(b), row3, ms)) // the last quarter's few leftover bytes
}

// warm returns the automaton's row at b[at] for a scan that starts there, having read
// the maxKeyword-1 bytes before it without reporting their matches.
func (r *Redactor) warm(b []byte, at int) int32 {
	a := r.ac
	row := int32(0)
	for j := max(0, at-a.maxLen+1); j < at; j++ {
		row = a.next[row+int32(a.class[b[j]])]
		row = max(row, -row)
	}
	return row
}

// scan runs the automaton over b[from:to] as one stream, starting in row, and appends
// the matches of the keywords ending there to ms.
func (r *Redactor) scan(b []byte, from, to int, row int32, ms []match) []match {
	next, class, stride := r.ac.next, &r.ac.class, r.ac.stride
	for j := from; j < to; j++ {
		row = next[row+int32(class[b[j]])]
		if row < 0 {
			row = -row
			ms = r.check(b, j+1, row/stride, ms)
		}
	}
	return ms
}

// check runs the rules of the keywords that end at b[end-1] in automaton state state.
func (r *Redactor) check(b []byte, end int, state int32, ms []match) []match {
	for _, id := range r.ac.out[state] {
		k := &r.kws[id]
		start := end - len(k.text)
		if k.exact && string(b[start:end]) != k.text {
			continue
		}
		if from, to, ok := r.rules[k.rule].find(b, start, end); ok && from < to {
			ms = append(ms, match{from: from, to: to, rule: k.rule})
		}
	}
	return ms
}

// merge sorts matches and replaces overlapping ones by their union, named after the
// highest-priority rule among them: no byte found secret by any rule is left visible.
func merge(ms []match) []match {
	if len(ms) < 2 {
		return ms
	}
	slices.SortFunc(ms, func(a, b match) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return b.to - a.to
	})
	out := ms[:1]
	for _, m := range ms[1:] {
		cur := &out[len(out)-1]
		if m.from >= cur.to {
			out = append(out, m)
			continue
		}
		cur.to = max(cur.to, m.to)
		cur.rule = min(cur.rule, m.rule)
	}
	return out
}

// replace appends b to dst with each match replaced by its marker, and counts the
// matches per rule.
func (r *Redactor) replace(dst, b []byte, ms []match, counts map[string]int) []byte {
	size := len(b)
	for _, m := range ms {
		size += len(markerPrefix) + len(r.rules[m.rule].Name) + 1 - (m.to - m.from)
	}
	dst = slices.Grow(dst, size)
	prev := 0
	for _, m := range ms {
		name := r.rules[m.rule].Name
		dst = append(dst, b[prev:m.from]...)
		dst = append(dst, markerPrefix...)
		dst = append(dst, name...)
		dst = append(dst, ']')
		counts[name]++
		prev = m.to
	}
	return append(dst, b[prev:]...)
}
