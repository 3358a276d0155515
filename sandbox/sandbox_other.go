//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// landlockABI is 0: Landlock exists only on Linux, so commands run unconfined (and the
// result says so).
func landlockABI() int { return 0 }

// sysProcAttr starts the helper in its own process group.
func sysProcAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// pidsGroup has no counterpart outside Linux.
type pidsGroup struct{}

func newPidsGroup(int) (*pidsGroup, string) { return nil, "none" }
func (*pidsGroup) procsFile() string        { return "" }
func (*pidsGroup) killAll()                 {}
func (*pidsGroup) remove()                  {}

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
	fmt.Fprintf(os.Stderr, "jido sandbox: %v\n", err)
	return 126
}
