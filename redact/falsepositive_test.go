package redact

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goSourceHit is one redaction in the Go tree, for the report.
type goSourceHit struct {
	path, rule, snippet string
	testdata            bool
}

// TestFalsePositivesOnGoSource redacts every .go file of the Go toolchain's source tree,
// which is full of test keys, hashes, base64 and code that assigns to variables named
// token, secret and password, and reports what was redacted, separately for testdata
// and other files. Real key material used as test fixtures counts apart from false
// positives.
func TestFalsePositivesOnGoSource(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	r := Default()
	type totals struct {
		files, bytes, hits int
		byRule             map[string]int
	}
	sum := map[bool]*totals{false: {byRule: map[string]int{}}, true: {byRule: map[string]int{}}}
	var hits []goSourceHit
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		td := strings.Contains(filepath.ToSlash(rel), "testdata/")
		s := sum[td]
		s.files++
		s.bytes += len(b)
		out, counts := r.Bytes(b)
		ms := r.matches(b)
		require.Equal(t, len(ms) == 0, counts == nil, rel)
		if counts == nil && len(b) > 0 {
			require.True(t, &out[0] == &b[0], "no copy when nothing matches")
		}
		for _, m := range ms {
			name := r.rules[m.rule].Name
			s.hits++
			s.byRule[name]++
			hits = append(hits, goSourceHit{path: rel, rule: name, snippet: snippet(b, m), testdata: td})
		}
		return nil
	})
	require.NoError(t, err)

	// Kinds of hits, judged by reading them (see the log): the first three are credential
	// material or credential syntax used as test fixtures, the last are false positives.
	kinds := []string{"pem-private-key", "hex-key-material", "url-credentials", "literal-password", "other"}
	kind := func(h goSourceHit) string {
		switch {
		case h.rule == "private-key":
			return kinds[0] // real PEM keys in crypto tests
		case (h.rule == "generic-private-key" || h.rule == "generic-secret") && hexValue.MatchString(h.snippet):
			return kinds[1] // test vectors: PrivateKey: "7d7d...", SharedSecret: "46fc..."
		case h.rule == "url-credentials":
			return kinds[2] // URL parser tests: http://user:p%40ssword@host
		case h.rule == "generic-password" && literalPassword.MatchString(h.snippet):
			return kinds[3] // credential helper tests: password=secr3t
		}
		return kinds[4]
	}
	sort.SliceStable(hits, func(i, j int) bool { return !hits[i].testdata && hits[j].testdata })
	byKind := map[bool]map[string]int{false: {}, true: {}}
	for _, h := range hits {
		byKind[h.testdata][kind(h)]++
	}
	for _, td := range []bool{false, true} {
		s := sum[td]
		t.Logf("testdata=%v: %d files, %.1f MB, %d redactions; by rule %v; by kind %v",
			td, s.files, float64(s.bytes)/1e6, s.hits, s.byRule, byKind[td])
	}
	for i, h := range hits {
		if i == 40 {
			t.Logf("... %d more", len(hits)-i)
			break
		}
		t.Logf("%-20s %-16s %s testdata=%v\n\t%s", h.rule, kind(h), h.path, h.testdata, h.snippet)
	}
	// Ceilings set after reading the hits of Go 1.26: 26 redactions outside testdata
	// (2 PEM keys, 8 hex test vectors, 8 URL passwords, 8 literal passwords of a git
	// credential helper test), none of them "other".
	require.LessOrEqual(t, sum[false].hits, 40, "redactions outside testdata")
	require.LessOrEqual(t, byKind[false]["other"]+byKind[true]["other"], 5, "false positives")
}

// literalPassword recognises a snippet that is a whole password assignment of a literal
// with a digit in it: password=secr3t, wantPassword: "secr3t",.
var literalPassword = regexp.MustCompile(`^\s*\w*(?i:password)(=|: ")«[^«»\s]*\d[^«»\s]*»"?,?$`)

// hexValue recognises a snippet whose redacted part is 32 or more hex digits.
var hexValue = regexp.MustCompile(`«[0-9a-f]{28}\.\.\.[0-9a-f]{28}»|«[0-9a-f]{32,60}»`)

// snippet shows a match in its line, with the match bracketed, cut to a readable size.
func snippet(b []byte, m match) string {
	ls := bytes.LastIndexByte(b[:m.from], '\n') + 1
	le := m.to + bytes.IndexByte(b[m.to:], '\n')
	if le < m.to {
		le = len(b)
	}
	before := b[max(ls, m.from-60):m.from]
	secret := b[m.from:m.to]
	if len(secret) > 60 {
		secret = append(append(append([]byte(nil), secret[:28]...), "..."...), secret[len(secret)-28:]...)
	}
	after := b[m.to:min(le, m.to+40)]
	return strings.TrimSpace(fmt.Sprintf("%s«%s»%s", before, secret, after))
}
