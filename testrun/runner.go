// Package testrun is the brain of jido's run_tests tool.
//
// It detects a project's test runner from the project's files (Detect),
// says how to run it (an Invocation: an argv, a working directory, extra
// environment and an optional report file) and turns what the run printed
// into one Summary (Parse). It never starts a process itself: the caller
// runs the Invocation inside its sandbox and hands the captured output back, so
// the package stays pure and testable on saved outputs.
//
// File names in Failures are relative to the project root whenever the
// runner reports a relative name (go, pytest, cargo, ERT, node's spec
// reporter); names only reported absolute (node's stack traces) stay
// absolute, as seen inside the sandbox. Go reports base names: they are
// joined with the package's directory using the module path that Detect
// read from go.mod (a hand-made Invocation without it gets base names).
package testrun

// Runner names a test framework.
type Runner string

// The runners Detect knows.
const (
	Go     Runner = "go"
	Node   Runner = "node"
	NPM    Runner = "npm"
	Pytest Runner = "pytest"
	Cargo  Runner = "cargo"
	ERT    Runner = "ert"
	Make   Runner = "make"
	// Unittest is Python's unittest, never detected nor forced: run_tests runs it
	// (python3 -m unittest discover) when the project's runner is pytest and pytest is
	// not installed (see Fallback).
	Unittest Runner = "unittest"
)

// Invocation is how to run the tests: the command, where, and with what environment.
type Invocation struct {
	Runner Runner
	Argv   []string          // the command, e.g. ["go","test","-json","./..."]
	Dir    string            // working directory relative to the project root ("." usually)
	Env    map[string]string // extra environment (e.g. CI=1, NO_COLOR=1)
	Report string            // path (relative to Dir) of a report file the runner writes (JUnit XML for pytest), "" when the report is stdout

	// goModule is the module path from go.mod, so that Parse can turn an
	// import path into a directory. It survives the caller passing the
	// Invocation back to Parse; one built by hand simply lacks it.
	goModule string
}

// Options are run_tests arguments.
type Options struct {
	Path      string   // directory or file to test, relative to the root ("" or "." = whole project)
	Selector  string   // a test name filter: Go -run regexp, pytest -k expression, node --test-name-pattern, cargo test filter, ERT selector regexp
	Runner    Runner   // force a runner ("" = detect)
	Command   []string // a full override argv (then Runner only picks the parser; "" runner with a command -> text fallback parser)
	ReportDir string   // a directory (relative to the root, writable, created by the caller) where report files may be written, e.g. ".jido/tmp/tests-<id>"
}
