package termsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"plain", "go test ./...", "go test ./..."},
		{"tab and newline kept", "a\tb\nc\n", "a\tb\nc\n"},
		{"unicode kept", "héllo → 世界 ✓ \ufffd", "héllo → 世界 ✓ \ufffd"},
		{"redraw attack", "rm -rf src2 #\x1b[1A\x1b[2Kls", `rm -rf src2 #\x1b[1A\x1b[2Kls`},
		{"carriage return", "rm -rf /\rls     ", `rm -rf /\rls     `},
		{"short escapes", "\a\b\f\v", `\a\b\f\v`},
		{"nul and others", "\x00\x01\x1f", `\x00\x01\x1f`},
		{"del", "a\x7fb", `a\x7fb`},
		{"c1 csi", "a\u009b2Jb", `a\u009b2Jb`},
		{"c1 range", "\u0080\u0085\u009f", `\u0080\u0085\u009f`},
		{"invalid bytes", "a\x9b\xffb\xc3", `a\x9b\xffb\xc3`},
		{"trojan source", "if admin \u202e}\u2066 {\u2069\u202c", `if admin \u202e}\u2066 {\u2069\u202c`},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"osc title", "\x1b]0;pwned\x07", `\x1b]0;pwned\a`},
		{"nbsp kept", "a\u00a0b", "a\u00a0b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, String(tc.in))
		})
	}
}

func TestLine(t *testing.T) {
	assert.Equal(t, "ls\\n? run_shell wants to run: ls\t(read-only)", Line("ls\n? run_shell wants to run: ls\t(read-only)"), "tab kept, newline shown")
	assert.Equal(t, `a\x1b[2K`, Line("a\x1b[2K"))
}

func TestNoAllocationWhenSafe(t *testing.T) {
	s := strings.Repeat("safe text, ünïcödé\n", 10)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = String(s) }))
}

func TestJSON(t *testing.T) {
	v := map[string]string{"a": "x\u009b\u202ey\x7f\x1b[2J\t"}
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	got := JSON(string(raw))
	assert.Equal(t, `{"a":"x\u009b\u202ey\u007f\u001b[2J\t"}`, got)
	var back map[string]string
	require.NoError(t, json.Unmarshal([]byte(got), &back))
	assert.Equal(t, v, back, "the same JSON")
	assert.Equal(t, "{\"a\":1}\n", JSON("{\"a\":1}\n"))
	assert.Equal(t, `"\ufffd"`, JSON("\"\xff\""))
}

func TestStream(t *testing.T) {
	var st Stream
	var out strings.Builder
	text := "héllo 世界\x1b[2K\u009b!"
	for i := 0; i < len(text); i++ { // one byte at a time: every rune is cut
		out.WriteString(st.Chunk(text[i : i+1]))
	}
	out.WriteString(st.Flush())
	assert.Equal(t, String(text), out.String())

	assert.Equal(t, "a", st.Chunk("a\xe4\xb8"))
	assert.Equal(t, `\xe4\xb8`, st.Flush(), "a character never completed is shown as bytes")
	assert.Equal(t, "", st.Flush())
	assert.Equal(t, `\xff`, st.Chunk("\xff"), "an invalid byte is not held back")
}

// checkSafe fails when out could still drive a terminal.
func checkSafe(t *testing.T, out string, line bool) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "%q is not UTF-8", out)
	for _, r := range out {
		switch {
		case r < 0x20 && r != '\t' && (r != '\n' || line):
			t.Fatalf("%q holds control %U", out, r)
		case r == 0x7f, r >= 0x80 && r <= 0x9f, unsafeRune(r):
			t.Fatalf("%q holds %U", out, r)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "rm -rf src2 #\x1b[1A\x1b[2K", "\r\n\t", "\u009b\u202e\xff\xc3", "héllo\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		checkSafe(t, out, false)
		checkSafe(t, Line(s), true)
		assert.Equal(t, strings.Count(s, "\n"), strings.Count(out, "\n"), "newlines kept")
		if firstUnsafe(s, false, false) < 0 {
			assert.Equal(t, s, out, "safe text unchanged")
		}
		var st Stream
		half := len(s) / 2
		assert.Equal(t, out, st.Chunk(s[:half])+st.Chunk(s[half:])+st.Flush(), "chunks change nothing")
		if raw, err := json.Marshal(s); err == nil {
			j := JSON(string(raw))
			checkSafe(t, j, false)
			var back string
			require.NoError(t, json.Unmarshal([]byte(j), &back))
			var want string
			require.NoError(t, json.Unmarshal(raw, &want))
			assert.Equal(t, want, back)
		}
	})
}

func BenchmarkString(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"safe", strings.Repeat("func main() { fmt.Println(\"héllo\") }\n", 100)},
		{"hostile", strings.Repeat("rm -rf x #\x1b[1A\x1b[2K\u009b\u202e\r\n", 100)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			for b.Loop() {
				_ = String(bc.s)
			}
		})
	}
}
