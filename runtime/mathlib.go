package runtime

import (
	"math/rand/v2"

	lua "github.com/yuin/gopher-lua"
)

// mathRandom is math.random with Lua 5.1's ranges checked: gopher-lua's panics in Go on an
// empty interval (math.random(0)).
func mathRandom(L *lua.LState) int {
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(rand.Float64()))
	case 1:
		u := checkInt(L, 1)
		if u < 1 {
			L.ArgError(1, "interval is empty")
		}
		L.Push(lua.LNumber(1 + rand.Int64N(u)))
	default:
		l, u := checkInt(L, 1), checkInt(L, 2)
		if l > u {
			L.ArgError(2, "interval is empty")
		}
		L.Push(lua.LNumber(l + rand.Int64N(u-l+1)))
	}
	return 1
}
