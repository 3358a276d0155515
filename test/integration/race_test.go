package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The race tests run tool calls in a loop while the test swaps what a path inside the root
// denotes between something inside and something outside. A race may make a call fail; it
// must never make one read, list, create, change or delete anything outside.

// raceDuration is how long each race runs (a deadline, not an iteration count).
const raceDuration = time.Second

// raceFixture is {base}/root (the project) and {base}/outside, which holds a canary under
// the same names as the files the tools work on inside.
type raceFixture struct {
	base, root, out, canary string
}

func newRaceFixture(t *testing.T) *raceFixture {
	t.Helper()
	base := t.TempDir()
	rf := &raceFixture{
		base:   base,
		root:   filepath.Join(base, "root"),
		out:    filepath.Join(base, "outside"),
		canary: "CANARY-RACE-" + randHex(t, 8),
	}
	writeTree(t, rf.out, map[string]string{
		"file":                   rf.canary + "\n",
		"x":                      rf.canary + "\n",
		"secret.txt":             rf.canary + "\n",
		"leak-" + rf.canary:      rf.canary + "\n",
		"deep/leak-" + rf.canary: rf.canary + "\n",
	})
	writeTree(t, rf.root, map[string]string{
		"sub/file":   "inside file\n",
		"sub/x":      "inside x\n",
		"inside.txt": "inside\n",
	})
	return rf
}

// outsideSnapshot records everything in the fixture but the root, with times.
func (rf *raceFixture) outsideSnapshot(t *testing.T) map[string]entryState {
	return snapshot(t, rf.base, []string{rf.root}, true)
}

// raceStats collects what the tool loops saw; safe for concurrent use.
type raceStats struct {
	canary string
	mu     sync.Mutex
	calls  int
	ok     int
	errs   map[string]int // "tool error-type" -> count
	leaks  int
	sample []string // a few leaking results
}

func newRaceStats(canary string) *raceStats {
	return &raceStats{canary: canary, errs: map[string]int{}}
}

// record notes one result and whether it carries the canary.
func (r *raceStats) record(res manager.ToolResult) {
	out, err := json.Marshal(res)
	leak := err != nil || strings.Contains(string(out), r.canary)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if res.OK {
		r.ok++
	} else if res.Error != nil {
		r.errs[res.Name+" "+res.Error.Type]++
	}
	if leak {
		r.leaks++
		if len(r.sample) < 3 {
			r.sample = append(r.sample, string(out))
		}
	}
}

func (r *raceStats) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	errs := make([]string, 0, len(r.errs))
	for k, n := range r.errs {
		errs = append(errs, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(errs)
	return fmt.Sprintf("%d calls, %d ok, leaks=%d, errors: %s", r.calls, r.ok, r.leaks, strings.Join(errs, ", "))
}

// raceLoop is one iteration of a tool loop: it makes its calls with call, which records them.
type raceLoop func(n int, call func(name string, args map[string]any) manager.ToolResult)

// runRace runs every loop in its own session and goroutine until the deadline while swap
// runs in the test goroutine, then asserts that nothing leaked or changed outside.
func runRace(t *testing.T, rf *raceFixture, loops map[string]raceLoop, swap func(deadline time.Time) int) {
	t.Helper()
	before := rf.outsideSnapshot(t)
	stats := newRaceStats(rf.canary)
	sessions := map[string]*manager.Session{}
	for name := range loops {
		_, sessions[name] = openSession(t, rf.root)
	}
	deadline := time.Now().Add(raceDuration)
	var wg sync.WaitGroup
	for name, loop := range loops {
		s := sessions[name]
		wg.Go(func() {
			call := func(tool string, args map[string]any) manager.ToolResult {
				ctx, cancel := context.WithTimeout(t.Context(), caseTimeout)
				defer cancel()
				res := s.Call(ctx, manager.ToolCall{Name: tool, Args: args})
				stats.record(res)
				return res
			}
			for n := 0; time.Now().Before(deadline); n++ {
				loop(n, call)
			}
		})
	}
	swaps := swap(deadline)
	wg.Wait()

	t.Logf("%d swaps; %s", swaps, stats)
	assert.Positive(t, swaps, "the race must actually swap")
	assert.Positive(t, stats.ok, "some calls must succeed, or the race proves nothing")
	assert.Zero(t, stats.leaks, "outside content appeared in results, e.g. %v", stats.sample)
	assert.Empty(t, diffSnapshots(before, rf.outsideSnapshot(t)), "the outside tree changed")
	// Nothing from outside may have been copied into the root either.
	err := filepath.WalkDir(rf.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			assert.NotContains(t, string(data), rf.canary, "outside content copied into %s", p)
		}
		return err
	})
	assert.NoError(t, err)
}

// pause lets the tool loops run between two steps of a swap, for a varying short while.
func pause(i int) {
	time.Sleep(time.Duration(i%4) * 25 * time.Microsecond)
}

