package integration

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The workload suite: real projects (workload_projects_test.go) and the day's work on each,
// an agent's trajectory, driven through every front of jido (workload_fronts_test.go) and
// done again with plain commands on a copy of the project, step by step, interleaved. Every
// step's result is checked on both sides; the wall times go to a table in
// .cache/workload/report.txt, which .ci/run prints. No duration is asserted.

// workloadRuns are the trajectories: each project through jido call (the whole trajectory
// on every project), and each other front on one project at least.
var workloadRuns = []struct {
	project *workloadProject
	front   workloadFront
}{
	{afero, callFront}, {toolz, callFront}, {fastifyError, callFront}, {csvMode, callFront},
	{fastifyError, evalFront}, {csvMode, evalFront},
	{toolz, chatFront},
	{afero, mcpStdioFront}, {fastifyError, mcpHTTPFront},
	{csvMode, serveFront},
}

// TestWorkload runs the trajectories, two at a time (go test's -parallel on 2 cores), and
// the Forge run, and writes the report once they are all done.
func TestWorkload(t *testing.T) {
	if testing.Short() {
		t.Skip("the workload suite runs real projects' test suites for minutes")
	}
	report := &workloadReport{}
	t.Cleanup(func() { report.write(t) })
	for _, run := range workloadRuns {
		t.Run(run.project.label+"/"+run.front.name, func(t *testing.T) {
			t.Parallel()
			report.add(t, run.project.label, run.front.name, func(row *workloadRow) {
				runTrajectory(t, run.project, run.front, row)
			})
		})
	}
	t.Run(toolz.label+"/forge", func(t *testing.T) {
		t.Parallel()
		report.add(t, toolz.label, "forge", func(row *workloadRow) { forgeTrajectory(t, toolz, row) })
	})
}

// toolResult is a tool call's result as every front gives it back, in the shape of jido
// call's output: whether it succeeded, and its result or its error.
type toolResult struct {
	OK     bool           `json:"ok"`
	Result map[string]any `json:"result"`
	Error  map[string]any `json:"error"`
}

// trajectoryStep is one step of a trajectory: a tool call through jido with the checks of
// its result, and the same step done with plain commands (and checked) on the plain copy.
type trajectoryStep struct {
	tool  string
	args  map[string]any
	check func(t *testing.T, res toolResult)
	plain func(t *testing.T)
	tests bool // the step runs the project's tests
}

