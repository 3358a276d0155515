package worker

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jido-run/jido/sandbox"
	"golang.org/x/sys/unix"
)

// Ways a worker's memory is capped, strongest first (Client.Ceiling).
const (
	CeilingCgroupV2 = "cgroup-v2" // memory.max of a cgroup of its own: the kernel kills it past the ceiling
	CeilingCgroupV1 = "cgroup-v1" // memory.limit_in_bytes of a cgroup of its own: the same
	CeilingRlimit   = "rlimit-as" // RLIMIT_AS: its allocations past the ceiling fail (Go then dies)
	CeilingNone     = "none"
)

// ceiling is the memory ceiling of one worker process.
type ceiling struct {
	kind string
	dir  string // the cgroup directory, for the cgroup kinds
}

// newCeiling makes the strongest ceiling of max bytes this host allows: a cgroup of its
// own (v2 when this process's v2 group delegates the memory controller, else the v1
// memory hierarchy) when the group can be made and limited, else RLIMIT_AS (set by the
// worker itself).
func newCeiling(max int64) *ceiling {
	name := "jido-worker-" + randomHex()
	limit := []byte(strconv.FormatInt(max, 10))
	for _, g := range memoryGroups() {
		dir := filepath.Join(g.base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		if os.WriteFile(filepath.Join(dir, g.file), limit, 0) != nil {
			os.Remove(dir)
			continue
		}
		// No way around the ceiling through swap (errors: no swap accounting).
		if g.kind == CeilingCgroupV2 {
			os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0)
		} else {
			os.WriteFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), limit, 0)
		}
		return &ceiling{kind: g.kind, dir: dir}
	}
	return &ceiling{kind: CeilingRlimit}
}

type memoryGroup struct{ kind, base, file string }

// memoryGroups lists where this process could make a memory cgroup, v2 first.
func memoryGroups() []memoryGroup {
	var groups []memoryGroup
	for _, d := range sandbox.CgroupDirs("memory")["memory"] {
		if d.V2 {
			groups = append(groups, memoryGroup{CeilingCgroupV2, d.Dir, "memory.max"})
		} else {
			groups = append(groups, memoryGroup{CeilingCgroupV1, d.Dir, "memory.limit_in_bytes"})
		}
	}
	return groups
}

// join moves process pid into the ceiling's cgroup.
func (c *ceiling) join(pid int) error {
	if c.dir == "" {
		return nil
	}
	return os.WriteFile(filepath.Join(c.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// oomKilled reports whether the kernel killed a process of the cgroup for its memory.
func (c *ceiling) oomKilled() bool {
	if c.dir == "" {
		return false
	}
	for _, file := range []string{"memory.events", "memory.oom_control"} {
		data, err := os.ReadFile(filepath.Join(c.dir, file))
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(data)) {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "oom_kill "); ok && n != "0" {
				return true
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(c.dir, "memory.failcnt")); err == nil && strings.TrimSpace(string(data)) != "0" {
		return true // v1 kernels without oom_kill in oom_control
	}
	return false
}

// remove deletes the cgroup (empty once its worker has been reaped).
func (c *ceiling) remove() {
	if c.dir != "" {
		os.Remove(c.dir)
	}
}

// limitSelf sets RLIMIT_AS to the address space this process has reserved plus extra
// bytes (nothing when extra is 0): Go reserves address space it may never touch, so the
// ceiling bounds the growth from here.
func limitSelf(extra int64) error {
	if extra <= 0 {
		return nil
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err
	}
	var vm int64
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return fmt.Errorf("reading VmSize: %w", err)
			}
			vm = kb << 10
		}
	}
	lim := uint64(vm + extra)
	return unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: lim, Max: lim})
}

// sysProcAttr starts the worker in a session of its own (no terminal's signals reach
// it), killed with its parent.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// randomHex names a cgroup.
func randomHex() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// blockingPipe makes a pipe in blocking mode (os.Pipe's are the runtime poller's).
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "worker-r"), os.NewFile(uintptr(fds[1]), "worker-w"), nil
}
