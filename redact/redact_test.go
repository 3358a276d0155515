package redact

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleCase is one input and the exact text expected after redaction; want == "" means
// the input is unchanged.
type ruleCase struct {
	name, in, want string
}

// red is the marker of a rule.
func red(rule string) string { return "[REDACTED:" + rule + "]" }

// pemBody returns n base64 lines of 64 characters, like a PEM body.
func pemBody(n int) string {
	line := mix(40) + strings.ReplaceAll(mix(24), "Q", "+") // 64 characters with a '+'
	return strings.Repeat(line+"\n", n)
}

// jwtOf builds header.payload.signature from JSON texts.
func jwtOf(header, payload, sig string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(header)) + "." + enc.EncodeToString([]byte(payload)) + "." + sig
}

// tokenCases are the fixed-prefix token rules: a positive with its exact output and
// near misses (wrong length, charset, boundary, placeholder).
func tokenCases() []ruleCase {
	aws := "AK" + "IA" + upper(16)
	return []ruleCase{
		{"aws id", "key: " + aws + "\n", "key: " + red("aws-access-key-id") + "\n"},
		{"aws id ASIA", "ASIA" + upper(16), red("aws-access-key-id")},
		{"aws id 15", "AKIA" + upper(15), ""},
		{"aws id 17", "AKIA" + upper(17), ""},
		{"aws id lower", "AKIA" + strings.ToLower(upper(16)), ""},
		{"aws id in word", "X" + aws, ""},
		{"aws id docs example", "AKIA" + "IOSFODNN7" + "EXAMPLE", ""},

		{"github classic", "token ghp_" + mix(36) + " end", "token " + red("github-token") + " end"},
		{"github oauth", `"gho_` + mix(36) + `"`, `"` + red("github-token") + `"`},
		{"github server", "ghs_" + mix(40), red("github-token")},
		{"github 35", "ghp_" + mix(35), ""},
		{"github dash", "ghp_" + mix(18) + "-" + mix(18), ""},
		{"github placeholder", "ghp_" + strings.Repeat("x", 36), ""},
		{"github fine-grained", "github_pat_" + mix(82), red("github-fine-grained-pat")},
		{"github fine-grained 81", "github_pat_" + mix(81), ""},

		{"gitlab", "glpat-" + mix(20), red("gitlab-token")},
		{"gitlab 19", "glpat-" + mix(19), ""},
		{"npm", "//registry.npmjs.org/:_authToken=npm_" + mix(36), "//registry.npmjs.org/:_authToken=" + red("npm-token")},
		{"npm 37", "npm_" + mix(37), ""},
		{"pypi", "password = pypi-AgEIcHlwaS5vcmc" + mix(60), "password = " + red("pypi-token")},
		{"pypi short", "pypi-AgEIcHlwaS5vcmc" + mix(20), ""},

		{"slack bot", "xoxb-123456789012-1234567890123-" + mix(24), red("slack-token")},
		{"slack user", "xoxp-1234567890-1234567890-1234567890-" + hexs(32), red("slack-token")},
		{"slack short", "xoxb-1234-5678", ""},
		{"slack wrong letter", "xoxq-123456789012-1234567890123-" + mix(24), ""},
		{"slack webhook", "url=https://hooks.slack.com/services/T0" + upper(8) + "/B0" + upper(8) + "/" + mix(24) + "\n",
			"url=https://hooks.slack.com/services/" + red("slack-webhook") + "\n"},
		{"slack webhook docs", "https://hooks.slack.com/services/T000/B000/XXXX", ""},

		{"stripe live", "sk_live_" + mix(24), red("stripe-key")},
		{"stripe restricted", "rk_live_" + mix(99), red("stripe-key")},
		{"stripe test", "sk_test_" + mix(30), red("stripe-key")},
		{"stripe 23", "sk_live_" + mix(23), ""},
		{"twilio", "TWILIO_API_KEY_SID SK" + hexs(32), "TWILIO_API_KEY_SID " + red("twilio-api-key")},
		{"twilio upper hex", "SK" + strings.ToUpper(hexs(32)), ""},
		{"twilio in word", "DISK" + hexs(32), ""},
		{"sendgrid", "SG." + mix(22) + "." + mix(43), red("sendgrid-api-key")},
		{"sendgrid 42", "SG." + mix(22) + "." + mix(42), ""},
		{"sendgrid msg", "msg." + mix(22) + "." + mix(43), ""},

		{"anthropic", "ANTHROPIC_API_KEY=sk-ant-api03-" + mix(93) + "AA", "ANTHROPIC_API_KEY=" + red("anthropic-api-key")},
		{"anthropic admin", "sk-ant-admin01-" + mix(93) + "AA", red("anthropic-api-key")},
		{"anthropic short", "sk-ant-api03-" + mix(20), ""},
		{"openai legacy", "sk-" + mix(48), red("openai-api-key")},
		{"openai project", "sk-proj-" + mix(100) + "_" + mix(50), red("openai-api-key")},
		{"openai service account", "sk-svcacct-" + mix(60), red("openai-api-key")},
		{"openai 47", "sk-" + mix(47), ""},
		{"openai 49", "sk-" + mix(49), ""},
		{"google", "key=AIza" + mix(35) + "&q=1", "key=" + red("google-api-key") + "&q=1"},
		{"google 34", "AIza" + mix(34), ""},
		{"huggingface", "hf_" + mix(34), red("huggingface-token")},
		{"huggingface one case", "hf_" + strings.ToLower(mix(34)), ""},
		{"huggingface 33", "hf_" + mix(33), ""},
		{"groq", "gsk_" + mix(52), red("groq-api-key")},
		{"groq 51", "gsk_" + mix(51), ""},
		{"replicate", "r8_" + mix(37), red("replicate-api-token")},
		{"replicate 36", "r8_" + mix(36), ""},
		{"xai", "xai-" + mix(80), red("xai-api-key")},
		{"xai 79", "xai-" + mix(79), ""},
	}
}

