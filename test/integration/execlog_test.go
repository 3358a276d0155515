package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/shell"
	"github.com/jido-run/jido/shellclass"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/require"
)

// The exec log of the classifier's differential test. A command can run a program without
// writing a byte (sed's e command, find -exec, awk's system), which a hash of the tree cannot
// see; so the test runs its lines in a child process (this test binary in a helper mode)
// traced by strace, which follows the sandbox helper into its namespaces and logs every
// successful execve of the whole process tree. The child runs a marker program outside the
// sandbox after each line, which cuts the chronological log into one part per line. The
// observer is strace on the test's side: the sandbox itself traces nothing.

const (
	diffLinesMode = "diff-lines"     // the helper mode of the child (serveDiffLines)
	diffRootEnv   = "JIDO_DIFF_ROOT" // the child's project root
	diffMarkEnv   = "JIDO_DIFF_MARK" // the marker program's first argument; its second is the line's number
	diffReplyFD   = 3                // the child's descriptor for its answers
)

func init() { helpers[diffLinesMode] = serveDiffLines }

// impliedPrograms are the programs that read-only tools run by themselves, by tool: a
// default command, a tool that is a script around another, a formatting pipeline. Each was
// seen in strace's log of the tool on Debian; a tool runs nothing else.
var impliedPrograms = map[string][]string{
	"xargs": {"echo"}, // with no command
	// Scripts around gzip; less runs LESSOPEN's gzip through $SHELL.
	"zcat":   {"gzip"},
	"gunzip": {"gzip"},
	"zgrep":  {"gzip", "grep"},
	"zless":  {"gzip", "less", "sh", "bash"},
	"man":    {"col", "groff", "grotty", "gzip", "locale", "nroff", "preconv", "tbl", "troff"}, // its formatting pipeline
}

// execCall is one successful execve (or execveat) in strace's log.
type execCall struct {
	pid  int
	path string   // as strace prints it (C escapes kept)
	argv []string // as strace prints them, each cut at strace's -s
}

// program is the base name of the executed file.
func (e execCall) program() string { return filepath.Base(e.path) }

// arg returns argv[i], "" when there is none.
func (e execCall) arg(i int) string {
	if i < len(e.argv) {
		return e.argv[i]
	}
	return ""
}

