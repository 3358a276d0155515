package testrun

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Report file names inside Options.ReportDir.
const (
	nodeReportName    = "node-junit.xml"
	pytestReportName  = "pytest.xml"
	commandReportName = "junit.xml"
)

// baseEnv is the environment every invocation adds: CI=1 makes runners
// non-interactive (no watch mode, no prompts) and NO_COLOR=1 keeps escape
// codes out of the output that Parse reads.
func baseEnv() map[string]string {
	return map[string]string{"CI": "1", "NO_COLOR": "1"}
}

// buildInvocation makes the invocation for runner r found in dir.
func buildInvocation(d *detector, r Runner, dir string, t targetPath, opts Options) (Invocation, error) {
	p := Invocation{Runner: r, Dir: dir, Env: baseEnv()}
	rel := fromDir(dir, t.path) // what to test, relative to dir; "." for all of it
	var err error
	switch r {
	case Go:
		p.Argv = goArgv(rel, t.isFile, opts.Selector)
		p.goModule = readGoModule(d.fsys, path.Join(dir, "go.mod"))
	case Node:
		p.Argv, p.Report = nodeArgv(d, dir, rel, t.isFile, opts)
	case NPM:
		p.Argv, err = npmArgv(d.dirFacts(dir).pkg.testScript(), opts.Selector)
	case Pytest:
		p.Argv, p.Report = pytestArgv(dir, rel, opts)
		p.Env["PYTHONDONTWRITEBYTECODE"] = "1"
		p.Env["PY_COLORS"] = "0"
	case Cargo:
		p.Argv = cargoArgv(rel, t.isFile, opts.Selector)
		p.Env["CARGO_TERM_COLOR"] = "never"
	case ERT:
		p.Argv, err = ertArgv(d.scanOf(dir), rel, t.isFile, opts.Selector)
	case Make:
		p.Argv = []string{"make", "test"}
		if opts.Selector != "" {
			// TEST= is the most common convention for a Makefile's test
			// filter; a Makefile that ignores it runs every test.
			p.Argv = append(p.Argv, "TEST="+opts.Selector)
		}
	}
	if err != nil {
		return Invocation{}, err
	}
	return p, nil
}

// goArgv is `go test -json [-run SEL] PKGS`: ./... for the whole module,
// ./dir/... for a directory, ./dir for a file's package.
func goArgv(rel string, isFile bool, selector string) []string {
	pkgs := "./..."
	switch {
	case isFile && path.Dir(rel) == ".":
		pkgs = "."
	case isFile:
		pkgs = "./" + path.Dir(rel)
	case rel != ".":
		pkgs = "./" + rel + "/..."
	}
	argv := []string{"go", "test", "-json"}
	if selector != "" {
		argv = append(argv, "-run", selector)
	}
	return append(argv, pkgs)
}

// readGoModule returns the module path declared in go.mod, "" if unknown.
func readGoModule(fsys fs.FS, name string) string {
	b := readLimited(fsys, name)
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			return strings.Trim(strings.TrimSpace(rest), `"`+"`")
		}
	}
	return ""
}

// nodeArgv runs node's test runner with the JUnit reporter into ReportDir
// (read by Parse) and TAP on stdout (the fallback when the report is
// missing, and readable output for a person). Without a ReportDir only TAP
// is written. A plain `node --test` script keeps its flags and files (globs
// expanded here, as node 20 does not expand them itself).
func nodeArgv(d *detector, dir, rel string, isFile bool, opts Options) (argv []string, report string) {
	argv = []string{"node", "--test"}
	if opts.ReportDir != "" {
		report = fromDir(dir, path.Join(opts.ReportDir, nodeReportName))
		argv = append(argv, "--test-reporter=junit", "--test-reporter-destination="+report,
			"--test-reporter=tap", "--test-reporter-destination=stdout")
	} else {
		argv = append(argv, "--test-reporter=tap")
	}
	script, _ := parseNodeTestScript(d.dirFacts(dir).pkg.testScript())
	argv = append(argv, script.flags...)
	if opts.Selector != "" {
		argv = append(argv, "--test-name-pattern="+opts.Selector)
	}
	switch {
	case isFile:
		argv = append(argv, rel)
	case rel != ".":
		files := nodeTestFiles(d.fsys, dir, rel)
		if len(files) == 0 {
			files = []string{rel}
		}
		argv = append(argv, files...)
	default:
		for _, a := range script.args {
			argv = append(argv, expandGlob(d.fsys, dir, a)...)
		}
	}
	return argv, report
}

