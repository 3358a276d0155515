package sandbox

import (
	"os"
	"strconv"
	"strings"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// dropCapabilities empties the calling thread's capability sets, its bounding set and its
// ambient set, so that the command has no privilege even as root: root's exec grants only
// what the bounding set holds.
func dropCapabilities() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// seccompSupported reports whether the kernel can filter system calls.
func seccompSupported() bool { return seccomp.Supported() }

// deniedSyscalls are the calls no command needs and an attacker wants: tracing and reading
// other processes, io_uring (which bypasses the other filters), the kernel keyring, BPF,
// perf events, namespaces and mounts (which could undo the private root), module and
// kexec loading, and userfaultfd.
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"add_key", "request_key", "keyctl",
	"bpf", "perf_event_open", "userfaultfd",
	"mount", "umount2", "pivot_root", "unshare", "setns", "chroot",
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"acct", "swapon", "swapoff", "reboot", "syslog", "quotactl",
}

// loadSeccomp installs the helper's filter on the calling thread, which then execs: the
// denied calls fail with EPERM, and so do ioctl's TIOCSTI and TIOCLINUX (typing into a
// terminal). When no network namespace confines the command and the network is not
// allowed, sockets of the internet families other than Landlock's TCP are refused too
// (UDP, raw, MPTCP...), and packet sockets always.
func loadSeccomp(network, netns bool) error {
	if !seccomp.Supported() {
		return nil
	}
	groups := []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno, Names: deniedSyscalls},
		{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "ioctl", Conditions: []seccomp.Condition{{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCSTI}}},
			{Name: "ioctl", Conditions: []seccomp.Condition{{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCLINUX}}},
			{Name: "socket", Conditions: []seccomp.Condition{{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_PACKET}}},
		}},
	}
	if !network && !netns {
		var inet []seccomp.NameWithConditions
		for _, family := range []uint64{unix.AF_INET, unix.AF_INET6} {
			inet = append(inet,
				// Any type but a stream socket of the default or TCP protocol (which Landlock governs).
				seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{
					{Argument: 0, Operation: seccomp.Equal, Value: family},
					{Argument: 1, Operation: seccomp.BitsNotSet, Value: unix.SOCK_STREAM},
				}},
				seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{
					{Argument: 0, Operation: seccomp.Equal, Value: family},
					{Argument: 2, Operation: seccomp.NotEqual, Value: 0},
					{Argument: 2, Operation: seccomp.NotEqual, Value: unix.IPPROTO_TCP},
				}},
			)
		}
		groups = append(groups, seccomp.SyscallGroup{Action: seccomp.ActionErrno, NamesWithCondtions: inet})
	}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Policy:     seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups},
	})
}
