package runtime

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// ToGo converts a Lua value to Go (nil, bool, int64 or float64, string, []any, map[string]any),
// bounded by lim (depth, values, cycles). NaN and infinities are an error unless lenient is set,
// in which case they become the strings "NaN", "Inf", "-Inf"; functions and other non-data values
// become "<function>" etc. when lenient, an error otherwise.
//
// Tables are read raw (no metamethod runs). A table whose keys are exactly 1..n is a []any; any
// other table, the empty one included, is a map[string]any whose number keys are formatted as
// strings, except that an empty table made by ToLua from a Go list stays an empty []any. An integral number below 2^53 in magnitude is an int64. Errors are *Error of KindLimit.
func ToGo(v lua.LValue, lim Limits, lenient bool) (any, error) {
	c := newConverter(lim, lenient)
	out, err := c.value(v, 0)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// converter is one bounded Lua-to-Go conversion; Call converts all of a call's results with one.
type converter struct {
	lim     Limits
	lenient bool
	values  int
	path    map[*lua.LTable]bool // the tables being converted: meeting one again is a cycle
}

func newConverter(lim Limits, lenient bool) *converter {
	return &converter{lim: lim.withDefaults(), lenient: lenient}
}

func (c *converter) value(v lua.LValue, depth int) (any, *Error) {
	if c.values++; c.values > c.lim.MaxValues {
		return nil, newError(KindLimit, "the value has more than %d elements", c.lim.MaxValues)
	}
	switch v := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(v), nil
	case lua.LString:
		return string(v), nil
	case lua.LNumber:
		return c.number(float64(v))
	case *lua.LTable:
		return c.table(v, depth+1)
	}
	if c.lenient {
		return "<" + v.Type().String() + ">", nil
	}
	return nil, newError(KindLimit, "a %s value cannot be converted", v.Type())
}

func (c *converter) number(f float64) (any, *Error) {
	switch {
	case f == math.Trunc(f) && math.Abs(f) < 1<<53:
		return int64(f), nil
	case !math.IsNaN(f) && !math.IsInf(f, 0):
		return f, nil
	case !c.lenient:
		return nil, newError(KindLimit, "%v is not a finite number", f)
	case math.IsNaN(f):
		return "NaN", nil
	case f > 0:
		return "Inf", nil
	}
	return "-Inf", nil
}

func (c *converter) table(t *lua.LTable, depth int) (any, *Error) {
	if depth > c.lim.MaxDepth {
		return nil, newError(KindLimit, "the value is nested deeper than %d levels", c.lim.MaxDepth)
	}
	if c.path[t] {
		return nil, newError(KindLimit, "the value contains a cycle")
	}
	if c.path == nil {
		c.path = map[*lua.LTable]bool{}
	}
	c.path[t] = true
	defer delete(c.path, t)

	if k, _ := t.Next(lua.LNil); k == lua.LNil && t.Metatable == listMeta {
		return []any{}, nil // an empty Go list that went through Lua
	}
	n, maxIndex := 0, 0.0
	t.ForEach(func(k, _ lua.LValue) {
		n++
		if f, ok := k.(lua.LNumber); ok && f >= 1 && float64(f) == math.Trunc(float64(f)) {
			maxIndex = max(maxIndex, float64(f))
		} else {
			maxIndex = math.Inf(1)
		}
	})
	if c.values+n > c.lim.MaxValues {
		return nil, newError(KindLimit, "the value has more than %d elements", c.lim.MaxValues)
	}
	var err *Error
	if n > 0 && maxIndex == float64(n) {
		out := make([]any, n)
		t.ForEach(func(k, v lua.LValue) {
			if err == nil {
				out[int(k.(lua.LNumber))-1], err = c.value(v, depth)
			}
		})
		return out, err
	}
	out := make(map[string]any, n)
	t.ForEach(func(k, v lua.LValue) {
		if err != nil {
			return
		}
		var key string
		if key, err = c.key(k); err != nil {
			return
		}
		if _, dup := out[key]; dup {
			err = newError(KindLimit, "the table has two keys that read %q", key)
			return
		}
		out[key], err = c.value(v, depth)
	})
	return out, err
}

// key formats a table key as a map key.
func (c *converter) key(k lua.LValue) (string, *Error) {
	switch k := k.(type) {
	case lua.LString:
		return string(k), nil
	case lua.LNumber:
		if f := float64(k); f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return strconv.FormatInt(int64(f), 10), nil
		}
		return strconv.FormatFloat(float64(k), 'g', -1, 64), nil
	}
	if c.lenient {
		return k.String(), nil
	}
	return "", newError(KindLimit, "a table key of type %s cannot be converted", k.Type())
}
