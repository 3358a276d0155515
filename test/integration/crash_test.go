package integration

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
)

// Crash consistency: a helper process rewrites one file in a loop through the real tool path
// (read_file, then write_file with the other content), and is killed with SIGKILL at a random
// moment. The file must then hold exactly one of the two contents, never nothing, a part or a
// mix of both.

const (
	crashHelperMode = "rewrite"
	crashRootEnv    = "JIDO_CRASH_ROOT"
	crashTarget     = "target.txt"
	crashWorkers    = 4 // kill loops running side by side, each on its own root
)

// crashTemp matches the temporary files of an interrupted write of crashTarget.
var crashReadyNanos, crashVerifyNanos atomic.Int64

var crashTemp = regexp.MustCompile(`^\.target\.txt\.tmp-[0-9a-f]{16}$`)

func init() { helpers[crashHelperMode] = rewriteHelper }

// crashContents returns the two contents the helper alternates between: about 64 KiB of 'A'
// lines and about 200 KiB of 'B' lines, each ending with a footer line.
func crashContents() (a, b string) {
	a = strings.Repeat(strings.Repeat("A", 63)+"\n", 1024) + "footer A: 1024 lines of 63 A\n"
	b = strings.Repeat(strings.Repeat("B", 99)+"\n", 2048) + "footer B: 2048 lines of 99 B\n"
	return a, b
}

