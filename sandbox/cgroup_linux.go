package sandbox

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// pidsGroup is a cgroup of the pids controller holding one command, so that a fork bomb
// meets pids.max and every process can be killed, even one that left the process group.
// Root is exempt from RLIMIT_NPROC, so for root this is the only bound.
type pidsGroup struct {
	dir string
}

// newPidsGroup creates a pids cgroup limited to max processes under this process's own
// cgroup (v2, or the v1 pids hierarchy) and names how processes are bounded: "cgroup",
// else "rlimit" (the helper sets RLIMIT_NPROC, which binds a non-root user) or "none".
func newPidsGroup(max int) (*pidsGroup, string) {
	for _, base := range pidsBases() {
		var b [6]byte
		rand.Read(b[:])
		dir := filepath.Join(base, "jido-"+hex.EncodeToString(b[:]))
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
			os.Remove(dir)
			continue
		}
		return &pidsGroup{dir: dir}, "cgroup"
	}
	if os.Getuid() != 0 {
		return nil, "rlimit"
	}
	return nil, "none"
}

// pidsBases lists where a pids cgroup can be made: this process's cgroup in the v2
// hierarchy when it delegates pids, and in the v1 pids hierarchy.
func pidsBases() []string {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	defer f.Close()
	var bases []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir := filepath.Join("/sys/fs/cgroup", parts[2])
			if ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control")); err == nil && strings.Contains(string(ctl), "pids") {
				bases = append(bases, dir)
			}
		case strings.Contains(","+parts[1]+",", ",pids,"):
			bases = append(bases, filepath.Join("/sys/fs/cgroup/pids", parts[2]))
		}
	}
	return bases
}

// procsFile is the file the helper writes its pid to, to join the group.
func (g *pidsGroup) procsFile() string { return filepath.Join(g.dir, "cgroup.procs") }

// killAll kills every process in the group until it is empty (bounded: a bomb may still
// be forking while we kill, but pids.max caps it).
func (g *pidsGroup) killAll() {
	if g == nil {
		return
	}
	for range 100 {
		data, err := os.ReadFile(g.procsFile())
		if err != nil || len(strings.TrimSpace(string(data))) == 0 {
			return
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// remove deletes the (empty) group.
func (g *pidsGroup) remove() {
	if g == nil {
		return
	}
	for range 100 {
		if err := os.Remove(g.dir); err == nil || os.IsNotExist(err) {
			return
		}
		g.killAll()
		time.Sleep(2 * time.Millisecond)
	}
}
