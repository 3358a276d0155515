package sandbox

import (
	"errors"
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

// sparesWork: the helper can wait as a spare (see spare.go).
const sparesWork = true

// helperMain confines the helper process and execs the command; it returns only on failure,
// with a shell's exit status: 127 when the program is not found, 126 when it cannot run.
func helperMain(arg string) int {
	// Capabilities and no_new_privs are per thread: the thread that drops them must be the
	// one that execs.
	runtime.LockOSThread()
	s, err := decodeSpec(arg)
	switch {
	case err != nil:
	case s.Spare:
		err = spareMain(s)
	default:
		err = oneShot(s)
	}
	fmt.Fprintf(os.Stderr, "%s%v\n", FailurePrefix, err)
	if errors.Is(err, exec.ErrNotFound) {
		return 127
	}
	return 126
}

// oneShot runs the command of the spec: it joins the command's cgroup first, builds the
// private root, then confines itself and execs the command.
func oneShot(s spec) error {
	if err := join(s); err != nil {
		return err
	}
	if s.Mounts {
		if err := privateRoot(s); err != nil {
			return fmt.Errorf("building the private root: %w", err)
		}
	}
	return command(s, os.Environ())
}

// join puts the helper in the command's cgroups, or when there are none bounds the
// processes of a non-root user with RLIMIT_NPROC; before the command can fork.
func join(s spec) error {
	for _, procs := range s.Cgroups {
		if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fmt.Errorf("joining the session's cgroup: %w", err)
		}
	}
	if len(s.Cgroups) == 0 && os.Getuid() != 0 {
		lim := uint64(s.MaxProcs)
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: lim, Max: lim}); err != nil {
			return fmt.Errorf("limiting processes: %w", err)
		}
	}
	return nil
}

// command enters the command's directory (in the private root, or a spare's, which has
// not been put there), looks the program up, applies Landlock, drops every capability,
// loads the syscall filter and execs the command with env.
func command(s spec, env []string) error {
	if s.Mounts || s.Spare {
		if err := os.Chdir(s.Dir); err != nil {
			return fmt.Errorf("entering %s: %w", s.Dir, err)
		}
	}
	// Looked up before Landlock and seccomp, while the helper can still read every
	// directory of PATH.
	path, err := exec.LookPath(s.Argv[0])
	if err != nil {
		return err
	}
	if err := restrict(s); err != nil {
		return fmt.Errorf("applying Landlock: %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	if err := loadSeccomp(s.Network, s.Mounts); err != nil {
		return fmt.Errorf("loading the syscall filter: %w", err)
	}
	err = syscall.Exec(path, s.Argv, env)
	return fmt.Errorf("exec %s: %w", s.Argv[0], err)
}

// byKind splits paths into directories and the rest: Landlock refuses a directory's
// rights on a file (a single file granted read-only, such as a repository's config).
// Missing paths go with the directories, where IgnoreIfMissing skips them.
func byKind(paths []string) (dirs, files []string) {
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			files = append(files, p)
		} else {
			dirs = append(dirs, p)
		}
	}
	return dirs, files
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
	roDirs, roFiles := byKind(s.ReadOnly)
	rules := []landlock.Rule{
		landlock.RODirs(roDirs...).IgnoreIfMissing(),
		landlock.ROFiles(roFiles...).IgnoreIfMissing(),
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
