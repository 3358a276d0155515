package redact

import (
	"bytes"
	"regexp"
	"sync"
)

// defaultRules is the built-in rule table, in priority order: when matches overlap, the
// union is replaced and named after the earliest rule. Structured formats come first,
// then fixed-prefix tokens, then the heuristic generic assignment rules.
func defaultRules() []*Rule {
	return []*Rule{
		{Name: "gcp-service-account-key", keywords: []string{`"private_key"`}, caseSensitive: true, find: findGCPKey},
		{Name: "private-key", keywords: []string{"-----BEGIN "}, caseSensitive: true, find: findPrivateKey},
		{Name: "aws-access-key-id", keywords: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, caseSensitive: true,
			find: token(upperDigit, 16, 16)},
		assignment("aws-secret-access-key", "secret_access_key", "secretaccesskey", "secret-access-key"),
		{Name: "azure-storage-account-key", keywords: []string{"AccountKey="}, find: findAzureKey},
		{Name: "github-token", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, caseSensitive: true,
			find: token(alnum, 36, 255)},
		{Name: "github-fine-grained-pat", keywords: []string{"github_pat_"}, caseSensitive: true,
			find: token(word, 82, 255)},
		{Name: "gitlab-token", keywords: []string{"glpat-"}, caseSensitive: true, find: token(base64url, 20, 255)},
		{Name: "npm-token", keywords: []string{"npm_"}, caseSensitive: true, find: token(alnum, 36, 36)},
		{Name: "pypi-token", keywords: []string{"pypi-AgEIcHlwaS5vcmc"}, caseSensitive: true,
			find: token(base64url, 50, 4096)},
		{Name: "slack-token", keywords: []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"}, caseSensitive: true,
			find: pattern(slackToken(), 30)},
		{Name: "slack-webhook", keywords: []string{"hooks.slack.com/services/"}, find: findSlackWebhook},
		{Name: "stripe-key", keywords: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"}, caseSensitive: true,
			find: token(alnum, 24, 255)},
		{Name: "twilio-api-key", keywords: []string{"SK"}, caseSensitive: true, find: token(hexLower, 32, 32)},
		{Name: "sendgrid-api-key", keywords: []string{"SG."}, caseSensitive: true, find: pattern(sendgridKey(), 0)},
		{Name: "anthropic-api-key", keywords: []string{"sk-ant-"}, caseSensitive: true, find: pattern(anthropicKey(), 0)},
		{Name: "openai-api-key", keywords: []string{"sk-"}, caseSensitive: true, find: findOpenAIKey},
		{Name: "google-api-key", keywords: []string{"AIza"}, caseSensitive: true, find: token(base64url, 35, 35)},
		{Name: "huggingface-token", keywords: []string{"hf_"}, caseSensitive: true, find: findHuggingFace},
		{Name: "groq-api-key", keywords: []string{"gsk_"}, caseSensitive: true, find: token(alnum, 52, 52)},
		{Name: "replicate-api-token", keywords: []string{"r8_"}, caseSensitive: true, find: token(alnum, 37, 37)},
		{Name: "xai-api-key", keywords: []string{"xai-"}, caseSensitive: true, find: token(alnum, 80, 80)},
		{Name: "jwt", keywords: []string{"eyJ"}, caseSensitive: true, find: findJWT},
		{Name: "url-credentials", keywords: []string{"://"}, find: findURLPassword},
		{Name: "bearer-token", keywords: []string{"bearer "}, find: findBearer},
		assignment("generic-private-key", "private_key", "privatekey", "private-key"),
		assignment("generic-api-key", "api_key", "apikey", "api-key"),
		assignment("generic-secret", "secret"),
		assignment("generic-password", "password", "passwd", "pwd"),
		assignment("generic-token", "token"),
	}
}

// charset is a set of bytes.
type charset [256]bool

// newCharset builds a set from ranges like "A-Za-z0-9_-" (a '-' last is literal).
func newCharset(spec string) *charset {
	var cs charset
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				cs[c] = true
			}
			i += 2
			continue
		}
		cs[spec[i]] = true
	}
	return &cs
}

// Character sets of token bodies.
var (
	alnum      = newCharset("A-Za-z0-9")
	upperDigit = newCharset("A-Z0-9")
	word       = newCharset("A-Za-z0-9_")
	base64url  = newCharset("A-Za-z0-9_-")
	base64std  = newCharset("A-Za-z0-9+/=")
	hexLower   = newCharset("0-9a-f")
)

