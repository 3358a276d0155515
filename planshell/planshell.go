// Package planshell runs a bash command line in plan mode: it is interpreted by
// mvdan.cc/sh/v3/interp over an afero.Fs (the plan's copy-on-write overlay of the
// project) instead of a real shell, so that no process is started and no file outside
// the Fs is read or written.
//
// The Fs is presented to the interpreter as a virtual absolute tree: "/" is the project
// root and "/a/b" is the Fs name "/a/b". Only the interpreter's own shell builtins (echo,
// printf, test, cd, pwd, read, ...) and the file and text commands of [Commands], written
// against the Fs, can run; any other program is refused with exit status 127. jq and awk
// are gojq and goawk with their own access to files, processes and the host environment
// turned off; xargs runs only these builtins.
package planshell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Options bound one run.
type Options struct {
	Dir       string   // working directory, root-relative ("" or "." = root)
	MaxOutput int      // bytes kept of stdout and of stderr each (0: 1 MiB); the rest is dropped and Truncated set
	Env       []string // extra "K=V" variables; the environment is otherwise minimal (HOME=/, PATH=/bin, PWD)
}

// Result is what a run printed and how it ended.
type Result struct {
	Stdout, Stderr string
	ExitCode       int
	Truncated      bool // some of Stdout or Stderr was dropped (Options.MaxOutput)
}

// ErrSyntax is wrapped by the error of a command line that cannot be parsed, or that
// uses a construct plan mode cannot run (process substitution).
var ErrSyntax = errors.New("planshell: syntax error")

const (
	defaultMaxOutput = 1 << 20
	// maxFileSize caps what a builtin reads from a file or stdin, and what a redirection
	// may write to a file: the Fs lives in memory.
	maxFileSize = 64 << 20
)

// Commands lists the builtin commands, sorted (for error messages and docs). The
// interpreter's own shell builtins (echo, printf, test, cd, pwd, ...) are not listed.
func Commands() []string {
	names := make([]string, 0, len(builtins))
	for name := range builtins {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Run parses command as bash (mvdan.cc/sh/v3/syntax) and interprets it over fsys.
// A parse error returns an error wrapping ErrSyntax (with the position and message); a
// canceled/expired ctx stops the run and returns ctx.Err(), with what was printed until
// then. A command that is not a builtin gets exit code 127 and stderr
// "plan mode: <name>: external programs cannot run in plan mode; builtins: cat, cp, ...".
// Runs are independent and may be concurrent.
func Run(ctx context.Context, fsys afero.Fs, command string, opts Options) (Result, error) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if err := checkSupported(file); err != nil {
		return Result{}, err
	}
	dir := path.Join("/", opts.Dir)
	if info, err := fsys.Stat(dir); err != nil || !info.IsDir() {
		return Result{}, fmt.Errorf("planshell: working directory %q is not a directory of the plan", opts.Dir)
	}
	limit := opts.MaxOutput
	if limit <= 0 {
		limit = defaultMaxOutput
	}
	stdout, stderr := &capped{max: limit}, &capped{max: limit}
	h := handlers{fsys: fsys}
	runner, err := interp.New(
		virtualDir(dir),
		interp.Env(newEnviron(opts.Env)),
		interp.StdIO(nil, stdout, stderr),
		interp.OpenHandler(h.open),
		interp.ReadDirHandler2(h.readDir),
		interp.StatHandler(h.stat),
		interp.AccessHandler(h.access),
		interp.CallHandler(guardCall),
		interp.ExecHandlers(h.exec),
	)
	if err != nil {
		return Result{}, fmt.Errorf("planshell: %w", err)
	}
	if err = runner.Run(ctx, unsetTmpdir); err == nil {
		err = runner.Run(ctx, file)
	}
	code := 0
	if status, ok := errors.AsType[interp.ExitStatus](err); ok {
		code = int(status)
	} else if err != nil && ctx.Err() == nil { // a fatal interpreter error
		fmt.Fprintf(stderr, "plan mode: %v\n", err)
		code = 1
	}
	res := Result{
		Stdout:    stdout.String(),
		Stderr:    stderr.String(),
		ExitCode:  code,
		Truncated: stdout.dropped() || stderr.dropped(),
	}
	return res, ctx.Err()
}

// virtualDir sets the interpreter's working directory to a virtual path; interp.Dir
// would stat it on the host.
func virtualDir(dir string) interp.RunnerOption {
	return func(r *interp.Runner) error {
		r.Dir = dir
		return nil
	}
}

// handlers serve the interpreter's file access from the Fs.
type handlers struct{ fsys afero.Fs }

// abs returns the virtual absolute name of p, relative to the handler context's dir.
func abs(ctx context.Context, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(interp.HandlerCtx(ctx).Dir, p)
}

// open serves redirections (<, >, >>, &>) and source. /dev/null, /dev/stdout and
// /dev/stderr are emulated; every other name is a name of the Fs. Errors are
// *fs.PathError so that the interpreter reports them and goes on.
func (h handlers) open(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	name = strings.TrimSuffix(name, sourceMark)
	switch name {
	case "/dev/null":
		return nullFile{io.Discard}, nil
	case "/dev/stdout":
		return nullFile{hc.Stdout}, nil
	case "/dev/stderr":
		return nullFile{hc.Stderr}, nil
	}
	f, err := openFile(h.fsys, abs(ctx, name), flag, perm)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New(reason(err))}
	}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return f, nil
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New(reason(err))}
	}
	size := info.Size()
	if flag&os.O_TRUNC != 0 {
		size = 0
	}
	return &sizeCapped{file: f, name: name, size: size}, nil
}

