package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/jido-run/jido/security"
)

// QuarantineDir is where jido moves what a command created at a protected path: out of
// the way of the programs that would run it, but kept for the user to look at.
const QuarantineDir = ".jido/quarantine"

// audit undoes what a command did at protected paths that did not exist before it (the
// private root made the existing ones read-only), or that are other files than before (a
// path replaced where commands run under Landlock alone). It looks over the project again
// and, for each protected path that is new since before: a part of a git directory (a new
// repository anywhere, a new submodule's directory) keeps working but loses the hooks and
// config keys that would run programs; anything else (.envrc, .vscode, a .git file that
// points git elsewhere, a new worktrees directory) is moved to QuarantineDir/id. It returns what it did, for the
// result.
func audit(root *security.Root, before Scan, id string) []string {
	old := map[string]bool{}
	for _, p := range before.Paths.Protected {
		old[p] = true
	}
	var notes []string
	sanitized := map[string]bool{}
	after := scanProject(root)
	for _, p := range after.Paths.Protected {
		if old[p] && after.ids[p] == before.ids[p] {
			continue
		}
		rel, err := filepath.Rel(root.Path(), p)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		gitDir, part, inGit := strings.Cut(rel, ".git/")
		switch {
		case inGit && (gitDir == "" || strings.HasSuffix(gitDir, "/")):
			gitDir += ".git"
			switch {
			case part == "modules":
				notes = append(notes, sanitizeModules(root, gitDir+"/modules", id)...)
			case part == "worktrees": // their commondir files could point git at a planted repository
				notes = append(notes, quarantine(root, rel, id))
			case !sanitized[gitDir]:
				sanitized[gitDir] = true
				notes = append(notes, sanitizeGitDir(root, gitDir, id)...)
			}
		default:
			notes = append(notes, quarantine(root, rel, id))
		}
	}
	return notes
}

// quarantine moves the root-relative entry rel into QuarantineDir/id and says so.
func quarantine(root *security.Root, rel, id string) string {
	ownDir(root, QuarantineDir)
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
var dangerousGitKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|worktree)|sequence\.editor|diff\.external|(diff|merge|filter|difftool|mergetool|browser|man|gpg|credential)\..*|pager\..*|alias\..*|include\.path|includeif\..*|uploadpack\..*|receive\.procreceiverefs|remote\..*\.(uploadpack|receivepack)|web\.browser)$`)
})

// sanitizeGitDir makes a git directory (root-relative) that the command created, or whose
// hooks or config it created, harmless to the host's git: hooks other than git's samples
// are quarantined, and configuration keys that run programs are removed (with git itself;
// without git the whole config is quarantined).
func sanitizeGitDir(root *security.Root, gitDir, id string) []string {
	var notes []string
	host := filepath.Join(root.Path(), filepath.FromSlash(gitDir))
	if entries, err := os.ReadDir(filepath.Join(host, "hooks")); err == nil {
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".sample") {
				notes = append(notes, quarantine(root, gitDir+"/hooks/"+e.Name(), id))
			}
		}
	}
	cfg := filepath.Join(host, "config")
	if info, err := os.Lstat(cfg); err != nil || !info.Mode().IsRegular() {
		if err == nil {
			notes = append(notes, quarantine(root, gitDir+"/config", id))
		}
		return notes
	}
	out, err := exec.Command("git", "config", "--file", cfg, "--name-only", "--list").Output()
	if err != nil {
		return append(notes, quarantine(root, gitDir+"/config", id))
	}
	for key := range strings.FieldsSeq(string(out)) {
		if dangerousGitKey().MatchString(strings.ToLower(key)) {
			if exec.Command("git", "config", "--file", cfg, "--unset-all", key).Run() != nil {
				return append(notes, quarantine(root, gitDir+"/config", id))
			}
			notes = append(notes, fmt.Sprintf("%s/config: jido removed %s, set by the command (it would run a program outside the sandbox)", gitDir, key))
		}
	}
	return notes
}

// sanitizeModules sanitizes every git directory under a repository's modules directory
// (submodules, nested ones included).
func sanitizeModules(root *security.Root, modules, id string) []string {
	var notes []string
	filepath.WalkDir(filepath.Join(root.Path(), filepath.FromSlash(modules)), func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if _, err := os.Lstat(filepath.Join(p, "HEAD")); err == nil {
			rel, _ := filepath.Rel(root.Path(), p)
			notes = append(notes, sanitizeGitDir(root, filepath.ToSlash(rel), id)...)
		}
		return nil
	})
	return notes
}

// denial matches what a program prints when the kernel refused it a file or an operation.
var denial = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)read-only file system|permission denied|operation not permitted`)
})

// sandboxNotes explains a failure that looks like the sandbox's doing (a denial, or the
// memory limit), and says when the scan before the command did not cover the whole tree.
func sandboxNotes(res *Result, sc Scan) []string {
	var notes []string
	if res.ExitCode != 0 && res.Sandbox.Confined && (denial().MatchString(res.Stderr) || denial().MatchString(res.Stdout)) {
		notes = append(notes, "this may be the sandbox refusing: commands write only inside the project and $TMPDIR; "+
			"protected paths (.git/config, .git/hooks, .git/info, .jido, .vscode, .idea, .envrc, shell rc files, and the config's protected list) are read-only; "+
			"secret files read empty; there is no network unless allowed. If the command needs more, ask the user to run it outside jido")
	}
	if res.OutOfMemory {
		notes = append(notes, "the kernel killed the command for memory: the session's commands together may use the sandbox's memory limit, no more; use less (smaller inputs, fewer parallel jobs) or end other jobs")
	}
	if !sc.Complete {
		notes = append(notes, fmt.Sprintf("the project has more than %d directories: the sandbox refined only the first ones (secret files and nested repositories beyond them are not protected)", maxScanDirs))
	}
	return notes
}
