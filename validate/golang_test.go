package validate

import "testing"

var goCases = []checkCase{
	{name: "generics", path: "p.go", src: `package p

type Set[T comparable] map[T]struct{}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func (s Set[T]) Has(x T) bool { _, ok := s[x]; return ok }
`},
	{name: "range over int and raw string", path: "p.go", src: "package p\n\nfunc f() {\n\tfor range 3 {\n\t}\n\t_ = `{ ( [`\n}\n"},
	{name: "missing operand", path: "p.go", src: "package p\n\nfunc f() {\n\tx := \n}\n", line: 5, column: 1, msg: "expected operand, found '}'"},
	{name: "unclosed brace", path: "p.go", src: "package p\nfunc f() {", line: 2, column: 11, msg: "expected '}', found 'EOF'"},
	{name: "unterminated string", path: "p.go", src: "package p\nvar s = \"abc\n", line: 2, column: 9, msg: "string literal not terminated"},
	{name: "first of several errors", path: "p.go", src: "package p\nvar = 1\nvar = 2\n", line: 2, column: 5, msg: "expected 'IDENT'"},
	{name: "empty file", path: "p.go", src: "", line: 1, column: 1, msg: "expected 'package'"},
}

func TestCheckGo(t *testing.T) { runCases(t, goCases) }
