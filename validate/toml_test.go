package validate

import "testing"

var tomlCases = []checkCase{
	{name: "tables and arrays", path: "a.toml", src: `title = "x"

[owner]
name = "Tom"
dob = 1979-05-27T07:32:00-08:00

[database]
ports = [ 8000, 8001, 8002 ]
data = [ ["delta", "phi"], [3.14] ]
inline = { x = 1, y = { z = 2 } }

[[products]]
name = "Hammer"

[[products]]
name = "Nail"

[a.b.c]
s = """
multi [ line
"""
d.e = 'literal'
`},
	{name: "empty", path: "a.toml", src: ""},
	{name: "missing value", path: "a.toml", src: "a = 1\nb = \n", line: 2, column: 5, msg: "unexpected character U+000A at start of value"},
	{name: "duplicate key", path: "a.toml", src: "a = 1\na = 2\n", line: 2, column: 1, msg: "key a is already defined"},
	{name: "duplicate table", path: "a.toml", src: "[t]\nx = 1\n[t]\n", line: 3, column: 2, msg: "table t already exists"},
	{name: "unclosed array", path: "a.toml", src: "a = [1,\n 2\n", line: 2, column: 3, msg: "array is incomplete"},
	{name: "newline in string", path: "a.toml", src: "a = \"x\n", line: 1, column: 7, msg: "basic strings cannot have new lines"},
	{name: "two keys on a line", path: "a.toml", src: "a = 1 b = 2", line: 1, column: 7, msg: "expected newline but got U+0062 'b'"},
}

func TestCheckTOML(t *testing.T) { runCases(t, tomlCases) }
