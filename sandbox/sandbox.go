// Package sandbox runs commands confined by the kernel. A command is started through a
// small re-exec helper: the jido binary (or a test binary) is started again with the
// hidden argument HelperArg, in a new network namespace when the kernel allows it; the
// helper joins the command's pids cgroup (or sets RLIMIT_NPROC), restricts itself with
// Landlock (read-write on the project root and a private temp dir, read-only on system
// and toolchain directories, nothing else; no TCP unless allowed), sets no_new_privs,
// and execs the command, which inherits all of it and cannot lift it.
//
// Programs that start sandboxed commands call MaybeHelper first thing in main (and in
// TestMain), so that the re-exec lands in the helper.
package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HelperArg is the hidden first argument that turns a jido process into the helper.
const HelperArg = "__jido_sandbox_helper"

// Policy is what a sandboxed command may do.
type Policy struct {
	Root      string   // the project root (host path): read-write
	TempDir   string   // the command's private temp dir: read-write, also HOME and TMPDIR
	ReadOnly  []string // more read-only paths (system and toolchain directories are added)
	ReadWrite []string // more read-write paths
	Network   bool     // allow network access
	MaxProcs  int      // processes the command may have at once (0: DefaultMaxProcs)
}

// DefaultMaxProcs bounds a command's processes, against fork bombs.
const DefaultMaxProcs = 512

// specVersion changes whenever spec does, so that a jido-sandbox from another build of
// jido refuses to run rather than misread its orders.
const specVersion = 1

// spec is what the parent hands the helper: the policy, resolved, and the command.
type spec struct {
	Version   int      `json:"v"`
	ReadOnly  []string `json:"ro"`
	ReadWrite []string `json:"rw"`
	Network   bool     `json:"net"`
	MaxProcs  int      `json:"nproc"`
	Cgroup    string   `json:"cgroup,omitempty"` // cgroup.procs file to join
	Dir       string   `json:"dir"`
	Argv      []string `json:"argv"`
}

// systemDirs are readable by every command: programs, libraries, configuration, and the
// kernel's views of the process. Missing ones are skipped.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys", "/dev", "/run/systemd/resolve", "/var/lib/dpkg"}

// procFiles are the parts of /proc a command may read. Not /proc itself: a Landlock domain
// does not stop reading another process's /proc/PID/environ here (measured: the parent's
// environment, API keys included, was readable), so only system-wide files are allowed,
// and /proc/self, which at the helper's exec is the command's own directory.
var procFiles = []string{"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version", "/proc/filesystems"}

// devFiles are device files commands may write.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// toolchainDirs returns the toolchain directories a command needs beyond the system ones:
// Go's root and module cache (read-only) and build cache (read-write, or every go command
// would rebuild the standard library), cargo, rustup, pyenv, nvm and the directories of
// PATH. They come from the environment of the jido process.
func toolchainDirs(env func(string) string) (ro, rw []string) {
	home := env("HOME")
	inHome := func(name string) string {
		if home == "" {
			return ""
		}
		return filepath.Join(home, name)
	}
	or := func(v, def string) string {
		if v != "" {
			return v
		}
		return def
	}
	ro = append(ro,
		env("GOROOT"), or(env("GOMODCACHE"), or(env("GOPATH"), inHome("go"))),
		or(env("CARGO_HOME"), inHome(".cargo")), or(env("RUSTUP_HOME"), inHome(".rustup")),
		or(env("PYENV_ROOT"), inHome(".pyenv")), or(env("NVM_DIR"), inHome(".nvm")),
		inHome(".local/lib"), inHome(".local/bin"),
	)
	for dir := range strings.SplitSeq(env("PATH"), ":") {
		if filepath.IsAbs(dir) {
			ro = append(ro, dir)
		}
	}
	rw = append(rw, or(env("GOCACHE"), filepath.Join(or(env("XDG_CACHE_HOME"), inHome(".cache")), "go-build")))
	return clean(ro), clean(rw)
}

// clean drops empty and relative entries and duplicates.
func clean(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(out, filepath.Clean(p)) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// encode renders the spec for the helper's command line.
func (s spec) encode() (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

// decodeSpec parses the helper's spec argument.
func decodeSpec(arg string) (spec, error) {
	var s spec
	if err := json.Unmarshal([]byte(arg), &s); err != nil {
		return s, fmt.Errorf("sandbox helper: bad spec: %w", err)
	}
	if s.Version != specVersion {
		return s, fmt.Errorf("sandbox helper: it comes from another build of jido (spec version %d, want %d); build both again: go install ./cmd/...", s.Version, specVersion)
	}
	if len(s.Argv) == 0 {
		return s, fmt.Errorf("sandbox helper: no command")
	}
	return s, nil
}

// MaybeHelper runs the helper and never returns when os.Args asks for it; otherwise it
// returns at once. Call it first thing in main and TestMain.
func MaybeHelper() {
	if len(os.Args) >= 3 && os.Args[1] == HelperArg {
		os.Exit(helperMain(os.Args[2]))
	}
}
