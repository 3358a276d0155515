package integration

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/require"
)

// The real projects of the workload suite, as testdata/workload/fetch.sh brings them into
// the repository's git-ignored .cache/workload/ (pinned in testdata/workload/pins).

// workloadCache is where fetch.sh puts what it fetched, and the report goes.
var workloadCache = filepath.Join("..", "..", ".cache", "workload")

// fetchHint is how to get the projects when they are missing.
const fetchHint = "bash test/integration/testdata/workload/fetch.sh (.ci/run runs it)"

// workloadPin is one line of testdata/workload/pins.
type workloadPin struct{ kind, name, version string }

// workloadPins reads testdata/workload/pins, by name.
var workloadPins = sync.OnceValues(func() (map[string]workloadPin, error) {
	f, err := os.Open(filepath.Join("testdata", "workload", "pins"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pins := map[string]workloadPin{}
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		fields := strings.Fields(scan.Text())
		if len(fields) == 4 && !strings.HasPrefix(fields[0], "#") {
			pins[fields[1]] = workloadPin{fields[0], fields[1], fields[2]}
		}
	}
	return pins, scan.Err()
})

// goModCache is `go env GOMODCACHE`.
var goModCache = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	return strings.TrimSpace(string(out)), err
})

// source is where the fetched tree of the project pinned as name is; a project not
// fetched ends the test through testenv.Missing.
func source(t *testing.T, name string) string {
	t.Helper()
	pins, err := workloadPins()
	require.NoError(t, err)
	pin, ok := pins[name]
	require.True(t, ok, "%s is not pinned in testdata/workload/pins", name)
	var dir string
	switch pin.kind {
	case "go":
		mods, err := goModCache()
		require.NoError(t, err)
		dir = filepath.Join(mods, filepath.FromSlash(pin.name)+"@"+pin.version)
	case "deb":
		dir = filepath.Join(workloadCache, "deb", pin.name+"@"+pin.version)
	case "npm":
		dir = filepath.Join(workloadCache, "npm", strings.ReplaceAll(pin.name, "/", "+")+"@"+pin.version, "package")
	default:
		require.Failf(t, "unknown kind", "%s in testdata/workload/pins", pin.kind)
	}
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(t, "the workload project "+pin.name+"@"+pin.version, fetchHint)
	}
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	return abs
}

// workloadProject is a real project and the facts of the day's work on it (see
// trajectory): what is looked for, which lines of which file turn buggy and are fixed, how
// its tests run through run_tests and plainly, and which tests the bug breaks.
type workloadProject struct {
	label    string   // its name in the report
	pin      string   // its name in pins
	programs []string // the programs its tests run
	// lay puts the project from src (the fetched tree) into dir, before git init: the
	// files a developer has in a checkout of it.
	lay func(t *testing.T, src, dir string)

	search, glob string // the text first looked for, in files matching glob
	file         string // the file edited
	// original is whole lines of file as shipped, bug the same with a bug, fix the bug
	// fixed anew (with a comment, so that the fix is not the original again).
	original, bug, fix string

	tests    map[string]any // run_tests' arguments
	plain    []string       // the command that runs the same tests plainly, from the root
	plainEnv []string
	breaks   []string // tests the bug breaks, as the runner names them
}

// copyInto copies the directories (or files) of src named in paths into dir, writable.
func copyInto(t *testing.T, src, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		from, to := filepath.Join(src, p), filepath.Join(dir, filepath.Base(p))
		info, err := os.Stat(from)
		require.NoError(t, err)
		if info.IsDir() {
			require.NoError(t, os.CopyFS(to, os.DirFS(from)))
			continue
		}
		data, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, data, 0o644))
	}
}

// afero is github.com/spf13/afero from Go's module cache, with its whole test suite. The
// bug makes Seek(off, io.SeekCurrent) seek from the start.
var afero = &workloadProject{
	label: "afero", pin: "github.com/spf13/afero",
	lay: func(t *testing.T, src, dir string) {
		require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
		// Its tests need golang.org/x/text: in the module cache already, or missing.
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			testenv.Missing(t, "the modules afero's tests need ("+strings.TrimSpace(string(out))+")", fetchHint)
		}
	},
	search: "case io.SeekCurrent:", glob: "*.go", file: "mem/file.go",
	original: "\tcase io.SeekCurrent:\n\t\tatomic.AddInt64(&f.at, offset)\n",
	bug:      "\tcase io.SeekCurrent:\n\t\tatomic.StoreInt64(&f.at, offset)\n",
	fix:      "\tcase io.SeekCurrent: // offset is relative to the current position\n\t\tatomic.AddInt64(&f.at, offset)\n",
	tests:    map[string]any{},
	plain:    []string{"go", "test", "./..."},
	breaks:   []string{"TestSeek", "TestFileWriteAndSeek"},
}