// structuredCases are the multi-part formats.
func structuredCases() []ruleCase {
	body := pemBody(4)
	pk := "-----BEGIN PRIVATE KEY-----\\n" + strings.ReplaceAll(body, "\n", "\\n") + "-----END PRIVATE KEY-----\\n"
	jwt := jwtOf(`{"alg":"HS256","typ":"JWT"}`, `{"sub":"1234567890","name":"Jane","iat":1516239022}`, mix(43))
	return []ruleCase{
		{"bearer header", "Authorization: Bearer " + mix(32), "Authorization: Bearer " + red("bearer-token")},
		{"rsa block", "key:\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\nrest",
			"key:\n" + red("private-key") + "\nrest"},
		{"openssh block", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "-----END OPENSSH PRIVATE KEY-----",
			red("private-key")},
		{"encrypted block", "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + body + "-----END ENCRYPTED PRIVATE KEY-----",
			red("private-key")},
		{"pgp block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + body + "=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----\n",
			red("private-key") + "\n"},
		{"block in Go source", "k := `-----BEGIN EC PRIVATE KEY-----\n" + body + "-----END EC PRIVATE KEY-----`",
			"k := `" + red("private-key") + "`"},
		{"unterminated block", "-----BEGIN RSA PRIVATE KEY-----\n" + body[:100], red("private-key")},
		{"header only", `if strings.HasPrefix(s, "-----BEGIN RSA PRIVATE KEY-----") {`, ""},
		{"public key", "-----BEGIN PUBLIC KEY-----\n" + body + "-----END PUBLIC KEY-----", ""},
		{"testing key", "-----BEGIN RSA TESTING KEY-----\n" + body + "-----END RSA TESTING KEY-----", ""},

		{"gcp service account", `{"type": "service_account", "private_key": "` + pk + `", "client_email": "a@b.iam.gserviceaccount.com"}`,
			`{"type": "service_account", "private_key": "` + red("gcp-service-account-key") + `", "client_email": "a@b.iam.gserviceaccount.com"}`},
		{"gcp empty", `"private_key": ""`, ""},

		{"azure", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + mix(86) + "==;EndpointSuffix=core.windows.net",
			"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + red("azure-storage-account-key") + ";EndpointSuffix=core.windows.net"},
		{"azure placeholder", "AccountKey=<key>;", ""},

		{"jwt", "Authorization: Bearer " + jwt + "\n", "Authorization: Bearer " + red("jwt") + "\n"},
		{"jwt unsigned", jwtOf(`{"alg":"none"}`, `{"sub":"x"}`, ""), red("jwt")},
		{"jwt not json", "eyJ" + mix(20) + ".eyJ" + mix(30) + "." + mix(20), ""},
		{"jwt bad payload", jwtOf(`{"alg":"HS256"}`, `{"sub":`, mix(20)), ""},
		{"jwt two parts", strings.Join(strings.Split(jwt, ".")[:2], "."), ""},

		{"url", "DATABASE_URL=postgres://app:S3cr3t-Pw9@db.internal:5432/app",
			"DATABASE_URL=postgres://app:" + red("url-credentials") + "@db.internal:5432/app"},
		{"url empty user", "redis://:Xk9fLq2mZp@cache:6379/0", "redis://:" + red("url-credentials") + "@cache:6379/0"},
		{"url at in password", "https://jane:p@ss-W0rd@git.corp/x", "https://jane:" + red("url-credentials") + "@git.corp/x"},
		{"url no password", "https://user@host/x", ""},
		{"url placeholder", "https://user:password@db.internal/", ""},
		{"url template", "https://user:${PASS}@db.internal/", ""},
		{"url docs host", "https://abc:xyz123@example.com/", ""},
		{"url port only", "http://localhost:8080/@x", ""},
	}
}

// assignmentCases are the generic key = value rules.
func assignmentCases() []ruleCase {
	v := "Xk9fLq2mZp"
	return []ruleCase{
		{"env", "password=" + v, "password=" + red("generic-password")},
		{"env prefixed", "DB_PASSWORD=" + v + "\n", "DB_PASSWORD=" + red("generic-password") + "\n"},
		{"export quoted", `export API_KEY="9f8e7d6c5b4a39281706"`, `export API_KEY="` + red("generic-api-key") + `"`},
		{"yaml", "  client_secret: " + v + "\n", "  client_secret: " + red("generic-secret") + "\n"},
		{"json", `{"password": "hunter2-Xk9q", "user": "bob"}`, `{"password": "` + red("generic-password") + `", "user": "bob"}`},
		{"escaped json", `"{\"auth_token\": \"` + v + `\"}"`, `"{\"auth_token\": \"` + red("generic-token") + `\"}"`},
		{"go", `const apiKey = "` + v + `"`, `const apiKey = "` + red("generic-api-key") + `"`},
		{"go define", `secret := "` + v + `"`, `secret := "` + red("generic-secret") + `"`},
		{"flag", "--password=" + v + " --user=bob", "--password=" + red("generic-password") + " --user=bob"},
		{"ruby", `:access_token => '` + v + `'`, `:access_token => '` + red("generic-token") + `'`},
		{"passwd", "passwd: " + v, "passwd: " + red("generic-password")},
		{"private key", "PRIVATE_KEY=" + hexs(64), "PRIVATE_KEY=" + red("generic-private-key")},
		{"secret key", "SECRET_KEY=" + v, "SECRET_KEY=" + red("generic-secret")},
		{"aws secret", "aws_secret_access_key = " + mix(30) + "/" + mix(9), "aws_secret_access_key = " + red("aws-secret-access-key")},
		{"aws secret 39", "aws_secret_access_key = " + mix(39), ""},
		{"quoted symbol first", `password: "!Qaz2wsx#9"`, `password: "` + red("generic-password") + `"`},
		{"env low entropy", "DB_PASSWORD=hunter2\n", "DB_PASSWORD=" + red("generic-password") + "\n"},
		{"export low entropy", "export PGPASSWORD='letmein'", "export PGPASSWORD='" + red("generic-password") + "'"},
		{"yaml low entropy", "  - password: hunter2  # dev only\n", "  - password: " + red("generic-password") + "  # dev only\n"},
		{"env word", "DB_PASSWORD=letmein", "DB_PASSWORD=" + red("generic-password")},
		{"code assigns a variable", "    password = user_password", ""},
		{"toml low entropy", `password = "s3cret1"`, `password = "` + red("generic-password") + `"`},
		{"json low entropy", `  "db_password": "hunter2",` + "\n", `  "db_password": "` + red("generic-password") + `",` + "\n"},
		{"ini pin", "pwd=1234\r\n", "pwd=" + red("generic-password") + "\r\n"},
		{"low entropy config", "password=aaaabbbb1111", "password=" + red("generic-password")},
		{"specific rule wins", `GITHUB_TOKEN="ghp_` + mix(36) + `"`, `GITHUB_TOKEN="` + red("github-token") + `"`},

		{"selector", "password = req.Password", ""},
		{"call", "token := getToken()", ""},
		{"call with dot", `secret = os.Getenv("SECRET")`, ""},
		{"type annotation", "secret: string", ""},
		{"identifier", "token = nextToken", ""},
		{"yaml alias", "password: *default_pw1", ""},
		{"identifier naming a key", "PrivateKey: testRSA2048PrivateKey,", ""},
		{"comparison", `password == "` + v + `"`, ""},
		{"not equal", `token != "` + v + `"`, ""},
		{"placeholder changeme", `password: "changeme"`, ""},
		{"placeholder env", "password=${DB_PASSWORD}", ""},
		{"placeholder var", "password=$DB_PASSWORD", ""},
		{"placeholder angle", "password: <your-password>", ""},
		{"placeholder your", `api_key = "your_api_key_here"`, ""},
		{"placeholder stars", `token = "************"`, ""},
		{"placeholder x", "password=xxxxxxxxxxxx", ""},
		{"null", "token: null", ""},
		{"boolean", "password: true", ""},
		{"short in code", `if password == "s3cret1" || password = "s3cret1" {`, ""},
		{"low entropy in code", "login(password=aaaabbbb1111, user)", ""},
		{"too short for a config password", "DB_PASSWORD=abc", ""},
		{"config password in a sentence", "the password: hunter2 is weak", ""},
		{"config password placeholder", "DB_PASSWORD=changeme", ""},
		{"config password naming a key", "password: ${{ secrets.DB_PASSWORD }}", ""},
		{"sentence", `password: "correct horse battery staple"`, ""},
		{"words", "token: BLOCK-MAPPING-START", ""},
		{"format list", "groupname:password:GID:user_list", ""},
		{"directory", "PWD=/home/user/project2", ""},
		{"key in middle", "password_file=/run/secrets/" + v, ""},
		{"already redacted", "password=" + red("generic-password"), ""},
	}
}

func TestRules(t *testing.T) {
	r := Default()
	groups := map[string][]ruleCase{
		"tokens": tokenCases(), "structured": structuredCases(), "assignments": assignmentCases(),
	}
	for group, cases := range groups {
		for _, tc := range cases {
			t.Run(group+"/"+tc.name, func(t *testing.T) {
				want := tc.want
				if want == "" {
					want = tc.in
				}
				got, counts := r.String(tc.in)
				assert.Equal(t, want, got)
				assert.Equal(t, tc.want == "", counts == nil, "counts %v", counts)
				gotB, countsB := r.Bytes([]byte(tc.in))
				assert.Equal(t, want, string(gotB))
				assert.Equal(t, counts, countsB)
				again, n := r.String(got)
				assert.Equal(t, got, again, "idempotent")
				assert.Nil(t, n)
			})
		}
	}
}

func TestEveryRuleTested(t *testing.T) {
	seen := map[string]bool{}
	for _, cases := range [][]ruleCase{tokenCases(), structuredCases(), assignmentCases()} {
		for _, tc := range cases {
			for _, name := range Default().Rules() {
				if strings.Contains(tc.want, red(name)) {
					seen[name] = true
				}
			}
		}
	}
	for _, name := range Default().Rules() {
		assert.True(t, seen[name], "no positive case for %s", name)
	}
}

func TestRulesSorted(t *testing.T) {
	names := Default().Rules()
	assert.IsNonDecreasing(t, names)
	assert.Len(t, names, 30)
	names[0] = "changed"
	assert.NotEqual(t, "changed", Default().Rules()[0], "Rules returns a copy")
}

func TestCounts(t *testing.T) {
	in := "a=ghp_" + mix(36) + " b=ghp_" + mix(37) + " password=Xk9fLq2mZp"
	got, counts := Default().String(in)
	assert.Equal(t, "a="+red("github-token")+" b="+red("github-token")+" password="+red("generic-password"), got)
	assert.Equal(t, map[string]int{"github-token": 2, "generic-password": 1}, counts)
}

func TestNoMatchNoCopy(t *testing.T) {
	r := Default()
	b := []byte("func main() { token := lex.Next(); password = cfg.Password }\n")
	out, counts := r.Bytes(b)
	require.Nil(t, counts)
	assert.Same(t, &b[0], &out[0])
	s := string(b)
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Bytes(b) }))
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.String(s) }))
	out, counts = r.Bytes(nil)
	assert.Nil(t, out)
	assert.Nil(t, counts)
	str, counts := r.String("")
	assert.Empty(t, str)
	assert.Nil(t, counts)
}

