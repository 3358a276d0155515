package walk

import (
	"io/fs"
	"path/filepath"
	"runtime"
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