// toolz is Debian's python3-toolz, whose package ships its tests, laid out as a checkout:
// the packages toolz and tlz, a pytest.ini that puts the root on the import path as
// upstream's setup does, and a .gitignore. The bug makes take(n, seq) take n-1 items.
var toolz = &workloadProject{
	label: "toolz", pin: "python3-toolz", programs: []string{"pytest"},
	lay: func(t *testing.T, src, dir string) {
		copyInto(t, filepath.Join(src, "usr", "lib", "python3", "dist-packages"), dir, "toolz", "tlz")
		writeTree(t, dir, map[string]string{
			"pytest.ini": "[pytest]\npythonpath = .\ntestpaths = toolz/tests\n",
			".gitignore": "__pycache__/\n.pytest_cache/\n",
		})
	},
	search: "def take(", glob: "*.py", file: "toolz/itertoolz.py",
	original: "    return itertools.islice(seq, n)\n",
	bug:      "    return itertools.islice(seq, n - 1)\n",
	fix:      "    return itertools.islice(seq, n)  # the first n items\n",
	tests:    map[string]any{},
	plain:    []string{"pytest", "-q"},
	plainEnv: []string{"PYTHONDONTWRITEBYTECODE=1"},
	breaks:   []string{"test_take"},
}

// fastifyError is @fastify/error from the npm registry, whose tarball ships its tests
// (node's test runner, no dependencies). Its test script wants tools it does not ship
// (c8, tstyche), so the tests run with node's runner, as a developer runs them. The bug
// lower-cases the error codes.
var fastifyError = &workloadProject{
	label: "fastify-error", pin: "@fastify/error", programs: []string{"node"},
	lay: func(t *testing.T, src, dir string) {
		require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	},
	search: "toUpperCase", glob: "*.js", file: "index.js",
	original: "  code = code.toUpperCase()\n",
	bug:      "  code = code.toLowerCase()\n",
	fix:      "  code = code.toUpperCase() // codes are upper case, whatever the caller wrote\n",
	tests:    map[string]any{"runner": "node"},
	plain:    []string{"node", "--test"},
	breaks:   []string{"FastifyError.toString returns code", "Create error with zero parameter"},
}

// csvMode is Debian's elpa-csv-mode, which ships csv-mode-tests.el (ERT). The bug makes
// csv-guess-separator prefer the worst-scoring candidate.
var csvMode = &workloadProject{
	label: "csv-mode", pin: "elpa-csv-mode", programs: []string{"emacs"},
	lay: func(t *testing.T, src, dir string) {
		els, err := filepath.Glob(filepath.Join(src, "usr", "share", "emacs", "site-lisp", "elpa-src", "csv-mode-*", "*.el"))
		require.NoError(t, err)
		require.NotEmpty(t, els, "csv-mode's Lisp files in %s", src)
		for _, el := range els {
			copyInto(t, filepath.Dir(el), dir, filepath.Base(el))
		}
	},
	search: "defun csv-guess-separator", glob: "*.el", file: "csv-mode.el",
	original: "        (when (or (> candidate-score best-score)\n",
	bug:      "        (when (or (< candidate-score best-score)\n",
	fix:      "        (when (or (> candidate-score best-score) ; the best score wins\n",
	tests:    map[string]any{},
	plain:    []string{"emacs", "-batch", "-L", ".", "-l", "ert", "-l", "csv-mode-tests.el", "-f", "ert-run-tests-batch-and-exit"},
	breaks:   []string{"csv-tests-guess-separator"},
}

// layout lays project p out in a new directory made a git repository, and returns it.
func (p *workloadProject) layout(t *testing.T) string {
	t.Helper()
	src := source(t, p.pin)
	testenv.Program(t, "git")
	for _, prog := range p.programs {
		testenv.Program(t, prog)
	}
	dir := filepath.Join(t.TempDir(), p.label)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	p.lay(t, src, dir)
	data, err := os.ReadFile(filepath.Join(dir, p.file))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), p.original), "%s holds the original text once", p.file)
	gitInit(t, dir)
	return dir
}
