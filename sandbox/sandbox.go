// Package sandbox runs commands confined by the kernel. A command is started through a
// small re-exec helper: the jido binary (or a test binary) is started again with the
// hidden argument HelperArg, in a session of its own (no controlling terminal), in new
// mount and network namespaces when the kernel allows them. The helper joins the
// command's pids cgroup (or sets RLIMIT_NPROC), builds a private root holding only what
// the policy grants (protected paths bound read-only, secret files hidden, no host
// sockets, a private /tmp and /dev/shm), restricts itself with Landlock at the best ABI
// the kernel has (read-write on the project root and private dirs, read-only on system
// and toolchain directories; no TCP unless allowed; signals and abstract sockets scoped
// always) and a seccomp filter, drops every capability, sets no_new_privs, and execs the
// command, which inherits all of it and cannot lift it.
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

	"github.com/jido-run/jido/gocache"
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
	MaxProcs  int      // processes the session's commands may have at once, together (0: DefaultMaxProcs)
	MaxMemory int64    // bytes of memory the session's commands may use together (0: DefaultMaxMemory)
	// Sockets are UNIX sockets of jido's own inside TempDir (the Go build cache's server,
	// see package gocache) that commands may connect to: from Landlock ABI 9 on, connecting
	// to a socket made outside the sandbox is refused unless the socket is granted.
	Sockets []string
}

// Paths are the per-command refinements of the writable areas, found on the host just
// before the command starts (they change as the project does).
type Paths struct {
	Protected []string // host paths inside writable areas that the command sees read-only
	Hidden    []string // host paths the command sees empty (secret files and directories)
	Writable  []string // host paths inside protected ones that stay writable (jido's output directory)
}

// Default limits of a session's commands, together: processes (against fork bombs) and
// memory (against one command taking the machine).
const (
	DefaultMaxProcs  = 512
	DefaultMaxMemory = 8 << 30
)

// specVersion changes whenever spec or request does, so that a jido-sandbox from another
// build of jido refuses to run rather than misread its orders.
const specVersion = 4

// spec is what the parent hands the helper: the policy, resolved, and the command; a spare
// helper's has no command (Argv, Dir, Cgroups): its request brings it (see spare.go).
type spec struct {
	Version   int      `json:"v"`
	ReadOnly  []string `json:"ro"`
	ReadWrite []string `json:"rw"`
	Protected []string `json:"protected,omitempty"`
	Hidden    []string `json:"hidden,omitempty"`
	Writable  []string `json:"writable,omitempty"`
	Files     []string `json:"files,omitempty"`   // read-only files: the helper itself, also Go's cache program
	Sockets   []string `json:"sockets,omitempty"` // Policy.Sockets
	Mounts    bool     `json:"mounts"`            // the helper is in a new mount namespace: build the private root
	Network   bool     `json:"net"`
	MaxProcs  int      `json:"nproc"`
	Cgroups   []string `json:"cgroups,omitempty"` // cgroup.procs files to join
	Dir       string   `json:"dir"`
	Argv      []string `json:"argv"`
	Spare     bool     `json:"spare,omitempty"` // build the root, then wait for the command's request
}

// systemDirs are readable by every command: programs, libraries, configuration and the
// kernel's view of the system. Missing ones are skipped. /dev is not among them: the
// private root has its own, with devFiles only.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys", "/var/lib/dpkg"}

// networkDirs are readable only with network access: the resolver's socket and files.
var networkDirs = []string{"/run/systemd/resolve"}

// hiddenSystemFiles are files under systemDirs that a command sees empty even when it
// runs as root (the owner of them, so dropping capabilities is not enough): password
// hashes and TLS private keys; SSH host keys (/etc/ssh/ssh_host_*_key) too.
var hiddenSystemFiles = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd", "/etc/ssl/private"}

// procFiles are the parts of /proc a command may read. Not /proc itself: a Landlock domain
// does not stop reading another process's /proc/PID/environ here (measured: the parent's
// environment, API keys included, was readable), so only system-wide files are allowed,
// and /proc/self, which at the helper's exec is the command's own directory.
var procFiles = []string{"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version", "/proc/filesystems"}

// devFiles are the device files commands have. Not /dev/tty nor any terminal: a command
// must not reach the user's terminal (TIOCSTI could type into it).
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// toolchainDirs returns the toolchain directories a command may read beyond the system
// ones: Go's root and module cache, cargo's programs and downloaded crates (not its
// credentials), rustup, pyenv, nvm and the directories of PATH (but never the home
// directory or one above it). They come from the environment of the jido process.
// Build caches are not among them: a shared cache holds executables that the user's own
// commands later run, so each project gets a private one (see shell).
func toolchainDirs(env func(string) string) []string {
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
	cargo := or(env("CARGO_HOME"), inHome(".cargo"))
	ro := []string{
		env("GOROOT"), or(env("GOMODCACHE"), filepath.Join(or(env("GOPATH"), inHome("go")), "pkg", "mod")),
		filepath.Join(or(env("GOPATH"), inHome("go")), "bin"),
		or(env("RUSTUP_HOME"), inHome(".rustup")),
		or(env("PYENV_ROOT"), inHome(".pyenv")), or(env("NVM_DIR"), inHome(".nvm")),
		inHome(".local/lib"), inHome(".local/bin"),
	}
	if cargo != "" {
		ro = append(ro, filepath.Join(cargo, "bin"), filepath.Join(cargo, "registry"), filepath.Join(cargo, "git"))
	}
	for dir := range strings.SplitSeq(env("PATH"), ":") {
		if filepath.IsAbs(dir) && !coversHome(dir, home) {
			ro = append(ro, dir)
		}
	}
	return clean(ro)
}

// coversHome reports whether granting dir would grant the home directory: dir is home or
// above it (or the file system's root).
func coversHome(dir, home string) bool {
	dir = filepath.Clean(dir)
	if dir == "/" {
		return true
	}
	return home != "" && (dir == filepath.Clean(home) || strings.HasPrefix(filepath.Clean(home), dir+"/"))
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
	if len(s.Argv) == 0 && !s.Spare {
		return s, fmt.Errorf("sandbox helper: no command")
	}
	return s, nil
}

// MaybeHelper runs the helper, or Go's cache program for the commands (gocache.ProgramArg:
// the go command starts it inside the sandbox), and never returns when os.Args asks for
// one of them; otherwise it returns at once. Call it first thing in main and TestMain.
func MaybeHelper() {
	if len(os.Args) >= 2 && os.Args[1] == gocache.ProgramArg {
		os.Exit(gocache.ProgramMain(os.Args[2:]))
	}
	if len(os.Args) >= 3 && os.Args[1] == HelperArg {
		os.Exit(helperMain(os.Args[2]))
	}
}
