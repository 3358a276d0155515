package sandbox

import (
	"fmt"
	"os"
	"os/exec"
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

// sysProcAttr starts the helper in its own process group, killed with its parent, in a
// new network namespace when asked (a new user namespace too when not root, which is what
// lets an unprivileged process create one).
func sysProcAttr(netns bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if netns {
		a.Cloneflags = syscall.CLONE_NEWNET
		if uid := os.Getuid(); uid != 0 {
			gid := os.Getgid()
			a.Cloneflags |= syscall.CLONE_NEWUSER
			a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
			a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
			a.GidMappingsEnableSetgroups = false
		}
	}
	return a
}

// helperMain confines the helper process and execs the command; it returns only on failure
// (exit status 126, as a shell does for a command it cannot run).
func helperMain(arg string) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "jido sandbox: "+format+"\n", args...)
		return 126
	}
	s, err := decodeSpec(arg)
	if err != nil {
		return fail("%v", err)
	}
	if s.Cgroup != "" {
		if err := os.WriteFile(s.Cgroup, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fail("joining the pids cgroup: %v", err)
		}
	} else if os.Getuid() != 0 {
		lim := uint64(s.MaxProcs)
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: lim, Max: lim}); err != nil {
			return fail("limiting processes: %v", err)
		}
	}
	if err := restrict(s); err != nil {
		return fail("applying Landlock: %v", err)
	}
	path, err := exec.LookPath(s.Argv[0])
	if err != nil {
		return fail("%v", err)
	}
	err = syscall.Exec(path, s.Argv, os.Environ())
	return fail("exec %s: %v", s.Argv[0], err)
}

// restrict applies the spec's Landlock rules (best effort: the strongest ABI the kernel
// has; nothing on a kernel without Landlock) and no_new_privs.
func restrict(s spec) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if landlockABI() == 0 {
		return nil
	}
	self := fmt.Sprintf("/proc/%d", os.Getpid()) // the command keeps the helper's pid
	rules := []landlock.Rule{
		landlock.RODirs(s.ReadOnly...).IgnoreIfMissing(),
		landlock.RODirs(self, "/proc/sys").IgnoreIfMissing(),
		landlock.ROFiles(procFiles...).IgnoreIfMissing(),
		landlock.RWDirs(s.ReadWrite...).IgnoreIfMissing().WithRefer(),
		landlock.RWFiles(devFiles...).IgnoreIfMissing().WithIoctlDev(),
	}
	cfg := landlock.V7.BestEffort()
	if s.Network {
		return cfg.RestrictPaths(rules...)
	}
	return cfg.Restrict(rules...)
}
