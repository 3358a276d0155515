//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// landlockABI is 0: Landlock exists only on Linux, so commands run unconfined (and the
// result says so).
func landlockABI() int { return 0 }

// sysProcAttr starts the helper in a session of its own.
func sysProcAttr(bool, bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// seccompSupported is false: the filter is Linux's.
func seccompSupported() bool { return false }

// Cgroups have no counterpart outside Linux.
type sessionGroup struct {
	dirs          []string
	procs, memory bool
}
type cmdGroup struct{ dirs []string }

func newSessionGroup(int, int64) *sessionGroup { return &sessionGroup{} }
func (*sessionGroup) remove()                  {}
func (*sessionGroup) newCmdGroup() *cmdGroup   { return nil }
func (*cmdGroup) procsFiles() []string         { return nil }
func (*cmdGroup) killAll()                     {}
func (*cmdGroup) remove()                      {}
func (*cmdGroup) oomKilled() bool              { return false }

// sparesWork is false: there is no root to build ahead.
const sparesWork = false

// helperMain execs the command unconfined.
func helperMain(arg string) int {
	s, err := decodeSpec(arg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	path, err := exec.LookPath(s.Argv[0])
	if err == nil {
		err = syscall.Exec(path, s.Argv, os.Environ())
	}
	fmt.Fprintf(os.Stderr, "%s%v\n", FailurePrefix, err)
	if errors.Is(err, exec.ErrNotFound) {
		return 127
	}
	return 126
}
