package validate

import "testing"

var yamlCases = []checkCase{
	{name: "multiple documents", path: "a.yaml", src: "---\na: 1\nb: [1, 2]\n---\n- x\n- y: {z: 1}\n...\n---\nlast\n"},
	{name: "anchors and merge keys", path: "a.yaml", src: "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n"},
	{name: "custom tags", path: "template.yml", src: "Resources:\n  X:\n    Value: !Ref Foo\n    Y: !GetAtt a.b\n"},
	{name: "complex key", path: "a.yaml", src: "? [a, b]\n: c\n"},
	{name: "block scalar", path: "a.yaml", src: "s: |\n  line (with [brackets\n  and: colons\nt: >-\n  folded\n"},
	{name: "same key in different mappings", path: "a.yaml", src: "a: {k: 1}\nb: {k: 2}\n"},
	{name: "empty", path: "a.yaml", src: ""},
	{name: "unclosed flow sequence", path: "a.yaml", src: "a: 1\nb: [1, 2\nc: 3\n", line: 2, msg: "did not find expected ',' or ']'"},
	{name: "bad indentation", path: "a.yaml", src: "a: 1\n  b: 2\n", line: 2, msg: "mapping values are not allowed in this context"},
	{name: "mapping after sequence", path: "a.yaml", src: "- a\nb: 1\n", line: 2, msg: "did not find expected '-' indicator"},
	{name: "error on the first line", path: "a.yaml", src: "a: b: c\n", line: 1, msg: "mapping values are not allowed in this context"},
	{name: "tab indentation", path: "a.yaml", src: "\tb: 1\n", line: 1, msg: "found character that cannot start any token"},
	{name: "broken second document", path: "a.yaml", src: "---\na: 1\n---\nb: [\n", line: 5, msg: "did not find expected node content"},
	{name: "unterminated quote", path: "a.yaml", src: "a: \"abc\n", line: 2, msg: "found unexpected end of stream"},
	{name: "control character", path: "a.yaml", src: "a: 1\nb: \x01\n", line: 2, column: 4, msg: "control characters are not allowed"},
	{name: "invalid UTF-8", path: "a.yaml", src: "a: 1\nb: \xff\n", line: 2, column: 4, msg: "invalid leading UTF-8 octet"},
	{name: "unknown anchor", path: "a.yaml", src: "a: *nope\n", msg: "unknown anchor 'nope' referenced"},
	{name: "duplicate key", path: "a.yaml", src: "a: 1\nb: 2\na: 3\n", line: 3, column: 1, msg: `mapping key "a" already defined at line 1`},
	{name: "first duplicate in document order", path: "a.yaml", src: "x:\n  k: 1\n  k: 2\ny: 1\ny: 2\n", line: 3, column: 3, msg: `mapping key "k"`},
	{name: "duplicate key in later document", path: "a.yaml", src: "---\nx: 1\n---\nouter:\n  k: 1\n  k: 2\n", line: 6, column: 3, msg: `mapping key "k" already defined at line 5`},
	{name: "duplicate key in flow mapping", path: "a.yaml", src: "k: {a: 1, a: 2}\n", line: 1, column: 11, msg: `mapping key "a"`},
}

func TestCheckYAML(t *testing.T) { runCases(t, yamlCases) }
