package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) {
	sandbox.MaybeHelper()
	os.Exit(m.Run())
}

func newRunner(t testing.TB) (*Runner, string) {
	t.Helper()
	dir := t.TempDir()
	return newRunnerIn(t, dir, Options{}), dir
}

// newRunnerIn makes a runner of the project dir with o (its Root set here).
func newRunnerIn(t testing.TB, dir string, o Options) *Runner {
	t.Helper()
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	o.Root = root
	r, err := New(o)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRunBasics(t *testing.T) {
	r, dir := newRunner(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	in := "from stdin\n"
	res, err := r.Run(t.Context(), Request{Command: "pwd; cat; echo oops >&2; exit 3", Cwd: "sub", Stdin: &in})
	require.NoError(t, err)
	assert.Equal(t, 3, res.ExitCode)
	assert.Equal(t, filepath.Join(dir, "sub")+"\nfrom stdin\n", res.Stdout)
	assert.Equal(t, "oops\n", res.Stderr)
	assert.False(t, res.TimedOut)
	assert.False(t, res.Truncated)

	res, err = r.Run(t.Context(), Request{Argv: []string{"printf", "%s|", "a b", "$HOME"}})
	require.NoError(t, err)
	assert.Equal(t, "a b|$HOME|", res.Stdout, "an argv is not interpreted by a shell")

	res, err = r.Run(t.Context(), Request{Command: "cat"})
	require.NoError(t, err)
	assert.Equal(t, "", res.Stdout, "stdin is closed when not given")

	_, err = r.Run(t.Context(), Request{Command: "true", Cwd: "../.."})
	assert.ErrorIs(t, err, security.ErrOutsideRoot)
	_, err = r.Run(t.Context(), Request{Command: "true", Env: map[string]string{"BAD NAME": "x"}})
	assert.Error(t, err)
	_, err = r.Run(t.Context(), Request{})
	assert.Error(t, err)
}

func TestEnvironmentIsScrubbed(t *testing.T) {
	t.Setenv("FAKE_SERVICE_TOKEN", "tok-123")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-456")
	t.Setenv("PLAIN_SETTING", "kept")
	r, _ := newRunner(t)
	res, err := r.Run(t.Context(), Request{Command: "env", Env: map[string]string{"EXTRA": "given"}})
	require.NoError(t, err)
	assert.NotContains(t, res.Stdout, "tok-123")
	assert.NotContains(t, res.Stdout, "aws-456")
	assert.Contains(t, res.Stdout, "PLAIN_SETTING=kept")
	assert.Contains(t, res.Stdout, "EXTRA=given")
	assert.Contains(t, res.Stdout, "HOME="+r.tmp)
	assert.Contains(t, res.Stdout, "TMPDIR="+r.tmp)
}

func TestTimeoutKillsTheProcessTree(t *testing.T) {
	r, dir := newRunner(t)
	res, err := r.Run(t.Context(), Request{Command: "sleep 1000 & echo $! > bg.pid; setsid sleep 1000 & echo $! > sid.pid; wait", Timeout: 500 * time.Millisecond})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	for _, f := range []string{"bg.pid", "sid.pid"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		require.NoError(t, err)
		assert.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 2*time.Second, 10*time.Millisecond, "%s %d is gone", f, pid)
	}
}

func TestOutputIsCappedAndSpooled(t *testing.T) {
	r, dir := newRunner(t)
	res, err := r.Run(t.Context(), Request{Command: "seq 1 200000", Output: 1000})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.True(t, strings.HasPrefix(res.Stdout, "1\n2\n3\n"), res.Stdout[:20])
	assert.True(t, strings.HasSuffix(res.Stdout, "199999\n200000\n"))
	assert.Contains(t, res.Stdout, "bytes cut of 1288895")
	require.Contains(t, res.Files, "stdout")
	full, err := os.ReadFile(filepath.Join(dir, res.Files["stdout"]))
	require.NoError(t, err)
	assert.Len(t, full, 1288895, "the whole output is kept in the project for read_file")
}

func TestOutputFloodStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB")
	}
	r, _ := newRunner(t)
	before := peakRSS(t)
	start := time.Now()
	res, err := r.Run(t.Context(), Request{Command: "head -c 1000000000 /dev/zero", Timeout: 60 * time.Second})
	require.NoError(t, err)
	assert.False(t, res.TimedOut, "1 GB of output finishes well within the timeout")
	assert.Equal(t, 0, res.ExitCode)
	assert.Contains(t, res.Stdout, "bytes cut of 1000000000")
	grew := peakRSS(t) - before
	t.Logf("1 GB flood: %v, peak RSS grew by %d KiB", time.Since(start).Round(time.Millisecond), grew)
	assert.Less(t, grew, int64(64<<10), "memory stays bounded (KiB)")
}

