package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkAskOffline times `jido ask` offline end to end on a small project, process start
// included (the target: <= 100 ms), beside two references measured in the same run:
// `jido call list_dir` (the same binary and tool without the interpreter and the agent) and
// `ls -la` (a process start with no Go runtime).
func BenchmarkAskOffline(b *testing.B) {
	dir := b.TempDir()
	for i, name := range []string{"README.md", "go.mod", "main.go", "src/a.go", "src/b.go", "docs/guide.md"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("line "+string(rune('a'+i))+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cases := []struct {
		name string
		argv []string
	}{
		{"ask", []string{jidoBin, "ask", "what is in this directory?"}},
		{"ask-search", []string{jidoBin, "ask", "search for line"}},
		{"call-list_dir", []string{jidoBin, "call", "list_dir", `{"path":"."}`}},
		{"ls", []string{"ls", "-la"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(c.argv[0], c.argv[1:]...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), offlineEnv...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", c.argv, err, out)
				}
			}
		})
	}
}
