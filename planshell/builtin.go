package planshell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// builtins are the commands of plan mode that the interpreter does not implement itself.
// Each reads and writes the Fs, and reports a failure as "name: operand: reason" on
// stderr with a non-zero exit status, like GNU coreutils.
// jq and awk are gojq and goawk, confined to the Fs; xargs runs other builtins only and
// is added by init, since it looks this map up.
var builtins = map[string]func(*call) error{
	"awk":      awk,
	"basename": basename,
	"cat":      cat,
	"cp":       cp,
	"cut":      cut,
	"dirname":  dirname,
	"find":     find,
	"grep":     grep,
	"head":     head,
	"jq":       jq,
	"ls":       ls,
	"mkdir":    mkdir,
	"mv":       mv,
	"rm":       rm,
	"sed":      sed,
	"sort":     sortLines,
	"tail":     tail,
	"touch":    touch,
	"tr":       tr,
	"uniq":     uniq,
	"wc":       wc,
}

func init() { builtins["xargs"] = xargs }

var (
	errIsDir    = syscall.EISDIR
	errNotDir   = syscall.ENOTDIR
	errTooLarge = errors.New("file too large (plan mode files are at most 64 MiB)")
)

// call is one invocation of a builtin.
type call struct {
	ctx    context.Context
	fsys   afero.Fs
	dir    string // virtual working directory
	name   string
	args   []string       // without the name
	env    expand.Environ // the shell's variables (nil: none); see environ
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// environ returns the "K=V" pairs of the shell's exported variables: what a program
// started by the shell would see. They are the run's own environment (Options.Env and
// what the command line exports), never the host's.
func (c *call) environ() []string {
	var pairs []string
	if c.env == nil {
		return pairs
	}
	c.env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			pairs = append(pairs, name+"="+vr.String())
		}
		return true
	})
	slices.Sort(pairs)
	return pairs
}

// errorf prints "name: message" on stderr.
func (c *call) errorf(format string, a ...any) {
	fmt.Fprintf(c.stderr, c.name+": "+format+"\n", a...)
}

// fail prints "name: message" on stderr and returns exit status code (never 0).
func (c *call) fail(code uint8, format string, a ...any) error {
	c.errorf(format, a...)
	return interp.ExitStatus(max(code, 1))
}

// exitStatus turns what a builtin returned into an exit status: any other error, such as a
// failed write, would be fatal to the interpreter. Writing to a pipe whose reader is
// gone ends the command quietly with 141, as SIGPIPE would.
func (c *call) exitStatus(err error) error {
	if _, ok := errors.AsType[interp.ExitStatus](err); ok || err == nil {
		return err
	}
	if errors.Is(err, syscall.EPIPE) {
		return interp.ExitStatus(141)
	}
	return c.fail(1, "%v", err)
}

// report prints "name: operand: reason" for err on stderr.
func (c *call) report(operand string, err error) {
	c.errorf("%s: %s", operand, reason(err))
}

// abs returns the virtual absolute name (the Fs name) of an operand.
func (c *call) abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(c.dir, p)
}

// reason words err like coreutils do.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, syscall.EISDIR):
		return "Is a directory"
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, syscall.ENOTEMPTY):
		return "Directory not empty"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// open opens operand p for reading, or stdin for "-"; a directory or a file larger
// than maxFileSize is refused.
func (c *call) open(p string) (io.ReadCloser, error) {
	if p == "-" {
		return io.NopCloser(c.stdin), nil
	}
	name := c.abs(p)
	info, err := c.fsys.Stat(name)
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		return nil, errIsDir
	case info.Size() > maxFileSize:
		return nil, errTooLarge
	}
	return c.fsys.Open(name)
}

// readFile reads operand p, or stdin for "-", up to maxFileSize.
func (c *call) readFile(p string) ([]byte, error) {
	f, err := c.open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

// readAll reads r up to maxFileSize.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err == nil && len(data) > maxFileSize {
		err = errTooLarge
	}
	return data, err
}

// inputs calls fn with the name and content of each operand, or of stdin when there
// are none. An operand that cannot be read is reported; inputs returns whether all
// could be read.
func (c *call) inputs(operands []string, fn func(name string, data []byte) error) (bool, error) {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	ok := true
	for _, p := range operands {
		data, err := c.readFile(p)
		if err != nil {
			c.report(p, err)
			ok = false
			continue
		}
		if err := fn(p, data); err != nil {
			return ok, err
		}
		if err := c.ctx.Err(); err != nil {
			return ok, err
		}
	}
	return ok, nil
}

// lines splits data into lines without their "\n"; a last line without "\n" counts.
func lines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" && len(data) == 0 {
		return nil
	}
	return strings.Split(s, "\n")
}

// flags are the parsed options of a call.
type flags map[byte][]string

func (f flags) has(b byte) bool { return len(f[b]) > 0 }

// val returns the last value of option b, or "".
func (f flags) val(b byte) string {
	if v := f[b]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// parse parses the call's arguments GNU style: single-letter options, which may be
// grouped ("-rn"), the letters in bools take no value and those in vals take one ("-n5"
// or "-n 5"); options and operands may be mixed; "--" ends the options and "-" is an
// operand. An unknown or incomplete option is an error the caller reports with exit
// status 2.
func (c *call) parse(bools, vals string) (flags, []string, error) {
	f := flags{}
	var operands []string
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		if a[1] == '-' {
			return nil, nil, c.fail(2, "unknown option %s", a)
		}
		for j := 1; j < len(a); j++ {
			b := a[j]
			switch {
			case strings.IndexByte(bools, b) >= 0:
				f[b] = append(f[b], "")
			case strings.IndexByte(vals, b) >= 0:
				v := a[j+1:]
				if v == "" {
					if i+1 == len(args) {
						return nil, nil, c.fail(2, "option requires an argument -- '%c'", b)
					}
					i++
					v = args[i]
				}
				f[b] = append(f[b], v)
				j = len(a)
			default:
				return nil, nil, c.fail(2, "unknown option -%c", b)
			}
		}
	}
	return f, operands, nil
}

// count parses the value of a count option such as head -n; a leading "+" is returned
// as plus.
func (c *call) count(opt byte, v string) (n int, plus bool, err error) {
	plus = strings.HasPrefix(v, "+")
	n, err = strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < 0 {
		return 0, false, c.fail(2, "invalid number for -%c: '%s'", opt, v)
	}
	return n, plus, nil
}
