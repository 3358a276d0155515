package planshell

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"syscall"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/lexer"
	"github.com/benhoyt/goawk/parser"
)

// awkAssignment is an operand that sets a variable rather than names a file.
var awkAssignment = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*=`)

// awk [-F fs] [-v var=value]... 'program' [file | var=value]... is goawk with its
// unsafe parts off: system(), pipes to and from commands, and getline from or print to a
// file are errors. The files are read through the Fs and handed to goawk as its standard
// input, one after the other; ENVIRON is the shell's exported variables. FILENAME is "-"
// for every input, and nextfile is refused when there are several inputs.
func awk(c *call) error {
	fs, vars, rest, err := c.awkParse()
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return c.fail(2, "usage: awk [-F fs][-v var=value] 'prog' [file ...]")
	}
	src, operands := rest[0], rest[1:]
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		return c.fail(2, "%v", err)
	}
	in := &awkInput{c: c}
	args := []string{}
	for _, p := range operands {
		switch {
		case awkAssignment.MatchString(p) || p == "":
			args = append(args, p)
		default:
			in.names = append(in.names, p)
			args = append(args, "-")
		}
	}
	if len(in.names) > 1 && awkUsesNextfile(src) {
		return c.fail(2, "nextfile is not supported in plan mode with several input files")
	}
	if len(in.names) == 0 {
		in.names = []string{"-"}
	}
	env := []string{}
	for _, kv := range c.environ() {
		k, v, _ := strings.Cut(kv, "=")
		env = append(env, k, v)
	}
	sink := &firstError{w: c.stdout}
	out := bufio.NewWriter(sink)
	config := &interp.Config{
		Stdin:        in,
		Output:       out,
		Error:        c.stderr,
		Argv0:        "awk",
		Args:         args,
		Vars:         append([]string{"FS", fs}, vars...),
		Environ:      env,
		NoExec:       true,
		NoFileWrites: true,
		NoFileReads:  true,
		ShellCommand: []string{"/nonexistent/plan-mode-has-no-shell"},
	}
	runner, err := interp.New(prog)
	if err != nil {
		return c.fail(2, "%v", err)
	}
	status, err := runner.ExecuteContext(c.ctx, config)
	if ferr := out.Flush(); ferr != nil && err == nil {
		return ferr
	}
	switch {
	case c.ctx.Err() != nil:
		return c.ctx.Err()
	case errors.Is(sink.err, syscall.EPIPE):
		return sink.err // quietly, as SIGPIPE would
	case in.failed:
		return exitCode(2) // reported by in
	case err != nil:
		return c.fail(2, "%v", err)
	}
	return exitCode(status)
}

// awkParse parses awk's options: -F fs, -v var=value (with escapes, as awk does), "--".
func (c *call) awkParse() (fs string, vars, rest []string, err error) {
	fs = " "
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return fs, vars, args[i+1:], nil
		}
		if len(a) < 2 || a[0] != '-' {
			return fs, vars, args[i:], nil
		}
		opt, val := a[1], a[2:]
		if opt != 'F' && opt != 'v' {
			return "", nil, nil, c.fail(2, "unknown option %s", a)
		}
		if val == "" {
			if i+1 == len(args) {
				return "", nil, nil, c.fail(2, "option requires an argument -- '%c'", opt)
			}
			i++
			val = args[i]
		}
		if opt == 'F' {
			fs = val
			if fs == "t" {
				fs = "\t"
			}
			continue
		}
		name, value, ok := strings.Cut(val, "=")
		if !ok || !awkAssignment.MatchString(val) {
			return "", nil, nil, c.fail(2, "improper assignment: -v %s", val)
		}
		if unescaped, err := lexer.Unescape(value); err == nil {
			value = unescaped
		}
		vars = append(vars, name, value)
	}
	return fs, vars, nil, nil
}

// awkUsesNextfile reports whether the program has the nextfile statement, which would
// leave the rest of an input for the next one.
func awkUsesNextfile(src string) bool {
	lx := lexer.NewLexer([]byte(src))
	for {
		_, tok, _ := lx.Scan()
		switch tok {
		case lexer.NEXTFILE:
			return true
		case lexer.EOF, lexer.ILLEGAL:
			return false
		}
	}
}

// awkInput is goawk's standard input: the inputs one after the other, each ending with
// io.EOF, so that goawk (given "-" once for each) reads them as separate files. A file
// is read only when goawk comes to it.
type awkInput struct {
	c      *call
	names  []string
	i      int
	cur    io.Reader
	failed bool // an input could not be read (and was reported); goawk stops
}

func (in *awkInput) Read(p []byte) (int, error) {
	if in.cur == nil {
		if in.i == len(in.names) {
			return 0, io.EOF
		}
		name := in.names[in.i]
		data, err := in.c.readFile(name)
		if err != nil {
			in.c.errorf("cannot open %s: %s", name, reason(err))
			in.i, in.failed = len(in.names), true
			return 0, err
		}
		in.cur = bytes.NewReader(data)
	}
	n, err := in.cur.Read(p)
	if err == io.EOF {
		in.cur = nil
		in.i++
	}
	return n, err
}

// firstError is a writer that keeps the first error of w: goawk reports a failed write
// as text only.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}