// span returns how many bytes of b from i are in cs, counting at most limit+1.
func (cs *charset) span(b []byte, i, limit int) int {
	n := 0
	for i+n < len(b) && n <= limit && cs[b[i+n]] {
		n++
	}
	return n
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool { return alnum[c] }

// boundaryBefore reports whether a token may start at i: not preceded by a letter or
// digit, so "ghp_" in "xghp_..." or "SK" in "DISK..." is not a token.
func boundaryBefore(b []byte, i int) bool { return i == 0 || !isAlnum(b[i-1]) }

// boundaryAfter reports whether a token may end at i.
func boundaryAfter(b []byte, i int) bool { return i >= len(b) || !isAlnum(b[i]) }

// token returns the finder of "<keyword><body>" tokens: the body is a run of body bytes
// whose length is in [minLen, maxLen], and the token has a boundary on both sides. A
// body that is one repeated byte or says EXAMPLE or xxxxxxxx is documentation.
func token(body *charset, minLen, maxLen int) finder {
	return func(b []byte, start, end int) (int, int, bool) {
		if !boundaryBefore(b, start) {
			return 0, 0, false
		}
		n := body.span(b, end, maxLen)
		to := end + n
		if n < minLen || n > maxLen || !boundaryAfter(b, to) || placeholderToken(b[end:to]) {
			return 0, 0, false
		}
		return start, to, true
	}
}

// bearerChars are the characters of an RFC 6750 bearer token (b64token).
var bearerChars = newCharset("A-Za-z0-9._~+/=-")

// findBearer replaces the token after "Bearer " (an Authorization header, a curl -H
// argument) and keeps the scheme: at least 20 token characters of at least two classes
// (letters and digits), so prose ("bearer of bad news") and placeholders ($TOKEN,
// <token>) are left alone.
func findBearer(b []byte, start, end int) (int, int, bool) {
	if !boundaryBefore(b, start) {
		return 0, 0, false
	}
	n := bearerChars.span(b, end, 4096)
	to := end + n
	if n < 20 || charClasses(b[end:to]) < 2 || !boundaryAfter(b, to) || placeholderToken(b[end:to]) {
		return 0, 0, false
	}
	return end, to, true
}

// placeholderToken reports whether a token body is a documentation stand-in.
func placeholderToken(body []byte) bool {
	if oneChar(body) {
		return true
	}
	var buf [64]byte
	lb := lowerASCII(buf[:0], body)
	return bytes.Contains(lb, []byte("example")) || bytes.Contains(lb, []byte("xxxxxxxx"))
}

// Regular expressions of multi-part tokens, run anchored on a window at a keyword hit;
// compiled with the default rules, not at package init (which runs on every start of jido).
var (
	slackToken = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^xox[abprs]-[0-9A-Za-z]{4,}(?:-[0-9A-Za-z]{4,}){1,5}`)
	})
	sendgridKey  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}`) })
	anthropicKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^sk-ant-(?:api|admin|oat|ort)[0-9]{2}-[0-9A-Za-z_-]{32,}`)
	})
	slackHook = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^hooks\.slack\.com/services/(T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{16,32})`)
	})
)

// window is the most a regexp reads past a keyword.
const window = 512

// pattern returns the finder of tokens matching re (anchored with ^) at the keyword, at
// least minLen long and followed by a byte that cannot continue a token.
func pattern(re *regexp.Regexp, minLen int) finder {
	return func(b []byte, start, _ int) (int, int, bool) {
		if !boundaryBefore(b, start) {
			return 0, 0, false
		}
		loc := re.FindIndex(b[start:min(len(b), start+window)])
		if loc == nil || loc[1] < minLen {
			return 0, 0, false
		}
		to := start + loc[1]
		if to < len(b) && base64url[b[to]] {
			return 0, 0, false
		}
		return start, to, true
	}
}

// findSlackWebhook replaces the secret path of a Slack incoming-webhook URL and keeps
// the host, so the reader still knows what the URL was.
func findSlackWebhook(b []byte, start, _ int) (int, int, bool) {
	loc := slackHook().FindSubmatchIndex(b[start:min(len(b), start+window)])
	if loc == nil || !boundaryAfter(b, start+loc[3]) {
		return 0, 0, false
	}
	return start + loc[2], start + loc[3], true
}

// findOpenAIKey matches sk- followed by 48 base62 (legacy user keys) or sk-proj-,
// sk-svcacct-, sk-admin- followed by 20 or more base64url. Anthropic's sk-ant- keys are
// their own rule.
func findOpenAIKey(b []byte, start, end int) (int, int, bool) {
	if !boundaryBefore(b, start) {
		return 0, 0, false
	}
	rest := b[end:]
	for _, p := range openAIKinds {
		if bytes.HasPrefix(rest, []byte(p)) {
			return openAIProjectKey(b, start, end+len(p))
		}
	}
	return openAILegacyKey(b, start, end)
}

var (
	openAIKinds      = []string{"proj-", "svcacct-", "admin-"}
	openAIProjectKey = token(base64url, 20, 1024)
	openAILegacyKey  = token(alnum, 48, 48)
	huggingFaceToken = token(alnum, 34, 34)
)

// findHuggingFace matches hf_ + 34 base62 mixing upper and lower case, which words and
// identifiers after "hf_" rarely do.
func findHuggingFace(b []byte, start, end int) (int, int, bool) {
	from, to, ok := huggingFaceToken(b, start, end)
	if !ok || !bytes.ContainsFunc(b[end:to], isUpperRune) || !bytes.ContainsFunc(b[end:to], isLowerRune) {
		return 0, 0, false
	}
	return from, to, true
}

func isUpperRune(r rune) bool { return 'A' <= r && r <= 'Z' }
func isLowerRune(r rune) bool { return 'a' <= r && r <= 'z' }

// findAzureKey replaces the AccountKey value of an Azure storage connection string
// (a base64 account key, 88 characters for current accounts).
func findAzureKey(b []byte, start, end int) (int, int, bool) {
	if !boundaryBefore(b, start) {
		return 0, 0, false
	}
	n := base64std.span(b, end, 256)
	if n < 40 || n > 256 || placeholderToken(b[end:end+n]) {
		return 0, 0, false
	}
	return end, end + n, true
}