// rewriteHelper is the helper process: it opens a manager on $JIDO_CRASH_ROOT and rewrites
// target.txt forever, printing "ready" after the first write. Any failure ends it with code 1.
func rewriteHelper() int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "rewrite helper: "+format+"\n", args...)
		return 1
	}
	m, err := manager.New(manager.Config{Root: os.Getenv(crashRootEnv)})
	if err != nil {
		return fail("%v", err)
	}
	ctx := context.Background()
	s, err := m.Open(ctx, "")
	if err != nil {
		return fail("%v", err)
	}
	a, b := crashContents()
	for i := 0; ; i++ {
		next := a
		r := s.Call(ctx, manager.ToolCall{Name: "read_file", Args: map[string]any{"path": crashTarget, "limit": 1}})
		switch {
		case r.OK:
			var res map[string]any
			_ = r.Decode(&res)
			content, _ := res["content"].(string)
			if strings.Contains(content, "AAAA") {
				next = b
			} else if !strings.Contains(content, "BBBB") {
				return fail("read_file gave neither content: %q", content)
			}
		case i > 0 || r.Error == nil || r.Error.Type != "file-error":
			return fail("read_file: %+v", r.Error)
		}
		w := s.Call(ctx, manager.ToolCall{Name: "write_file", Args: map[string]any{"path": crashTarget, "content": next}})
		if !w.OK {
			return fail("write_file: %+v", w.Error)
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// crashOutcome classifies the content of the target after a kill.
func crashOutcome(data, a, b string) string {
	switch {
	case data == a:
		return "A"
	case data == b:
		return "B"
	case data == "":
		return "empty"
	case strings.HasPrefix(a, data) || strings.HasPrefix(b, data):
		return fmt.Sprintf("partial (%d bytes, a prefix)", len(data))
	case strings.Contains(data, "A") && strings.Contains(data, "B"):
		return fmt.Sprintf("mixed (%d bytes)", len(data))
	}
	return fmt.Sprintf("corrupt (%d bytes)", len(data))
}

// crashOnce starts the helper on root, kills it at a random moment after it is ready, and
// checks the file. It returns the outcome ("A" or "B") and the number of leftover temp files,
// or "" after reporting a failure.
func crashOnce(t *testing.T, root string, rng *rand.Rand, a, b string) (string, int) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+crashHelperMode, crashRootEnv+"="+root)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if !assert.NoError(t, err) || !assert.NoError(t, cmd.Start()) {
		return "", 0
	}
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- line
	}()
	startAt := time.Now()
	select {
	case line := <-ready:
		crashReadyNanos.Add(int64(time.Since(startAt)))
		if line != "ready\n" {
			_ = cmd.Wait()
			assert.Failf(t, "helper not ready", "helper said %q; stderr:\n%s", line, stderr.String())
			return "", 0
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		assert.Failf(t, "helper not ready", "no readiness after 20s; stderr:\n%s", stderr.String())
		return "", 0
	}
	time.Sleep(time.Duration(rng.IntN(31)) * time.Millisecond)
	if !assert.NoError(t, cmd.Process.Signal(syscall.SIGKILL)) {
		return "", 0
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !assert.True(t, errors.As(err, &ee), "the helper must not exit on its own: %v; stderr:\n%s", err, stderr.String()) {
		return "", 0
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	if !assert.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL,
		"the helper must die by SIGKILL, not exit by itself (%v); stderr:\n%s", ee, stderr.String()) {
		return "", 0
	}

	for _, bad := range []string{"DATA RACE", "panic:", "fatal error:"} {
		assert.NotContains(t, stderr.String(), bad, "the helper's stderr")
	}

	data, err := os.ReadFile(filepath.Join(root, crashTarget))
	if !assert.NoError(t, err, "the target must exist after a kill") {
		return "", 0
	}
	got := crashOutcome(string(data), a, b)
	if !assert.Contains(t, []string{"A", "B"}, got, "after a kill the file must be exactly A or exactly B") {
		return "", 0
	}

	entries, err := os.ReadDir(root)
	if !assert.NoError(t, err) {
		return "", 0
	}
	temps := 0
	for _, e := range entries {
		switch {
		case e.Name() == crashTarget:
		case crashTemp.MatchString(e.Name()):
			temps++
		default:
			assert.Failf(t, "unexpected file", "%q in the root: only the target and temp files named .%s.tmp-<16 hex> may exist", e.Name(), crashTarget)
		}
	}

	verifyAt := time.Now()
	defer func() { crashVerifyNanos.Add(int64(time.Since(verifyAt))) }()
	// A new manager on the root reads the file and hides the leftovers.
	m, err := manager.New(manager.Config{Root: root})
	if !assert.NoError(t, err) {
		return "", 0
	}
	defer m.Close()
	s, err := m.Open(ctx, "")
	if !assert.NoError(t, err) {
		return "", 0
	}
	defer s.Close()
	r := s.Call(ctx, manager.ToolCall{Name: "read_file", Args: map[string]any{"path": crashTarget, "limit": 1}})
	if assert.True(t, r.OK, "a new manager reads the file: %+v", r.Error) {
		var res map[string]any
		assert.NoError(t, r.Decode(&res))
		content, _ := res["content"].(string)
		lines := map[string]float64{"A": 1025, "B": 2049}[got]
		assert.Contains(t, content, strings.Repeat(got, 10), "the first line read by a new manager")
		assert.EqualValues(t, lines, res["total_lines"], "total_lines read by a new manager")
	}
	l := s.Call(ctx, manager.ToolCall{Name: "list_dir", Args: map[string]any{"path": "."}})
	if assert.True(t, l.OK, "list_dir: %+v", l.Error) {
		var res map[string]any
		assert.NoError(t, l.Decode(&res))
		assert.Equal(t, crashTarget+"\n", res["listing"], "list_dir shows the target and hides temp files")
	}
	return got, temps
}

func TestCrashConsistency(t *testing.T) {
	t.Parallel()
	kills := 200
	if testing.Short() {
		kills = 50
	}
	a, b := crashContents()
	var countA, countB, temps, failures atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := range crashWorkers {
		root := t.TempDir()
		n := kills / crashWorkers
		if w < kills%crashWorkers {
			n++
		}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			left := 0
			defer func() { temps.Add(int64(left)) }()
			for range n {
				var got string
				got, left = crashOnce(t, root, rng, a, b)
				switch got {
				case "A":
					countA.Add(1)
				case "B":
					countB.Add(1)
				default:
					failures.Add(1)
					return // one failure per worker is enough to report
				}
			}
		})
	}
	wg.Wait()
	t.Logf("crash consistency: %d kills in %v: A=%d B=%d, temp files left over by the kills=%d",
		kills, time.Since(start).Round(time.Millisecond), countA.Load(), countB.Load(), temps.Load())
	t.Logf("total time to ready %v, verifying %v", time.Duration(crashReadyNanos.Load()), time.Duration(crashVerifyNanos.Load()))
	assert.Zero(t, failures.Load())
	assert.EqualValues(t, kills, countA.Load()+countB.Load(), "every kill leaves A or B")
	assert.Positive(t, countA.Load(), "some kills leave A (the helper alternates, so both must occur)")
	assert.Positive(t, countB.Load(), "some kills leave B")
}