// trajectory is the day's work on project p, jido working in jdir and plain commands in
// pdir (two checkouts of p): look for something, read the file, put a bug in, run the
// tests and see them fail, fix it, run them again and see them pass, look at git's status
// and diff, undo the fix, and look at the diff again (the bug is back).
func (p *workloadProject) trajectory(t *testing.T, jdir, pdir string) []trajectoryStep {
	data, err := os.ReadFile(filepath.Join(jdir, p.file))
	require.NoError(t, err)
	shipped := string(data)
	bugged := strings.Replace(shipped, p.original, p.bug, 1)
	onDisk := func(t *testing.T, dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, p.file))
		require.NoError(t, err)
		return string(data)
	}
	// replace is a plain edit: old is in the file once, and becomes new.
	replace := func(t *testing.T, old, new string) {
		text := onDisk(t, pdir)
		require.Equal(t, 1, strings.Count(text, old), "%s holds the text to replace once", p.file)
		require.NoError(t, os.WriteFile(filepath.Join(pdir, p.file), []byte(strings.Replace(text, old, new, 1)), 0o644))
	}
	// edit turns from (in the file once) into to, leaving the file as want.
	edit := func(from, to, want string) trajectoryStep {
		return trajectoryStep{
			tool: "edit_file", args: map[string]any{"path": p.file, "old_string": from, "new_string": to},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				assertDiff(t, res.Result["diff"], from, to)
				assert.Equal(t, want, onDisk(t, jdir))
			},
			plain: func(t *testing.T) { replace(t, from, to) },
		}
	}
	// diff looks at the unstaged change, which turns the original into now.
	diff := func(now string) trajectoryStep {
		return trajectoryStep{
			tool: "git_diff", args: map[string]any{},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				files := list(res.Result["files"])
				require.Len(t, files, 1)
				assert.Equal(t, p.file, files[0].(map[string]any)["path"])
				assertDiff(t, res.Result["diff"], p.original, now)
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, nil, "git", "diff")
				assert.Equal(t, 0, code)
				assertDiff(t, out, p.original, now)
			},
		}
	}
	var firstRun float64 // the tests the first run counted
	return []trajectoryStep{
		{
			tool: "search", args: map[string]any{"query": p.search, "include_paths": []any{p.glob}},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				var paths []string
				for _, m := range list(res.Result["matches"]) {
					paths = append(paths, fmt.Sprint(m.(map[string]any)["path"]))
				}
				assert.Contains(t, paths, p.file, "search finds %q", p.search)
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, nil, "grep", "-rn", "-F", "--include="+p.glob, p.search, ".")
				assert.Equal(t, 0, code)
				assert.Contains(t, out, "./"+p.file+":")
			},
		},
		{
			tool: "read_file", args: map[string]any{"path": p.file},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				assert.Equal(t, float64(strings.Count(shipped, "\n")), res.Result["total_lines"])
				for _, line := range strings.Split(strings.TrimSuffix(p.original, "\n"), "\n") {
					if line != "" {
						assert.Contains(t, res.Result["content"], "\t"+line+"\n", "read_file shows the line")
					}
				}
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, nil, "cat", p.file)
				assert.Equal(t, 0, code)
				assert.Equal(t, shipped, out)
			},
		},
		edit(p.original, p.bug, bugged),
		{
			tool: "run_tests", args: p.tests, tests: true,
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				r := res.Result
				assert.NotEqual(t, float64(0), r["exit_code"], "the tests fail: %s", r["report"])
				assert.Greater(t, r["failed"], float64(0), "%s", r["report"])
				assert.Greater(t, r["passed"], float64(0), "the other tests ran: %s", r["report"])
				var failed []string
				for _, f := range list(r["failures"]) {
					failed = append(failed, fmt.Sprint(f.(map[string]any)["name"]))
				}
				for _, name := range p.breaks {
					assert.True(t, slices.ContainsFunc(failed, func(f string) bool { return strings.Contains(f, name) }),
						"%s fails: %v", name, failed)
				}
				firstRun, _ = r["total"].(float64)
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, p.plainEnv, p.plain...)
				assert.NotEqual(t, 0, code, "%s", out)
				for _, name := range p.breaks {
					assert.Contains(t, out, name)
				}
			},
		},
		edit(p.bug, p.fix, strings.Replace(bugged, p.bug, p.fix, 1)),
		{
			tool: "run_tests", args: p.tests, tests: true,
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				r := res.Result
				assert.Equal(t, float64(0), r["exit_code"], "%s", r["report"])
				assert.Equal(t, float64(0), r["failed"], "%s", r["report"])
				assert.Equal(t, float64(0), r["errors"], "%s", r["report"])
				assert.Equal(t, firstRun, r["total"], "the same tests ran: %s", r["report"])
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, p.plainEnv, p.plain...)
				assert.Equal(t, 0, code, "%s", out)
			},
		},
		{
			tool: "git_status", args: map[string]any{},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				assert.Equal(t, false, res.Result["clean"])
				assert.Equal(t, []any{map[string]any{"path": p.file, "worktree": "modified"}}, list(res.Result["entries"]),
					"the edited file is all that changed: running the tests leaves nothing behind")
			},
			plain: func(t *testing.T) {
				out, code := plainRun(t, pdir, nil, "git", "status", "--porcelain")
				assert.Equal(t, 0, code)
				assert.Equal(t, " M "+p.file+"\n", out)
			},
		},
		diff(p.fix),
		{
			tool: "undo", args: map[string]any{},
			check: func(t *testing.T, res toolResult) {
				requireOK(t, res)
				assert.Equal(t, bugged, onDisk(t, jdir), "undo brings back the file as the fix found it")
			},
			plain: func(t *testing.T) {
				require.NoError(t, os.WriteFile(filepath.Join(pdir, p.file), []byte(bugged), 0o644))
			},
		},
		diff(p.bug),
	}
}

// requireOK stops the trajectory when a call failed: the steps after it would not mean
// anything.
func requireOK(t *testing.T, res toolResult) {
	t.Helper()
	require.True(t, res.OK, "the call failed: %v", res.Error)
	require.NotNil(t, res.Result)
}

// list is v as a list; nil when it is none (an empty Lua table comes back as {}).
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// assertDiff checks that diff (unified) removes the lines of from that to lacks and adds
// the lines of to that from lacks.
func assertDiff(t *testing.T, diff any, from, to string) {
	t.Helper()
	text, _ := diff.(string)
	lines := func(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
	for _, l := range lines(from) {
		if !slices.Contains(lines(to), l) {
			assert.Contains(t, text, "\n-"+l+"\n", "the diff removes the line")
		}
	}
	for _, l := range lines(to) {
		if !slices.Contains(lines(from), l) {
			assert.Contains(t, text, "\n+"+l+"\n", "the diff adds the line")
		}
	}
}

// plainRun runs argv in dir with extra environment variables, and returns its output
// (stdout and stderr) and exit code.
func plainRun(t *testing.T, dir string, env []string, argv ...string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	}
	require.NoError(t, err, "%q", argv)
	return out.String(), 0
}

