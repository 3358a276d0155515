package manager

import (
	"bytes"
	"github.com/jido-run/jido/profile"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jido-run/jido/test/testenv"
)

// BenchmarkOpenSession measures opening a session with its VM ready, and reports the heap
// retained per idle session.
func BenchmarkOpenSession(b *testing.B) {
	m, err := New(Config{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	b.ReportAllocs()
	for b.Loop() {
		s, err := m.Open(b.Context(), "")
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.StopTimer()
	const idle = 200
	before := liveHeap()
	sessions := make([]*Session, idle)
	for i := range sessions {
		if sessions[i], err = m.Open(b.Context(), ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(liveHeap()-before)/idle, "retained-B/session")
	for _, s := range sessions {
		s.Close()
	}
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// fourKiB is a 4 KiB text file of 64-byte lines.
var fourKiB = strings.Repeat(strings.Repeat("x", 63)+"\n", 64)

// BenchmarkReadFile4K compares read_file through Session.Call (validation, Lua, bridge, result)
// with reading and numbering the same file directly in Go, in one run.
func BenchmarkReadFile4K(b *testing.B) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(fourKiB), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("jido", func(b *testing.B) {
		s := testSession(b, Config{Root: root})
		call := ToolCall{Name: "read_file", Args: map[string]any{"path": "f.txt"}}
		b.ReportAllocs()
		for b.Loop() {
			if res := s.Call(b.Context(), call); !res.OK {
				b.Fatal(res.Error)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := readNumbered(filepath.Join(root, "f.txt")); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// readNumbered is the direct Go baseline: read a file and number its lines cat -n style,
// as efficiently as plain Go does it.
func readNumbered(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	out := make([]byte, 0, len(data)+len(data)/4)
	n := 0
	for line := range bytes.Lines(data) {
		n++
		num := strconv.Itoa(n)
		out = append(out, "      "[:max(0, 6-len(num))]...)
		out = append(out, num...)
		out = append(out, '\t')
		out = append(out, line...)
	}
	return string(out), nil
}

// BenchmarkEvalReturn1 measures the smallest snippet through Session.Eval.
// BenchmarkProfileRead reads 4 KiB through jido's read_file and through each profile's
// read (Claude's Read, forj's read_file, forge's read with a range): the difference is what
// a profile's mapping costs a call (the target: at most 2 µs).
func BenchmarkProfileRead(b *testing.B) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(fourKiB), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		profile string
		call    ToolCall
	}{
		{"jido", ToolCall{Name: "read_file", Args: map[string]any{"path": "f.txt"}}},
		{"claude", ToolCall{Name: "Read", Args: map[string]any{"file_path": "f.txt"}}},
		{"forj", ToolCall{Name: "read_file", Args: map[string]any{"path": "f.txt", "max_bytes": 65536.0}}},
		{"forge", ToolCall{Name: "read", Args: map[string]any{"path": "f.txt", "range": []any{1.0, 80.0}}}},
	} {
		b.Run(tc.profile, func(b *testing.B) {
			p, err := profile.Get(tc.profile)
			if err != nil {
				b.Fatal(err)
			}
			s := testSession(b, Config{Root: root, Profile: p})
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Call(b.Context(), tc.call); !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
	}
}

func BenchmarkEvalReturn1(b *testing.B) {
	s := testSession(b, Config{Root: b.TempDir()})
	b.ReportAllocs()
	for b.Loop() {
		if _, terr := s.Eval(b.Context(), "return 1"); terr != nil {
			b.Fatal(terr)
		}
	}
}

// BenchmarkEdit1MiB compares an exact edit_file of a 1 MiB file through Session.Call (read,
// match, atomic write without fsync) with os.ReadFile, strings.Replace and os.WriteFile.
func BenchmarkEdit1MiB(b *testing.B) {
	root := b.TempDir()
	path := filepath.Join(root, "big.txt")
	body := strings.Repeat("the quick brown fox jumps over the lazy dog\n", (1<<20)/44)
	content := body[:len(body)/2] + "MARKER-A\n" + body[len(body)/2:]
	b.Run("jido", func(b *testing.B) {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
		s := testSession(b, Config{Root: root, NoSync: true})
		if res := s.Call(b.Context(), ToolCall{Name: "read_file", Args: map[string]any{"path": "big.txt", "limit": 1}}); !res.OK {
			b.Fatal(res.Error)
		}
		swap := [2]map[string]any{
			{"path": "big.txt", "old_string": "MARKER-A", "new_string": "MARKER-B"},
			{"path": "big.txt", "old_string": "MARKER-B", "new_string": "MARKER-A"},
		}
		i := 0
		for b.Loop() {
			if res := s.Call(b.Context(), ToolCall{Name: "edit_file", Args: swap[i%2]}); !res.OK {
				b.Fatal(res.Error)
			}
			i++
		}
	})
	b.Run("direct", func(b *testing.B) {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
		swap := [2][2]string{{"MARKER-A", "MARKER-B"}, {"MARKER-B", "MARKER-A"}}
		i := 0
		for b.Loop() {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			next := strings.Replace(string(data), swap[i%2][0], swap[i%2][1], 1)
			if err := os.WriteFile(path, []byte(next), 0o644); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// testSession opens a manager with opts and one session, both closed when the test or
// benchmark ends.
func testSession(tb testing.TB, opts Config) *Session {
	tb.Helper()
	m, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	s, err := m.Open(tb.Context(), "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkSearchSmallDir compares a search of a directory of about 100 Go files (a copy of
// the toolchain's net/http) through Session.Call, as an agent's long-lived process runs it,
// with spawning ripgrep for the same search (skipped when rg is not installed).
func BenchmarkSearchSmallDir(b *testing.B) {
	root := b.TempDir()
	src := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	if err := os.CopyFS(filepath.Join(root, "http"), os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("testdata/\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	// "func main" has 1 match there, "func (" 1,229.
	for _, query := range []string{"func main", "func ("} {
		b.Run(query+"/jido", func(b *testing.B) {
			s := testSession(b, Config{Root: root})
			call := ToolCall{Name: "search", Args: map[string]any{"query": query, "case_sensitive": true, "max_results": 100000, "path": "http"}}
			b.ReportAllocs()
			for b.Loop() {
				if res := s.Call(b.Context(), call); !res.OK {
					b.Fatal(res.Error)
				}
			}
		})
		b.Run(query+"/rg-exec", func(b *testing.B) {
			rg := testenv.Program(b, "rg")
			for b.Loop() {
				cmd := exec.Command(rg, "-n", "-F", "--no-require-git", query, "http")
				cmd.Dir = root
				if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
					b.Fatal(err)
				}
			}
		})
	}
}