// peakRSS is this process's peak resident set size in KiB.
func peakRSS(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb
		}
	}
	return 0
}

func TestJobs(t *testing.T) {
	r, _ := newRunner(t)
	j, err := r.Start(Request{Command: "echo one; sleep 0.3; echo two"})
	require.NoError(t, err)
	st, err := r.Output(t.Context(), j.ID, 0)
	require.NoError(t, err)
	assert.True(t, st.Running)
	st, err = r.Output(t.Context(), j.ID, 5*time.Second)
	require.NoError(t, err)
	assert.False(t, st.Running)
	assert.Equal(t, 0, *st.ExitCode)
	assert.Contains(t, st.Stdout, "two")
	st, err = r.Output(t.Context(), j.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, "", st.Stdout, "output is returned once")

	long, err := r.Start(Request{Command: "sleep 1000"})
	require.NoError(t, err)
	st, err = r.Kill(long.ID)
	require.NoError(t, err)
	assert.False(t, st.Running)
	assert.Equal(t, 128+9, *st.ExitCode)

	_, err = r.Output(t.Context(), "job-none", 0)
	assert.Error(t, err)

	left, err := r.Start(Request{Command: "sleep 1000"})
	require.NoError(t, err)
	require.NoError(t, r.Close())
	select {
	case <-left.pr.done:
	case <-time.After(5 * time.Second):
		t.Fatal("a job outlived its session")
	}
	_, err = r.Start(Request{Command: "true"})
	assert.ErrorIs(t, err, ErrClosed)
}

func TestOutputNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		jido bool
	}{
		{"run-1-0a1b2c3d.stdout.log", true},
		{"run-12345-ffffffff.stderr.log", true},
		{"job-7-00000000.stdout.log", true},
		{"job-7-00000000.stderr.log", true},
		{"tests-0123456789ab", true},
		{"run-1-0a1b2c3d.stdin.log", false},
		{"run-1-0A1B2C3D.stdout.log", false},
		{"run-1-0a1b2c3.stdout.log", false},
		{"run-1-0a1b2c3d0.stdout.log", false},
		{"run--0a1b2c3d.stdout.log", false},
		{"run-x-0a1b2c3d.stdout.log", false},
		{"exec-1-0a1b2c3d.stdout.log", false},
		{"run-1-0a1b2c3d.stdout.log.bak", false},
		{"run-1-0a1b2c3d.stdout.log/x", false},
		{"../run-1-0a1b2c3d.stdout.log", false},
		{"xrun-1-0a1b2c3d.stdout.log", false},
		{"run-1-0a1b2c3d.stdout.log\n", false},
		{"tests-0123456789a", false},
		{"tests-0123456789abc", false},
		{"tests-0123456789AB", false},
		{"tests-old", false},
		{"README.md", false},
		{".git", false},
		{"", false},
	} {
		assert.Equal(t, tc.jido, outputName().MatchString(tc.name), "%q", tc.name)
	}
	r := &Runner{}
	for _, prefix := range []string{"run", "job"} {
		for _, stream := range []string{"stdout", "stderr"} {
			assert.Regexp(t, outputName(), r.newID(prefix)+"."+stream+".log", "the names spool gives")
		}
	}
}

