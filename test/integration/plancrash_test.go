package integration

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plan_apply crash consistency: a helper process in plan mode plans a change of 40 files
// (20 edits, 10 deletions, 10 creations in new directories) and applies it, then plans
// and applies the way back, forever; it is killed with SIGKILL at a random moment. After
// the next manager opens the project (which recovers an interrupted apply), the tree must
// be exactly one of the two states, never a mix.

const (
	planCrashMode       = "plan-apply"
	planCrashJournalEnv = "JIDO_CRASH_JOURNAL"
	planCrashEdited     = 20
	planCrashMoved      = 10 // deleted from f, created under new/dir
)

func init() { helpers[planCrashMode] = planApplyHelper }

// planContent is the content of a file in a state: about 16 KiB.
func planContent(state string, i int) string {
	return strings.Repeat(fmt.Sprintf("%s line of file %d\n", state, i), 700)
}

func fName(i int) string { return fmt.Sprintf("f%02d.txt", i) }
func gName(i int) string { return fmt.Sprintf("new/dir/g%02d.txt", i) }

// writePlanStateA makes state A on disk: f00..f29 with A contents.
func writePlanStateA(t *testing.T, root string) {
	for i := range planCrashEdited + planCrashMoved {
		require.NoError(t, os.WriteFile(filepath.Join(root, fName(i)), []byte(planContent("A", i)), 0o644))
	}
}

// planApplyHelper is the helper process: it flips the project between states A and B
// through plan_apply, printing "ready" and how long the first apply took (µs), then
// "applying" before each later apply.
func planApplyHelper() int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "plan-apply helper: "+format+"\n", args...)
		return 1
	}
	m, err := manager.New(manager.Config{
		Root: os.Getenv(crashRootEnv), JournalDir: os.Getenv(planCrashJournalEnv),
		Permissions: policy.New(policy.ModePlan), Yes: true,
	})
	if err != nil {
		return fail("%v", err)
	}
	ctx := context.Background()
	s, err := m.Open(ctx, "")
	if err != nil {
		return fail("%v", err)
	}
	call := func(name string, args map[string]any) error {
		if r := s.Call(ctx, manager.ToolCall{Name: name, Args: args}); !r.OK {
			return fmt.Errorf("%s %v: %+v", name, args, r.Error)
		}
		return nil
	}
	for i := 0; ; i++ {
		_, err := os.Stat(filepath.Join(os.Getenv(crashRootEnv), fName(planCrashEdited)))
		toB := err == nil
		state := map[bool]string{true: "B", false: "A"}[toB]
		for f := range planCrashEdited {
			if err := call("read_file", map[string]any{"path": fName(f), "limit": 1}); err != nil {
				return fail("%v", err)
			}
			if err := call("write_file", map[string]any{"path": fName(f), "content": planContent(state, f)}); err != nil {
				return fail("%v", err)
			}
		}
		for g := range planCrashMoved {
			f := planCrashEdited + g
			if toB {
				err = call("delete_file", map[string]any{"path": fName(f)})
				if err == nil {
					err = call("write_file", map[string]any{"path": gName(g), "content": planContent("B", f)})
				}
			} else {
				err = call("write_file", map[string]any{"path": fName(f), "content": planContent("A", f)})
			}
			if err != nil {
				return fail("%v", err)
			}
		}
		if !toB {
			if err := call("delete_file", map[string]any{"path": "new", "recursive": true}); err != nil {
				return fail("%v", err)
			}
		}
		if i > 0 {
			fmt.Println("applying")
		}
		start := time.Now()
		if err := call("plan_apply", nil); err != nil {
			return fail("%v", err)
		}
		if i == 0 {
			fmt.Println("ready", time.Since(start).Microseconds())
		}
	}
}

// treeDigest hashes every path, type, mode and content under root.
func treeDigest(t *testing.T, root string) string {
	h := sha256.New()
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s\x00%v\x00", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%x\x00", sha256.Sum256(data))
		}
		return nil
	}))
	return hex.EncodeToString(h.Sum(nil))
}

