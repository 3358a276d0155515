package manager

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// readFileAllocs bounds what read_file of 4 KiB allocates through Session.Call (the path of
// BenchmarkReadFile4K): 59 when the bound was set (61 under the race detector), 103 before
// the work of issue 23. Raise it only with a reason; allocations are stable where times are
// not.
const readFileAllocs = 64

func TestReadFileAllocations(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(fourKiB), 0o644); err != nil {
		t.Fatal(err)
	}
	s := testSession(t, Config{Root: root})
	call := ToolCall{Name: "read_file", Args: map[string]any{"path": "f.txt"}}
	n := testing.AllocsPerRun(200, func() {
		if res := s.Call(t.Context(), call); !res.OK {
			t.Fatal(res.Error)
		}
	})
	t.Logf("read_file 4 KiB: %.0f allocations a call", n)
	assert.LessOrEqual(t, n, float64(readFileAllocs))
}
