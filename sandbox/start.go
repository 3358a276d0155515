package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Confinement says how a command was confined, for the result shown to the model.
type Confinement struct {
	Confined   bool   `json:"confined"`     // false: the kernel has no Landlock and the command ran unconfined
	Landlock   int    `json:"landlock_abi"` // the Landlock ABI enforced, 0 for none
	Filesystem string `json:"filesystem"`   // "private-root" (mount namespace) or "landlock" (host view, protected paths writable)
	Network    string `json:"network"`      // "namespace", "landlock-tcp", "allowed" or "unrestricted"
	Procs      string `json:"procs"`        // "cgroup", "rlimit" or "none"
	Memory     string `json:"memory"`       // "cgroup" (the session's commands share a limit) or "none"
	Seccomp    bool   `json:"seccomp"`      // the syscall filter is on
}

// Isolated reports whether the command ran in a private root, where protected paths are
// read-only and secrets hidden; without it only Landlock confines the command.
func (c Confinement) Isolated() bool { return c.Filesystem == "private-root" }

// Sandbox starts commands under one policy; safe for concurrent use.
type Sandbox struct {
	exe    string // the helper binary: the running executable
	policy Policy
	ro, rw []string

	mu       sync.Mutex
	ns       bool           // new namespaces work (cleared after the first refusal)
	group    *sessionGroup  // made at the first command; nil before
	spare    *spare         // the helper started ahead for the next command; nil when none
	refilled chan struct{}  // while a spare is being started: closed when it is ready or failed
	closed   bool           // Close was called: no more spares
	bg       sync.WaitGroup // goroutines starting or reaping spares, which Close waits for
}

// Isolates reports whether commands get a private root on this machine: whether a child
// can be started in new mount and network namespaces (probed once, with true). Where it
// cannot, Landlock alone confines commands and protected paths are writable to them.
var Isolates = sync.OnceValue(func() bool {
	path, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = sysProcAttr(true, true)
	return cmd.Run() == nil
})

// FailurePrefix starts what the helper writes on a command's stderr when it could not start
// the command (its program not found or not executable, the sandbox not set up); the
// command's exit status is then a shell's: 127 for a program not found, else 126.
const FailurePrefix = "jido sandbox: "

// HelperName is the small helper binary that New prefers when it sits next to the running
// executable (cmd/jido-sandbox).
const HelperName = "jido-sandbox"

// New returns a sandbox for policy; exe is the binary to start as the helper, which must
// call MaybeHelper first thing. "" takes HelperName next to the running executable if it
// is there, else the running executable itself.
func New(exe string, p Policy) (*Sandbox, error) {
	if exe == "" {
		var err error
		if exe, err = defaultHelper(); err != nil {
			return nil, fmt.Errorf("sandbox: finding the helper binary: %w", err)
		}
	}
	if p.MaxProcs <= 0 {
		p.MaxProcs = DefaultMaxProcs
	}
	if p.MaxMemory <= 0 {
		p.MaxMemory = DefaultMaxMemory
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real // granted to commands as a file (below), which a link is not
	}
	s := &Sandbox{exe: exe, policy: p, ns: true}
	s.ro = clean(append(append(slices.Clone(systemDirs), toolchainDirs(os.Getenv)...), p.ReadOnly...))
	if p.Network {
		s.ro = clean(append(s.ro, networkDirs...))
	}
	s.rw = clean(append([]string{p.Root, p.TempDir}, p.ReadWrite...))
	return s, nil
}

// Helper is the helper binary. Commands may read and run it: it is also Go's cache program
// for them (package gocache).
func (s *Sandbox) Helper() string { return s.exe }

// defaultHelper is HelperName beside the running executable when it is an executable
// regular file, else the running executable.
func defaultHelper() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	small := filepath.Join(filepath.Dir(self), HelperName)
	if info, err := os.Stat(small); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
		return small, nil
	}
	return self, nil
}

// Options describe one command.
type Options struct {
	Argv           []string
	Dir            string   // host working directory, inside the root
	Env            []string // the whole environment of the command
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// WaitDelay bounds how long Wait waits for the output pipes after the command exits
	// (a background child may hold them open); 0 waits for them.
	WaitDelay time.Duration
}

// Process is a started sandboxed command.
type Process struct {
	Cmd         *exec.Cmd
	Confinement Confinement
	Spare       bool      // a spare helper, started before the command, ran it (see Start)
	OOMKilled   bool      // set by Release: the kernel killed a process of the command for the session's memory limit
	group       *cmdGroup // nil without a cgroup
	refill      func()    // starts the next command's spare (Release)
}

// maxSpec bounds the helper's spec, which travels as one argument (Linux takes 128 KiB).
const maxSpec = 120 << 10