var (
	// straceExec matches strace's line for an execve or execveat: pid, path, and the rest,
	// which starts with argv. The line may start with the unfinished record of a process
	// killed in a system call ("123 ???(", a discarded spare helper), which strace does not
	// end with a newline.
	straceExec = regexp.MustCompile(`^(?:\d+ +\?\?\?\()?(\d+) +execve(?:at)?\((?:[^,"]+, )?"((?:[^"\\]|\\.)*)", \[(.*)$`)
	// straceString matches one string of strace's output, without its quotes.
	straceString = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// parseExec parses one line of strace's log; ok is false for any other line.
func parseExec(line string) (e execCall, ok bool) {
	m := straceExec.FindStringSubmatch(line)
	if m == nil {
		return e, false
	}
	e.pid, _ = strconv.Atoi(m[1])
	e.path = m[2]
	// argv is the first bracketed list; without -v the environment is only a count, and
	// nothing after argv is quoted.
	for _, s := range straceString.FindAllStringSubmatch(m[3], -1) {
		e.argv = append(e.argv, s[1])
	}
	return e, true
}

// unexpectedPrograms returns, in order and once each, the programs of execs that line does
// not account for. A line accounts for its command words as shellclass parses them, the
// programs those run by themselves (impliedPrograms), and the sandbox's machinery: the
// helper (this test binary re-executed) and the shell that the helper process itself
// executes. A shell started by anything else (sed's e command, awk's system) is not the
// machinery's and counts.
func unexpectedPrograms(line string, execs []execCall) []string {
	words := map[string]bool{}
	for _, c := range shellclass.Classify(line).Commands {
		words[c.Name] = true
		for _, p := range impliedPrograms[c.Name] {
			words[p] = true
		}
	}
	helpers := map[int]bool{} // pids whose last exec was the helper
	var out []string
	for _, e := range execs {
		name := e.program()
		wasHelper := helpers[e.pid]
		delete(helpers, e.pid)
		switch {
		case e.isHelper():
			helpers[e.pid] = true
		case wasHelper && (name == "bash" || name == "sh"):
		case words[name]:
		case !slices.Contains(out, name):
			out = append(out, name)
		}
	}
	return out
}

// execObserver is the child process under strace, running one line at a time.
type execObserver struct {
	cmd     *exec.Cmd
	mark    string // the markers' first argument, unknown to the lines
	stdin   io.WriteCloser
	lines   *json.Encoder
	reply   *os.File
	replies *json.Decoder
	logPath string
	log     *os.File      // opened once strace has made it
	pending []byte        // the log read past its last complete line
	n       int           // lines sent
	output  *bytes.Buffer // the child's and strace's stdout and stderr; read only after Wait
	// waiting are the helpers that have not executed their command yet: a spare helper
	// (sandbox) starts during one line and runs the next one's.
	waiting []execCall
}

// startExecObserver starts the child under strace, running lines in the project root dir
// (skipping tb without strace), and waits until its runner is ready; it stops with tb.
func startExecObserver(tb testing.TB, dir string) *execObserver {
	tb.Helper()
	strace := testenv.Program(tb, "strace")
	logPath := filepath.Join(tb.TempDir(), "exec.log")
	reply, w, err := os.Pipe()
	require.NoError(tb, err)
	// --seccomp-bpf stops the tracees at execve only, not at every system call.
	cmd := exec.Command(strace, "-f", "-qq", "--seccomp-bpf", "-e", "trace=execve,execveat", "-e", "status=successful",
		"-e", "signal=none", "-s", "4096", "-o", logPath,
		os.Args[0])
	mark := fmt.Sprintf("jido-diff-mark-%016x", rand.Uint64())
	cmd.Env = append(os.Environ(), helperEnv+"="+diffLinesMode, diffRootEnv+"="+dir, diffMarkEnv+"="+mark)
	cmd.ExtraFiles = []*os.File{w}   // diffReplyFD
	cmd.WaitDelay = 10 * time.Second // for the child, should strace end before it
	o := &execObserver{cmd: cmd, mark: mark, logPath: logPath, reply: reply, replies: json.NewDecoder(reply), output: &bytes.Buffer{}}
	cmd.Stdout, cmd.Stderr = o.output, o.output
	o.stdin, err = cmd.StdinPipe()
	require.NoError(tb, err)
	o.lines = json.NewEncoder(o.stdin)
	require.NoError(tb, cmd.Start())
	w.Close()
	tb.Cleanup(o.stop)
	_, err = o.part(0, time.Minute)
	require.NoError(tb, err)
	return o
}

// runReport is the child's answer for one line.
type runReport struct {
	Error   string `json:"error,omitempty"`   // the runner's error
	Refused bool   `json:"refused,omitempty"` // the runner refused the request (shell.ErrInvalid): nothing ran
}

// run runs line in the child's sandbox and returns the programs executed meanwhile, in
// order, and the child's report.
func (o *execObserver) run(line string) ([]execCall, runReport, error) {
	var rep runReport
	o.n++
	if err := o.lines.Encode([]byte(line)); err != nil { // bytes: JSON strings would mend invalid UTF-8
		return nil, rep, o.failed(err)
	}
	o.reply.SetReadDeadline(time.Now().Add(time.Minute))
	if err := o.replies.Decode(&rep); err != nil {
		return nil, rep, o.failed(fmt.Errorf("the child's answer: %w", err))
	}
	execs, err := o.part(o.n, 10*time.Second)
	execs = append(o.waiting, execs...)
	o.waiting = waitingHelpers(execs)
	return execs, rep, err
}

// waitingHelpers returns the executions of the helper that are the last of their process
// in execs: helpers still waiting for their command.
func waitingHelpers(execs []execCall) []execCall {
	last := map[int]int{}
	for i, e := range execs {
		last[e.pid] = i
	}
	var out []execCall
	for i, e := range execs {
		if last[e.pid] == i && e.isHelper() {
			out = append(out, e)
		}
	}
	return out
}

// isHelper reports whether e executes the sandbox's helper (this test binary re-executed).
func (e execCall) isHelper() bool {
	return e.program() == filepath.Base(os.Args[0]) && e.arg(1) == sandbox.HelperArg
}

// part reads the log up to marker n and returns the executions before it, the markers
// left out; it ends the child when that fails.
func (o *execObserver) part(n int, limit time.Duration) ([]execCall, error) {
	var execs []execCall
	end := time.Now().Add(limit)
	buf := make([]byte, 64<<10)
	for {
		i := bytes.IndexByte(o.pending, '\n')
		if i < 0 {
			k, err := 0, error(nil)
			if o.log == nil {
				o.log, err = os.Open(o.logPath)
				if errors.Is(err, fs.ErrNotExist) {
					o.log, err = nil, nil
				}
			}
			if o.log != nil {
				k, err = o.log.Read(buf)
			}
			o.pending = append(o.pending, buf[:k]...)
			switch {
			case err != nil && err != io.EOF:
				return nil, o.failed(err)
			case k == 0 && time.Now().After(end):
				return nil, o.failed(fmt.Errorf("no marker %d in strace's log after %v", n, limit))
			case k == 0:
				time.Sleep(5 * time.Millisecond)
			}
			continue
		}
		line := string(o.pending[:i])
		o.pending = o.pending[i+1:]
		e, ok := parseExec(line)
		switch {
		case !ok:
		case e.arg(1) != o.mark:
			execs = append(execs, e)
		case e.arg(2) == strconv.Itoa(n):
			return execs, nil
		default:
			return nil, o.failed(fmt.Errorf("marker %s in strace's log where %d was due", e.arg(2), n))
		}
	}
}

// failed passes nil through; for an error it ends the child and adds what it printed.
func (o *execObserver) failed(err error) error {
	if err == nil {
		return nil
	}
	o.cmd.Process.Kill()
	o.cmd.Wait()
	return fmt.Errorf("%w; the child's output:\n%s", err, o.output)
}

// stop ends the child: it returns when its input ends, else it is killed after 10 s.
func (o *execObserver) stop() {
	o.stdin.Close()
	kill := time.AfterFunc(10*time.Second, func() { o.cmd.Process.Kill() })
	defer kill.Stop()
	o.cmd.Wait()
	o.reply.Close()
	if o.log != nil {
		o.log.Close()
	}
}

// markLine runs the marker program for line n outside the sandbox.
func markLine(mark string, n int) error {
	return exec.Command("true", mark, strconv.Itoa(n)).Run()
}

// serveDiffLines is the child: it reads lines (JSON, as bytes) from stdin and runs each in
// a sandbox on $JIDO_DIFF_ROOT, then the marker program, then answers on diffReplyFD with a
// runReport, until stdin ends.
func serveDiffLines() int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "diff-lines helper:", err)
		return 1
	}
	// Out of the commands' environment, so that no line can forge a marker.
	mark := os.Getenv(diffMarkEnv)
	os.Unsetenv(diffMarkEnv)
	root, err := security.Open(os.Getenv(diffRootEnv), security.Options{NoSync: true})
	if err != nil {
		return fail(err)
	}
	defer root.Close()
	runner, err := shell.New(shell.Options{Root: root})
	if err != nil {
		return fail(err)
	}
	defer runner.Close()
	if err := markLine(mark, 0); err != nil {
		return fail(err)
	}
	replies := json.NewEncoder(os.NewFile(diffReplyFD, "replies"))
	lines := json.NewDecoder(os.Stdin)
	for n := 1; ; n++ {
		var line []byte
		if err := lines.Decode(&line); errors.Is(err, io.EOF) {
			return 0
		} else if err != nil {
			return fail(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := runner.Run(ctx, shell.Request{Command: string(line), Timeout: 5 * time.Second})
		cancel()
		var rep runReport
		if err != nil {
			rep = runReport{Error: err.Error(), Refused: errors.Is(err, shell.ErrInvalid)}
		}
		if err := markLine(mark, n); err != nil {
			return fail(err)
		}
		if err := replies.Encode(rep); err != nil {
			return fail(err)
		}
	}
}

// programNames returns the base names of the programs of execs.
func programNames(execs []execCall) []string {
	var names []string
	for _, e := range execs {
		names = append(names, e.program())
	}
	return names
}

// TestParseExec pins the reading of strace's lines, escapes and the two system calls.
func TestParseExec(t *testing.T) {
	e, ok := parseExec(`4242 execve("/usr/bin/sed", ["sed", "1e \"true\"", "a.txt"], 0x7ffd0 /* 12 vars */) = 0`)
	require.True(t, ok)
	require.Equal(t, execCall{pid: 4242, path: "/usr/bin/sed", argv: []string{"sed", `1e \"true\"`, "a.txt"}}, e)
	e, ok = parseExec(`17 execveat(AT_FDCWD, "/bin/true", ["true", "jido-diff-mark-1", "3"], 0x5 /* 1 var */, 0) = 0`)
	require.True(t, ok)
	require.Equal(t, []string{"true", "jido-diff-mark-1", "3"}, e.argv)
	_, ok = parseExec(`17 --- SIGCHLD {si_signo=SIGCHLD} ---`)
	require.False(t, ok)
}
