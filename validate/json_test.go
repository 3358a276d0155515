package validate

import "testing"

var jsonCases = []checkCase{
	{name: "object with unicode escapes", path: "a.json", src: `{
  "name": "caf\u00e9 \ud83d\ude00 \"quoted\" \\ \/",
  "n": -1.5e10,
  "a": [true, false, null, {}],
  "nested": {"k": []}
}
`},
	{name: "scalar surrounded by whitespace", path: "a.json", src: "  \n\"just a string\"\n\t"},
	{name: "raw UTF-8", path: "a.json", src: `["日本語", "é"]`},
	{name: "trailing comma", path: "a.json", src: "{\n  \"a\": 1,\n}", line: 3, column: 1, msg: "invalid character '}' looking for beginning of object key string"},
	{name: "second value", path: "a.json", src: "{}\n{}", line: 2, column: 1, msg: "after top-level value"},
	{name: "two numbers", path: "a.json", src: "1 2", line: 1, column: 3, msg: "after top-level value"},
	{name: "empty", path: "a.json", src: "", line: 1, column: 1, msg: "unexpected end of JSON input"},
	{name: "whitespace only", path: "a.json", src: "\n\n", line: 3, column: 1, msg: "unexpected end of JSON input"},
	{name: "truncated", path: "a.json", src: `{"a": [1, 2`, line: 1, column: 12, msg: "unexpected end of JSON input"},
	{name: "single quotes", path: "a.json", src: "{'a': 1}", line: 1, column: 2, msg: "invalid character '\\'' looking for beginning of object key string"},
	{name: "bad escape", path: "a.json", src: `"\x"`, line: 1, column: 3, msg: "invalid character 'x' in string escape code"},
	{name: "bad unicode escape", path: "a.json", src: `"\u12G4"`, line: 1, column: 6, msg: "invalid character 'G' in \\u hexadecimal character escape"},
	{name: "comment", path: "a.json", src: "{\n  // no comments in JSON\n}", line: 2, column: 3, msg: "invalid character '/'"},
}

func TestCheckJSON(t *testing.T) { runCases(t, jsonCases) }
