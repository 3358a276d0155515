package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// landlockABI returns the Landlock ABI version the kernel supports, 0 when none.
func landlockABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// sysProcAttr starts the helper in a session of its own (no controlling terminal, so no
// way to type into the user's), killed with its parent. With ns it gets a new mount
// namespace, and a new network namespace when netns; a new user namespace too when not
// root, which is what lets an unprivileged process create the others (the command then
// runs as root of that namespace, with no capability, and as the user outside it).
func sysProcAttr(ns, netns bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if ns {
		a.Cloneflags = syscall.CLONE_NEWNS
		if netns {
			a.Cloneflags |= syscall.CLONE_NEWNET
		}
		if uid := os.Getuid(); uid != 0 {
			gid := os.Getgid()
			a.Cloneflags |= syscall.CLONE_NEWUSER
			// Root inside the namespace, so that the helper keeps the capabilities it needs to
			// build the private root across its exec (a non-root uid loses them at execve);
			// it drops them all before the command's exec.
			a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
			a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
			a.GidMappingsEnableSetgroups = false
		}
	}
	return a
}

// helperMain confines the helper process and execs the command; it returns only on failure
// (exit status 126, as a shell does for a command it cannot run).
func helperMain(arg string) int {
	// Capabilities and no_new_privs are per thread: the thread that drops them must be the
	// one that execs.
	runtime.LockOSThread()
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "jido sandbox: "+format+"\n", args...)
		return 126
	}
	s, err := decodeSpec(arg)
	if err != nil {
		return fail("%v", err)
	}
	for _, procs := range s.Cgroups {
		if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fail("joining the session's cgroup: %v", err)
		}
	}
	if len(s.Cgroups) == 0 && os.Getuid() != 0 {
		lim := uint64(s.MaxProcs)
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: lim, Max: lim}); err != nil {
			return fail("limiting processes: %v", err)
		}
	}
	if s.Mounts {
		if err := privateRoot(s); err != nil {
			return fail("building the private root: %v", err)
		}
		if err := os.Chdir(s.Dir); err != nil {
			return fail("entering %s: %v", s.Dir, err)
		}
	}
	// Looked up before Landlock and seccomp, while the helper can still read every
	// directory of PATH.
	path, err := exec.LookPath(s.Argv[0])
	if err != nil {
		return fail("%v", err)
	}
	if err := restrict(s); err != nil {
		return fail("applying Landlock: %v", err)
	}
	if err := dropCapabilities(); err != nil {
		return fail("dropping capabilities: %v", err)
	}
	if err := loadSeccomp(s.Network, s.Mounts); err != nil {
		return fail("loading the syscall filter: %v", err)
	}
	err = syscall.Exec(path, s.Argv, os.Environ())
	return fail("exec %s: %v", s.Argv[0], err)
}

// restrict applies the spec's Landlock rules at the best ABI the kernel has (nothing on a
// kernel without Landlock), and no_new_privs. Signals and abstract UNIX sockets are scoped
// to the sandbox whether or not the network is allowed.
func restrict(s spec) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if landlockABI() == 0 {
		return nil
	}
	self := fmt.Sprintf("/proc/%d", os.Getpid()) // the command keeps the helper's pid
	rw := s.ReadWrite
	if s.Mounts {
		rw = append(append([]string(nil), rw...), "/dev/shm") // the private root's own
	}
	rules := []landlock.Rule{
		landlock.RODirs(s.ReadOnly...).IgnoreIfMissing(),
		landlock.RODirs(self, "/proc/sys").IgnoreIfMissing(),
		landlock.ROFiles(procFiles...).IgnoreIfMissing(),
		landlock.RWDirs(rw...).IgnoreIfMissing().WithRefer(),
		landlock.RWFiles(devFiles...).IgnoreIfMissing().WithIoctlDev(),
	}
	cfg := landlock.V11
	if s.Network {
		cfg.HandledAccessNet = 0
	}
	return cfg.BestEffort().Restrict(rules...)
}
