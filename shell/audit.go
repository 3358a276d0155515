package shell

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/jido-run/jido/security"
)

// QuarantineDir is where jido moves what a command created at a protected path: out of
// the way of the programs that would run it, but kept for the user to look at.
const QuarantineDir = ".jido/quarantine"

// audit undoes what a command did beyond what it may, looking over the project again
// (acting on the host only through hostFS, which never follows a link):
//   - in git directories, what the allow-list of gitdir.go does not let it change
//     (auditGitDirs);
//   - any other protected path that is new since before, or another file than before (a
//     path replaced where commands run under Landlock alone): .envrc, .vscode, a .git file
//     that points git elsewhere, is moved to QuarantineDir/id.
//
// It returns what it did, for the result. When the project cannot be looked at safely, it
// says so: nothing is moved then.
func audit(root *security.Root, before Scan, id string) []string {
	h, err := openHostFS(root.Path())
	if err != nil {
		return []string{fmt.Sprintf("jido could not check what the command left in the project (%v): check .git and the protected paths before running git or other programs here", err)}
	}
	defer h.Close()
	after := scanProject(root)
	notes := auditGitDirs(h, before, after, id)
	old := map[string]bool{}
	for _, p := range before.Paths.Protected {
		old[p] = true
	}
	for _, p := range after.Paths.Protected {
		if old[p] && after.ids[p] == before.ids[p] {
			continue
		}
		rel, err := filepath.Rel(root.Path(), p)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if after.inGitDir(rel) {
			continue // the git directories' audit decided
		}
		notes = append(notes, quarantine(h, rel, id, "it could run later outside the sandbox"))
	}
	return notes
}

// inGitDir reports whether rel lies in one of the scan's git directories.
func (sc Scan) inGitDir(rel string) bool {
	for dir := range sc.gitDirs {
		if strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	return false
}

// quarantine moves the root-relative entry rel into QuarantineDir/id (never following a
// link) and says so, with why it may not stay.
func quarantine(h *hostFS, rel, id, why string) string {
	if _, ok, _ := h.readFile(QuarantineDir+"/.gitignore", maxSavedFile); !ok {
		if d, err := h.dir(QuarantineDir, true); err == nil {
			d.Close()
			h.writeFile(QuarantineDir+"/.gitignore", []byte(ownIgnore), 0o644) // as ownDir
		}
	}
	dst := QuarantineDir + "/" + id + "/" + rel
	if err := h.move(rel, dst); err != nil {
		return fmt.Sprintf("%s was made or changed by the command (%s) and jido could not move it away (%v): remove it before using this project", rel, why, err)
	}
	return fmt.Sprintf("%s: the command made or changed it (%s); jido moved it to %s", rel, why, dst)
}

// dangerousGitKey matches the git configuration keys that make git run a program, or
// read configuration from elsewhere, lower-cased as git lists them.
var dangerousGitKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|worktree)|sequence\.editor|diff\.external|(diff|merge|filter|difftool|mergetool|browser|man|gpg|credential)\..*|pager\..*|alias\..*|include\.path|includeif\..*|uploadpack\..*|receive\.procreceiverefs|remote\..*\.(uploadpack|receivepack)|web\.browser)$`)
})

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
	return notes
}
