package walk

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jido-run/jido/security"
)

// BenchmarkWalkGoroot lists the Go toolchain's source tree (about 11,000 files, read only)
// with the ignore rules, with and without a stat per file, against filepath.WalkDir in the
// same run (which applies no ignore rules and stats nothing).
func BenchmarkWalkGoroot(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	root, err := security.Open(src, security.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	w := New(root, []byte("testdata/\n"))
	for _, stat := range []bool{false, true} {
		name := "jido"
		if stat {
			name = "jido-stat"
		}
		b.Run(name, func(b *testing.B) {
			var n atomic.Int64
			for b.Loop() {
				if _, err := w.Walk(b.Context(), ".", Options{Stat: stat}, func(Entry) error { n.Add(1); return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n.Load())/float64(b.N), "files/op")
		})
	}
	b.Run("filepath.WalkDir", func(b *testing.B) {
		n := 0
		for b.Loop() {
			err := filepath.WalkDir(src, func(_ string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					n++
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)/float64(b.N), "files/op")
	})
}

// goSourceRepo copies the Go toolchain's source tree (hard links when it can) and makes
// it a repository whose index holds every file that the .gitignore's testdata/ leaves, or
// every file with trackIgnored (the testdata files too, as git add -f would).
func goSourceRepo(b *testing.B, trackIgnored bool) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "src")
	src := filepath.Join(runtime.GOROOT(), "src")
	if exec.Command("cp", "-al", src, dir).Run() != nil {
		if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
			b.Fatalf("copying %s: %v: %s", src, err, out)
		}
	}
	// Hard-linked ignore files would be refused (a link count over one): copy them.
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != ".gitignore" {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.Remove(p)
		}
		if err == nil {
			err = os.WriteFile(p, data, 0o644)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	writeFiles(b, dir, map[string]string{".gitignore": "testdata/\n"})
	gitIn(b, dir, "init", "-q")
	list := []string{"ls-files", "-z", "--others"}
	if !trackIgnored {
		list = append(list, "--exclude-standard")
	}
	// The index as git add would write it, without hashing 150 MB: every entry the empty blob.
	var info strings.Builder
	for _, p := range nulFields(gitIn(b, dir, list...)) {
		info.WriteString("100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\t" + p + "\x00")
	}
	gitExec(b, dir, info.String(), false, "update-index", "-z", "--index-info")
	return dir
}

// BenchmarkWalkGitRepo walks Go's source tree as a repository, whose .gitignore ignores
// the testdata directories: "untracked" when git tracks none of their files (the common
// case, where the index is read but keeps nothing), "tracked" when it tracks them all
// (the walk enters them for their tracked files). "cold" walks with a new Walker each
// time, which reads and parses the index as one `jido call` does; "warm" with one
// Walker, which keeps the index while its file is unchanged, as a session does.
func BenchmarkWalkGitRepo(b *testing.B) {
	for _, tracked := range []bool{false, true} {
		name := "untracked"
		if tracked {
			name = "tracked"
		}
		root, err := security.Open(goSourceRepo(b, tracked), security.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer root.Close()
		for _, cold := range []bool{true, false} {
			mode := "warm"
			if cold {
				mode = "cold"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				var n atomic.Int64
				w := New(root, nil)
				for b.Loop() {
					if cold {
						w = New(root, nil)
					}
					if _, err := w.Walk(b.Context(), ".", Options{}, func(Entry) error { n.Add(1); return nil }); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n.Load())/float64(b.N), "files/op")
			})
		}
	}
}
