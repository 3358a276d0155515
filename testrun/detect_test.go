package testrun

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// files builds a MapFS from name/content pairs.
func files(kv ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return m
}

func env(extra ...string) map[string]string {
	e := baseEnv()
	for i := 0; i+1 < len(extra); i += 2 {
		e[extra[i]] = extra[i+1]
	}
	return e
}

const (
	goMod       = "module example.com/m\n\ngo 1.22\n"
	pkgJest     = `{"scripts":{"test":"jest --ci"}}`
	pkgNodeTest = `{"scripts":{"test":"node --test"}}`
	pkgDefault  = `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`
	makeTest    = "all:\n\tcc x.c\n\ntest: all\n\t./run\n"
	ertTest     = "(require 'ert)\n(ert-deftest foo-test () (should t))\n"
)

func TestDetect(t *testing.T) {
	pytest := func(dir string, extra ...string) Invocation {
		return Invocation{Runner: Pytest, Argv: append([]string{"pytest", "-q"}, extra...), Dir: dir,
			Env: env("PYTHONDONTWRITEBYTECODE", "1", "PY_COLORS", "0")}
	}
	ert := func(extra ...string) Invocation {
		return Invocation{Runner: ERT, Argv: append([]string{"emacs", "-batch"}, extra...), Dir: ".", Env: env()}
	}
	cargo := Invocation{Runner: Cargo, Argv: []string{"cargo", "test", "--no-fail-fast"}, Dir: ".", Env: env("CARGO_TERM_COLOR", "never")}

	tests := []struct {
		name    string
		fs      fstest.MapFS
		opts    Options
		want    Invocation
		wantErr string
	}{
		// Go
		{name: "go.mod", fs: files("go.mod", goMod, "a/a_test.go", "package a"),
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "go directory and selector", fs: files("go.mod", goMod, "a/b/b_test.go", "package b"), opts: Options{Path: "a/b/", Selector: "TestX$"},
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "-run", "TestX$", "./a/b/..."}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "go file", fs: files("go.mod", goMod, "a/a_test.go", "package a"), opts: Options{Path: "a/a_test.go"},
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./a"}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "go file at the module root", fs: files("go.mod", goMod, "m_test.go", "package m"), opts: Options{Path: "m_test.go"},
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "."}, Dir: ".", Env: env(), goModule: "example.com/m"}},

		// JavaScript
		{name: "npm test script", fs: files("package.json", pkgJest),
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent"}, Dir: ".", Env: env()}},
		{name: "npm jest selector", fs: files("package.json", pkgJest), opts: Options{Selector: "adds"},
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent", "--", "-t", "adds"}, Dir: ".", Env: env()}},
		{name: "npm mocha selector", fs: files("package.json", `{"scripts":{"test":"NODE_ENV=test mocha"}}`), opts: Options{Selector: "adds"},
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent", "--", "--grep", "adds"}, Dir: ".", Env: env()}},
		{name: "npm selector unknown script", fs: files("package.json", `{"scripts":{"test":"./run-tests.sh"}}`), opts: Options{Selector: "x"},
			wantErr: "no known test name filter"},
		{name: "script with shell operators stays npm", fs: files("package.json", `{"scripts":{"test":"node --test && eslint ."}}`),
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent"}, Dir: ".", Env: env()}},
		{name: "node --test script runs directly", fs: files("package.json", pkgNodeTest, "test/a.test.js", ""), opts: Options{ReportDir: ".jido/tmp/r"},
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=junit", "--test-reporter-destination=.jido/tmp/r/node-junit.xml",
				"--test-reporter=tap", "--test-reporter-destination=stdout"}, Dir: ".", Env: env(), Report: ".jido/tmp/r/node-junit.xml"}},
		{name: "node script flags and globs", fs: files("package.json", `{"scripts":{"test":"node --test --test-reporter spec --require ./setup.js test/*.test.mjs"}}`,
			"test/b.test.mjs", "", "test/a.test.mjs", "", "test/helper.mjs", ""), opts: Options{Selector: "adds"},
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=tap", "--require", "./setup.js", "--test-name-pattern=adds",
				"test/a.test.mjs", "test/b.test.mjs"}, Dir: ".", Env: env()}},
		{name: "default npm script and test files", fs: files("package.json", pkgDefault, "src/x.test.js", ""),
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=tap"}, Dir: ".", Env: env()}},
		{name: "test files without package.json", fs: files("lib/x.test.mjs", ""),
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=tap"}, Dir: ".", Env: env()}},
		{name: "node directory lists its test files", fs: files("package.json", pkgNodeTest, "test/a.test.js", "", "test/util/h.js", "", "lib/x.js", "", "test/node_modules/m.test.js", ""),
			opts: Options{Path: "test"},
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=tap", "test/a.test.js", "test/util/h.js"}, Dir: ".", Env: env()}},
		{name: "package.json without tests", fs: files("package.json", pkgDefault, "index.js", ""), wantErr: "no test runner found"},

		// Cargo
		{name: "Cargo.toml", fs: files("Cargo.toml", "[package]\n", "src/lib.rs", ""), want: cargo},
		{name: "cargo integration test file and filter", fs: files("Cargo.toml", "[package]\n", "tests/api.rs", ""), opts: Options{Path: "tests/api.rs", Selector: "adds"},
			want: Invocation{Runner: Cargo, Argv: []string{"cargo", "test", "--no-fail-fast", "--test", "api", "adds"}, Dir: ".", Env: env("CARGO_TERM_COLOR", "never")}},

		// Pytest
		{name: "pytest.ini", fs: files("pytest.ini", "[pytest]\n"), want: pytest(".")},
		{name: "pyproject [tool.pytest]", fs: files("pyproject.toml", "[tool.pytest.ini_options]\n"), want: pytest(".")},
		{name: "setup.cfg [tool:pytest]", fs: files("setup.cfg", "[tool:pytest]\n"), want: pytest(".")},
		{name: "tox.ini [pytest]", fs: files("tox.ini", "[pytest]\n"), want: pytest(".")},
		{name: "conftest.py", fs: files("conftest.py", ""), want: pytest(".")},
		{name: "test_*.py files", fs: files("pyproject.toml", "[project]\n", "tests/unit/test_x.py", ""), want: pytest(".")},
		{name: "*_test.py files", fs: files("pkg/x_test.py", ""), want: pytest(".")},
		{name: "pyproject without pytest or tests", fs: files("pyproject.toml", "[project]\n", "pkg/x.py", ""), wantErr: "no test runner found"},
		{name: "pytest path, selector and report", fs: files("pytest.ini", "", "tests/test_a.py", ""),
			opts: Options{Path: "tests/test_a.py", Selector: "a and not b", ReportDir: "out"},
			want: Invocation{Runner: Pytest, Argv: []string{"pytest", "-q", "--junitxml=out/pytest.xml", "-k", "a and not b", "tests/test_a.py"}, Dir: ".",
				Env: env("PYTHONDONTWRITEBYTECODE", "1", "PY_COLORS", "0"), Report: "out/pytest.xml"}},

		// ERT
		{name: "ert test dir", fs: files("foo.el", "(provide 'foo)", "test/foo-test.el", ertTest, "test/helper.el", "(provide 'helper)"),
			want: ert("-L", ".", "-L", "test", "-l", "ert", "--eval", ertLocationAdvice, "-l", "test/foo-test.el", "-f", "ert-run-tests-batch-and-exit")},
		{name: "ert *-tests.el at the root and a lisp dir", fs: files("lisp/foo.el", "", "foo-tests.el", ertTest),
			want: ert("-L", ".", "-L", "lisp", "-l", "ert", "--eval", ertLocationAdvice, "-l", "foo-tests.el", "-f", "ert-run-tests-batch-and-exit")},
		{name: "ert selector is a lisp string", fs: files("tests/foo.el", ertTest), opts: Options{Selector: `a"b\c`},
			want: ert("-L", ".", "-L", "tests", "-l", "ert", "--eval", ertLocationAdvice, "-l", "tests/foo.el", "--eval", `(ert-run-tests-batch-and-exit "a\"b\\c")`)},
		{name: "el files in test/ without ert-deftest", fs: files("test/helper.el", "(provide 'helper)"), wantErr: "no test runner found"},
		{name: "*-test.el elsewhere needs ert-deftest", fs: files("src/foo-test.el", ";; not a test"), wantErr: "no test runner found"},

		// Make
		{name: "Makefile test target", fs: files("Makefile", makeTest),
			want: Invocation{Runner: Make, Argv: []string{"make", "test"}, Dir: ".", Env: env()}},
		{name: "Makefile test among targets, selector", fs: files("GNUmakefile", "test check: deps\n\t./t\n"), opts: Options{Selector: "adds"},
			want: Invocation{Runner: Make, Argv: []string{"make", "test", "TEST=adds"}, Dir: ".", Env: env()}},
		{name: "Makefile without test target", fs: files("Makefile", "TEST := 1\ntest-data:\n\ttrue\n.PHONY: test\ncheck:\n\ttrue\n"), wantErr: "no test runner found"},

		// Precedence in one directory.
		{name: "go before everything", fs: files("go.mod", goMod, "package.json", pkgJest, "Makefile", makeTest, "pytest.ini", ""),
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "cargo before npm", fs: files("Cargo.toml", "", "package.json", pkgJest), want: cargo},
		{name: "npm before pytest", fs: files("package.json", pkgJest, "pytest.ini", ""),
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent"}, Dir: ".", Env: env()}},
		{name: "pytest before ert and make", fs: files("conftest.py", "", "test/foo-test.el", ertTest, "Makefile", makeTest), want: pytest(".")},
		{name: "ert before make", fs: files("test/foo-test.el", ertTest, "Makefile", makeTest),
			want: ert("-L", ".", "-L", "test", "-l", "ert", "--eval", ertLocationAdvice, "-l", "test/foo-test.el", "-f", "ert-run-tests-batch-and-exit")},

		// The closest directory wins.
		{name: "closest: npm in a subdirectory of a go module", fs: files("go.mod", goMod, "web/package.json", pkgJest, "web/src/a.js", ""),
			opts: Options{Path: "web/src"},
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent"}, Dir: "web", Env: env()}},
		{name: "closest: node file below a package.json", fs: files("go.mod", goMod, "web/package.json", pkgNodeTest, "web/src/a.test.js", ""),
			opts: Options{Path: "web/src/a.test.js", ReportDir: ".jido/tmp/t1"},
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=junit", "--test-reporter-destination=../.jido/tmp/t1/node-junit.xml",
				"--test-reporter=tap", "--test-reporter-destination=stdout", "src/a.test.js"}, Dir: "web", Env: env(), Report: "../.jido/tmp/t1/node-junit.xml"}},
		{name: "closest: go module below a Makefile", fs: files("Makefile", makeTest, "svc/go.mod", goMod, "svc/x/x_test.go", ""),
			opts: Options{Path: "svc/x"},
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./x/..."}, Dir: "svc", Env: env(), goModule: "example.com/m"}},
		{name: "closest: pytest report dir from a subdirectory", fs: files("Makefile", makeTest, "py/pytest.ini", "", "py/tests/test_a.py", ""),
			opts: Options{Path: "py/tests", ReportDir: ".jido/tmp/t1"},
			want: Invocation{Runner: Pytest, Argv: []string{"pytest", "-q", "--junitxml=../.jido/tmp/t1/pytest.xml", "tests"}, Dir: "py",
				Env: env("PYTHONDONTWRITEBYTECODE", "1", "PY_COLORS", "0"), Report: "../.jido/tmp/t1/pytest.xml"}},
		{name: "whole project: the root's runner, not a subdirectory's", fs: files("go.mod", goMod, "py/pytest.ini", ""),
			want: Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "nested projects' files are theirs", fs: files("web/package.json", pkgDefault, "web/a.test.js", "", "node_modules/x/y.test.js", ""),
			wantErr: "no test runner found"},
		{name: "make found walking up past a nested project", fs: files("Makefile", makeTest, "web/package.json", pkgDefault),
			opts: Options{Path: "web"},
			want: Invocation{Runner: Make, Argv: []string{"make", "test"}, Dir: ".", Env: env()}},

		{name: "file rules run from the project's top, not the tests' directory",
			fs: files("Eask", "", "foo.el", "", "test/foo-test.el", ertTest), opts: Options{Path: "test"},
			want: ert("-L", ".", "-L", "test", "-l", "ert", "--eval", ertLocationAdvice, "-l", "test/foo-test.el", "-f", "ert-run-tests-batch-and-exit")},
		{name: "conftest.py in tests/ runs from the rootdir",
			fs: files("pyproject.toml", "[tool.pytest.ini_options]\n", "tests/conftest.py", "", "tests/test_a.py", ""), opts: Options{Path: "tests"},
			want: pytest(".", "tests")},
		{name: "conftest.py in a project subdirectory", fs: files("Makefile", makeTest, "svc/setup.py", "", "svc/conftest.py", ""), opts: Options{Path: "svc"},
			want: pytest("svc")},

		// Forced runner and command override.
		{name: "forced runner", fs: files("go.mod", goMod, "t/test_a.py", ""), opts: Options{Runner: Pytest, Path: "t"},
			want: pytest(".", "t")},
		{name: "forced runner without markers runs at the root", fs: files("x/y.txt", ""), opts: Options{Runner: Make, Path: "x"},
			want: Invocation{Runner: Make, Argv: []string{"make", "test"}, Dir: ".", Env: env()}},
		{name: "forced node on an npm project", fs: files("package.json", pkgJest), opts: Options{Runner: Node},
			want: Invocation{Runner: Node, Argv: []string{"node", "--test", "--test-reporter=tap"}, Dir: ".", Env: env()}},
		{name: "forced npm on a node --test script", fs: files("package.json", pkgNodeTest), opts: Options{Runner: NPM},
			want: Invocation{Runner: NPM, Argv: []string{"npm", "test", "--silent"}, Dir: ".", Env: env()}},
		{name: "unknown runner", fs: files("go.mod", goMod), opts: Options{Runner: "rspec"}, wantErr: `unknown runner "rspec"`},
		{name: "command override", fs: files("go.mod", goMod), opts: Options{Command: []string{"./ci/test.sh", "-v"}},
			want: Invocation{Argv: []string{"./ci/test.sh", "-v"}, Dir: ".", Env: env(), goModule: "example.com/m"}},
		{name: "command override with report dir", fs: files(), opts: Options{Command: []string{"./t"}, Runner: Pytest, ReportDir: "r"},
			want: Invocation{Runner: Pytest, Argv: []string{"./t"}, Dir: ".", Env: env("JIDO_TEST_REPORT", "r/junit.xml"), Report: "r/junit.xml"}},
		{name: "command override naming its report", fs: files(), opts: Options{Command: []string{"python3", "-m", "pytest", "--junitxml", "out.xml"}, ReportDir: "r"},
			want: Invocation{Argv: []string{"python3", "-m", "pytest", "--junitxml", "out.xml"}, Dir: ".", Env: env(), Report: "out.xml"}},

		// Errors.
		{name: "nothing", fs: files("README.md", "hi"), wantErr: "no test runner found: looked for go.mod, Cargo.toml, package.json"},
		{name: "missing path", fs: files("go.mod", goMod), opts: Options{Path: "nope"}, wantErr: `path "nope"`},
		{name: "path outside the root", fs: files("go.mod", goMod), opts: Options{Path: "../x"}, wantErr: "leaves the project root"},
		{name: "absolute path", fs: files("go.mod", goMod), opts: Options{Path: "/etc"}, wantErr: "absolute"},
		{name: "bad report dir", fs: files("go.mod", goMod), opts: Options{ReportDir: "../r"}, wantErr: "report dir"},
		{name: "ert path without test files", fs: files("test/foo-test.el", ertTest, "lisp/a.el", ""), opts: Options{Path: "lisp", Runner: ERT},
			wantErr: `no ERT test files (with ert-deftest) under "lisp"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(tc.fs, tc.opts)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestDetectFixtures checks the fixture projects detect as the runners
// TestRealRunners expects, with the argv the package documents.
func TestDetectFixtures(t *testing.T) {
	for _, tc := range realCases {
		if len(tc.opts.Command) > 0 {
			continue
		}
		p := goldenPlan(t, tc)
		assert.Equal(t, tc.want.runner, p.Runner, tc.name)
		assert.NotEmpty(t, p.Argv, tc.name)
		assert.False(t, strings.HasPrefix(p.Dir, "/"), tc.name)
	}
}