// Start starts a command in the sandbox, in a session and process group of its own, with
// the per-command paths found by the caller. The command runs in the spare helper when
// there is one that built its private root for the same paths and still masks them as
// built; otherwise a helper is started for it. Either way, once the command is released,
// a spare is started in the background for the next command, predicting the same paths:
// the first command of a session pays for a helper's start and root, later ones mostly do
// not. (Started beside the command, the spare took the CPU from it: +5 ms a command.)
func (s *Sandbox) Start(o Options, paths Paths) (*Process, error) {
	session := s.session()
	p := &Process{}
	ns, err := s.start(p, session, o, paths)
	if err != nil {
		p.group.remove()
		return nil, err
	}
	p.Confinement = s.confinement(session, p.group)
	if ns {
		p.Confinement.Filesystem = "private-root"
		if !s.policy.Network {
			p.Confinement.Network = "namespace"
		}
	}
	p.refill = func() { s.refill(paths) }
	return p, nil
}

// session returns the session's cgroup, made at the first command.
func (s *Sandbox) session() *sessionGroup {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.group == nil {
		s.group = newSessionGroup(s.policy.MaxProcs, s.policy.MaxMemory)
	}
	return s.group
}

// confinement is what a command gets whether or not namespaces work (Start adds theirs).
func (s *Sandbox) confinement(session *sessionGroup, group *cmdGroup) Confinement {
	conf := Confinement{Landlock: landlockABI(), Procs: "none", Memory: "none", Network: "unrestricted", Filesystem: "landlock", Seccomp: seccompSupported()}
	switch {
	case group != nil && session.procs:
		conf.Procs = "cgroup"
	case os.Getuid() != 0:
		conf.Procs = "rlimit" // the helper sets RLIMIT_NPROC, which binds a non-root user
	}
	if group != nil && session.memory {
		conf.Memory = "cgroup"
	}
	conf.Confined = conf.Landlock > 0
	switch {
	case s.policy.Network:
		conf.Network = "allowed"
	case conf.Landlock >= 4:
		conf.Network = "landlock-tcp"
	}
	return conf
}

// start runs the command in the spare or in a helper of its own, sets p.Cmd, p.Spare and
// p.group, and reports whether the command got new namespaces.
func (s *Sandbox) start(p *Process, session *sessionGroup, o Options, paths Paths) (bool, error) {
	if sp := s.takeSpare(o, paths); sp != nil {
		p.Cmd, p.Spare, p.group = sp.cmd, true, sp.group
		return sp.ns, nil
	}
	p.group = session.newCmdGroup()
	for {
		s.mu.Lock()
		ns := s.ns
		s.mu.Unlock()
		sp := s.spec(ns, paths)
		sp.Cgroups, sp.Dir, sp.Argv = p.group.procsFiles(), o.Dir, o.Argv
		arg, err := sp.arg()
		if err != nil {
			return false, err
		}
		cmd := exec.Command(s.exe, HelperArg, arg)
		cmd.Dir = o.Dir
		cmd.Env = o.Env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
		cmd.WaitDelay = o.WaitDelay
		cmd.SysProcAttr = sysProcAttr(ns, !s.policy.Network)
		err = cmd.Start()
		if err != nil && ns && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES)) {
			s.mu.Lock()
			s.ns = false // this kernel or container refuses namespaces: Landlock only
			s.mu.Unlock()
			continue
		}
		p.Cmd = cmd
		return ns, err
	}
}

// spec is the helper's spec for paths, without a command.
func (s *Sandbox) spec(ns bool, paths Paths) spec {
	return spec{
		Version: specVersion, ReadOnly: s.ro, ReadWrite: s.rw, Protected: paths.Protected, Hidden: paths.Hidden, Writable: paths.Writable,
		Files: []string{s.exe}, Sockets: s.policy.Sockets, Mounts: ns, Network: s.policy.Network, MaxProcs: s.policy.MaxProcs,
	}
}

// arg renders the spec as the helper's argument, refusing one longer than maxSpec.
func (sp spec) arg() (string, error) {
	arg, err := sp.encode()
	if err == nil && len(arg) > maxSpec {
		err = fmt.Errorf("sandbox: %d protected and hidden paths are more than the helper can take; protect a directory rather than its files", len(sp.Protected)+len(sp.Hidden))
	}
	return arg, err
}

// Kill kills every process of the command: its process group, and with a cgroup every
// process in it, including those that left the group with setsid.
func (p *Process) Kill() {
	if p.Cmd.Process != nil {
		syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	}
	p.group.killAll()
}

// Close kills the spare helper, waits until it is gone, and removes the session's cgroup;
// call it once every command has been released.
func (s *Sandbox) Close() {
	s.mu.Lock()
	s.closed = true
	sp, group := s.spare, s.group
	s.spare, s.group = nil, nil
	s.mu.Unlock()
	if sp != nil {
		sp.discard()
	}
	s.bg.Wait()
	if group != nil {
		group.remove()
	}
}

// Release kills what is left of the command once it has exited (background children in
// its process group or cgroup) and removes its cgroup.
func (p *Process) Release() {
	p.Kill()
	p.OOMKilled = p.group.oomKilled()
	p.group.remove()
	if p.refill != nil {
		p.refill()
	}
}
