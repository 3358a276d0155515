package builtin

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/walk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlobMatcherAgreesWithDoublestar checks globMatcher's shortcuts (`**`, `**/NAME`)
// against doublestar on the whole relative path, for the shortcuts and the general case.
func TestGlobMatcherAgreesWithDoublestar(t *testing.T) {
	patterns := []string{"**", "**/*.go", "**/*_test.go", "**/{a,b}.md", "**/[a-c]*", "**/a**b",
		"**/**", "**/x/*.go", "**/{a,x/b}.go", "*.go", "src/**/*.go", "src/*", "**/.env", "**/*.env", "**/*",
		"**/*b", "**/", "**/*[.]go", "**/*\\.go", "**/*{.go,.md}"}
	paths := []string{"a.go", "x/a.go", "x/y/z_test.go", "a.md", "b.md", "c.md", "x/b.go",
		"x/ab", "x/axxb", "axb/c", "src/a.go", "src/x/b.go", ".env", "x/.env", "x/env", "bcd", "x.go/y", "b/x", ".go", "a/.go"}
	for _, pat := range patterns {
		match := globMatcher(pat)
		for _, p := range paths {
			want, err := doublestar.Match(pat, p)
			assert.NoError(t, err)
			assert.Equal(t, want, match(p), "%q against %q", pat, p)
		}
	}
}

// BenchmarkGlobGoroot globs the Go toolchain's source tree (about 7,000 .go files, read
// only), newest first with a stat per match, as `jido call glob` does without the process
// around it; test/bench/findbench compares the whole command with fd and ripgrep.
func BenchmarkGlobGoroot(b *testing.B) {
	root, err := security.Open(filepath.Join(runtime.GOROOT(), "src"), security.Options{})
	require.NoError(b, err)
	defer root.Close()
	f := &Find{Deps{Root: root}.Ready()}
	for _, pat := range []string{"**", "**/*.go"} {
		b.Run(pat, func(b *testing.B) {
			n := 0
			for b.Loop() {
				res, err := f.Glob(b.Context(), definitions.GlobParams{Pattern: pat, Path: ".", MaxResults: 1_000_000})
				require.NoError(b, err)
				n += res.Count
			}
			b.ReportMetric(float64(n)/float64(b.N), "files/op")
		})
	}
}

// collect adds n files, f00000.go ... with mtimes one second apart (the last added newest).
func collect(t testing.TB, c *collector, n int) {
	for i := range n {
		e := walk.Entry{Path: fmt.Sprintf("f%05d.go", i), Info: security.TreeInfo{Size: int64(i), ModTime: time.Unix(int64(i), 0)}}
		require.NoError(t, c.add(e))
	}
}

func TestGlobCollectorSortsAndCaps(t *testing.T) {
	cases := []struct {
		name      string
		n, limit  int
		cmp       func(a, b *definitions.FileInfo) int
		first     string
		truncated bool
	}{
		{name: "newest first", n: 3000, limit: 5000, cmp: newestFirst, first: "f02999.go"},
		{name: "by path, capped", n: 3000, limit: 10, cmp: byPath, first: "f00000.go", truncated: true},
		{name: "empty", n: 0, limit: 10, cmp: byPath},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var col collector
			collect(t, &col, c.n)
			res := col.result(c.limit, c.cmp)
			assert.Equal(t, c.n, res.Count)
			assert.Equal(t, c.truncated, res.Truncated)
			require.Len(t, res.Files, min(c.n, c.limit))
			assert.NotNil(t, res.Files, "an empty list is [], not null")
			if c.n > 0 {
				assert.Equal(t, c.first, res.Files[0].Path)
				assert.True(t, slices.IsSortedFunc(res.Files, func(a, b definitions.FileInfo) int { return c.cmp(&a, &b) }))
			}
		})
	}
}

// TestGlobCollectorAllocations checks that collecting does not copy entries as the list
// grows (a growing slice allocates about five times its final size on the way): the
// blocks, the sort order and the list, about twice the entries' size.
func TestGlobCollectorAllocations(t *testing.T) {
	const n = 20_000
	size := uint64(n * unsafe.Sizeof(definitions.FileInfo{}))
	var before, after runtime.MemStats
	bytes := uint64(math.MaxUint64)
	for range 3 {
		runtime.ReadMemStats(&before)
		var c collector
		for range n {
			_ = c.add(walk.Entry{Path: "a.go"})
		}
		c.result(n, byPath)
		runtime.ReadMemStats(&after)
		bytes = min(bytes, after.TotalAlloc-before.TotalAlloc)
	}
	assert.Less(t, bytes, 3*size, "%d bytes allocated for %d bytes of entries", bytes, size)
}
