package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/jido-run/jido/security"
)

// QuarantineDir is where jido moves what a command created at a protected path: out of
// the way of the programs that would run it, but kept for the user to look at.
const QuarantineDir = ".jido/quarantine"

// rootNames lists the names at the top of the root (none when it cannot be read).
func rootNames(root *security.Root) map[string]bool {
	entries, err := os.ReadDir(root.Path())
	names := map[string]bool{}
	if err != nil {
		return names
	}
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}

// audit undoes what a command did at protected paths that did not exist before it (the
// private root made the existing ones read-only): a new protected entry at the top of the
// root is moved to QuarantineDir/id, and a new repository (.git) keeps working but loses
// the hooks and config keys that would run programs. It returns what it did, for the
// result.
func audit(root *security.Root, before map[string]bool, id string) []string {
	var notes []string
	for name := range rootNames(root) {
		switch {
		case before[name]:
		case name == ".git":
			notes = append(notes, sanitizeRepo(root, id)...)
		case root.IsProtected(name):
			notes = append(notes, quarantine(root, name, id))
		}
	}
	return notes
}

// quarantine moves the root-relative entry rel into QuarantineDir/id and says so.
func quarantine(root *security.Root, rel, id string) string {
	dst := filepath.Join(root.Path(), filepath.FromSlash(QuarantineDir), id, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err == nil {
		if err = os.Rename(filepath.Join(root.Path(), filepath.FromSlash(rel)), dst); err == nil {
			return fmt.Sprintf("%s is protected (it could run later outside the sandbox); the command created it, and jido moved it to %s/%s/%s", rel, QuarantineDir, id, rel)
		}
	}
	return fmt.Sprintf("%s is protected and was created by the command; jido could not move it away: remove it before using this project", rel)
}

// dangerousGitKey matches the git configuration keys that make git run a program, or
// read configuration from elsewhere, lower-cased as git lists them.
var dangerousGitKey = regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|worktree)|sequence\.editor|diff\.external|(diff|merge|filter|difftool|mergetool|browser|man|gpg|credential)\..*|pager\..*|alias\..*|include\.path|includeif\..*|uploadpack\..*|receive\..*|remote\..*\.(uploadpack|receivepack|proxy)|http\..*|protocol\..*|web\.browser)$`)

// sanitizeRepo makes a repository the command created at the root harmless to the host's
// git: hooks other than git's samples are quarantined, and configuration keys that run
// programs are removed (with git itself; without git the whole config is quarantined).
func sanitizeRepo(root *security.Root, id string) []string {
	var notes []string
	if entries, err := os.ReadDir(filepath.Join(root.Path(), ".git", "hooks")); err == nil {
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".sample") {
				notes = append(notes, quarantine(root, ".git/hooks/"+e.Name(), id))
			}
		}
	}
	cfg := filepath.Join(root.Path(), ".git", "config")
	if _, err := os.Lstat(cfg); err != nil {
		return notes
	}
	out, err := exec.Command("git", "config", "--file", cfg, "--name-only", "--list").Output()
	if err != nil {
		return append(notes, quarantine(root, ".git/config", id))
	}
	for key := range strings.FieldsSeq(string(out)) {
		if dangerousGitKey.MatchString(strings.ToLower(key)) {
			if exec.Command("git", "config", "--file", cfg, "--unset-all", key).Run() != nil {
				return append(notes, quarantine(root, ".git/config", id))
			}
			notes = append(notes, fmt.Sprintf(".git/config: jido removed %s, set by the command in the repository it created (it would run a program outside the sandbox)", key))
		}
	}
	return notes
}

// denial matches what a program prints when the kernel refused it a file or an operation.
var denial = regexp.MustCompile(`(?i)read-only file system|permission denied|operation not permitted`)

// sandboxNotes explains a failure that looks like the sandbox's doing, and says when the
// scan before the command did not cover the whole tree.
func sandboxNotes(res *Result, sc Scan) []string {
	var notes []string
	if res.ExitCode != 0 && res.Sandbox.Confined && (denial.MatchString(res.Stderr) || denial.MatchString(res.Stdout)) {
		notes = append(notes, "this may be the sandbox refusing: commands write only inside the project and $TMPDIR; "+
			"protected paths (.git/config, .git/hooks, .git/info, .jido, .vscode, .idea, .envrc, shell rc files, and the config's protected list) are read-only; "+
			"secret files read empty; there is no network unless allowed. If the command needs more, ask the user to run it outside jido")
	}
	if !sc.Complete {
		notes = append(notes, fmt.Sprintf("the project has more than %d directories: the sandbox refined only the first ones (secret files and nested repositories beyond them are not protected)", maxScanDirs))
	}
	return notes
}