// planStates returns the digests of states A and B.
func planStates(t *testing.T) (a, b string) {
	root := t.TempDir()
	writePlanStateA(t, root)
	a = treeDigest(t, root)
	for i := range planCrashEdited {
		require.NoError(t, os.WriteFile(filepath.Join(root, fName(i)), []byte(planContent("B", i)), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "new/dir"), 0o755))
	for g := range planCrashMoved {
		f := planCrashEdited + g
		require.NoError(t, os.Remove(filepath.Join(root, fName(f))))
		require.NoError(t, os.WriteFile(filepath.Join(root, gName(g)), []byte(planContent("B", f)), 0o644))
	}
	return a, treeDigest(t, root)
}

// planCrashOnce runs the helper until a random kill and checks the tree after recovery.
// It returns "A" or "B" and whether an apply was in progress, or "" after a failure.
func planCrashOnce(t *testing.T, root, jdir string, rng *rand.Rand, a, b string) (string, bool) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+planCrashMode, crashRootEnv+"="+root, planCrashJournalEnv+"="+jdir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if !assert.NoError(t, err) || !assert.NoError(t, cmd.Start()) {
		return "", false
	}
	lines := bufio.NewReader(stdout)
	line, _ := lines.ReadString('\n')
	var applyMicros int
	if _, err := fmt.Sscanf(line, "ready %d\n", &applyMicros); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		assert.Failf(t, "helper not ready", "helper said %q; stderr:\n%s", line, stderr.String())
		return "", false
	}
	if rng.IntN(2) == 0 {
		time.Sleep(time.Duration(rng.IntN(120)) * time.Millisecond) // any moment
	} else {
		lines.ReadString('\n') // an apply is starting: kill while it runs
		time.Sleep(time.Duration(rng.IntN(applyMicros+1)) * time.Microsecond)
	}
	go io.Copy(io.Discard, lines) // never let the helper block on a full pipe
	assert.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	err = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !assert.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "the helper must die by SIGKILL (%v); stderr:\n%s", err, stderr.String()) {
		return "", false
	}
	pending, _ := os.ReadDir(filepath.Join(jdir, "pending"))
	inFlight := false
	for _, p := range pending {
		inFlight = inFlight || strings.HasSuffix(p.Name(), ".json")
	}

	m, err := manager.New(manager.Config{Root: root, JournalDir: jdir}) // recovers
	if !assert.NoError(t, err) {
		return "", false
	}
	m.Close()
	got := map[string]string{a: "A", b: "B"}[treeDigest(t, root)]
	if !assert.NotEmpty(t, got, "after a kill and recovery the tree must be state A or state B (apply in flight: %v):\n%s", inFlight, describeTree(root)) {
		return "", false
	}
	return got, inFlight
}

func TestPlanApplyCrashConsistency(t *testing.T) {
	t.Parallel()
	kills := 100
	if testing.Short() {
		kills = 24
	}
	a, b := planStates(t)
	var countA, countB, inFlight, failures atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := range crashWorkers {
		root, jdir := t.TempDir(), t.TempDir()
		writePlanStateA(t, root)
		n := kills / crashWorkers
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			for range n {
				got, mid := planCrashOnce(t, root, jdir, rng, a, b)
				if got == "" {
					failures.Add(1)
					return
				}
				map[string]*atomic.Int64{"A": &countA, "B": &countB}[got].Add(1)
				if mid {
					inFlight.Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("plan_apply crash consistency: %d kills in %v: A=%d B=%d, %d of them during an apply (rolled back)",
		kills, time.Since(start).Round(time.Millisecond), countA.Load(), countB.Load(), inFlight.Load())
	assert.Zero(t, failures.Load())
	assert.EqualValues(t, kills, countA.Load()+countB.Load())
	assert.Positive(t, inFlight.Load(), "some kills must land during an apply, or the test proves nothing")
}

// describeTree lists the files under root with the state of their first line, for failures.
func describeTree(root string) string {
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		first, _, _ := strings.Cut(string(data), " ")
		fmt.Fprintf(&b, "%s %s %d\n", rel, first, len(data))
		return nil
	})
	return b.String()
}
