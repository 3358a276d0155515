package gitops

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// Identity of the commits gitops makes.
const (
	committerName  = "jido"
	committerEmail = "jido@localhost"
)

// maxStderr caps the stderr of a failed git call kept in an error's details.
const maxStderr = 4000

// safeConfig is the command-line configuration of every git call: it overrides the
// repository's configuration (command-line settings win) for everything that would run a
// program or reach the network. See the package documentation.
var safeConfig = []string{
	"core.hooksPath=/dev/null",
	"core.fsmonitor=false",
	"core.sshCommand=false",
	"core.askPass=",
	"core.gitProxy=",
	"core.pager=cat",
	"core.editor=:",
	"sequence.editor=:",
	"core.attributesFile=/dev/null",
	"core.quotePath=false",
	"credential.helper=",
	"protocol.allow=never",
	"protocol.file.allow=always",
	"diff.external=",
	"diff.ignoreSubmodules=all",
	"submodule.recurse=false",
	"status.submoduleSummary=false",
	"merge.renormalize=false",
	"merge.conflictStyle=merge",
	"merge.verifySignatures=false",
	"filter.lfs.required=false",
	"commit.gpgSign=false",
	"tag.gpgSign=false",
	"rerere.enabled=false",
	"gc.auto=0",
	"maintenance.auto=false",
	"advice.detachedHead=false",
	"user.name=" + committerName,
	"user.email=" + committerEmail,
}

// baseEnv is the whole environment of every git call, with PATH made of gitDir (the
// directory of the git binary) and the system directories.
func baseEnv(gitDir string) []string {
	return []string{
		"PATH=" + gitDir + ":/usr/bin:/bin",
		"HOME=/nonexistent",
		"XDG_CONFIG_HOME=/nonexistent",
		"LANG=C",
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_PAGER=cat",
		"GIT_MERGE_AUTOEDIT=no",
		"GIT_OPTIONAL_LOCKS=0",
	}
}

// runner runs git with the fixed environment and configuration.
type runner struct {
	bin   string   // absolute path of git, looked up once
	extra []string // -c settings neutralising the drivers the repository's config defines
}

// newRunner finds git on the PATH.
func newRunner() (*runner, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return nil, definitions.NewError(definitions.ProcessError, "git is not installed: %v", err).
			Hint("Install git (apt-get install -y git)")
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return nil, definitions.NewError(definitions.ProcessError, "locating git: %v", err)
	}
	return &runner{bin: bin}, nil
}

// loc is where a git call runs: its git directory and work tree, both passed explicitly
// so that git never discovers a repository from a directory an agent can write.
type loc struct {
	gitDir, workTree string
	cwd              string // the directory git starts in when neither is set (Open only)
}

// gitResult is the outcome of a git call that ran: its output and exit status.
type gitResult struct {
	stdout, stderr string
	code           int
}

// exec runs git with args at l and returns its result; err is non-nil only when git could
// not be run at all.
func (g *runner) exec(l loc, args ...string) (gitResult, error) {
	full := make([]string, 0, 2*len(safeConfig)+len(g.extra)+len(args)+4)
	for _, c := range safeConfig {
		full = append(full, "-c", c)
	}
	full = append(full, g.extra...)
	if l.gitDir != "" {
		full = append(full, "--git-dir="+l.gitDir)
	}
	if l.workTree != "" {
		full = append(full, "--work-tree="+l.workTree)
	}
	full = append(full, args...)
	cmd := exec.Command(g.bin, full...)
	cmd.Env = baseEnv(filepath.Dir(g.bin))
	cmd.Dir = l.workTree
	if cmd.Dir == "" {
		cmd.Dir = l.cwd
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := gitResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		return res, definitions.NewError(definitions.ProcessError, "running git %s: %v", args[0], err)
	}
	return res, nil
}

// run runs git and returns its stdout, or a ProcessError when it exits non-zero.
func (g *runner) run(l loc, args ...string) (string, error) {
	res, err := g.exec(l, args...)
	if err != nil {
		return "", err
	}
	if res.code != 0 {
		return "", gitFailed(args, res)
	}
	return res.stdout, nil
}

// gitFailed is the ProcessError of a git call that exited non-zero.
func gitFailed(args []string, res gitResult) *definitions.ToolError {
	msg := strings.TrimSpace(res.stderr)
	if len(msg) > maxStderr {
		msg = msg[:maxStderr] + "..."
	}
	return definitions.NewError(definitions.ProcessError, "git %s failed (exit %d): %s", args[0], res.code, firstLine(msg)).
		With("args", args).With("stderr", msg).With("exit", res.code)
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// splitZ splits git's NUL-terminated output into its fields, dropping the empty last one.
func splitZ(out string) []string {
	out = strings.TrimSuffix(out, "\x00")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\x00")
}
