package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/runtime"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memoryMode is the helper mode of TestMemoryBombsBesideInnocentSessions.
const memoryMode = "memory-bombs"

func init() { helpers[memoryMode] = memoryScenario }

// memoryBudget is the per-call memory budget of the scenario's sessions.
const memoryBudget = 64 << 20

// memoryReport is what the scenario's process reports.
type memoryReport struct {
	BaselineKB int64    `json:"baseline_kb"` // VmRSS once the sessions are open
	PeakKB     int64    `json:"peak_kb"`     // VmHWM at the end
	Bombs      int      `json:"bombs"`       // bomb calls made
	BombKinds  []string `json:"bomb_kinds"`  // the error types and limits they failed with
	Innocent   int      `json:"innocent"`    // calls of the other sessions
	Failed     []string `json:"failed"`      // the innocent calls that failed
	AfterBomb  int      `json:"after_bomb"`  // plain calls of the attacker after a bomb that failed
}

// TestMemoryBombsBesideInnocentSessions runs, in a process of its own through the Go API
// (sessions in process), one session that sets off the memory bombs in a loop (one
// `..` of 64 operands, doubling, a table bomb) for 5 s while two others read and search
// continuously. Every bomb fails with limit=memory, the attacker's next plain call
// succeeds, no innocent call fails, and the process's peak RSS stays within the baseline
// plus the budget plus a margin for garbage the collector has not freed yet.
func TestMemoryBombsBesideInnocentSessions(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+memoryMode, "JIDO_MEMORY_ROOT="+t.TempDir())
	out, err := cmd.Output()
	require.NoError(t, err, "scenario: %s", out)
	var r memoryReport
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	t.Logf("baseline %d MiB, peak %d MiB, %d bombs, %d innocent calls", r.BaselineKB>>10, r.PeakKB>>10, r.Bombs, r.Innocent)

	assert.Empty(t, r.Failed, "no innocent call fails")
	assert.Greater(t, r.Innocent, 100)
	assert.GreaterOrEqual(t, r.Bombs, 3) // each of the three bombs at least once (under -race on 2 cores, 9 in the 5 s)
	for _, k := range r.BombKinds {
		assert.Equal(t, "lua-error limit=memory", k)
	}
	assert.Equal(t, r.Bombs, r.AfterBomb, "the attacker's next call succeeds every time")
	const marginKB = 128 << 10 // garbage of the bombs' refused runs not collected yet, and GC headroom
	if raceEnabled {
		// The race detector's shadow memory takes several times what the program allocates:
		// the peak says nothing of jido's. The server's peak is checked in
		// TestMCPMemoryBombBesideInnocentClients, whose jido binary is built without it.
		return
	}
	assert.LessOrEqual(t, r.PeakKB, r.BaselineKB+memoryBudget>>10+marginKB, "peak RSS within baseline + budget + margin")
}

