package shell

import (
	"regexp"
	"strings"
	"sync"

	"github.com/jido-run/jido/sandbox"
)

// shellCannotRun matches the last line a shell prints when it cannot run a command's
// program: bash's "bash: line 1: jest: command not found" and "bash: line 1: ./x:
// Permission denied", dash's "sh: 1: jest: not found".
var shellCannotRun = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:ba|da)?sh: (?:line \d+: |\d+: )?(.+?): (command not found|not found|No such file or directory|Permission denied|cannot execute.*)$`)
})

// NotStarted reports whether the command's program could not be started and says why:
// the sandbox helper could not start it (not found, not executable, the sandbox could not
// be set up), or the shell running a command line could not (the exit status a shell
// gives, 127 or 126, with its message as the last line of stderr). A program that exits
// 127 of its own accord, printing something else, has started.
func (r *Result) NotStarted() (why string, ok bool) {
	if r.ExitCode != 126 && r.ExitCode != 127 {
		return "", false
	}
	if rest, found := strings.CutPrefix(r.Stderr, sandbox.FailurePrefix); found {
		return strings.TrimSpace(rest), true
	}
	lines := strings.Split(strings.TrimRight(r.Stderr, "\n"), "\n")
	m := shellCannotRun().FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		return "", false
	}
	return m[1] + ": " + m[2], true
}
