package shell

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/security"
)

// BenchmarkRunTrue measures what the sandbox adds to a command, in one run: run_shell's
// path for `true` (helper, namespaces, cgroup, private root, Landlock, pipes, cleanup) as
// a session's first command and as a later one (run by the spare helper started after the
// command before), against a plain exec.Command("true"). The helper is the shipped
// cmd/jido-sandbox. Each command follows a pause, as between a model's turns, which is
// not timed.
func BenchmarkRunTrue(b *testing.B) {
	helper := filepath.Join(b.TempDir(), "jido-sandbox")
	if out, err := exec.Command("go", "build", "-o", helper, "github.com/jido-run/jido/cmd/jido-sandbox").CombinedOutput(); err != nil {
		b.Fatalf("building the helper: %v\n%s", err, out)
	}
	run := func(b *testing.B, r *Runner) {
		res, err := r.Run(b.Context(), Request{Argv: []string{"true"}})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(err, res)
		}
	}
	// first: a session's first command, cold (a one-shot `jido call`); first-warmed: the
	// same after the session's first call warmed its runner (an agent's session).
	for _, warm := range []bool{false, true} {
		name := map[bool]string{false: "first", true: "first-warmed"}[warm]
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			for range b.N {
				b.StopTimer()
				r := newRunnerIn(b, dir, Options{Helper: helper})
				if warm {
					r.Warm()
				}
				time.Sleep(turn)
				b.StartTimer()
				run(b, r)
				b.StopTimer()
				r.Close()
				b.StartTimer()
			}
		})
	}
	b.Run("later", func(b *testing.B) {
		r := newRunnerIn(b, b.TempDir(), Options{Helper: helper})
		run(b, r)
		b.ResetTimer()
		for range b.N {
			pause(b)
			run(b, r)
		}
	})
	b.Run("exec.Command", func(b *testing.B) {
		for range b.N {
			pause(b)
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// turn is the pause between two commands: far less than a model's turn takes.
const turn = 50 * time.Millisecond

// pause waits a turn, untimed.
func pause(b *testing.B) {
	b.StopTimer()
	time.Sleep(turn)
	b.StartTimer()
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
