package validate

import "testing"

var luaCases = []checkCase{
	{name: "long strings and comments", path: "a.lua", src: `--[[ block comment with ( and end ]]
--[==[ another ]] one ]==]
local s = [==[ long ]] string ]=] with ( ]==]
local u = [[
multi-line ( [
]]
local t = { 1, 2, [3] = "three", f = function(...) return select('#', ...) end }
local function f(a, b)
  if a then return a elseif b then return b else return nil end
end
for i = 1, 10 do repeat local x = 'it\'s' until true end
while false do end
return t:f"x" .. #s .. u -- trailing comment (
`},
	{name: "empty", path: "a.lua", src: ""},
	{name: "shebang", path: "a.lua", src: "#!/usr/bin/env lua (\nprint('hi')\n"},
	{name: "error after shebang", path: "a.lua", src: "#!/usr/bin/env lua\nx = = 1\n", line: 2, column: 5, msg: `near "="`},
	{name: "keyword as token", path: "a.lua", src: "return return", line: 1, column: 8, msg: `syntax error near "return"`},
	{name: "doubled operator", path: "a.lua", src: "x = 1\ny = = 2", line: 2, column: 5, msg: `syntax error near "="`},
	{name: "extra end", path: "a.lua", src: "function f()\n  return 1\nend end", line: 3, column: 5, msg: `near "end"`},
	{name: "string token column is its end", path: "a.lua", src: "x = 'a' 'b'", line: 1, column: 11, msg: `near "b"`},
	{name: "invalid character", path: "a.lua", src: "x = @", line: 1, column: 5, msg: "Invalid token"},
	{name: "dangling operator", path: "a.lua", src: "x = 1 +", line: 1, column: 8, msg: "syntax error at end of file"},
	{name: "unterminated string", path: "a.lua", src: "local s = 'abc", line: 1, column: 15, msg: "unterminated string at end of file"},
	{name: "unclosed block", path: "a.lua", src: "if x then\n  y()\n", line: 3, column: 1, msg: "at end of file"},
	{name: "unclosed long string", path: "a.lua", src: "s = [==[ abc ]]\n", line: 2, column: 1, msg: "at end of file"},
}

func TestCheckLua(t *testing.T) { runCases(t, luaCases) }