func TestInputNotModified(t *testing.T) {
	in := []byte("token=ghp_" + mix(36))
	orig := string(in)
	out, _ := Default().Bytes(in)
	assert.Equal(t, orig, string(in))
	assert.Equal(t, "token="+red("github-token"), string(out))
}

func TestMarkerNeverRedacted(t *testing.T) {
	r := Default()
	for _, name := range r.Rules() {
		for _, in := range []string{red(name), "x=" + red(name), `"password": "` + red(name) + `"`, "token: " + red(name)} {
			got, counts := r.String(in)
			assert.Equal(t, in, got)
			assert.Nil(t, counts)
		}
	}
}

// TestOverlapUnion checks that overlapping matches are replaced by their union, named
// after the higher-priority rule, so no part of either secret stays visible.
func TestOverlapUnion(t *testing.T) {
	tok := "ghp_" + mix(36)
	got, counts := Default().String(`password: "` + tok + `"`)
	assert.Equal(t, `password: "`+red("github-token")+`"`, got)
	assert.Equal(t, map[string]int{"github-token": 1}, counts)

	got, _ = Default().String(`{"private_key": "-----BEGIN PRIVATE KEY-----\n` + mix(64) + `\n-----END PRIVATE KEY-----\n"}`)
	assert.Equal(t, `{"private_key": "`+red("gcp-service-account-key")+`"}`, got)
}

