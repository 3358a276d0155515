package planshell

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// compileRegexp compiles a grep or sed pattern: POSIX basic syntax unless extended
// (then RE2, which covers ERE), with GNU's \< and \> as word boundaries.
func compileRegexp(pattern string, extended, fold bool) (*regexp.Regexp, error) {
	if !extended {
		pattern = basicToRE2(pattern)
	}
	pattern = strings.NewReplacer(`\\`, `\\`, `\<`, `\b`, `\>`, `\b`).Replace(pattern)
	if fold {
		pattern = "(?i)" + pattern
	}
	return regexp.Compile(pattern)
}

// basicToRE2 translates a POSIX basic regular expression: there \( \) \{ \} \| \+ \?
// are operators and ( ) { } | + ? are literal, and a leading "*" is literal.
func basicToRE2(expr string) string {
	var b strings.Builder
	start := true // where "*" is literal
	for i := 0; i < len(expr); i++ {
		ch := expr[i]
		switch {
		case ch == '\\' && i+1 < len(expr):
			i++
			if strings.IndexByte("(){}|+?", expr[i]) >= 0 {
				b.WriteByte(expr[i])
				start = expr[i] == '(' || expr[i] == '|'
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(expr[i])
		case strings.IndexByte("(){}|+?", ch) >= 0 || ch == '*' && start:
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
			start = ch == '^' && b.Len() == 1
			continue
		}
		start = false
	}
	return b.String()
}

// grep [-r -R -n -i -v -l -c -o -q -s -E -F -w -H -h] [-e pattern]... [--include=glob]
// pattern [file...]: exit status 0 when a line was selected, 1 when none, 2 on error.
// Patterns are POSIX basic syntax, or RE2 (which covers ERE) with -E.
func grep(c *call) error {
	var include []string
	args := make([]string, 0, len(c.args))
	for _, a := range c.args {
		if g, ok := strings.CutPrefix(a, "--include="); ok {
			include = append(include, g)
		} else {
			args = append(args, a)
		}
	}
	c.args = args
	f, operands, err := c.parse("rRnivlcoqEFwHhs", "e")
	if err != nil {
		return err
	}
	patterns := f['e']
	if len(patterns) == 0 {
		if len(operands) == 0 {
			return c.fail(2, "usage: grep [OPTION]... PATTERNS [FILE]...")
		}
		patterns, operands = strings.Split(operands[0], "\n"), operands[1:]
	}
	for i, p := range patterns {
		switch {
		case f.has('F'):
			p = regexp.QuoteMeta(p)
		case !f.has('E'):
			p = basicToRE2(p)
		}
		patterns[i] = "(?:" + p + ")"
	}
	expr := strings.Join(patterns, "|")
	if f.has('w') {
		expr = `\b(?:` + expr + `)\b`
	}
	re, err := compileRegexp(expr, true, f.has('i'))
	if err != nil {
		return c.fail(2, "invalid pattern: %v", err)
	}

	recursive := f.has('r') || f.has('R')
	implicit := len(operands) == 0 && recursive // names are shown without "./"
	switch {
	case implicit:
		operands = []string{"."}
	case len(operands) == 0:
		operands = []string{"-"}
	}
	withName := (len(operands) > 1 || recursive) && !f.has('h') || f.has('H')
	g := grepper{c: c, f: f, re: re, withName: withName}
	for _, p := range operands {
		if g.done() {
			break
		}
		if p == "-" {
			g.file(p, "(standard input)")
			continue
		}
		info, err := c.fsys.Stat(c.abs(p))
		switch {
		case err != nil:
			g.report(p, err)
		case info.IsDir() && !recursive:
			g.report(p, errIsDir)
		case info.IsDir():
			var files []string
			ok, err := c.walk(p, c.abs(p), info, 0, func(display string, info fs.FileInfo, _ int) bool {
				if info.Mode().IsRegular() && globsMatch(include, path.Base(display)) {
					files = append(files, display)
				}
				return true
			})
			if err != nil {
				return err
			}
			g.failed = g.failed || !ok
			for _, name := range files {
				display := name
				if implicit {
					display = strings.TrimPrefix(name, "./")
				}
				if g.file(name, display) {
					break
				}
			}
		default:
			g.file(p, p)
		}
	}
	if err := c.ctx.Err(); err != nil {
		return err
	}
	switch {
	case g.matched && (f.has('q') || !g.failed):
		return nil
	case g.failed:
		return interp.ExitStatus(2)
	}
	return interp.ExitStatus(1)
}

// globsMatch reports whether name matches one of the --include globs, or none was given.
func globsMatch(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return len(globs) == 0
}

// grepper searches the files of one grep call.
type grepper struct {
	c        *call
	f        flags
	re       *regexp.Regexp
	withName bool
	matched  bool // a line was selected
	failed   bool // an operand could not be read
}

// report reports an operand that cannot be read, unless -s.
func (g *grepper) report(p string, err error) {
	if !g.f.has('s') {
		g.c.report(p, err)
	}
	g.failed = true
}

// done reports whether grep can stop: -q has its answer, or ctx is done.
func (g *grepper) done() bool { return g.matched && g.f.has('q') || g.c.ctx.Err() != nil }

// file greps operand p, shown as display; it returns done().
func (g *grepper) file(p, display string) bool {
	data, err := g.c.readFile(p)
	if err != nil {
		g.report(display, err)
		return g.done()
	}
	f, out := g.f, g.c.stdout
	prefix := ""
	if g.withName {
		prefix = display + ":"
	}
	binary := bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
	var b strings.Builder
	count := 0
	for i, line := range lines(data) {
		if g.re.MatchString(line) == f.has('v') {
			continue
		}
		count++
		g.matched = true
		if f.has('q') || f.has('l') {
			break
		}
		if f.has('c') || binary {
			continue
		}
		lead := prefix
		if f.has('n') {
			lead += strconv.Itoa(i+1) + ":"
		}
		if f.has('o') {
			for _, m := range g.re.FindAllString(line, -1) {
				if m != "" && !f.has('v') {
					b.WriteString(lead + m + "\n")
				}
			}
			continue
		}
		b.WriteString(lead + line + "\n")
	}
	switch {
	case f.has('q'):
	case f.has('l'):
		if count > 0 {
			b.WriteString(display + "\n")
		}
	case f.has('c'):
		fmt.Fprintf(&b, "%s%d\n", prefix, count)
	case binary && count > 0:
		fmt.Fprintf(&b, "Binary file %s matches\n", display)
	}
	io.WriteString(out, b.String())
	return g.done()
}

// numericCount turns the old form "-5" of head and tail into "-n 5".
func numericCount(args []string) []string {
	out := make([]string, 0, len(args)+1)
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" {
			out = append(out, "-n", a[1:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// eachOperand calls fn for each operand (stdin when there are none), printing the
// "==> name <==" headers of head and tail when there are several.
func (c *call) eachOperand(operands []string, fn func(p string) error) (bool, error) {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	ok := true
	for i, p := range operands {
		if len(operands) > 1 {
			if i > 0 {
				fmt.Fprintln(c.stdout)
			}
			name := p
			if p == "-" {
				name = "standard input"
			}
			fmt.Fprintf(c.stdout, "==> %s <==\n", name)
		}
		if err := fn(p); err != nil {
			if c.ctx.Err() != nil || errors.Is(err, syscall.EPIPE) {
				return false, err
			}
			c.report(p, err)
			ok = false
		}
	}
	return ok, nil
}

// head [-n N | -c N | -N] [file...]: reads no further than it prints.
func head(c *call) error {
	c.args = numericCount(c.args)
	f, operands, err := c.parse("", "nc")
	if err != nil {
		return err
	}
	n, opt := 10, byte('n')
	if f.has('c') {
		opt = 'c'
	}
	if f.has(opt) {
		if n, _, err = c.count(opt, f.val(opt)); err != nil {
			return err
		}
	}
	ok, err := c.eachOperand(operands, func(p string) error {
		r, err := c.open(p)
		if err != nil {
			return err
		}
		defer r.Close()
		lr := io.LimitReader(r, maxFileSize)
		if opt == 'c' {
			_, err = io.CopyN(c.stdout, lr, int64(n))
			if err == io.EOF {
				err = nil
			}
			return err
		}
		br := bufio.NewReader(lr)
		for range n {
			line, err := br.ReadBytes('\n')
			if _, werr := c.stdout.Write(line); werr != nil {
				return werr
			}
			if err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return status(ok)
}

// tail [-n N | -n +N | -c N | -c +N | -N] [file...]
func tail(c *call) error {
	c.args = numericCount(c.args)
	f, operands, err := c.parse("", "nc")
	if err != nil {
		return err
	}
	n, plus, opt := 10, false, byte('n')
	if f.has('c') {
		opt = 'c'
	}
	if f.has(opt) {
		if n, plus, err = c.count(opt, f.val(opt)); err != nil {
			return err
		}
	}
	ok, err := c.eachOperand(operands, func(p string) error {
		data, err := c.readFile(p)
		if err != nil {
			return err
		}
		if opt == 'c' {
			if plus {
				_, err = c.stdout.Write(data[min(max(n-1, 0), len(data)):])
			} else {
				_, err = c.stdout.Write(data[len(data)-min(n, len(data)):])
			}
			return err
		}
		text := strings.SplitAfter(string(data), "\n")
		if text[len(text)-1] == "" {
			text = text[:len(text)-1]
		}
		if plus {
			text = text[min(max(n-1, 0), len(text)):]
		} else {
			text = text[len(text)-min(n, len(text)):]
		}
		_, err = io.WriteString(c.stdout, strings.Join(text, ""))
		return err
	})
	if err != nil {
		return err
	}
	return status(ok)
}

// wc [-l -w -c] [file...]: counts lines, words and bytes, with a total for several files.
func wc(c *call) error {
	f, operands, err := c.parse("lwc", "")
	if err != nil {
		return err
	}
	cols := []byte{'l', 'w', 'c'}
	if f.has('l') || f.has('w') || f.has('c') {
		cols = slices.DeleteFunc(cols, func(b byte) bool { return !f.has(b) })
	}
	type row struct {
		counts map[byte]int
		name   string
	}
	var rows []row
	total := row{counts: map[byte]int{}, name: "total"}
	ok, err := c.inputs(operands, func(p string, data []byte) error {
		r := row{counts: map[byte]int{
			'l': bytes.Count(data, []byte("\n")),
			'w': len(bytes.Fields(data)),
			'c': len(data),
		}}
		if len(operands) > 0 {
			r.name = p
		}
		for b, n := range r.counts {
			total.counts[b] += n
		}
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return err
	}
	if len(operands) > 1 {
		rows = append(rows, total)
	}
	width := 1
	if len(cols) > 1 || len(rows) > 1 || len(operands) > 0 {
		for _, r := range rows {
			for _, b := range cols {
				width = max(width, len(strconv.Itoa(r.counts[b])))
			}
		}
	}
	var out strings.Builder
	for _, r := range rows {
		fields := make([]string, 0, len(cols)+1)
		for _, b := range cols {
			fields = append(fields, fmt.Sprintf("%*d", width, r.counts[b]))
		}
		if r.name != "" {
			fields = append(fields, r.name)
		}
		out.WriteString(strings.Join(fields, " ") + "\n")
	}
	io.WriteString(c.stdout, out.String())
	return status(ok)
}

// sortLines is sort [-r -n -u -f] [file...], comparing bytes (the C locale).
func sortLines(c *call) error {
	f, operands, err := c.parse("rnuf", "")
	if err != nil {
		return err
	}
	var all []string
	ok, err := c.inputs(operands, func(_ string, data []byte) error {
		all = append(all, lines(data)...)
		return nil
	})
	if err != nil {
		return err
	}
	key := func(a, b string) int {
		switch {
		case f.has('n'):
			return cmp.Compare(leadingNumber(a), leadingNumber(b))
		case f.has('f'):
			return strings.Compare(strings.ToUpper(a), strings.ToUpper(b))
		}
		return strings.Compare(a, b)
	}
	order := func(a, b string) int {
		k := key(a, b)
		if k == 0 && !f.has('u') {
			k = strings.Compare(a, b) // the last-resort comparison
		}
		if f.has('r') {
			return -k
		}
		return k
	}
	slices.SortStableFunc(all, order)
	if f.has('u') {
		all = slices.CompactFunc(all, func(a, b string) bool { return key(a, b) == 0 })
	}
	var out strings.Builder
	for _, l := range all {
		out.WriteString(l + "\n")
	}
	io.WriteString(c.stdout, out.String())
	return status(ok)
}

var numberPrefix = regexp.MustCompile(`^\s*-?[0-9]*(\.[0-9]*)?`)

// leadingNumber is the value of the number at the start of s, as sort -n reads it; no
// number is 0.
func leadingNumber(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(numberPrefix.FindString(s)), 64)
	return v
}

// uniq [-c -d -u] [file]: merges adjacent equal lines.
func uniq(c *call) error {
	f, operands, err := c.parse("cdu", "")
	if err != nil {
		return err
	}
	if len(operands) > 1 {
		return c.fail(1, "extra operand '%s'", operands[1])
	}
	var out strings.Builder
	ok, err := c.inputs(operands, func(_ string, data []byte) error {
		text := lines(data)
		for i := 0; i < len(text); {
			j := i + 1
			for j < len(text) && text[j] == text[i] {
				j++
			}
			n := j - i
			if !(f.has('d') && n == 1 || f.has('u') && n > 1) {
				if f.has('c') {
					fmt.Fprintf(&out, "%7d ", n)
				}
				out.WriteString(text[i] + "\n")
			}
			i = j
		}
		return nil
	})
	if err != nil {
		return err
	}
	io.WriteString(c.stdout, out.String())
	return status(ok)
}
