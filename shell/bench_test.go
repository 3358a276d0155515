package shell

import (
	"os/exec"
	"testing"
)

// BenchmarkRunTrue measures what the sandbox adds to a command: run_shell's path for
// `true` (helper re-exec, namespace, cgroup, Landlock, pipes, cleanup) against a plain
// exec.Command("true") in the same run.
func BenchmarkRunTrue(b *testing.B) {
	b.Run("sandboxed", func(b *testing.B) {
		r, _ := newRunner(b)
		for b.Loop() {
			res, err := r.Run(b.Context(), Request{Argv: []string{"true"}})
			if err != nil || res.ExitCode != 0 {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("exec.Command", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