// TestUnterminatedBlockLimit checks that an unterminated private key block stops after
// 64 KiB, at the end of a line.
func TestUnterminatedBlockLimit(t *testing.T) {
	body := pemBody(1500) // about 97 KB
	in := "-----BEGIN RSA PRIVATE KEY-----\n" + body
	got, counts := Default().String(in)
	require.Equal(t, map[string]int{"private-key": 1}, counts)
	require.True(t, strings.HasPrefix(got, red("private-key")+"\n"))
	rest := strings.TrimPrefix(got, red("private-key"))
	cut := len(in) - len(rest)
	assert.GreaterOrEqual(t, cut, maxBlock)
	assert.Less(t, cut, maxBlock+65)
	assert.True(t, strings.HasSuffix(in, rest))
}

// TestLongInputSplit plants a token across every offset near each boundary between the
// quarters of a long input, where the scan hands over from one interleaved stream to the
// next, and checks that the interleaved scan finds what one stream over the whole finds.
func TestLongInputSplit(t *testing.T) {
	r := Default()
	filler := strings.Repeat("func f() { return nil }\n", 400)
	const size = 8000 // quarters of 2000 bytes
	for _, tok := range []string{"ghp_" + mix(36), "pypi-AgEIcHlwaS5vcmc" + mix(60), "password=Xk9fLq2mZp"} {
		for boundary := size / 4; boundary < size; boundary += size / 4 {
			for d := -40; d <= 40; d++ {
				at := boundary - len(tok)/2 + d // where the token starts
				in := filler[:at-1] + " " + tok + " " + filler[:size-at-len(tok)-1]
				require.Len(t, in, size)
				got, counts := r.String(in)
				require.NotNil(t, counts, "boundary %d offset %d", boundary, d)
				require.NotContains(t, got, tok)
				b := []byte(in)
				require.Equal(t, merge(r.scan(b, 0, len(b), 0, nil)), r.matches(b), "boundary %d offset %d", boundary, d)
			}
		}
	}
}

