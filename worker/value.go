package worker

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseValue parses JSON that encoding/json wrote (the host's results) into nil, bool,
// int64 (integral numbers below 2^53 in magnitude, as runtime.ToGo gives them), float64,
// string, []any and map[string]any, in one pass: encoding/json validates the whole text
// before decoding it, which doubles the cost of a result the size of a file. It checks
// what it reads, but it reads only what the host sends, never the worker's output.
func parseValue(b []byte) (any, error) {
	p := &parser{b: b}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail()
	}
	return v, nil
}

type parser struct {
	b []byte
	i int
}

// maxNesting bounds the parser's recursion (runtime's conversions stop far below).
const maxNesting = 1000

var errSyntax = errors.New("malformed JSON")

func (p *parser) fail() error { return errSyntax }

func (p *parser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxNesting {
		return nil, p.fail()
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, p.fail()
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return m, nil
		}
		for {
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.fail()
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail()
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[k] = v
			p.space()
			if p.i >= len(p.b) {
				return nil, p.fail()
			}
			if p.b[p.i] == '}' {
				p.i++
				return m, nil
			}
			if p.b[p.i] != ',' {
				return nil, p.fail()
			}
			p.i++
		}
	case c == '[':
		p.i++
		l := []any{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return l, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
			p.space()
			if p.i >= len(p.b) {
				return nil, p.fail()
			}
			if p.b[p.i] == ']' {
				p.i++
				return l, nil
			}
			if p.b[p.i] != ',' {
				return nil, p.fail()
			}
			p.i++
		}
	case c == '"':
		return p.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.b)-p.i >= len(lit.s) && string(p.b[p.i:p.i+len(lit.s)]) == lit.s {
				p.i += len(lit.s)
				return lit.v, nil
			}
		}
		return nil, p.fail()
	default:
		start := p.i
		for p.i < len(p.b) {
			switch p.b[p.i] {
			case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				p.i++
				continue
			}
			break
		}
		f, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
		if err != nil || start == p.i {
			return nil, p.fail()
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), nil
		}
		return f, nil
	}
}

// str parses a string at p.i (its opening quote).
func (p *parser) str() (string, error) {
	p.i++
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			seg := p.b[start:p.i]
			p.i++
			if !utf8.Valid(seg) {
				return string(validUTF8(nil, seg)), nil
			}
			return string(seg), nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", p.fail()
		default:
			p.i++
		}
	}
	return "", p.fail()
}

// escaped finishes a string that has escapes, begun at start.
func (p *parser) escaped(start int) (string, error) {
	out := validUTF8(make([]byte, 0, p.i-start+64), p.b[start:p.i])
	for p.i < len(p.b) {
		j := p.i // copy the run of plain characters at once
		for j < len(p.b) && p.b[j] >= 0x20 && p.b[j] < utf8.RuneSelf && p.b[j] != '"' && p.b[j] != '\\' {
			j++
		}
		out = append(out, p.b[p.i:j]...)
		if p.i = j; j == len(p.b) {
			break
		}
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", p.fail()
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.b[p.i:])
			out = utf8.AppendRune(out, r)
			p.i += size
			continue
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", p.fail()
		}
		p.i += 2
		switch e := p.b[p.i-1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail()
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					var ok2 bool
					if r2, ok2 = p.hex4(); !ok2 {
						return "", p.fail()
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						continue
					}
					p.i = save // not a pair: the second escape stands on its own
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", p.fail()
		}
	}
	return "", p.fail()
}

// hex4 reads the four hex digits of a \u escape.
func (p *parser) hex4() (rune, bool) {
	if len(p.b)-p.i < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

// validUTF8 appends b to out with each byte that is not UTF-8 replaced by U+FFFD, as
// encoding/json decodes it.
func validUTF8(out, b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, r)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}
