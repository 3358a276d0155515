package security

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchNames are a file at the top of the root and one six components deep.
var benchNames = map[string]string{"depth1": "f.txt", "depth6": "a/b/c/d/e/f.txt"}

// benchRoot makes a root holding a 4 KiB file at each of benchNames.
func benchRoot(b *testing.B) (*Root, string) {
	dir := b.TempDir()
	data := bytes.Repeat([]byte("x"), 4096)
	for _, name := range benchNames {
		p := filepath.Join(dir, name)
		require.NoError(b, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(b, os.WriteFile(p, data, 0o644))
	}
	r, err := Open(dir, Options{})
	require.NoError(b, err)
	b.Cleanup(func() { r.Close() })
	return r, dir
}

// BenchmarkReadFile compares a checked read of a 4 KiB file with os.ReadFile, and the
// openat2 fast path (security) with the walk it replaces (walk, the fast path disabled).
func BenchmarkReadFile(b *testing.B) {
	r, dir := benchRoot(b)
	walk := walkOnly(b, dir, Options{})
	for depth, name := range benchNames {
		for kind, root := range map[string]*Root{"security/": r, "walk/": walk} {
			b.Run(kind+depth, func(b *testing.B) {
				for b.Loop() {
					if _, err := root.ReadFile(name); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run("os/"+depth, func(b *testing.B) {
			p := filepath.Join(dir, name)
			for b.Loop() {
				if _, err := os.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteFile compares the atomic, durable replace of a 4 KiB file (temp file,
// two fsyncs, rename) with os.WriteFile's in-place, non-durable write.
func BenchmarkWriteFile(b *testing.B) {
	r, dir := benchRoot(b)
	data := bytes.Repeat([]byte("y"), 4096)
	for depth, name := range benchNames {
		b.Run("security/"+depth, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := r.WriteFile(name, data, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("os/"+depth, func(b *testing.B) {
			p := filepath.Join(dir, name)
			for b.Loop() {
				if err := os.WriteFile(p, data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