func TestConcurrent(t *testing.T) {
	r := Default()
	in := strings.Repeat("x := 1\npassword=Xk9fLq2mZp\nghp_"+mix(36)+"\n", 50)
	want, _ := r.String(in)
	done := make(chan string)
	for range 4 {
		go func() {
			got, _ := r.String(in)
			done <- got
		}()
	}
	for range 4 {
		assert.Equal(t, want, <-done)
	}
}

// TestIdempotentPairs redacts every pair of case inputs joined directly and by a blank,
// where one secret's end meets the next one's start, and checks that a second pass
// changes nothing.
func TestIdempotentPairs(t *testing.T) {
	r := Default()
	var ins []string
	for _, cases := range [][]ruleCase{tokenCases(), structuredCases(), assignmentCases()} {
		for _, tc := range cases {
			ins = append(ins, tc.in)
		}
	}
	for _, a := range ins {
		for _, b := range ins {
			for _, sep := range []string{"", " ", "\n", "="} {
				in := a + sep + b
				out, _ := r.String(in)
				again, n := r.String(out)
				if again != out || n != nil {
					t.Fatalf("not idempotent: %q\n-> %q\n-> %q", in, out, again)
				}
			}
		}
	}
}

func TestBearerTokens(t *testing.T) {
	tok := "eyAbc123" + strings.Repeat("Xy9", 8)
	for in, want := range map[string]string{
		"Authorization: Bearer " + tok:                  "Authorization: Bearer [REDACTED:bearer-token]",
		`curl -H "authorization: bearer ` + tok + `" x`: `curl -H "authorization: bearer [REDACTED:bearer-token]" x`,
		"Authorization: Bearer $TOKEN":                  "Authorization: Bearer $TOKEN",
		"Authorization: Bearer <your-token>":            "Authorization: Bearer <your-token>",
		"the bearer of bad news":                        "the bearer of bad news",
		"Bearer abc123":                                 "Bearer abc123",
		"Bearer " + strings.Repeat("a", 30):             "Bearer " + strings.Repeat("a", 30),
	} {
		got, _ := Default().String(in)
		assert.Equal(t, want, got, in)
	}
}