func TestOldOutputsArePruned(t *testing.T) {
	r, dir := newRunner(t)
	out := filepath.Join(dir, OutputDir)
	oldRun, newRun, oldTests := "run-3-0a1b2c3d.stdout.log", "run-4-0a1b2c3d.stderr.log", "tests-0123456789ab"
	require.NoError(t, os.MkdirAll(filepath.Join(out, oldTests), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src"), 0o755))
	for _, name := range []string{oldRun, newRun, oldTests + "/report.xml", "notes.txt", "job-1-zzzzzzzz.stdout.log"} {
		require.NoError(t, os.WriteFile(filepath.Join(out, name), []byte("x"), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("keep\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("keep\n"), 0o644))
	// Links named as jido names its outputs, to a project file and a project directory.
	fileLink, dirLink := filepath.Join(out, "job-2-0a1b2c3d.stdout.log"), filepath.Join(out, "tests-ba9876543210")
	require.NoError(t, os.Symlink("../../README.md", fileLink))
	require.NoError(t, os.Symlink("../../src", dirLink))
	old := time.Now().Add(-OutputMaxAge - time.Hour)
	for _, name := range []string{oldRun, oldTests, "notes.txt", "job-1-zzzzzzzz.stdout.log"} {
		require.NoError(t, os.Chtimes(filepath.Join(out, name), old, old))
	}
	for _, name := range []string{"README.md", "src/main.go", "src"} {
		require.NoError(t, os.Chtimes(filepath.Join(dir, name), old, old))
	}
	for _, link := range []string{fileLink, dirLink} { // the links themselves are old too
		ts := []unix.Timespec{unix.NsecToTimespec(old.UnixNano()), unix.NsecToTimespec(old.UnixNano())}
		require.NoError(t, unix.UtimesNanoAt(unix.AT_FDCWD, link, ts, unix.AT_SYMLINK_NOFOLLOW))
	}

	assert.Equal(t, 2, pruneOutputs(r.root, OutputMaxAge))
	assert.NoFileExists(t, filepath.Join(out, oldRun))
	assert.NoDirExists(t, filepath.Join(out, oldTests))
	assert.FileExists(t, filepath.Join(out, newRun), "not old yet")
	assert.FileExists(t, filepath.Join(out, "notes.txt"), "not a name jido gives")
	assert.FileExists(t, filepath.Join(out, "job-1-zzzzzzzz.stdout.log"), "not a name jido gives")
	assert.FileExists(t, filepath.Join(dir, "README.md"), "a link's target is never removed")
	assert.FileExists(t, filepath.Join(dir, "src", "main.go"), "a link's target is never removed")
}

// TestPruningNeverFollowsALink: a command that made .jido/output (or .jido) a link, to the
// project or out of it, must not get the next session to delete the files there.
func TestPruningNeverFollowsALink(t *testing.T) {
	for _, tc := range []struct {
		name, link, target string
		at                 string // where the link leads, relative to the project
	}{
		{name: "output to the project", link: OutputDir, target: "..", at: "."},
		{name: "output out of the project", link: OutputDir, target: "../..", at: ".."},
		{name: "jido to the project", link: ".jido", target: ".", at: "."},
		{name: "jido out of the project", link: ".jido", target: "..", at: ".."},
		{name: "output a file", link: OutputDir, at: "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "project")
			there := filepath.Join(dir, tc.at)
			old := time.Now().Add(-OutputMaxAge - time.Hour)
			// Files where the link leads, at the top and in a directory named output
			// (which .jido -> there makes .jido/output), named as jido names its outputs.
			names := []string{"README.md", "run-1-0a1b2c3d.stdout.log", "tests-0123456789ab/report.xml", "output/run-2-0a1b2c3d.stdout.log"}
			for _, name := range names {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(there, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(there, name), []byte("keep\n"), 0o644))
			}
			for _, name := range append(names, "tests-0123456789ab", "output") {
				require.NoError(t, os.Chtimes(filepath.Join(there, name), old, old))
			}
			require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(tc.link)), 0o755))
			if tc.target == "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, tc.link), nil, 0o644))
			} else {
				require.NoError(t, os.Symlink(tc.target, filepath.Join(dir, tc.link)))
			}

			r := newRunnerIn(t, dir, Options{}) // a session's start prunes
			assert.Equal(t, 0, pruneOutputs(r.root, OutputMaxAge))
			for _, name := range names {
				assert.FileExists(t, filepath.Join(there, name))
			}
		})
	}
}

func TestProgressIsReportedWhileACommandRuns(t *testing.T) {
	r, _ := newRunner(t)
	var reports []Progress
	ctx := WithProgress(t.Context(), 50*time.Millisecond, func(p Progress) { reports = append(reports, p) })
	res, err := r.Run(ctx, Request{Command: "printf 12345; sleep 0.4; printf 678"})
	require.NoError(t, err)
	assert.Equal(t, "12345678", res.Stdout)
	require.GreaterOrEqual(t, len(reports), 3, "about one report per period")
	// A report during the sleep (one may come after the last printf, before the exit).
	during := slices.IndexFunc(reports, func(p Progress) bool { return p.Output == 5 })
	require.GreaterOrEqual(t, during, 0, "a report says the bytes written so far: %+v", reports)
	assert.Equal(t, "12345", reports[during].Tail, "and the latest of them")
	assert.Greater(t, reports[len(reports)-1].Elapsed, reports[0].Elapsed)

	reports = nil
	_, err = r.Run(t.Context(), Request{Command: "sleep 0.2"})
	require.NoError(t, err)
	assert.Empty(t, reports, "no reporter, no reports")
}