// nodeTestFiles lists the files `node --test` would run by default under
// dir/rel, relative to dir. Listing them makes a directory argument work the
// same on every node version (20 searched directories, 22 wants globs).
func nodeTestFiles(fsys fs.FS, dir, rel string) []string {
	var files []string
	_ = fs.WalkDir(fsys, path.Join(dir, rel), func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() {
			if n := de.Name(); p != path.Join(dir, rel) && (strings.HasPrefix(n, ".") || n == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if r := fromDir(dir, p); nodeDefaultTest().MatchString(r) {
			files = append(files, r)
		}
		if len(files) > 1000 {
			return fs.SkipAll
		}
		return nil
	})
	return files
}

// expandGlob expands a script's glob pattern relative to dir. Patterns that
// fs.Glob cannot handle (**) or that match nothing are passed on as written.
func expandGlob(fsys fs.FS, dir, pattern string) []string {
	if !hasGlob(pattern) || strings.Contains(pattern, "**") || path.IsAbs(pattern) {
		return []string{pattern}
	}
	matches, err := fs.Glob(fsys, path.Join(dir, path.Clean(pattern)))
	if err != nil || len(matches) == 0 {
		return []string{pattern}
	}
	out := make([]string, len(matches))
	for i, m := range matches {
		out[i] = fromDir(dir, m)
	}
	sort.Strings(out)
	return out
}

// npmArgv is `npm test --silent`, with the selector passed to the script's
// runner when it is one whose filter flag is known.
func npmArgv(script, selector string) ([]string, error) {
	argv := []string{"npm", "test", "--silent"}
	if selector == "" {
		return argv, nil
	}
	extra, ok := npmSelectorArgs(script, selector)
	if !ok {
		return nil, fmt.Errorf("selector: the npm test script %q has no known test name filter "+
			"(run_tests knows node --test, jest, vitest and mocha); pass a full command instead", script)
	}
	return append(argv, extra...), nil
}

// pytestArgv is `pytest -q [--junitxml=R] [-k SEL] [path]`. The pytest
// command (not `python3 -m pytest`) is used so that the pytest installed for
// the system (Debian's python3-pytest) runs even when another python3 comes
// first on PATH; a project venv's bin/ on PATH provides its own pytest.
func pytestArgv(dir, rel string, opts Options) (argv []string, report string) {
	argv = []string{"pytest", "-q"}
	if opts.ReportDir != "" {
		report = fromDir(dir, path.Join(opts.ReportDir, pytestReportName))
		argv = append(argv, "--junitxml="+report)
	}
	if opts.Selector != "" {
		argv = append(argv, "-k", opts.Selector)
	}
	if rel != "." {
		argv = append(argv, rel)
	}
	return argv, report
}

// cargoArgv is `cargo test --no-fail-fast [--test NAME] [SEL]`: every test
// binary runs even when an earlier one failed, and a file under tests/ picks
// its integration test target.
func cargoArgv(rel string, isFile bool, selector string) []string {
	argv := []string{"cargo", "test", "--no-fail-fast"}
	if isFile && path.Dir(rel) == "tests" && strings.HasSuffix(rel, ".rs") {
		argv = append(argv, "--test", strings.TrimSuffix(path.Base(rel), ".rs"))
	}
	if selector != "" {
		argv = append(argv, selector)
	}
	return argv
}

// ertLocationAdvice makes ERT print, for each unexpected result, the file and
// line of the test's ert-deftest ("jido-ert-location NAME LINE FILE"), which
// the batch output lacks. It is wrapped in ignore-errors: it can never break
// a run.
const ertLocationAdvice = `(advice-add 'ert-run-test :after (lambda (test) (ignore-errors (let* ((name (ert-test-name test)) (r (ert-test-most-recent-result test)) (f (and r (not (ert-test-result-expected-p test r)) (symbol-file name 'ert--test)))) (when f (message "jido-ert-location %s %d %s" name (or (with-temp-buffer (insert-file-contents f) (and (re-search-forward (concat "(ert-deftest[ \t\n]+" (regexp-quote (symbol-name name)) "\\_>") nil t) (line-number-at-pos (match-beginning 0)))) 0) (file-relative-name f)))))))`

// ertArgv loads every ERT test file (under rel, or rel itself) in one batch
// emacs, with each directory holding .el files on the load path so that the
// tests can require the code, then runs the tests selected by the regexp.
func ertArgv(scan *treeScan, rel string, isFile bool, selector string) ([]string, error) {
	var files []string
	switch {
	case isFile:
		files = []string{rel}
	case rel == ".":
		files = scan.ertFiles
	default:
		for _, f := range scan.ertFiles {
			if strings.HasPrefix(f, rel+"/") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no ERT test files (with ert-deftest) under %q", rel)
	}
	argv := []string{"emacs", "-batch", "-L", "."}
	for _, d := range scan.elDirs {
		if d != "." {
			argv = append(argv, "-L", d)
		}
	}
	argv = append(argv, "-l", "ert", "--eval", ertLocationAdvice)
	for _, f := range files {
		argv = append(argv, "-l", f)
	}
	if selector == "" {
		return append(argv, "-f", "ert-run-tests-batch-and-exit"), nil
	}
	return append(argv, "--eval", "(ert-run-tests-batch-and-exit "+lispString(selector)+")"), nil
}

// lispString quotes s as an Emacs Lisp string literal.
func lispString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// commandPlan runs the caller's own command from the root. Its report file is
// the one the command names (--junitxml=, --junit-xml=,
// --test-reporter-destination=) or else ReportDir/junit.xml, announced in
// JIDO_TEST_REPORT for a command that wants to write one.
func commandInvocation(fsys fs.FS, opts Options) (Invocation, error) {
	if opts.Runner != "" && !knownRunner(opts.Runner) {
		return Invocation{}, fmt.Errorf("unknown runner %q (want go, node, npm, pytest, cargo, ert or make)", opts.Runner)
	}
	p := Invocation{Runner: opts.Runner, Argv: append([]string(nil), opts.Command...), Dir: ".", Env: baseEnv()}
	if rep := reportFromArgv(opts.Command); rep != "" {
		p.Report = rep
	} else if opts.ReportDir != "" {
		p.Report = path.Join(opts.ReportDir, commandReportName)
		p.Env["JIDO_TEST_REPORT"] = p.Report
	}
	if opts.Runner == Go || opts.Runner == "" {
		p.goModule = readGoModule(fsys, "go.mod")
	}
	return p, nil
}

// reportFromArgv finds a report file named on a command line.
func reportFromArgv(argv []string) string {
	for i, a := range argv {
		for _, flag := range []string{"--junitxml", "--junit-xml", "--test-reporter-destination"} {
			v, ok := strings.CutPrefix(a, flag+"=")
			if !ok && a == flag && i+1 < len(argv) {
				v, ok = argv[i+1], true
			}
			if ok && v != "stdout" && v != "stderr" && v != "" {
				return v
			}
		}
	}
	return ""
}