// swapDir repeatedly replaces root/sub by a symlink to target and back: rename sub away
// (inside the root), symlink, remove the link, rename it back. A tool may recreate sub in
// a gap (write_file creates missing parents): such a directory is moved aside, inside the
// root. It returns the number of times sub was a symlink.
func swapDir(t *testing.T, rf *raceFixture, target string, deadline time.Time) int {
	sub := filepath.Join(rf.root, "sub")
	parked := filepath.Join(rf.root, "parked")
	swaps, spills := 0, 0
	spill := func() error {
		spills++
		err := os.Rename(sub, filepath.Join(rf.root, fmt.Sprintf("spill-%d", spills)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for i := 0; time.Now().Before(deadline); i++ {
		if !assert.NoError(t, os.Rename(sub, parked), "parking sub") {
			return swaps
		}
		if err := os.Symlink(target, sub); err == nil {
			swaps++
			pause(i)
			if !assert.NoError(t, os.Remove(sub), "removing the link") {
				return swaps
			}
		} else if !assert.NoError(t, spill(), "moving aside a recreated sub") {
			return swaps
		}
		for try := 0; ; try++ {
			err := os.Rename(parked, sub)
			if err == nil {
				break
			}
			if !assert.Less(t, try, 100, "restoring sub: %v", err) || !assert.NoError(t, spill()) {
				return swaps
			}
		}
		pause(i + 1)
	}
	return swaps
}

// TestRaceDirSwap races read_file, write_file, list_dir, glob, search, list_files and
// delete_file under sub
// against sub flipping between a directory and a symlink to the outside directory.
func TestRaceDirSwap(t *testing.T) {
	for _, variant := range []struct {
		name   string
		target func(rf *raceFixture) string
	}{
		{"absolute-link", func(rf *raceFixture) string { return rf.out }},
		{"relative-link", func(*raceFixture) string { return "../outside" }},
	} {
		t.Run(variant.name, func(t *testing.T) {
			rf := newRaceFixture(t)
			loops := map[string]raceLoop{
				"read": func(_ int, call func(string, map[string]any) manager.ToolResult) {
					call("read_file", map[string]any{"path": "sub/file"})
				},
				"write": func(n int, call func(string, map[string]any) manager.ToolResult) {
					call("write_file", map[string]any{"path": fmt.Sprintf("sub/new-%d", n), "content": "new\n"})
				},
				"list": func(_ int, call func(string, map[string]any) manager.ToolResult) {
					call("list_dir", map[string]any{"path": "sub"})
				},
				"glob": func(_ int, call func(string, map[string]any) manager.ToolResult) {
					call("glob", map[string]any{"pattern": "sub/**", "max_results": 50})
				},
				"search": func(n int, call func(string, map[string]any) manager.ToolResult) {
					paths := []string{".", "sub"}
					call("search", map[string]any{"query": "CANARY|inside", "is_regex": true, "path": paths[n%2], "context": 2})
				},
				"list_files": func(n int, call func(string, map[string]any) manager.ToolResult) {
					call("list_files", map[string]any{"follow_symlinks": n%2 == 0, "no_ignore": true})
				},
				"delete": func(_ int, call func(string, map[string]any) manager.ToolResult) {
					if call("delete_file", map[string]any{"path": "sub/x"}).OK {
						call("write_file", map[string]any{"path": "sub/x", "content": "inside x\n"})
					}
				},
			}
			runRace(t, rf, loops, func(deadline time.Time) int {
				return swapDir(t, rf, variant.target(rf), deadline)
			})
			info, err := os.Lstat(filepath.Join(rf.root, "sub"))
			require.NoError(t, err)
			assert.True(t, info.IsDir(), "sub is a directory again after the race")
		})
	}
}

// TestRaceFileLinkFlip races read_file, write_file and edit_file of root/link against the
// link being atomically re-pointed between inside.txt and the outside canary file
// (relative and absolute spellings).
func TestRaceFileLinkFlip(t *testing.T) {
	rf := newRaceFixture(t)
	link := filepath.Join(rf.root, "link")
	require.NoError(t, os.Symlink("inside.txt", link))
	loops := map[string]raceLoop{
		"read": func(_ int, call func(string, map[string]any) manager.ToolResult) {
			call("read_file", map[string]any{"path": "link"})
		},
		"write": func(n int, call func(string, map[string]any) manager.ToolResult) {
			call("read_file", map[string]any{"path": "link"})
			call("write_file", map[string]any{"path": "link", "content": fmt.Sprintf("inside w%d\n", n)})
		},
		"edit": func(n int, call func(string, map[string]any) manager.ToolResult) {
			old, repl := "inside", "INSIDE"
			if n%2 == 1 {
				old, repl = repl, old
			}
			call("read_file", map[string]any{"path": "link"})
			call("edit_file", map[string]any{"path": "link", "old_string": old, "new_string": repl})
		},
	}
	targets := []string{"inside.txt", "../outside/secret.txt", "inside.txt", filepath.Join(rf.out, "secret.txt")}
	runRace(t, rf, loops, func(deadline time.Time) int {
		flips := 0
		next := filepath.Join(rf.root, "link.next")
		for i := 0; time.Now().Before(deadline); i++ {
			if !assert.NoError(t, os.Symlink(targets[i%len(targets)], next)) ||
				!assert.NoError(t, os.Rename(next, link)) {
				return flips
			}
			flips++
			pause(i)
		}
		assert.NoError(t, os.Symlink("inside.txt", next))
		assert.NoError(t, os.Rename(next, link))
		return flips
	})
	info, err := os.Lstat(filepath.Join(rf.root, "inside.txt"))
	require.NoError(t, err)
	assert.True(t, info.Mode().IsRegular(), "inside.txt is still a regular file")
}
