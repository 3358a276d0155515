package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A spare is a helper started ahead of the command it will run: it has started, entered
// its namespaces and built the private root for the paths of the command before (its
// prediction), joined the cgroup made for the next command (a cgroup migration can take a
// grace period of RCU: milliseconds), and waits for its request on fd 3. Start gives it
// the command when the
// paths are the same; the spare then checks that the mounts masking them are still the
// ones it made (a rename or removal on the host detaches a mount in every other namespace,
// which would unmask a secret or unprotect a path), answers on fd 4, and confines itself
// and execs the command as a helper started for it does, in the same order. It holds no
// environment of the session until then, and is in no other command's cgroup (its own
// counts it against the session's limits).

// Fds of a spare helper: its request comes in on reqFD, its answer goes out on answerFD.
const (
	reqFD    = 3
	answerFD = 4
)

// What a spare says on answerFD: that it is ready, then its answer to its request.
const (
	ready    = 'r' // its root is built: it waits for its request
	accepted = 'y' // it runs the command
	refused  = 'n' // its root does not fit the command: it exits without running it
)

// spare is the parent's handle on a spare helper.
type spare struct {
	cmd                   *exec.Cmd
	paths                 Paths     // the prediction its root was built for
	ns                    bool      // it is in new namespaces
	group                 *cmdGroup // the cgroup it joined, for its command
	req, answer           *os.File
	stdin, stdout, stderr *late
}

// request is what a spare needs to run a command: the command's paths (which must be its
// prediction), directory, argv and environment.
type request struct {
	Paths Paths
	Dir   string
	Argv  []string
	Env   []string // as exec.Cmd would give it: deduplicated, PWD added when Options.Env is nil
	Merge bool     // stderr is stdout's pipe (Options.Stdout and Stderr are the same writer, as exec.Cmd does)
}

// startSpare starts a spare helper whose root is built for paths, in group.
func (s *Sandbox) startSpare(paths Paths, ns bool, group *cmdGroup) (*spare, error) {
	sp := s.spec(ns, paths)
	sp.Spare, sp.Cgroups = true, group.procsFiles()
	arg, err := sp.arg()
	if err != nil {
		return nil, err
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	h := &spare{paths: paths, ns: ns, group: group, req: reqW, answer: ansR, stdin: newLate(), stdout: newLate(), stderr: newLate()}
	h.cmd = exec.Command(s.exe, HelperArg, arg)
	h.cmd.Env = []string{} // none of the session's until the request
	h.cmd.Stdin, h.cmd.Stdout, h.cmd.Stderr = h.stdin, h.stdout, h.stderr
	h.cmd.ExtraFiles = []*os.File{reqR, ansW} // reqFD, answerFD
	h.cmd.SysProcAttr = sysProcAttr(ns, !s.policy.Network)
	err = h.cmd.Start()
	reqR.Close()
	ansW.Close()
	if err != nil {
		reqW.Close()
		ansR.Close()
		return nil, err
	}
	return h, nil
}

// Warm starts a spare in the background for a first command with paths, unless there is
// one already: a session that expects commands calls it before its first one, which then
// finds its helper started, its root built and its cgroup joined.
func (s *Sandbox) Warm(paths Paths) {
	s.session()
	s.refill(paths)
}

// refill starts a spare in the background for the next command, predicting that it has
// paths, unless there is one already (or one starting) or the sandbox is closed.
func (s *Sandbox) refill(paths Paths) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sparesWork || s.closed || s.spare != nil || s.refilled != nil {
		return
	}
	refilled := make(chan struct{})
	s.refilled = refilled
	ns, session := s.ns, s.group
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		group := session.newCmdGroup()
		sp, err := s.startSpare(paths, ns, group)
		switch {
		case err != nil:
			group.remove()
		case sp.awaitReady() != nil:
			sp.discard()
			sp, err = nil, errors.New("the spare died before it was ready")
		}
		s.mu.Lock()
		keep := err == nil && !s.closed
		if keep {
			s.spare = sp
		}
		s.refilled = nil
		close(refilled)
		s.mu.Unlock()
		if err == nil && !keep {
			sp.discard()
		}
	}()
}

// spareWait bounds how long a command waits for a spare still building its root (one
// started when the previous command ended, right before): a helper of its own would take
// as long, and compete with it for the CPU. Only a spare that hangs makes it wait so long.
const spareWait = 250 * time.Millisecond

// takeSpare runs the command in the spare when its root was built for paths and it
// accepts the command, and returns it; nil when there is no spare or it cannot run the
// command (then it is discarded). A spare still starting is waited for, a little.
func (s *Sandbox) takeSpare(o Options, paths Paths) *spare {
	if !spareCan(o) {
		return nil
	}
	s.mu.Lock()
	if refilled := s.refilled; s.spare == nil && refilled != nil {
		s.mu.Unlock()
		select {
		case <-refilled:
		case <-time.After(spareWait):
		}
		s.mu.Lock()
	}
	sp, ns := s.spare, s.ns
	s.spare = nil
	s.mu.Unlock()
	if sp == nil {
		return nil
	}
	if sp.ns != ns || !sp.paths.equal(paths) || !sp.run(o, paths) {
		s.discard(sp)
		return nil
	}
	return sp
}

// discard kills a spare that will not run a command and reaps it in the background; Close
// waits for that (and reaps it itself once closed).
func (s *Sandbox) discard(sp *spare) {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.bg.Add(1)
	}
	s.mu.Unlock()
	if closed {
		sp.discard()
		return
	}
	go func() {
		defer s.bg.Done()
		sp.discard()
	}()
}