// memoryScenario is the helper process of TestMemoryBombsBesideInnocentSessions; it prints
// its memoryReport.
func memoryScenario() int {
	root := os.Getenv("JIDO_MEMORY_ROOT")
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(strings.Repeat("package x // needle\n", 200)), 0o644); err != nil {
			return fail(err)
		}
	}
	m, err := manager.New(manager.Config{Root: root, Limits: runtime.Limits{MaxMemory: memoryBudget, Timeout: 20 * time.Second}})
	if err != nil {
		return fail(err)
	}
	defer m.Close()
	ctx := context.Background()
	open := func() *manager.Session {
		s, err := m.Open(ctx, "")
		if err != nil {
			panic(err)
		}
		return s
	}
	attacker, readers := open(), []*manager.Session{open(), open()}
	r := memoryReport{BaselineKB: procStatus("VmRSS")}

	var stop atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, s := range readers {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				call := manager.ToolCall{Name: "read_file", Args: map[string]any{"path": fmt.Sprintf("f%d.go", i%50)}}
				if i%3 == 0 {
					call = manager.ToolCall{Name: "search", Args: map[string]any{"query": "needle", "max_results": 20}}
				}
				res := s.Call(ctx, call)
				mu.Lock()
				r.Innocent++
				if !res.OK {
					r.Failed = append(r.Failed, res.Error.Error())
				}
				mu.Unlock()
			}
		})
	}
	bombs := []string{
		"local s = 'x' for i = 1, 24 do s = s .. s end local r = " + strings.Repeat("s .. ", 63) + "s return #r",
		"local s = 'x' while true do s = s .. s end",
		"local t = {} while true do t[#t + 1] = {1, 2, 3} end",
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		for _, b := range bombs {
			_, terr := attacker.Eval(ctx, b)
			r.Bombs++
			if terr == nil {
				r.BombKinds = append(r.BombKinds, "succeeded")
				continue
			}
			r.BombKinds = append(r.BombKinds, fmt.Sprintf("%s limit=%v", terr.Type, terr.Details["limit"]))
			if vals, terr := attacker.Eval(ctx, "return 1+1"); terr == nil && len(vals) == 1 {
				r.AfterBomb++
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	r.PeakKB = procStatus("VmHWM")
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		return fail(err)
	}
	return 0
}

// procStatus reads a kB field of /proc/self/status.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// fail reports a scenario's setup error.
func fail(err error) int {
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// bombTool is a user's Lua tool that sets off one of the memory bombs.
const bombTool = `return jido.tool{
  name = "bomb",
  description = "Allocates without bound.",
  params = {type = "object", properties = {kind = {type = "string"}}, required = {"kind"}},
  run = function(args)
    if args.kind == "concat" then
      local s = 'x' for i = 1, 24 do s = s .. s end
      local r = ` + "s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s" + `
      return {n = #r}
    elseif args.kind == "doubling" then
      local s = 'x' while true do s = s .. s end
    else
      local t = {} while true do t[#t + 1] = {1, 2, 3} end
    end
  end,
}
`

// TestMCPMemoryBombBesideInnocentClients: through `jido mcp --http` with a 64 MiB call
// budget, one MCP client calls a Lua tool that sets off the concatenation, doubling and table
// bombs in a loop for 10 s while two others read and search continuously: none of their
// calls fails, every bomb fails with limit=memory and the attacker's next plain call
// succeeds, and the server's peak RSS stays within its baseline plus a margin while a
// worker's peak shows the bombs went off there.
// --http isolates each session's Lua in a worker of its own, user tools included: the
// bombs' memory is the attacker's worker's, never the server's.
func TestMCPMemoryBombBesideInnocentClients(t *testing.T) {
	root, tools := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("f%d.go", i)] = strings.Repeat("package x // needle\n", 200)
	}
	writeTree(t, root, files)
	writeTree(t, tools, map[string]string{"bomb.lua": bombTool})
	srv := mcpHTTP(t, "--root", root, "--yes", "--tools", tools, "--call-memory", "64")
	pid := srv.cmd.Process.Pid
	attacker := mcpConnect(t, srv.transport(), nil, nil)
	readers := []*mcp.ClientSession{mcpConnect(t, srv.transport(), nil, nil), mcpConnect(t, srv.transport(), nil, nil)}
	mcpCall(t, readers[0], "read_file", map[string]any{"path": "f0.go"}) // the server is warm
	baseline := pidStatus(t, pid, "VmRSS")

	var stop atomic.Bool
	var innocent atomic.Int64
	var failed sync.Map
	var wg sync.WaitGroup
	for _, cs := range readers {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				name, args := "read_file", map[string]any{"path": fmt.Sprintf("f%d.go", i%30)}
				if i%3 == 0 {
					name, args = "search", map[string]any{"query": "needle", "max_results": 20}
				}
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				innocent.Add(1)
				if err != nil || res.IsError {
					failed.Store(i, fmt.Sprint(err, res))
				}
			}
		})
	}
	bombs, after := 0, 0
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		for _, kind := range []string{"concat", "doubling", "table"} {
			res := mcpCall(t, attacker, "bomb", map[string]any{"kind": kind})
			bombs++
			require.True(t, res.IsError, "the %s bomb must fail", kind)
			e := mcpText(t, res)
			assert.Equal(t, "memory", e["details"].(map[string]any)["limit"], "%v", e)
			if ok := mcpCall(t, attacker, "read_file", map[string]any{"path": "f1.go"}); !ok.IsError {
				after++
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	peak, workerPeak := pidStatus(t, pid, "VmHWM"), int64(0)
	for _, child := range children(t, pid) {
		workerPeak = max(workerPeak, pidStatus(t, child, "VmHWM"))
	}
	t.Logf("server: baseline %d MiB, peak %d MiB; workers' peak %d MiB; %d bombs, %d innocent calls", baseline>>10, peak>>10, workerPeak>>10, bombs, innocent.Load())
	failed.Range(func(k, v any) bool { t.Errorf("an innocent call failed: %v", v); return true })
	assert.Greater(t, innocent.Load(), int64(100))
	assert.Equal(t, bombs, after, "the attacker's next call succeeds every time")
	const marginKB = 48 << 10 // the innocent calls' garbage, GC headroom, MCP buffers
	assert.LessOrEqual(t, peak, baseline+marginKB, "the bombs are not the server's")
	assert.GreaterOrEqual(t, workerPeak, int64(32<<10), "the bombs went off in a worker")
	assert.Contains(t, srv.stderr.String(), "sessions' Lua runs in worker processes, memory ceiling 1024 MiB", "the server says what bounds its workers")
	if abi, err := llsys.LandlockGetABIVersion(); err == nil && abi > 0 {
		assert.Contains(t, srv.stderr.String(), "confined: Landlock ABI", "this kernel has Landlock")
	}
	// A worker's Go memory limit is two call budgets and 64 MiB (the bombs' garbage is
	// collected before it piles up to the ceiling); the margin is the runtime's own.
	assert.LessOrEqual(t, workerPeak, int64(2*64+64+96)<<10, "within the worker's Go memory limit and a margin")
}

// children lists the pids of pid's child processes.
func children(t *testing.T, pid int) []int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	require.NoError(t, err)
	var out []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, field := range strings.Fields(string(data)) {
			n, err := strconv.Atoi(field)
			require.NoError(t, err)
			out = append(out, n)
		}
	}
	return out
}

// pidStatus reads a kB field of /proc/PID/status.
func pidStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			require.NoError(t, err)
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
