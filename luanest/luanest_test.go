package luanest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTooDeep(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want int
	}{
		{"brackets in strings and comments", "s = '((((' .. \"[[[[\" -- ((((\n--[[ (((( ]]", -1},
		{"long string", "s = [=[ ((((( ]=]", -1},
		{"keywords inside names", "undo = done + ending + iffy", -1},
		{"blocks and brackets", "do do ( [ { x } ] ) end end", 8},
		{"function parameters count", "while x do f(function() end) end", 21},
		{"if elseif counts once", "if a then elseif b then if c then do do end end end end", 37},
		{"repeat until", "repeat repeat repeat until a until b until c; (((x)))", -1},
		{"stray closers do not lower the floor", ")))) end end ((((", 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, TooDeep(tc.src, 3))
		})
	}
}

func TestTooDeepAtTheLimit(t *testing.T) {
	assert.Equal(t, -1, TooDeep(strings.Repeat("(", 200)+strings.Repeat(")", 200), 200))
	assert.Equal(t, 200, TooDeep(strings.Repeat("(", 201), 200))
	assert.Equal(t, 1_000_000-1, TooDeep(strings.Repeat("{", 1_000_000), 1_000_000-1), "a million openers scan without recursion")
}
