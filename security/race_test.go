package security

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestRaceSwapDirForLink swaps directory d for a symlink to a directory outside the root
// (relative and absolute in turn) and back, as fast as possible, while reads, listings,
// writes, renames and removals run through d. Nothing outside may ever be read, listed or
// changed (newTree checks the outside tree at cleanup).
func TestRaceSwapDirForLink(t *testing.T) {
	tr := newTree(t, Options{})
	writeFiles(t, tr.root, map[string]string{"d/file.txt": "inside"})
	d, away := tr.host("d"), tr.host("d.away")
	links := []string{"../outside/dir", filepath.Join(tr.outside, "dir")}

	deadline := time.Now().Add(time.Second)
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; time.Now().Before(deadline); i++ {
			// Each step may fail when a write recreated d meanwhile; the last two restore
			// the original directory in every case.
			_ = os.Rename(d, away)
			if os.Symlink(links[i%2], d) == nil {
				swaps.Add(1)
			}
			spin(time.Duration(i%4) * 10 * time.Microsecond)
			_ = os.RemoveAll(d)
			_ = os.Rename(away, d)
			spin(50 * time.Microsecond)
		}
	})

	// Writes rarely complete (each spans two fsyncs, during which d is swapped); their
	// safety is checked on the outside tree and their count only logged.
	var leaks, reads, writes atomic.Int64
	workers := []func(){
		func() {
			if f, err := tr.r.ReadFile("d/file.txt"); err == nil {
				reads.Add(1)
				if bytes.Contains(f.Data, []byte(canary)) {
					leaks.Add(1)
				}
			}
		},
		func() {
			if f, _, _, err := tr.r.OpenFile("d/canary2.txt"); err == nil {
				f.Close()
				leaks.Add(1)
			}
		},
		func() {
			if entries, err := tr.r.ReadDir("d"); err == nil {
				if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "canary2.txt" }) {
					leaks.Add(1)
				}
			}
			if _, err := tr.r.Stat("d/canary2.txt"); err == nil {
				leaks.Add(1)
			}
		},
		func() {
			if _, _, err := tr.r.WriteFile("d/file.txt", []byte("inside"), WriteOptions{}); err == nil {
				writes.Add(1)
			}
			_, _, _ = tr.r.WriteFile("d/new.txt", []byte("new"), WriteOptions{})
		},
		func() {
			_ = tr.r.MkdirAll("d/sub/dir")
			_ = tr.r.Rename("d/new.txt", "d/renamed.txt", true)
			_ = tr.r.Remove("d/renamed.txt", false)
			_ = tr.r.Remove("d/sub", true)
		},
	}
	for _, work := range workers {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				work()
			}
		})
	}
	wg.Wait()

	assert.Zero(t, leaks.Load(), "content or names from outside the root were returned")
	assert.NotZero(t, reads.Load(), "no read succeeded: the test proves nothing")
	t.Logf("%d swaps; %d reads, %d writes succeeded", swaps.Load(), reads.Load(), writes.Load())
}

// spin busy-waits for d: time.Sleep rounds short waits up to the scheduler's timer
// resolution, which would make the swaps rare.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
