package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"slices"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// selfLandlock is ConfineSelf's Landlock configuration, every access it knows handled,
// and selfLandlockABI its ABI, the most ConfineSelf enforces.
var selfLandlock, selfLandlockABI = landlock.V11.BestEffort(), 11

// ConfineSelf confines the calling process, all its threads, for good, as far as the
// kernel can: no_new_privs; Landlock with no file, TCP or UDP access at all, and no signal
// or abstract UNIX socket beyond the process; and a syscall filter that refuses
// deniedSyscalls, exec, new processes and sockets. For a process that needs nothing of the
// kernel but the files it has open and its memory: a Lua worker once it has its hello.
func ConfineSelf() (SelfConfinement, error) {
	var c SelfConfinement
	if err := llsys.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return c, fmt.Errorf("setting no_new_privs: %w", err)
	}
	c.NoNewPrivs = true
	if abi := landlockABI(); abi > 0 {
		if err := selfLandlock.Restrict(); err != nil { // no rule: every handled access is denied
			return c, fmt.Errorf("applying Landlock: %w", err)
		}
		c.LandlockABI = min(abi, selfLandlockABI)
	}
	if seccomp.Supported() {
		if err := loadSelfSeccomp(); err != nil {
			return c, fmt.Errorf("loading the syscall filter: %w", err)
		}
		c.Seccomp = true
	}
	return c, nil
}

// selfDenied are the calls ConfineSelf refuses besides deniedSyscalls: running a program,
// making a process (clone without CLONE_THREAD, below), any socket, another process's
// file descriptors.
var selfDenied = []string{
	"execve", "execveat", "fork", "vfork",
	"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
	"pidfd_getfd",
}

// loadSelfSeccomp installs ConfineSelf's filter on every thread of the process. The calls
// fail with EPERM, but clone3 with ENOSYS: its flags are in memory, out of the filter's
// reach, and on ENOSYS libc falls back to clone (the Go runtime uses clone).
func loadSelfSeccomp() error {
	info, err := arch.GetInfo("")
	if err != nil {
		return err
	}
	// fork and vfork, for one, exist only on some architectures.
	names := slices.DeleteFunc(slices.Concat(deniedSyscalls, selfDenied), func(name string) bool {
		_, ok := info.SyscallNames[name]
		return !ok
	})
	cloneFlags := uint32(0)
	if runtime.GOARCH == "s390x" {
		cloneFlags = 1 // clone(stack, flags, ...)
	}
	filter := seccomp.Filter{
		NoNewPrivs: true,
		// TSYNC_ESRCH: a thread that cannot take the filter fails the call (else it returns
		// the thread's id, which looks like success); the kernel knows it since 5.7.
		Flag: seccomp.FilterFlagTSync | unix.SECCOMP_FILTER_FLAG_TSYNC_ESRCH,
		Policy: seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: []seccomp.SyscallGroup{
			{Action: seccomp.ActionErrno, Names: names},
			{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
				{Name: "clone", Conditions: []seccomp.Condition{{Argument: cloneFlags, Operation: seccomp.BitsNotSet, Value: unix.CLONE_THREAD}}},
			}},
			{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
		}},
	}
	err = seccomp.LoadFilter(filter)
	if errors.Is(err, unix.EINVAL) {
		filter.Flag = seccomp.FilterFlagTSync
		err = seccomp.LoadFilter(filter)
	}
	return err
}
