package planshell

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// sed [-n] [-i] [-E|-r] [-e script]... [script] [file...] runs the common subset of sed
// scripts: commands s/re/replacement/[g p i N], p, d and q, separated by ";" or
// newlines, each with an optional address (N, $ or /re/), range (addr,addr) and "!".
// Without -i the files are one stream; with -i each file is edited in place.
func sed(c *call) error {
	f, operands, err := c.parse("niEr", "e")
	if err != nil {
		return err
	}
	scripts := f['e']
	if len(scripts) == 0 {
		if len(operands) == 0 {
			return c.fail(1, "usage: sed [-n] [-i] [-E] [-e script]... [script] [file...]")
		}
		scripts, operands = operands[:1], operands[1:]
	}
	prog, err := parseSed(strings.Join(scripts, "\n"), f.has('E') || f.has('r'))
	if err != nil {
		return c.fail(1, "%v", err)
	}
	prog.quiet = f.has('n')
	if !f.has('i') {
		var all []byte
		ok, err := c.inputs(operands, func(_ string, data []byte) error {
			if len(all) > 0 && all[len(all)-1] != '\n' {
				all = append(all, '\n')
			}
			all = append(all, data...)
			return nil
		})
		if err != nil {
			return err
		}
		io.WriteString(c.stdout, prog.run(all))
		if !ok {
			return interp.ExitStatus(2)
		}
		return nil
	}
	if len(operands) == 0 {
		return c.fail(1, "no input files")
	}
	ok := true
	for _, p := range operands {
		info, err := c.fsys.Stat(c.abs(p))
		var data []byte
		if err == nil {
			data, err = c.readFile(p)
		}
		if err == nil {
			err = c.writeFile(c.abs(p), []byte(prog.run(data)), info.Mode().Perm())
		}
		if err != nil {
			c.errorf("couldn't edit %s: %s", p, reason(err))
			ok = false
		}
		if prog.quit {
			break
		}
	}
	return status(ok)
}

// sedProg is a parsed sed script and the state of its ranges.
type sedProg struct {
	cmds  []*sedCmd
	quiet bool // -n
	quit  bool // a q command ran
}

type sedCmd struct {
	from, to *sedAddr // no address: every line; no to: one address
	negate   bool     // "!"
	inRange  bool
	op       byte // 's', 'p', 'd' or 'q'

	re     *regexp.Regexp // s
	repl   []replPart
	global bool
	nth    int
	print  bool
}

// sedAddr is a line number, "$" or a /regexp/.
type sedAddr struct {
	line int
	last bool
	re   *regexp.Regexp
}

// replPart is literal text, or a group of the match when group >= 0 ("&" is 0).
type replPart struct {
	lit   string
	group int
}

// run runs the script over data (line numbers restart) and returns the output.
func (p *sedProg) run(data []byte) string {
	var out strings.Builder
	text := lines(data)
	missingNL := len(data) > 0 && data[len(data)-1] != '\n'
	pending := false // a newline owed before the next output
	emit := func(s string, last bool) {
		if pending {
			out.WriteByte('\n')
		}
		out.WriteString(s)
		pending = last && missingNL
		if !pending {
			out.WriteByte('\n')
		}
	}
	for _, cmd := range p.cmds {
		cmd.inRange = false
	}
	for i, ps := range text {
		last := i == len(text)-1
		deleted := false
	cmds:
		for _, cmd := range p.cmds {
			if cmd.selects(i+1, last, ps) == cmd.negate {
				continue
			}
			switch cmd.op {
			case 'p':
				emit(ps, last)
			case 'd':
				deleted = true
				break cmds
			case 'q':
				p.quit = true
				break cmds
			case 's':
				if s, ok := cmd.substitute(ps); ok {
					ps = s
					if cmd.print {
						emit(ps, last)
					}
				}
			}
		}
		if !deleted && !p.quiet {
			emit(ps, last)
		}
		if p.quit {
			break
		}
	}
	return out.String()
}

// selects reports whether the command's address selects line n.
func (cmd *sedCmd) selects(n int, last bool, ps string) bool {
	switch {
	case cmd.from == nil:
		return true
	case cmd.to == nil:
		return cmd.from.matches(n, last, ps)
	case cmd.inRange:
		to := cmd.to
		cmd.inRange = !(to.last && last || to.line > 0 && n >= to.line || to.re != nil && to.re.MatchString(ps))
		return true
	case cmd.from.matches(n, last, ps):
		to := cmd.to
		cmd.inRange = !(to.last && last || to.line > 0 && n >= to.line)
		return true
	}
	return false
}

func (a *sedAddr) matches(n int, last bool, ps string) bool {
	switch {
	case a.re != nil:
		return a.re.MatchString(ps)
	case a.last:
		return last
	}
	return n == a.line
}

// substitute runs an s command on ps; ok is false when nothing was replaced.
func (cmd *sedCmd) substitute(ps string) (string, bool) {
	var b strings.Builder
	done, n := 0, 0
	for _, m := range cmd.re.FindAllStringSubmatchIndex(ps, -1) {
		if n++; n < cmd.nth {
			continue
		}
		b.WriteString(ps[done:m[0]])
		for _, part := range cmd.repl {
			if part.group < 0 {
				b.WriteString(part.lit)
			} else if m[2*part.group] >= 0 {
				b.WriteString(ps[m[2*part.group]:m[2*part.group+1]])
			}
		}
		done = m[1]
		if !cmd.global {
			break
		}
	}
	if n < cmd.nth {
		return ps, false
	}
	b.WriteString(ps[done:])
	return b.String(), true
}

// sedParser parses a script.
type sedParser struct {
	s        string
	i        int
	extended bool
}

