package planshell

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
)

// xargs's exit statuses, as GNU xargs.
const (
	xargsFailed   = 123 // a command exited with 1 to 125
	xargsStopped  = 124 // a command exited with 255
	xargsNotFound = 127 // the command is not a builtin
)

// xargs [-0 -r -t] [-n max] [-L max] [-I repl] [command [arg...]]: runs a builtin of
// [Commands] (or echo, the default) with the items read from stdin: blank-separated
// with quotes and backslashes, NUL-separated with -0, or one per line with -I, which
// replaces repl in the arguments. Anything that is not a builtin fails with 127 like
// every other program. The command's stdin is empty.
func xargs(c *call) error {
	opts, command, err := c.xargsParse()
	if err != nil {
		return err
	}
	if len(command) == 0 {
		command = []string{"echo"}
	}
	run := xargsEcho
	if command[0] != "echo" {
		var ok bool
		if run, ok = builtins[command[0]]; !ok {
			c.errorf("plan mode: %s: external programs cannot run in plan mode; builtins: %s",
				command[0], strings.Join(Commands(), ", "))
			return interp.ExitStatus(xargsNotFound)
		}
	}
	x := &xargsRun{c: c, opts: opts, command: command, run: run}
	sep := byte('\n')
	if opts.nul {
		sep = 0
	}
	in := bufio.NewReader(c.stdin)
	for {
		line, rerr := readRecord(in, sep)
		if len(line) > 0 {
			if err := x.add(line); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			break
		} else if rerr != nil {
			return rerr
		}
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	if err := x.flush(); err != nil {
		return err
	}
	if !x.ran && !opts.noRunEmpty && opts.replace == "" {
		if err := x.exec(nil); err != nil {
			return err
		}
	}
	return exitCode(x.code)
}

// xargsMaxLine caps the command lines xargs builds, as the system's limit on the size of
// arguments does for GNU xargs: more input is run as another command.
const xargsMaxLine = 128 << 10

// xargsRun collects the items of the command lines of one xargs call and runs them.
type xargsRun struct {
	c       *call
	opts    xargsOptions
	command []string
	run     func(*call) error
	pending []string // the items of the next command line
	size    int      // their bytes
	lines   int      // the non-blank input lines they come from (-L)
	ran     bool     // a command line was run
	code    int      // xargs's exit status so far
}

// add takes one record of the input (a line, or with -0 an item), running the command
// lines it completes.
func (x *xargsRun) add(record string) error {
	var items []string
	switch {
	case x.opts.nul:
		items = []string{strings.TrimSuffix(record, "\x00")}
	case x.opts.replace != "":
		if line := strings.TrimLeft(strings.TrimSuffix(record, "\n"), " \t"); line != "" {
			return x.exec([]string{line})
		}
		return nil
	default:
		var err error
		if items, err = xargsItems(record); err != nil {
			x.flush()
			return x.c.fail(1, "%v", err)
		}
	}
	for _, item := range items {
		x.pending = append(x.pending, item)
		x.size += len(item) + 1
		if len(x.pending) == x.opts.maxArgs || x.size > xargsMaxLine {
			if err := x.flush(); err != nil {
				return err
			}
		}
	}
	if len(items) > 0 && x.opts.maxLines > 0 {
		if x.lines++; x.lines == x.opts.maxLines {
			return x.flush()
		}
	}
	return nil
}

// flush runs the pending items, if any.
func (x *xargsRun) flush() error {
	items := x.pending
	x.pending, x.size, x.lines = nil, 0, 0
	if len(items) == 0 {
		return nil
	}
	return x.exec(items)
}

// exec runs the command with items: appended to its arguments, or with -I put in place
// of the replace string.
func (x *xargsRun) exec(items []string) error {
	c, command := x.c, x.command
	x.ran = true
	args := append(append([]string(nil), command[1:]...), items...)
	if x.opts.replace != "" {
		args = make([]string, len(command)-1)
		for i, a := range command[1:] {
			args[i] = strings.ReplaceAll(a, x.opts.replace, items[0])
		}
	}
	if x.opts.trace {
		fmt.Fprintln(c.stderr, strings.Join(append([]string{command[0]}, args...), " "))
	}
	sub := &call{
		ctx: c.ctx, fsys: c.fsys, dir: c.dir, name: command[0], args: args, env: c.env,
		stdin: strings.NewReader(""), stdout: c.stdout, stderr: c.stderr,
	}
	status, err := sub.status(x.run(sub))
	switch {
	case err != nil:
		return err
	case status == 255:
		c.errorf("%s: exited with status 255; aborting", command[0])
		return interp.ExitStatus(xargsStopped)
	case status != 0:
		x.code = xargsFailed
	}
	return c.ctx.Err()
}

// readRecord reads up to and including sep, or to the end of r; a record longer than
// maxFileSize is an error.
func readRecord(r *bufio.Reader, sep byte) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice(sep)
		if len(b)+len(chunk) > maxFileSize {
			return "", errTooLarge
		}
		b = append(b, chunk...)
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// status turns what a builtin returned into its exit status. A canceled context or a
// broken pipe is returned as an error, to end the caller too.
func (c *call) status(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	if c.ctx.Err() != nil {
		return 0, c.ctx.Err()
	}
	if errors.Is(err, syscall.EPIPE) {
		return 0, err
	}
	if status, ok := errors.AsType[interp.ExitStatus](c.exitStatus(err)); ok {
		return int(status), nil
	}
	return 1, nil
}

// xargsOptions are the parsed options of an xargs call.
type xargsOptions struct {
	nul, noRunEmpty, trace bool
	maxArgs, maxLines      int
	replace                string
}

// xargsParse parses the options of xargs, which end at the command.
func (c *call) xargsParse() (xargsOptions, []string, error) {
	var o xargsOptions
	args := c.args
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return o, args[1:], nil
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		args = args[1:]
		for j := 1; j < len(a); j++ {
			opt := a[j]
			switch opt {
			case '0':
				o.nul = true
				continue
			case 'r':
				o.noRunEmpty = true
				continue
			case 't':
				o.trace = true
				continue
			case 'n', 'L', 'I':
			default:
				return o, nil, c.fail(1, "invalid option -- '%c'", opt)
			}
			v := a[j+1:]
			if v == "" {
				if len(args) == 0 {
					return o, nil, c.fail(1, "option requires an argument -- '%c'", opt)
				}
				v, args = args[0], args[1:]
			}
			j = len(a)
			if opt == 'I' {
				o.replace = v
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return o, nil, c.fail(1, "invalid number \"%s\" for -%c option", v, opt)
			}
			if opt == 'n' {
				o.maxArgs = n
			} else {
				o.maxLines = n
			}
		}
	}
	return o, args, nil
}

