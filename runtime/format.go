package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// strFormat is string.format with Lua 5.1's directives only: %d %i %u %c %o %x %X %e %E %f %g
// %G %q %s %%, flags "-+ #0", width and precision of two digits at most. gopher-lua hands the
// format to Go's fmt with Lua values as operands, which prints Go internals for %v, %T or %d of
// a table (research 1.9 #6); here fmt only ever sees a checked verb and an int64, uint64, float64
// or string, and the result is capped at MaxStringBytes.
func strFormat(L *lua.LState) int {
	f := L.CheckString(1)
	b := newCapped(L, "string.format")
	arg := 1
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.addByte(f[i])
			continue
		}
		if i++; i < len(f) && f[i] == '%' {
			b.addByte('%')
			continue
		}
		spec, next := scanFormat(L, f, i)
		if next == len(f) {
			L.RaiseError("invalid conversion '%%%s' to 'format'", spec)
		}
		arg++
		b.add(formatArg(L, arg, spec, f[next]))
		i = next
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// scanFormat reads the flags, width and precision of a directive at f[i:]; it returns them and
// the index of the conversion character.
func scanFormat(L *lua.LState, f string, i int) (string, int) {
	p := i
	for p < len(f) && strings.IndexByte("-+ #0", f[p]) >= 0 {
		p++
	}
	if p-i > 5 {
		L.RaiseError("invalid format (repeated flags)")
	}
	p = skipDigits(f, p)
	if p < len(f) && f[p] == '.' {
		p = skipDigits(f, p+1)
	}
	if p < len(f) && isDigit(f[p]) {
		L.RaiseError("invalid format (width or precision too long)")
	}
	return f[i:p], p
}

// skipDigits skips at most two digits.
func skipDigits(f string, p int) int {
	for n := 0; n < 2 && p < len(f) && isDigit(f[p]); n++ {
		p++
	}
	return p
}

// formatArg formats argument arg with the directive spec+verb.
func formatArg(L *lua.LState, arg int, spec string, verb byte) string {
	if arg > L.GetTop() {
		L.ArgError(arg, "no value")
	}
	switch verb {
	case 'd', 'i':
		return fmtPrintf(spec, 'd', intOf(L, arg))
	case 'u', 'o', 'x', 'X':
		if verb == 'u' {
			verb = 'd'
		}
		return fmtPrintf(spec, verb, uint64(intOf(L, arg)))
	case 'c':
		return pad(spec, string([]byte{byte(intOf(L, arg))}))
	case 'e', 'E', 'f', 'g', 'G':
		v := float64(L.CheckNumber(arg))
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return pad(spec, nonFinite(spec, v))
		}
		if !strings.Contains(spec, ".") {
			spec += ".6" // C's default precision; Go's %g would print the shortest form
		}
		return fmtPrintf(spec, verb, v)
	case 'q':
		return quote(L.CheckString(arg))
	case 's':
		s := L.ToStringMeta(L.Get(arg)).String()
		if _, prec, ok := strings.Cut(spec, "."); ok {
			n, _ := strconv.Atoi(prec)
			s = s[:min(n, len(s))]
		}
		return pad(spec, s)
	}
	L.RaiseError("invalid option '%%%c' to 'format'", verb)
	return ""
}

// intOf is argument arg as an integer for %d and its kin.
func intOf(L *lua.LState, arg int) int64 {
	v := float64(L.CheckNumber(arg))
	if math.IsNaN(v) || v < -(1<<63) || v >= 1<<63 {
		L.ArgError(arg, "number has no integer representation")
	}
	return int64(v)
}

// pad pads s to the width of spec with spaces, on the right for the - flag, counting bytes as C
// does (fmt counts runes).
func pad(spec, s string) string {
	flags := strings.TrimRight(spec, "0123456789.")
	width, _ := strconv.Atoi(strings.TrimLeft(strings.SplitN(spec, ".", 2)[0], "-+ #0"))
	if len(s) >= width {
		return s
	}
	fill := strings.Repeat(" ", width-len(s))
	if strings.Contains(flags, "-") {
		return s + fill
	}
	return fill + s
}

// nonFinite spells an infinity or NaN as C's printf does.
func nonFinite(spec string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case v < 0:
		return "-inf"
	case strings.Contains(spec, "+"):
		return "+inf"
	}
	return "inf"
}

// quote is %q: a Lua string literal that reads back as s.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fmtPrintf formats one checked operand with the checked directive %spec verb.
func fmtPrintf(spec string, verb byte, v any) string {
	return fmt.Sprintf("%"+spec+string(verb), v)
}