// openFile opens name of fsys like os.OpenFile: a directory cannot be opened for
// writing, and a file is created only in an existing directory.
func openFile(fsys afero.Fs, name string, flag int, perm os.FileMode) (afero.File, error) {
	info, err := fsys.Stat(name)
	switch {
	case err == nil && info.IsDir() && flag&(os.O_WRONLY|os.O_RDWR) != 0:
		return nil, errIsDir
	case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0:
		if err := checkParent(fsys, name); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	return fsys.OpenFile(name, flag, perm)
}

// checkParent returns an error unless the parent of name is a directory of fsys.
func checkParent(fsys afero.Fs, name string) error {
	info, err := fsys.Stat(path.Dir(name))
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return errNotDir
	}
	return nil
}

// readDir serves globbing.
func (h handlers) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	infos, err := afero.ReadDir(h.fsys, abs(ctx, name))
	if err != nil {
		return nil, err
	}
	entries := make([]fs.DirEntry, len(infos))
	for i, info := range infos {
		entries[i] = fs.FileInfoToDirEntry(info)
	}
	return entries, nil
}

// stat serves test, [[ ]] and cd.
func (h handlers) stat(ctx context.Context, name string, followSymlinks bool) (fs.FileInfo, error) {
	if lst, ok := h.fsys.(afero.Lstater); ok && !followSymlinks {
		info, _, err := lst.LstatIfPossible(abs(ctx, name))
		return info, err
	}
	return h.fsys.Stat(abs(ctx, name))
}

// access serves test -r/-w/-x and cd: everything that exists is readable and writable;
// a file is executable when it has an execute bit.
func (h handlers) access(ctx context.Context, name string, mode interp.AccessMode) error {
	info, err := h.fsys.Stat(abs(ctx, name))
	if err != nil {
		return err
	}
	if mode&interp.AccessExec != 0 && !info.IsDir() && info.Mode()&0o111 == 0 {
		return &fs.PathError{Op: "access", Path: name, Err: fs.ErrPermission}
	}
	return nil
}

// exec runs the builtins of [Commands] and refuses every other program. It never calls
// next, the interpreter's handler that starts processes.
func (h handlers) exec(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) (err error) {
		hc := interp.HandlerCtx(ctx)
		run, ok := builtins[args[0]]
		if !ok {
			fmt.Fprintf(hc.Stderr, "plan mode: %s: external programs cannot run in plan mode; builtins: %s\n",
				args[0], strings.Join(Commands(), ", "))
			return interp.ExitStatus(127)
		}
		c := &call{
			ctx: ctx, fsys: h.fsys, dir: hc.Dir, name: args[0], args: args[1:], env: hc.Env,
			stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr,
		}
		if c.stdin == nil {
			c.stdin = strings.NewReader("")
		}
		defer func() { // a bug in a builtin fails the command, not the agent's session
			if p := recover(); p != nil {
				err = c.fail(2, "internal error: %v", p)
			}
		}()
		err = run(c)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.exitStatus(err)
	}
}

// nullFile is a redirection target that is not a file of the Fs.
type nullFile struct{ io.Writer }

func (nullFile) Read([]byte) (int, error) { return 0, io.EOF }
func (nullFile) Close() error             { return nil }

// sizeCapped is a file opened for writing by a redirection: it refuses to grow past
// maxFileSize, so that a runaway loop cannot fill memory. It has no other write methods
// (WriteString, ReadFrom) that could go around the cap.
type sizeCapped struct {
	file afero.File
	name string
	mu   sync.Mutex
	size int64
}

func (f *sizeCapped) Read(p []byte) (int, error) { return f.file.Read(p) }
func (f *sizeCapped) Close() error               { return f.file.Close() }

func (f *sizeCapped) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.size+int64(len(p)) > maxFileSize {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: errTooLarge}
	}
	n, err := f.file.Write(p)
	f.size += int64(n)
	return n, err
}

// capped keeps the first max bytes written to it and drops the rest. Background
// commands and pipeline stages may write concurrently.
type capped struct {
	mu   sync.Mutex
	buf  strings.Builder
	max  int
	over bool // something was dropped
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.max - w.buf.Len()
	if len(p) > room {
		w.buf.Write(p[:room])
		w.over = true
	} else {
		w.buf.Write(p)
	}
	return len(p), nil
}

func (w *capped) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func (w *capped) dropped() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.over
}
