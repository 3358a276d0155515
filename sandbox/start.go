package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Confinement says how a command was confined, for the result shown to the model.
type Confinement struct {
	Confined bool   `json:"confined"`     // false: the kernel has no Landlock and the command ran unconfined
	Landlock int    `json:"landlock_abi"` // the Landlock ABI enforced, 0 for none
	Network  string `json:"network"`      // "namespace", "landlock-tcp", "allowed" or "unrestricted"
	Procs    string `json:"procs"`        // "cgroup", "rlimit" or "none"
}

// Sandbox starts commands under one policy; safe for concurrent use.
type Sandbox struct {
	exe    string // the helper binary: the running executable
	policy Policy
	ro, rw []string

	mu    sync.Mutex
	netns bool // new network namespaces work (cleared after the first refusal)
}

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
	ro, rw := toolchainDirs(os.Getenv)
	s := &Sandbox{exe: exe, policy: p, netns: !p.Network}
	s.ro = clean(append(append(systemDirs, ro...), p.ReadOnly...))
	s.rw = clean(append(append([]string{p.Root, p.TempDir}, rw...), p.ReadWrite...))
	return s, nil
}

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
	group       *pidsGroup // nil without a cgroup
}

// Start starts a command in the sandbox, in its own process group.
func (s *Sandbox) Start(o Options) (*Process, error) {
	group, procs := newPidsGroup(s.policy.MaxProcs)
	sp := spec{
		Version: specVersion, ReadOnly: s.ro, ReadWrite: s.rw, Network: s.policy.Network,
		MaxProcs: s.policy.MaxProcs, Dir: o.Dir, Argv: o.Argv,
	}
	if group != nil {
		sp.Cgroup = group.procsFile()
	}
	arg, err := sp.encode()
	if err != nil {
		group.remove()
		return nil, err
	}
	conf := Confinement{Landlock: landlockABI(), Procs: procs, Network: "unrestricted"}
	conf.Confined = conf.Landlock > 0
	switch {
	case s.policy.Network:
		conf.Network = "allowed"
	case conf.Landlock >= 4:
		conf.Network = "landlock-tcp"
	}
	for {
		s.mu.Lock()
		netns := s.netns
		s.mu.Unlock()
		cmd := exec.Command(s.exe, HelperArg, arg)
		cmd.Dir = o.Dir
		cmd.Env = o.Env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
		cmd.WaitDelay = o.WaitDelay
		cmd.SysProcAttr = sysProcAttr(netns)
		err := cmd.Start()
		if err != nil && netns && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC)) {
			s.mu.Lock()
			s.netns = false // this kernel or container refuses namespaces: Landlock only
			s.mu.Unlock()
			continue
		}
		if err != nil {
			group.remove()
			return nil, err
		}
		if netns {
			conf.Network = "namespace"
		}
		return &Process{Cmd: cmd, Confinement: conf, group: group}, nil
	}
}

// Kill kills every process of the command: its process group, and with a cgroup every
// process in it, including those that left the group with setsid.
func (p *Process) Kill() {
	if p.Cmd.Process != nil {
		syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	}
	p.group.killAll()
}

// Release kills what is left of the command once it has exited (background children in
// its process group or cgroup) and removes its cgroup.
func (p *Process) Release() {
	p.Kill()
	p.group.remove()
}
