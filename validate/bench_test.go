package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchLines is the length of the files the benchmarks check.
const benchLines = 10_000

// BenchmarkCheck checks a valid file of benchLines lines of every kind.
func BenchmarkCheck(b *testing.B) {
	lisp := "(define (f a b)\n  \"doc ( string\" ; comment )\n  (list a b #\\( [1 2] {3 4}))\n"
	for _, tc := range []struct{ path, header, unit, footer string }{
		{"a.go", "package p\n\n", "func f(x int) int {\n\tif x > 0 {\n\t\treturn x * 2\n\t}\n\treturn -x\n}\n\n", ""},
		{"a.json", "[\n", "  {\"id\": 1, \"name\": \"caf\\u00e9\", \"tags\": [\"a\", \"b\"], \"ok\": true},\n", "  null\n]\n"},
		{"a.lua", "", "local function f(a, b)\n  if a then return a + b end\n  return { a, b, 'x' } -- comment\nend\n", ""},
		{"a.el", "", lisp, ""},
		{"a.lisp", "", lisp, ""},
		{"a.scm", "", lisp, ""},
		{"a.rkt", "", lisp, ""},
		{"a.clj", "", lisp, ""},
		{"a.yaml", "", "- name: item\n  tags: [a, b]\n  nested:\n    k: 'v'\n", ""},
		{"a.toml", "", "[[item]]\nname = \"x\"\ntags = [\"a\", \"b\"]\nn = 1\n\n", ""},
	} {
		lines := func(s string) int { return strings.Count(s, "\n") }
		n := (benchLines - lines(tc.header) - lines(tc.footer)) / lines(tc.unit)
		src := []byte(tc.header + strings.Repeat(tc.unit, n) + tc.footer)
		b.Run(Kind(tc.path), func(b *testing.B) {
			require.Nil(b, Check(tc.path, src))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				Check(tc.path, src)
			}
		})
	}
}
