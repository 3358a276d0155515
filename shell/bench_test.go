package shell

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
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

// BenchmarkScanProject measures the look over the project before each command (protected
// and secret paths) on a tree of 1,000 directories and 10,000 files, beside a plain
// filepath.WalkDir of the same tree.
func BenchmarkScanProject(b *testing.B) {
	dir := b.TempDir()
	for d := range 1000 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d/e%d", d%50, d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 10 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	root, err := security.Open(dir, security.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if sc := scanProject(root); !sc.Complete {
				b.Fatal("incomplete")
			}
		}
	})
	b.Run("WalkDir", func(b *testing.B) {
		for b.Loop() {
			filepath.WalkDir(dir, func(string, fs.DirEntry, error) error { return nil })
		}
	})
}
