package redact

import (
	"strings"
	"testing"
)

// plantedSecrets are credentials a fuzz input gets one of, with the part that must
// disappear; assignment and URL rules keep the key or the user and host.
func plantedSecrets() [][2]string {
	var out [][2]string
	for _, tok := range plantable() {
		out = append(out, [2]string{tok, tok})
	}
	pw := "Xk9fLq2mZp7"
	jwt := jwtOf(`{"alg":"HS256"}`, `{"sub":"42"}`, mix(43))
	out = append(out,
		[2]string{"password=" + pw, pw},
		[2]string{"postgres://app:" + pw + "@db.internal/x", pw},
		[2]string{jwt, jwt},
		[2]string{"-----BEGIN RSA PRIVATE KEY-----\n" + pemBody(3) + "-----END RSA PRIVATE KEY-----", pemBody(3)},
	)
	return out
}

// FuzzRedact checks on arbitrary text that redaction does not panic, that String and
// Bytes agree, that it is idempotent, and that a credential planted between blanks in
// the text never survives.
func FuzzRedact(f *testing.F) {
	f.Add("", uint8(0), uint16(0))
	f.Add("password = \"abc\"\ntoken := x.y()\n", uint8(1), uint16(3))
	f.Add("https://u:p@h/ -----BEGIN PRIVATE KEY-----\nMIIE", uint8(2), uint16(9))
	f.Add(`{"private_key": "-----BEGIN PRIVATE KEY-----\nAAAA`, uint8(3), uint16(40))
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0. AKIA ghp_ sk-ant- xoxb-1-2 SG.a.b", uint8(4), uint16(20))
	f.Add("[REDACTED:jwt]password=[REDACTED:generic-password]", uint8(5), uint16(10))
	secrets := plantedSecrets()
	r := Default()
	f.Fuzz(func(t *testing.T, text string, which uint8, at uint16) {
		check := func(in string) string {
			out, counts := r.String(in)
			outB, countsB := r.Bytes([]byte(in))
			if out != string(outB) || len(counts) != len(countsB) {
				t.Fatalf("String and Bytes differ on %q:\n%q\n%q", in, out, outB)
			}
			if (counts == nil) != (out == in) {
				t.Fatalf("counts %v for %q -> %q", counts, in, out)
			}
			again, n := r.String(out)
			if again != out || n != nil {
				t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, out, again, n)
			}
			return out
		}
		check(text)
		s := secrets[int(which)%len(secrets)]
		i := int(at) % (len(text) + 1)
		in := text[:i] + " " + s[0] + " " + text[i:]
		if out := check(in); strings.Contains(out, s[1]) && !strings.Contains(text, s[1]) {
			t.Fatalf("planted secret survived: %q -> %q", in, out)
		}
	})
}