// parseSed parses a whole script; extended selects ERE (RE2) over basic regexps.
func parseSed(script string, extended bool) (*sedProg, error) {
	p := &sedParser{s: script, extended: extended}
	prog := &sedProg{}
	for {
		p.skip(" \t\n;")
		if p.i == len(p.s) {
			return prog, nil
		}
		cmd := &sedCmd{}
		var err error
		if cmd.from, err = p.addr(); err != nil {
			return nil, err
		}
		if cmd.from != nil && p.peek() == ',' {
			p.i++
			if cmd.to, err = p.addr(); err != nil {
				return nil, err
			}
			if cmd.to == nil {
				return nil, p.errorf("unexpected ','")
			}
		}
		p.skip(" \t")
		if p.peek() == '!' {
			cmd.negate = true
			p.i++
			p.skip(" \t")
		}
		if p.i == len(p.s) {
			return nil, p.errorf("missing command")
		}
		cmd.op = p.s[p.i]
		p.i++
		switch cmd.op {
		case 'p', 'd', 'q':
		case 's':
			if err := p.subst(cmd); err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf("unsupported command '%c' (plan mode supports s, p, d and q)", cmd.op)
		}
		p.skip(" \t")
		if p.i < len(p.s) && p.s[p.i] != ';' && p.s[p.i] != '\n' {
			return nil, p.errorf("extra characters after command")
		}
		prog.cmds = append(prog.cmds, cmd)
	}
}

func (p *sedParser) errorf(format string, a ...any) error {
	return fmt.Errorf("-e expression, char %d: "+format, append([]any{p.i}, a...)...)
}

func (p *sedParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sedParser) skip(chars string) {
	for p.i < len(p.s) && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

// addr parses an optional address.
func (p *sedParser) addr() (*sedAddr, error) {
	switch ch := p.peek(); {
	case ch == '$':
		p.i++
		return &sedAddr{last: true}, nil
	case ch >= '0' && ch <= '9':
		start := p.i
		p.skip("0123456789")
		n, err := strconv.Atoi(p.s[start:p.i])
		if err != nil || n == 0 {
			return nil, p.errorf("invalid line address %q", p.s[start:p.i])
		}
		return &sedAddr{line: n}, nil
	case ch == '/':
		p.i++
		expr, err := p.until('/', "unterminated address regex")
		if err != nil {
			return nil, err
		}
		re, err := p.compile(expr, false)
		if err != nil {
			return nil, err
		}
		return &sedAddr{re: re}, nil
	}
	return nil, nil
}

// until reads up to the next unescaped delim, which it consumes; "\delim" stands for
// delim and other escapes are kept.
func (p *sedParser) until(delim byte, unterminated string) (string, error) {
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		p.i++
		switch {
		case ch == delim:
			return b.String(), nil
		case ch == '\\' && p.i < len(p.s):
			if p.s[p.i] != delim {
				b.WriteByte('\\')
			}
			b.WriteByte(p.s[p.i])
			p.i++
		case ch == '\n':
			return "", p.errorf("%s", unterminated)
		default:
			b.WriteByte(ch)
		}
	}
	return "", p.errorf("%s", unterminated)
}

// compile compiles the regexp of an address or an s command.
func (p *sedParser) compile(expr string, fold bool) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, p.errorf("empty regular expression (plan mode does not reuse the previous one)")
	}
	re, err := compileRegexp(expr, p.extended, fold)
	if err != nil {
		return nil, p.errorf("%v", err)
	}
	return re, nil
}

// subst parses the rest of s/re/replacement/flags.
func (p *sedParser) subst(cmd *sedCmd) error {
	const unterminated = "unterminated 's' command"
	if p.i == len(p.s) || p.s[p.i] == '\\' || p.s[p.i] == '\n' {
		return p.errorf("%s", unterminated)
	}
	delim := p.s[p.i]
	p.i++
	expr, err := p.until(delim, unterminated)
	if err != nil {
		return err
	}
	repl, err := p.until(delim, unterminated)
	if err != nil {
		return err
	}
	fold := false
	cmd.nth = 1
flags:
	for p.i < len(p.s) {
		switch ch := p.s[p.i]; {
		case ch == 'g':
			cmd.global = true
		case ch == 'p':
			cmd.print = true
		case ch == 'i' || ch == 'I':
			fold = true
		case ch >= '1' && ch <= '9':
			start := p.i
			p.skip("0123456789")
			cmd.nth, _ = strconv.Atoi(p.s[start:p.i])
			continue
		case ch == ';' || ch == '\n' || ch == ' ' || ch == '\t':
			break flags
		default:
			return p.errorf("unsupported flag '%c' of the 's' command", ch)
		}
		p.i++
	}
	if cmd.re, err = p.compile(expr, fold); err != nil {
		return err
	}
	cmd.repl, err = parseReplacement(repl, cmd.re.NumSubexp())
	if err != nil {
		return p.errorf("%v", err)
	}
	return nil
}

// parseReplacement parses the replacement of an s command: "&" is the match, \1 to \9
// its groups, \n a newline, \t a tab, and any other escaped character itself.
func parseReplacement(s string, groups int) ([]replPart, error) {
	var parts []replPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '&':
			flush()
			parts = append(parts, replPart{group: 0})
		case ch == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; {
			case e >= '1' && e <= '9':
				if int(e-'0') > groups {
					return nil, fmt.Errorf("invalid reference \\%c on 's' command's RHS", e)
				}
				flush()
				parts = append(parts, replPart{group: int(e - '0')})
			case e == 'n':
				lit.WriteByte('\n')
			case e == 't':
				lit.WriteByte('\t')
			default:
				lit.WriteByte(e)
			}
		default:
			lit.WriteByte(ch)
		}
	}
	flush()
	return parts, nil
}
