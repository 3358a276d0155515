package testrun

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// errNoRunner is what Detect says when no rule matched, naming every rule so
// that the agent knows what to add or which runner to force.
var errNoRunner = errors.New("no test runner found: looked for go.mod, Cargo.toml, " +
	"package.json with a test script or *.test.js/*.test.mjs files, " +
	"pytest.ini/pyproject.toml [tool.pytest]/setup.cfg [tool:pytest]/tox.ini [pytest]/conftest.py/test_*.py, " +
	"ERT tests (*-test.el, *-tests.el, test/*.el with ert-deftest) and a Makefile with a test target; " +
	"pass runner or command to run_tests to choose one")

// detectOrder is the precedence between runners found in the same directory.
// NPM stands for the JavaScript family: it becomes Node when the test script
// is plainly `node --test` (or there is no script but node test files).
var detectOrder = []Runner{Go, Cargo, NPM, Pytest, ERT, Make}

// Detect chooses the runner from files in fsys (the project root) and builds
// the Invocation to run it.
//
// The rules: go.mod -> Go; Cargo.toml -> Cargo; package.json with a test
// script -> NPM, or Node when the script is plainly `node --test ...`;
// *.test.js/*.test.mjs files -> Node; pytest.ini, pyproject.toml with
// [tool.pytest...], setup.cfg with [tool:pytest], tox.ini with [pytest],
// conftest.py or test_*.py files -> Pytest; .el files holding ert-deftest in
// a test/ or tests/ directory or named *-test.el/*-tests.el -> ERT; a
// Makefile with a test target -> Make.
//
// The directories from Options.Path (its directory when Path is a file) up to
// the root are examined in turn, closest first; in each, the rules are tried
// in the order Go, Cargo, NPM/Node, Pytest, ERT, Make, and the first match
// wins, with that directory as Invocation.Dir. The rules that go by file names
// (test files, conftest.py) look at the directory's whole subtree but only
// apply in a project's top directory (the root, or one holding a project
// file such as go.mod, package.json, pyproject.toml, a Makefile or .git), so
// that the runner starts where its configuration and load path are. Files of
// nested projects (below another go.mod, Cargo.toml or package.json) belong
// to those projects. A forced Options.Runner only tries its own rule (and
// runs from the root when nothing marks a directory). Options.Command skips
// detection altogether. Detect only reads fsys.
func Detect(fsys fs.FS, opts Options) (Invocation, error) {
	target, err := cleanRel(opts.Path)
	if err != nil {
		return Invocation{}, fmt.Errorf("path: %w", err)
	}
	if opts.ReportDir != "" {
		if opts.ReportDir, err = cleanRel(opts.ReportDir); err != nil {
			return Invocation{}, fmt.Errorf("report dir: %w", err)
		}
	}
	start, isFile := target, false
	if target != "." {
		st, err := fs.Stat(fsys, target)
		if err != nil {
			return Invocation{}, fmt.Errorf("path %q: %w", opts.Path, err)
		}
		if !st.IsDir() {
			isFile = true
			start = path.Dir(target)
		}
	}
	if len(opts.Command) > 0 {
		return commandInvocation(fsys, opts)
	}
	if opts.Runner != "" && !knownRunner(opts.Runner) {
		return Invocation{}, fmt.Errorf("unknown runner %q (want go, node, npm, pytest, cargo, ert or make)", opts.Runner)
	}

	d := &detector{fsys: fsys, facts: map[string]*dirFacts{}}
	t := targetPath{path: target, isFile: isFile}
	for dir := start; ; dir = path.Dir(dir) {
		if r := d.match(dir, opts.Runner); r != "" {
			return buildInvocation(d, r, dir, t, opts)
		}
		if dir == "." {
			break
		}
	}
	if opts.Runner != "" {
		return buildInvocation(d, opts.Runner, ".", t, opts)
	}
	return Invocation{}, errNoRunner
}

// targetPath is what Options.Path named, cleaned.
type targetPath struct {
	path   string // slash-separated, relative to the root, "." for the root
	isFile bool
}

func knownRunner(r Runner) bool {
	switch r {
	case Go, Node, NPM, Pytest, Cargo, ERT, Make:
		return true
	}
	return false
}

// cleanRel cleans a root-relative path and refuses one that leaves the root.
func cleanRel(p string) (string, error) {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return ".", nil
	}
	if path.IsAbs(p) {
		return "", fmt.Errorf("%q is absolute; give a path relative to the project root", p)
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("%q leaves the project root", p)
	}
	return p, nil
}