// xargsItems splits input into items as xargs does by default: at blanks and newlines,
// with '...' and "..." quoting (not across lines) and a backslash escaping any character.
func xargsItems(input string) ([]string, error) {
	var items []string
	var cur strings.Builder
	inItem := false
	for i := 0; i < len(input); i++ {
		ch := input[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inItem {
				items = append(items, cur.String())
				cur.Reset()
				inItem = false
			}
		case ch == '\\' && i+1 < len(input):
			i++
			cur.WriteByte(input[i])
			inItem = true
		case ch == '\'' || ch == '"':
			end := strings.IndexAny(input[i+1:], string(ch)+"\n")
			if end < 0 || input[i+1+end] == '\n' {
				kind := "single"
				if ch == '"' {
					kind = "double"
				}
				return nil, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
			}
			cur.WriteString(input[i+1 : i+1+end])
			i += end + 1
			inItem = true
		default:
			cur.WriteByte(ch)
			inItem = true
		}
	}
	if inItem {
		items = append(items, cur.String())
	}
	return items, nil
}

// xargsEcho is echo as xargs runs it (GNU's /bin/echo without escapes): the arguments
// on a line, without the newline after a leading -n.
func xargsEcho(c *call) error {
	args, newline := c.args, "\n"
	for len(args) > 0 && args[0] == "-n" {
		args, newline = args[1:], ""
	}
	_, err := io.WriteString(c.stdout, strings.Join(args, " ")+newline)
	return err
}
