package builtin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/require"
)

// BenchmarkUncommitted: the git awareness every write and edit pays, in a repository of
// 5,000 tracked files, beside decoding the index on each call (the reference).
func BenchmarkUncommitted(b *testing.B) {
	testenv.Program(b, "git")
	dir := b.TempDir()
	for i := range 5000 {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%50))
		require.NoError(b, os.MkdirAll(sub, 0o755))
		require.NoError(b, os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.go", i)), []byte("package x\n"), 0o644))
	}
	git(b, dir, "init", "-q")
	git(b, dir, "add", ".")
	root, err := security.Open(dir, security.Options{})
	require.NoError(b, err)
	defer root.Close()
	d := Deps{Root: root}
	data := []byte("package y\n")
	require.True(b, d.uncommitted("d07/f4007.go", data))
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			d.uncommitted("d07/f4007.go", data)
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			f, _ := root.ReadFile(gitIndexFile)
			var idx index.Index
			_ = index.NewDecoder(bytes.NewReader(f.Data)).Decode(&idx)
			_, _ = idx.Entry("d07/f4007.go")
		}
	})
}
