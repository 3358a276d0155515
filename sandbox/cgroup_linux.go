package sandbox

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A session's commands share one cgroup per hierarchy (the session group), which bounds
// their processes together (pids.max, against fork bombs: root is exempt from
// RLIMIT_NPROC, so for root this is the only bound) and their memory together; each
// command has a child group of its own, so that every process of it can be killed, even
// one that left its process group.

// CgroupDir is a directory of this process's cgroup under which groups with a controller
// can be made: in the v2 hierarchy when it delegates the controller, or in the
// controller's v1 hierarchy.
type CgroupDir struct {
	Dir string
	V2  bool
}

// CgroupDirs returns, for each of controllers, the directories of this process's cgroup
// where groups limited by it can be made: the v2 one first when it delegates the
// controller, then the controller's v1 hierarchy.
func CgroupDirs(controllers ...string) map[string][]CgroupDir {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var v2 string
	v1 := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = filepath.Join("/sys/fs/cgroup", parts[2])
			continue
		}
		for _, c := range controllers {
			if _, done := v1[c]; !done && strings.Contains(","+parts[1]+",", ","+c+",") {
				v1[c] = filepath.Join("/sys/fs/cgroup", c, parts[2])
			}
		}
	}
	var delegated string
	if v2 != "" {
		if ctl, err := os.ReadFile(filepath.Join(v2, "cgroup.subtree_control")); err == nil {
			delegated = " " + strings.TrimSpace(string(ctl)) + " "
		}
	}
	dirs := map[string][]CgroupDir{}
	for _, c := range controllers {
		if strings.Contains(delegated, " "+c+" ") {
			dirs[c] = append(dirs[c], CgroupDir{Dir: v2, V2: true})
		}
		if d, ok := v1[c]; ok {
			dirs[c] = append(dirs[c], CgroupDir{Dir: d})
		}
	}
	return dirs
}

// controllerDirs returns, for the pids and memory controllers, the first directory of
// CgroupDirs: the v2 one when it delegates the controller, else the v1 hierarchy's.
func controllerDirs() map[string]string {
	dirs := map[string]string{}
	for c, ds := range CgroupDirs("pids", "memory") {
		dirs[c] = ds[0].Dir
	}
	return dirs
}

// limitFiles names each controller's limit file, v2 first then v1.
var limitFiles = map[string][]string{
	"pids":   {"pids.max"},
	"memory": {"memory.max", "memory.limit_in_bytes"},
}

// sessionGroup is the group of one Sandbox's commands, in one directory per hierarchy
// (one in all with v2).
type sessionGroup struct {
	dirs   []string
	procs  bool // pids.max is set
	memory bool // the memory limit is set
}

// newSessionGroup makes the session group with its limits; what the machine does not
// allow is left out (and Confinement says so).
func newSessionGroup(maxProcs int, maxMemory int64) *sessionGroup {
	g := &sessionGroup{}
	name := "jido-" + randomHex()
	limits := map[string]string{"pids": strconv.Itoa(maxProcs), "memory": strconv.FormatInt(maxMemory, 10)}
	for controller, base := range controllerDirs() {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
			continue
		}
		set := false
		for _, file := range limitFiles[controller] {
			if os.WriteFile(filepath.Join(dir, file), []byte(limits[controller]), 0) == nil {
				set = true
				break
			}
		}
		if !set {
			os.Remove(dir)
			continue
		}
		if controller == "memory" { // no way around the limit through swap; errors: no swap accounting
			os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0)
			os.WriteFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), []byte(limits[controller]), 0)
		}
		if !slices.Contains(g.dirs, dir) {
			g.dirs = append(g.dirs, dir)
		}
		switch controller {
		case "pids":
			g.procs = true
		case "memory":
			g.memory = true
		}
	}
	return g
}

// remove deletes the session group's directories (empty once its commands' are gone).
func (g *sessionGroup) remove() {
	for _, dir := range g.dirs {
		os.Remove(dir)
	}
}

// cmdGroup is one command's group: a child of the session group in each hierarchy.
type cmdGroup struct {
	dirs []string
}

// newCmdGroup makes a command's group under the session group, nil when there is none.
func (g *sessionGroup) newCmdGroup() *cmdGroup {
	if g == nil || len(g.dirs) == 0 {
		return nil
	}
	c := &cmdGroup{}
	name := "cmd-" + randomHex()
	for _, parent := range g.dirs {
		dir := filepath.Join(parent, name)
		if os.Mkdir(dir, 0o755) == nil {
			c.dirs = append(c.dirs, dir)
		}
	}
	if len(c.dirs) == 0 {
		return nil
	}
	return c
}

// procsFiles are the files the helper writes its pid to, to join the group.
func (c *cmdGroup) procsFiles() []string {
	if c == nil {
		return nil
	}
	var files []string
	for _, dir := range c.dirs {
		files = append(files, filepath.Join(dir, "cgroup.procs"))
	}
	return files
}

// killAll kills every process in the group until it is empty (bounded: a bomb may still
// be forking while we kill, but pids.max caps it).
func (c *cmdGroup) killAll() {
	if c == nil {
		return
	}
	procs := filepath.Join(c.dirs[0], "cgroup.procs")
	for range 100 {
		data, err := os.ReadFile(procs)
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

// oomKilled reports whether the kernel killed a process of the group for memory
// (memory.events in v2, memory.oom_control in v1: both count oom_kill).
func (c *cmdGroup) oomKilled() bool {
	if c == nil {
		return false
	}
	for _, dir := range c.dirs {
		for _, file := range []string{"memory.events", "memory.oom_control"} {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				continue
			}
			for line := range strings.Lines(string(data)) {
				if n, ok := strings.CutPrefix(strings.TrimSpace(line), "oom_kill "); ok && n != "0" {
					return true
				}
			}
		}
	}
	return false
}

// remove deletes the (empty) group.
func (c *cmdGroup) remove() {
	if c == nil {
		return
	}
	for _, dir := range c.dirs {
		for range 100 {
			if err := os.Remove(dir); err == nil || os.IsNotExist(err) {
				break
			}
			c.killAll()
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// randomHex names a group.
func randomHex() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