// runTrajectory lays p out twice, starts the front on one copy, and runs the trajectory's
// steps through it and plainly on the other, interleaved, adding up their times in row.
func runTrajectory(t *testing.T, p *workloadProject, front workloadFront, row *workloadRow) {
	jdir, pdir := p.layout(t), p.layout(t)
	steps := p.trajectory(t, jdir, pdir)
	start := time.Now()
	call := front.start(t, jdir, workloadEnv(t), steps)
	started := time.Since(start)
	row.jido += started
	t.Logf("%s started in %s", front.name, started.Round(time.Millisecond))
	for i, s := range steps {
		start := time.Now()
		res := call(t, s.tool, s.args)
		jido := time.Since(start)
		s.check(t, res)
		start = time.Now()
		s.plain(t)
		plain := time.Since(start)
		row.step(s.tests, jido, plain)
		t.Logf("step %d %s: jido %s, plain %s", i+1, s.tool, jido.Round(time.Millisecond), plain.Round(time.Millisecond))
	}
}

// workloadEnv is the environment of the jido processes of one trajectory: no model key,
// and state and caches of their own, so that jido starts cold (no session, no private Go
// build cache) and leaves nothing in the user's directories. GOCACHE stays the user's, for
// a jido that would start its private cache from it.
func workloadEnv(t *testing.T) []string {
	home := t.TempDir()
	userCache, err := exec.Command("go", "env", "GOCACHE").Output()
	require.NoError(t, err)
	return append(slices.Clone(offlineEnv),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"GOCACHE="+strings.TrimSpace(string(userCache)))
}

// workloadRow is one line of the report: a trajectory's times through jido and plainly.
type workloadRow struct {
	project, front string
	steps          int
	jido, plain    time.Duration // the whole trajectory (jido's start included)
	// testRuns are the times of the runs of the tests, jido's and plain, in order: the
	// first one pays for cold caches.
	testRuns [][2]time.Duration
	failed   bool
}

// step adds a step's times.
func (r *workloadRow) step(tests bool, jido, plain time.Duration) {
	if tests {
		r.testRuns = append(r.testRuns, [2]time.Duration{jido, plain})
	}
	r.steps++
	r.jido += jido
	r.plain += plain
}

// workloadReport collects the rows of the trajectories, which run in parallel.
type workloadReport struct {
	mu   sync.Mutex
	rows []workloadRow
}

// add runs a trajectory of project through front, filling in a row that goes into the
// report unless the test was skipped (a failed trajectory is reported as such).
func (r *workloadReport) add(t *testing.T, project, front string, run func(row *workloadRow)) {
	row := workloadRow{project: project, front: front}
	defer func() {
		if t.Skipped() {
			return
		}
		row.failed = t.Failed()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.rows = append(r.rows, row)
	}()
	run(&row)
}

// write prints the table to the test log and to .cache/workload/report.txt.
func (r *workloadReport) write(t *testing.T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.rows) == 0 {
		return
	}
	slices.SortFunc(r.rows, func(a, b workloadRow) int {
		return strings.Compare(a.project+"/"+a.front, b.project+"/"+b.front)
	})
	secs := func(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }
	ratio := func(a, b time.Duration) string {
		if b <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.1fx", a.Seconds()/b.Seconds())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Workload suite (%s, %s, %d cores): each trajectory through jido and with plain commands, interleaved, wall time.\n",
		time.Now().UTC().Format(time.DateOnly), runtime.Version(), runtime.NumCPU())
	fmt.Fprintf(&b, "The runs of the tests are also shown apart (jido / plain, ratio): in the first, jido starts with an empty\n")
	fmt.Fprintf(&b, "private Go build cache where plain go test has the user's.\n\n")
	fmt.Fprintf(&b, "%-23s %5s %8s %8s %6s   %-22s %-22s %s\n", "trajectory", "steps", "jido", "plain", "ratio", "tests, 1st run", "2nd run", "checks")
	for _, row := range r.rows {
		runs := make([]string, 2)
		for i, run := range row.testRuns[:min(2, len(row.testRuns))] {
			runs[i] = fmt.Sprintf("%s / %s (%s)", secs(run[0]), secs(run[1]), ratio(run[0], run[1]))
		}
		checks := "passed"
		if row.failed {
			checks = "FAILED (see the test's log)"
		}
		fmt.Fprintf(&b, "%-23s %5d %8s %8s %6s   %-22s %-22s %s\n", row.project+"/"+row.front, row.steps,
			secs(row.jido), secs(row.plain), ratio(row.jido, row.plain), runs[0], runs[1], checks)
	}
	t.Log("\n" + b.String())
	require.NoError(t, os.MkdirAll(workloadCache, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(workloadCache, "report.txt"), []byte(b.String()), 0o644))
}
