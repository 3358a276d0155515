package planshell

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// tr [-c -d -s -t] set1 [set2]: translates, deletes or squeezes the bytes of stdin (the
// C locale). Sets have escapes (\n, \t, \\, \NNN), ranges (a-z), classes ([:upper:],
// ...), [=c=] and, in set2, repeats ([c*n], [c*]).
func tr(c *call) error {
	f, operands, err := c.parse("cCdst", "")
	if err != nil {
		return err
	}
	complement, del, squeeze := f.has('c') || f.has('C'), f.has('d'), f.has('s')
	translate := !del && len(operands) == 2
	switch {
	case len(operands) == 0:
		return c.fail(1, "missing operand")
	case len(operands) == 1 && !del && !squeeze:
		return c.fail(1, "missing operand after '%s'\nTwo strings must be given when translating.", operands[0])
	case len(operands) == 2 && del && !squeeze:
		return c.fail(1, "extra operand '%s'\nOnly one string may be given when deleting without squeezing repeats.", operands[1])
	case len(operands) > 2:
		return c.fail(1, "extra operand '%s'", operands[2])
	}
	set1, err := parseTrSet(operands[0], false)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	first := set1.expand(0)
	if complement {
		var in [256]bool
		for _, b := range first {
			in[b] = true
		}
		first = first[:0:0]
		for b := range 256 {
			if !in[b] {
				first = append(first, byte(b))
			}
		}
	}
	var second []byte
	if len(operands) == 2 {
		set2, err := parseTrSet(operands[1], true)
		if err != nil {
			return c.fail(1, "%v", err)
		}
		second = set2.expand(len(first))
	}

	var mapping [256]byte
	for b := range 256 {
		mapping[b] = byte(b)
	}
	var deleting, squeezing [256]bool
	if translate {
		switch {
		case len(second) == 0 && len(first) > 0:
			return c.fail(1, "when not truncating set1, string2 must be non-empty")
		case f.has('t'):
			first = first[:min(len(first), len(second))]
		}
		for i, b := range first {
			mapping[b] = second[min(i, len(second)-1)]
		}
	}
	if del {
		for _, b := range first {
			deleting[b] = true
		}
	}
	if squeeze {
		last := first // -s alone squeezes set1; with translation or -d, set2
		if len(operands) == 2 {
			last = second
		}
		for _, b := range last {
			squeezing[b] = true
		}
	}

	r := bufio.NewReaderSize(c.stdin, 32<<10)
	buf := make([]byte, 32<<10)
	out := make([]byte, 0, len(buf))
	prev, havePrev := byte(0), false
	for {
		n, rerr := r.Read(buf)
		out = out[:0]
		for _, b := range buf[:n] {
			if deleting[b] {
				continue
			}
			b = mapping[b]
			if squeezing[b] && havePrev && prev == b {
				continue
			}
			prev, havePrev = b, true
			out = append(out, b)
		}
		if _, err := c.stdout.Write(out); err != nil {
			return err
		}
		if rerr == io.EOF {
			return nil
		} else if rerr != nil {
			return rerr
		}
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
}

// trSet is a parsed set: its items in order; a repeat [c*] with no count fills set2 up
// to the length of set1.
type trSet []trItem

type trItem struct {
	bytes []byte
	fill  bool // [c*]: bytes[0], as many times as needed
}

// expand returns the bytes of the set; n is the length of set1, which [c*] fills to.
func (s trSet) expand(n int) []byte {
	fixed := 0
	for _, it := range s {
		if !it.fill {
			fixed += len(it.bytes)
		}
	}
	var out []byte
	for _, it := range s {
		if it.fill {
			out = append(out, bytes.Repeat(it.bytes[:1], max(n-fixed, 0))...)
			continue
		}
		out = append(out, it.bytes...)
	}
	return out
}

var trClasses = map[string]func(b byte) bool{
	"alnum":  func(b byte) bool { return isAlpha(b) || isDigit(b) },
	"alpha":  isAlpha,
	"blank":  func(b byte) bool { return b == ' ' || b == '\t' },
	"cntrl":  func(b byte) bool { return b < 32 || b == 127 },
	"digit":  isDigit,
	"graph":  func(b byte) bool { return b > 32 && b < 127 },
	"lower":  func(b byte) bool { return b >= 'a' && b <= 'z' },
	"print":  func(b byte) bool { return b >= 32 && b < 127 },
	"punct":  func(b byte) bool { return b > 32 && b < 127 && !isAlpha(b) && !isDigit(b) },
	"space":  func(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' },
	"upper":  func(b byte) bool { return b >= 'A' && b <= 'Z' },
	"xdigit": func(b byte) bool { return isDigit(b) || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' },
}

func isAlpha(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// parseTrSet parses a set of tr; repeats are allowed only in set2.
func parseTrSet(s string, second bool) (trSet, error) {
	var set trSet
	for i := 0; i < len(s); {
		if s[i] == '[' && i+1 < len(s) {
			if it, next, ok, err := trBracket(s, i, second); err != nil {
				return nil, err
			} else if ok {
				set = append(set, it)
				i = next
				continue
			}
		}
		b, next := trChar(s, i)
		if next+1 < len(s) && s[next] == '-' {
			end, after := trChar(s, next+1)
			if end < b {
				return nil, fmt.Errorf("range-endpoints of '%s' are in reverse collating sequence order", s[i:after])
			}
			var r []byte
			for x := int(b); x <= int(end); x++ {
				r = append(r, byte(x))
			}
			set = append(set, trItem{bytes: r})
			i = after
			continue
		}
		set = append(set, trItem{bytes: []byte{b}})
		i = next
	}
	return set, nil
}

// trBracket parses [:class:], [=c=] or [c*n] at s[i] == '['; ok is false when it is
// none of them (then "[" is an ordinary character).
func trBracket(s string, i int, second bool) (it trItem, next int, ok bool, err error) {
	switch s[i+1] {
	case ':':
		end := strings.Index(s[i+2:], ":]")
		if end < 0 {
			return it, 0, false, nil
		}
		name := s[i+2 : i+2+end]
		class, known := trClasses[name]
		if !known {
			return it, 0, false, fmt.Errorf("invalid character class '%s'", name)
		}
		for b := range 256 {
			if class(byte(b)) {
				it.bytes = append(it.bytes, byte(b))
			}
		}
		return it, i + 2 + end + 2, true, nil
	case '=':
		b, j := trChar(s, i+2)
		if strings.HasPrefix(s[j:], "=]") {
			return trItem{bytes: []byte{b}}, j + 2, true, nil
		}
		return it, 0, false, nil
	}
	b, j := trChar(s, i+1)
	if j >= len(s) || s[j] != '*' {
		return it, 0, false, nil
	}
	end := strings.IndexByte(s[j:], ']')
	if end < 0 {
		return it, 0, false, nil
	}
	count := s[j+1 : j+end]
	if !second {
		return it, 0, false, fmt.Errorf("the [c*] repeat construct may not appear in string1")
	}
	if count == "" {
		return trItem{bytes: []byte{b}, fill: true}, j + end + 1, true, nil
	}
	base := 10
	if count[0] == '0' {
		base = 8
	}
	n, perr := strconv.ParseUint(count, base, 31)
	if perr != nil {
		return it, 0, false, fmt.Errorf("invalid repeat count '%s' in [c*n] construct", count)
	}
	if n == 0 {
		return trItem{bytes: []byte{b}, fill: true}, j + end + 1, true, nil
	}
	if n > maxFileSize {
		return it, 0, false, fmt.Errorf("invalid repeat count '%s' in [c*n] construct", count)
	}
	return trItem{bytes: bytes.Repeat([]byte{b}, int(n))}, j + end + 1, true, nil
}

// trChar reads one character of a set at s[i], an escape or a byte; it returns the
// byte and the index after it.
func trChar(s string, i int) (byte, int) {
	if s[i] != '\\' || i+1 == len(s) {
		return s[i], i + 1
	}
	e := s[i+1]
	if e >= '0' && e <= '7' {
		v, j := 0, i+1
		for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' && v*8+int(s[j]-'0') < 256 {
			v = v*8 + int(s[j]-'0')
			j++
		}
		return byte(v), j
	}
	if r, ok := map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}[e]; ok {
		return r, i + 2
	}
	return e, i + 2
}