// detector caches what it learnt about each directory while Detect walks up.
type detector struct {
	fsys  fs.FS
	facts map[string]*dirFacts
}

// dirFacts is what the rules need to know about one directory.
type dirFacts struct {
	goMod, cargoToml bool
	pkg              *packageJSON // nil when there is no readable package.json
	pytestConfig     bool         // an ini file that makes this pytest's rootdir
	conftest         bool
	makeTest         bool
	// projectDir: the root, or a directory with some project file. The
	// rules that go by test file names only apply in such a directory, so
	// that a Path deep inside a project runs from the project's top (where
	// pytest's rootdir, emacs's load path and node's package.json are) and
	// not from the directory that merely holds the tests.
	projectDir bool
	scan       *treeScan // the directory's subtree, scanned on demand
}

// projectFiles mark a directory as a project's top for projectDir.
var projectFiles = []string{
	"go.mod", "Cargo.toml", "package.json", "pyproject.toml", "setup.py", "setup.cfg",
	"pytest.ini", "tox.ini", "Makefile", "makefile", "GNUmakefile", "Eask", "Cask", "Eldev", ".git",
}

// match returns the runner whose rule matches dir, or "" when none does.
// When forced is set only that runner's rule is tried.
func (d *detector) match(dir string, forced Runner) Runner {
	f := d.dirFacts(dir)
	for _, r := range detectOrder {
		if forced != "" && r != forced && !(r == NPM && forced == Node) {
			continue
		}
		switch r {
		case Go:
			if f.goMod {
				return Go
			}
		case Cargo:
			if f.cargoToml {
				return Cargo
			}
		case NPM:
			if got := d.jsRunner(dir, f, forced); got != "" {
				return got
			}
		case Pytest:
			if f.pytestConfig || (f.projectDir && (f.conftest || len(d.scanOf(dir).pyTests) > 0)) {
				return Pytest
			}
		case ERT:
			if f.projectDir && len(d.scanOf(dir).ertFiles) > 0 {
				return ERT
			}
		case Make:
			if f.makeTest {
				return Make
			}
		}
	}
	return ""
}

// jsRunner applies the package.json rules: a usable test script means NPM,
// unless the script is plainly `node --test`, which is run directly (Node);
// no script but node test files means Node.
func (d *detector) jsRunner(dir string, f *dirFacts, forced Runner) Runner {
	if s := f.pkg.testScript(); s != "" {
		switch {
		case forced == NPM:
			return NPM
		case forced == Node:
			return Node
		}
		if _, ok := parseNodeTestScript(s); ok {
			return Node
		}
		return NPM
	}
	if forced == NPM {
		return ""
	}
	if forced == Node && f.pkg != nil {
		return Node
	}
	if f.projectDir && len(d.scanOf(dir).nodeTests) > 0 {
		return Node
	}
	return ""
}

func (d *detector) dirFacts(dir string) *dirFacts {
	if f := d.facts[dir]; f != nil {
		return f
	}
	f := &dirFacts{
		goMod:     d.isFile(path.Join(dir, "go.mod")),
		cargoToml: d.isFile(path.Join(dir, "Cargo.toml")),
		pkg:       readPackageJSON(d.fsys, path.Join(dir, "package.json")),
	}
	f.conftest = d.isFile(path.Join(dir, "conftest.py"))
	f.projectDir = dir == "."
	for _, name := range projectFiles {
		if _, err := fs.Stat(d.fsys, path.Join(dir, name)); err == nil {
			f.projectDir = true
			break
		}
	}
	f.pytestConfig = d.isFile(path.Join(dir, "pytest.ini")) ||
		d.fileContains(path.Join(dir, "pyproject.toml"), "[tool.pytest") ||
		d.fileContains(path.Join(dir, "setup.cfg"), "[tool:pytest]") ||
		d.fileContains(path.Join(dir, "tox.ini"), "[pytest]")
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if b := readLimited(d.fsys, path.Join(dir, name)); b != nil && hasMakeTarget(string(b), "test") {
			f.makeTest = true
			break
		}
	}
	d.facts[dir] = f
	return f
}

func (d *detector) scanOf(dir string) *treeScan {
	f := d.dirFacts(dir)
	if f.scan == nil {
		f.scan = scanTree(d.fsys, dir)
	}
	return f.scan
}

func (d *detector) isFile(name string) bool {
	st, err := fs.Stat(d.fsys, name)
	return err == nil && !st.IsDir()
}

func (d *detector) fileContains(name, needle string) bool {
	b := readLimited(d.fsys, name)
	return b != nil && strings.Contains(string(b), needle)
}