func TestProgressTailKeepsTheLatestOutputOfBothStreams(t *testing.T) {
	r, _ := newRunner(t)
	var last Progress
	ctx := WithProgress(t.Context(), 20*time.Millisecond, func(p Progress) { last = p })
	_, err := r.Run(ctx, Request{Command: "echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; sleep 0.3"})
	require.NoError(t, err)
	assert.Equal(t, "out1\nerr1\nout2\n", last.Tail, "in the order written (each stream is read on its own)")

	var l latest
	l.write([]byte(strings.Repeat("a", TailBytes-2)))
	l.write([]byte("bcd"))
	assert.Len(t, l.String(), TailBytes, "capped")
	assert.True(t, strings.HasSuffix(l.String(), "abcd") && strings.HasPrefix(l.String(), "aa"))
	l.write([]byte(strings.Repeat("z", TailBytes+5)))
	assert.Equal(t, strings.Repeat("z", TailBytes), l.String())
	var none *latest
	none.write([]byte("x")) // a nil latest keeps nothing
}

func TestJobsAreCapped(t *testing.T) {
	r := newRunnerIn(t, t.TempDir(), Options{MaxJobs: 3})
	var jobs []*Job
	for range 3 {
		j, err := r.Start(Request{Command: "sleep 60"})
		require.NoError(t, err)
		jobs = append(jobs, j)
	}
	_, err := r.Start(Request{Command: "sleep 60"})
	require.ErrorIs(t, err, ErrTooManyJobs)
	assert.ErrorContains(t, err, "3 running, the most")
	assert.ErrorContains(t, err, "job_kill")

	_, err = r.Kill(jobs[0].ID)
	require.NoError(t, err)
	short, err := r.Start(Request{Command: "true"})
	require.NoError(t, err, "a killed job frees its slot")
	_, err = r.Start(Request{Command: "sleep 60"})
	require.ErrorIs(t, err, ErrTooManyJobs)

	st, err := r.Output(t.Context(), short.ID, 10*time.Second)
	require.NoError(t, err)
	require.False(t, st.Running)
	_, err = r.Start(Request{Command: "sleep 60"})
	assert.NoError(t, err, "an ended job does not count")
}

func TestConcurrentStartsKeepTheCap(t *testing.T) {
	r := newRunnerIn(t, t.TempDir(), Options{MaxJobs: 2})
	errs := make(chan error, 8)
	for range cap(errs) {
		go func() {
			_, err := r.Start(Request{Command: "sleep 60"})
			errs <- err
		}()
	}
	started := 0
	for range cap(errs) {
		if err := <-errs; err == nil {
			started++
		} else {
			assert.ErrorIs(t, err, ErrTooManyJobs)
		}
	}
	assert.Equal(t, 2, started)
	assert.Equal(t, 2, r.runningJobs())
}

func TestJobLifetime(t *testing.T) {
	r := newRunnerIn(t, t.TempDir(), Options{JobLifetime: 300 * time.Millisecond})
	long, err := r.Start(Request{Command: "sleep 60"})
	require.NoError(t, err)
	quick, err := r.Start(Request{Command: "echo done"})
	require.NoError(t, err)

	st, err := r.Output(t.Context(), long.ID, 10*time.Second)
	require.NoError(t, err)
	assert.False(t, st.Running, "the lifetime killed it")
	require.NotNil(t, st.Result)
	assert.Equal(t, 128+9, *st.ExitCode)
	assert.True(t, st.TimedOut)
	assert.Contains(t, strings.Join(st.Notes, " "), "ran longer than a session's jobs may (300ms) and was killed")

	st, err = r.Output(t.Context(), quick.ID, 10*time.Second)
	require.NoError(t, err)
	require.NotNil(t, st.Result)
	assert.Equal(t, 0, *st.ExitCode)
	assert.False(t, st.TimedOut, "a job that ended in time was not killed")
	assert.NotContains(t, strings.Join(st.Notes, " "), "ran longer")
}

func TestJobLimitsDefault(t *testing.T) {
	r, _ := newRunner(t)
	assert.Equal(t, DefaultMaxJobs, r.maxJobs)
	assert.Equal(t, DefaultJobLifetime, r.lifetime)
}

// TestOwnDirsAreIgnoredByGit: the directories jido keeps in the project (command outputs,
// quarantine) ignore their whole content for git; a .gitignore already there is kept.
func TestOwnDirsAreIgnoredByGit(t *testing.T) {
	r, dir := newRunner(t)
	_, err := r.Run(t.Context(), Request{Command: "true"})
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, ".jido", "output", ".gitignore"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "\n*\n")

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".jido", "output", ".gitignore"), []byte("mine\n"), 0o644))
	_, err = r.Run(t.Context(), Request{Command: "true"})
	require.NoError(t, err)
	data, err = os.ReadFile(filepath.Join(dir, ".jido", "output", ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "mine\n", string(data))
}
