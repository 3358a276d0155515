package security

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/stretchr/testify/assert"
)

// patternSamples are paths that exercise every fast path's edges.
var patternSamples = []string{
	".env", ".env.local", "a/.env", "a/b/.env.example", "env", "a.env", "x/.envrc",
	"key.pem", "a/b/c.pem", "pem", "a.pem/x", "id_rsa", "id_rsa.pub", "a/id_rsa_old",
	"credentials", "credentials.go", "a/credentials.json", "a.tfstate", "a.tfstate.backup",
	".ssh", ".ssh/id", "a/.ssh/known_hosts", "a/.sshx/k", "x.ssh", ".git", ".git/config",
	"a/.git/x", "src/main.go", "deep/a/b/c/.npmrc", "netrc", ".netrc",
}

// FuzzPathPattern checks that every compiled pattern answers what doublestar.Match answers.
func FuzzPathPattern(f *testing.F) {
	for _, pat := range append(DefaultPolicy().Secret, append(DefaultPolicy().SecretExceptions, DefaultPolicy().Protected...)...) {
		for _, name := range patternSamples {
			f.Add(pat, name)
		}
	}
	f.Add("**/a*b", "x/ab")
	f.Add("**/{a,b}", "a")
	f.Add("src/**/*.go", "src/x/y.go")
	f.Fuzz(func(t *testing.T, pat, name string) {
		pat, name = strings.ToLower(pat), strings.ToLower(name)
		if !doublestar.ValidatePattern(pat) || name == "" {
			return
		}
		p := compilePattern(pat)
		want, _ := doublestar.Match(pat, name)
		assert.Equal(t, want, p.match(name), "pattern %q, path %q, kind %d", pat, name, p.kind)
	})
}

func TestPolicyPatternsUseFastPaths(t *testing.T) {
	for _, pat := range DefaultPolicy().Secret {
		assert.NotEqual(t, kindGlob, compilePattern(strings.ToLower(pat)).kind, pat)
	}
}

func BenchmarkIsSecret(b *testing.B) {
	c, err := compilePolicy(DefaultPolicy())
	if err != nil {
		b.Fatal(err)
	}
	r := &Root{policy: c}
	for b.Loop() {
		r.IsSecret("src/net/http/internal/testcert/testcert.go")
	}
}