// run sends the spare its request and reports whether it accepted it; then the command's
// stdio and WaitDelay are given to the spare's Cmd, which the caller waits for as usual.
func (sp *spare) run(o Options, paths Paths) bool {
	r := request{
		Paths: paths, Dir: o.Dir, Argv: o.Argv,
		Env:   (&exec.Cmd{Env: o.Env, Dir: o.Dir}).Environ(),
		Merge: sameWriter(o.Stdout, o.Stderr),
	}
	_, err := sp.req.Write(r.encode())
	sp.req.Close()
	var answer [1]byte
	if err == nil {
		_, err = io.ReadFull(sp.answer, answer[:])
	}
	sp.answer.Close()
	if err != nil || answer[0] != accepted {
		return false
	}
	sp.cmd.WaitDelay = o.WaitDelay
	sp.stdin.bind(o.Stdin, nil)
	sp.stdout.bind(nil, o.Stdout)
	sp.stderr.bind(nil, o.Stderr)
	return true
}

// awaitReady waits until the spare has built its root: a command given it before would
// wait for that, and a change on the host made meanwhile would be built over, unseen by
// the spare's check of its mounts.
func (sp *spare) awaitReady() error {
	var b [1]byte
	if _, err := io.ReadFull(sp.answer, b[:]); err != nil {
		return err
	}
	if b[0] != ready {
		return fmt.Errorf("the spare said %q where it was due to say it was ready", b[0])
	}
	return nil
}

// discard kills the spare, waits for it and removes its cgroup.
func (sp *spare) discard() {
	sp.cmd.Process.Kill()
	sp.req.Close()
	sp.answer.Close()
	for _, l := range []*late{sp.stdin, sp.stdout, sp.stderr} {
		l.bind(nil, nil)
	}
	sp.cmd.Wait()
	sp.group.remove()
}

// equal reports whether p and q are the same paths, in the same order.
func (p Paths) equal(q Paths) bool {
	return slices.Equal(p.Protected, q.Protected) && slices.Equal(p.Hidden, q.Hidden) && slices.Equal(p.Writable, q.Writable)
}

// spareCan reports whether a spare can run the command as a helper started for it would.
// Not with a NUL byte in its directory, environment or argv, which exec.Cmd or exec
// refuses (the one-shot path reports it as before); nor with a file for stdin, stdout or
// stderr, which exec.Cmd hands the command itself (a terminal stays a terminal) where a
// spare's are pipes made before the command was known.
func spareCan(o Options) bool {
	nul := func(s string) bool { return strings.ContainsRune(s, 0) }
	_, in := o.Stdin.(*os.File)
	_, out := o.Stdout.(*os.File)
	_, errOut := o.Stderr.(*os.File)
	return !nul(o.Dir) && !slices.ContainsFunc(slices.Concat(o.Argv, o.Env), nul) && !in && !out && !errOut
}

// sameWriter reports whether w1 and w2 are the same non-nil writer, as exec.Cmd decides
// that stderr shares stdout's pipe (an uncomparable type is never the same).
func sameWriter(w1, w2 io.Writer) (same bool) {
	defer func() { recover() }()
	return w1 != nil && w1 == w2
}

// late is one of a spare's stdin, stdout or stderr as its exec.Cmd sees them: the real
// ones are known when the spare is given a command, so Read and Write wait until bind.
// Bound to nil, it reads EOF and discards what it is given (as exec.Cmd does with nil).
type late struct {
	bound chan struct{}
	r     io.Reader
	w     io.Writer
}

func newLate() *late { return &late{bound: make(chan struct{})} }

// bind sets the reader or writer behind l; it is called once.
func (l *late) bind(r io.Reader, w io.Writer) {
	l.r, l.w = r, w
	close(l.bound)
}

func (l *late) Read(p []byte) (int, error) {
	<-l.bound
	if l.r == nil {
		return 0, io.EOF
	}
	return l.r.Read(p)
}

func (l *late) Write(p []byte) (int, error) {
	<-l.bound
	if l.w == nil {
		return len(p), nil
	}
	return l.w.Write(p)
}

// encode renders the request as NUL-terminated strings, list by list, each list its
// length first: lossless (JSON would replace bytes that are not UTF-8), and no string of
// it can hold a NUL (spareCan keeps such commands off spares; paths have none).
func (r request) encode() []byte {
	merge := ""
	if r.Merge {
		merge = "merge"
	}
	var b []byte
	for _, list := range [][]string{{r.Dir, merge}, r.Paths.Protected, r.Paths.Hidden, r.Paths.Writable, r.Argv, r.Env} {
		b = append(append(b, strconv.Itoa(len(list))...), 0)
		for _, s := range list {
			b = append(append(b, s...), 0)
		}
	}
	return b
}

// errBadRequest is a request that does not decode.
var errBadRequest = errors.New("sandbox helper: bad request")

// decodeRequest parses what encode made.
func decodeRequest(data []byte) (request, error) {
	fields := strings.Split(string(bytes.TrimSuffix(data, []byte{0})), "\x00")
	var lists [6][]string
	for i := range lists {
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 0 || n >= len(fields) {
			return request{}, errBadRequest
		}
		lists[i], fields = fields[1:1+n], fields[1+n:]
		if len(fields) == 0 && i < len(lists)-1 {
			return request{}, errBadRequest
		}
	}
	if len(fields) != 0 || len(lists[0]) != 2 || len(lists[4]) == 0 {
		return request{}, errBadRequest
	}
	return request{
		Dir: lists[0][0], Merge: lists[0][1] == "merge",
		Paths: Paths{Protected: lists[1], Hidden: lists[2], Writable: lists[3]},
		Argv:  lists[4], Env: lists[5],
	}, nil
}
