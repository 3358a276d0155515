package planshell

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
)

// cut -b list | -c list | -f list [-d delim] [-s] [--complement] [--output-delimiter=s]
// [file...]: -c is -b (bytes, as GNU cut does). A list is N, N-M, N- and -M, separated
// by commas.
func cut(c *call) error {
	complement, outDelim, haveOutDelim := false, "", false
	args := make([]string, 0, len(c.args))
	for _, a := range c.args {
		switch {
		case a == "--complement":
			complement = true
		case strings.HasPrefix(a, "--output-delimiter="):
			outDelim, haveOutDelim = strings.TrimPrefix(a, "--output-delimiter="), true
		default:
			args = append(args, a)
		}
	}
	c.args = args
	f, operands, err := c.parse("sn", "bcfd")
	if err != nil {
		return err
	}
	var mode byte
	for _, m := range []byte{'b', 'c', 'f'} {
		if f.has(m) {
			if mode != 0 {
				return c.fail(1, "only one type of list may be specified")
			}
			mode = m
		}
	}
	switch {
	case mode == 0:
		return c.fail(1, "you must specify a list of bytes, characters, or fields")
	case f.has('d') && mode != 'f':
		return c.fail(1, "an input delimiter may be specified only when operating on fields")
	case f.has('s') && mode != 'f':
		return c.fail(1, "suppressing non-delimited lines makes sense\n\tonly when operating on fields")
	}
	ranges, err := parseCutList(f.val(mode), mode == 'f')
	if err != nil {
		return c.fail(1, "%v", err)
	}
	selected := func(i int) bool { // i counts from 1
		for _, r := range ranges {
			if i >= r[0] && i <= r[1] {
				return !complement
			}
		}
		return complement
	}
	delim := "\t"
	if f.has('d') {
		delim = f.val('d')
		if len(delim) != 1 {
			return c.fail(1, "the delimiter must be a single character")
		}
	}
	if !haveOutDelim {
		outDelim = delim
		if mode != 'f' {
			outDelim = ""
		}
	}
	var out bytes.Buffer
	ok, err := c.inputs(operands, func(_ string, data []byte) error {
		out.Reset()
		for _, line := range lines(data) {
			if mode != 'f' {
				last := -1
				for i := 0; i < len(line); i++ {
					if !selected(i + 1) {
						continue
					}
					if last >= 0 && last != i-1 {
						out.WriteString(outDelim)
					}
					out.WriteByte(line[i])
					last = i
				}
				out.WriteByte('\n')
				continue
			}
			fields := strings.Split(line, delim)
			if len(fields) == 1 {
				if !f.has('s') {
					out.WriteString(line + "\n")
				}
				continue
			}
			first := true
			for i, field := range fields {
				if !selected(i + 1) {
					continue
				}
				if !first {
					out.WriteString(outDelim)
				}
				out.WriteString(field)
				first = false
			}
			out.WriteByte('\n')
		}
		_, err := c.stdout.Write(out.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	return status(ok)
}

// parseCutList parses a list of cut into inclusive ranges counted from 1.
func parseCutList(list string, fields bool) ([][2]int, error) {
	what := "byte/character position"
	if fields {
		what = "field value"
	}
	var ranges [][2]int
	for item := range strings.FieldsFuncSeq(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		lo, hi, isRange := strings.Cut(item, "-")
		num := func(s string, dflt int) (int, error) {
			if s == "" {
				return dflt, nil
			}
			n, err := strconv.Atoi(s)
			switch {
			case err != nil || n < 0 || strings.Trim(s, "0123456789") != "":
				return 0, fmt.Errorf("invalid %s '%s'", what, item)
			case n == 0:
				return 0, fmt.Errorf("fields and positions are numbered from 1")
			}
			return n, nil
		}
		if isRange && lo == "" && hi == "" {
			return nil, fmt.Errorf("invalid range with no endpoint: -")
		}
		a, err := num(lo, 1)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = num(hi, math.MaxInt); err != nil {
				return nil, err
			}
		}
		if b < a {
			return nil, fmt.Errorf("invalid decreasing range")
		}
		ranges = append(ranges, [2]int{a, b})
	}
	if len(ranges) == 0 {
		return nil, fmt.Errorf("invalid %s ''", what)
	}
	return ranges, nil
}

// basename name [suffix] | basename -a [-s suffix] name...: the last element of each
// name, without the suffix (unless that is all of it).
func basename(c *call) error {
	f, operands, err := c.parse("a", "s")
	if err != nil {
		return err
	}
	suffix := f.val('s')
	all := f.has('a') || f.has('s')
	switch {
	case len(operands) == 0:
		return c.fail(1, "missing operand")
	case !all && len(operands) == 2:
		suffix, operands = operands[1], operands[:1]
	case !all && len(operands) > 2:
		return c.fail(1, "extra operand '%s'", operands[2])
	}
	var out strings.Builder
	for _, name := range operands {
		base := name
		if trimmed := strings.TrimRight(name, "/"); trimmed == "" && name != "" {
			base = "/"
		} else if name != "" {
			base = path.Base(trimmed)
		}
		if suffix != "" && base != suffix && base != "/" {
			base = strings.TrimSuffix(base, suffix)
		}
		out.WriteString(base + "\n")
	}
	_, err = c.stdout.Write([]byte(out.String()))
	return err
}

// dirname name...: each name without its last element; "." when it has no slash.
func dirname(c *call) error {
	_, operands, err := c.parse("", "")
	if err != nil {
		return err
	}
	if len(operands) == 0 {
		return c.fail(1, "missing operand")
	}
	var out strings.Builder
	for _, name := range operands {
		dir := strings.TrimRight(name, "/")
		switch i := strings.LastIndexByte(dir, '/'); {
		case dir == "" && name != "":
			dir = "/"
		case i < 0:
			dir = "."
		default:
			dir = strings.TrimRight(dir[:i], "/")
			if dir == "" {
				dir = "/"
			}
		}
		out.WriteString(dir + "\n")
	}
	_, err = c.stdout.Write([]byte(out.String()))
	return err
}
