package testrun

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MissingProgram is a test program that could not run: it is not installed, or the
// sandbox cannot find it (not on the PATH the sandbox sees). A run that ends so is
// not a test result: run_tests reports it as an error with Install as the hint.
type MissingProgram struct {
	Program string // the command (pytest, go, jest), or "python3 -m pytest" for a module
	Module  string // the Python module that is missing ("pytest"), "" for a command
	Output  string // the lines of output that say it is missing
	Install string // how to install it, for people and models
}

var (
	// missingExec is the sandbox's (and Go's) "exec: "pytest": executable file
	// not found in $PATH", and "exec pytest: no such file or directory" when
	// the program is a script whose interpreter is missing.
	missingExec = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)exec:? "?([^"\s:]+)"?: (?:executable file not found|no such file or directory)`)
	})
	// missingShell is a shell's "bash: line 1: jest: command not found",
	// "sh: 1: jest: not found", and env's "env: 'python': No such file or directory".
	missingShell = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(?:.*: )?'?([\w.+/-]+)'?: (?:command not found|not found|No such file or directory)\s*$`)
	})
	// missingMake is make's "make: pytest: No such file or directory" (or
	// "Command not found"), then "make: *** [Makefile:2: test] Error 127".
	missingMake = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^make(?:\[\d+\])?: ([\w.+/-]+): (?:No such file or directory|Command not found)\s*$`)
	})
	// missingModule is python -m's own "/usr/bin/python3: No module named pytest"
	// (not a test's ModuleNotFoundError, which has a traceback and quotes).
	missingModule = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\S*?(python[\d.]*): No module named ([\w.]+)\s*$`)
	})
)

// Missing reports whether a finished run could not start its test program: a
// command not installed or not visible in the sandbox (exit status 126 or 127
// with the shell's or the sandbox's message; make's "Error 127"), or a Python
// module run with -m that is not installed. Call it when Parse found no test:
// output of tests that ran is never a missing runner.
func Missing(p Invocation, stdout, stderr []byte, exitCode int) (MissingProgram, bool) {
	if exitCode == 0 {
		return MissingProgram{}, false
	}
	text := tailText(stdout, stderr, 30, 8192)
	if m := missingModule().FindStringSubmatch(text); m != nil {
		return MissingProgram{Program: m[1] + " -m " + m[2], Module: m[2], Output: strings.TrimSpace(m[0]),
			Install: installHint(p, m[2])}, true
	}
	var m []string
	switch {
	case exitCode == 126 || exitCode == 127:
		if m = missingExec().FindStringSubmatch(text); m == nil {
			m = missingShell().FindStringSubmatch(text)
		}
		if m == nil && exitCode == 127 && len(p.Argv) > 0 {
			// 127 is a shell's "command not found" whatever it printed.
			m = []string{"exit status 127", p.Argv[0]}
		}
	default:
		if m = missingMake().FindStringSubmatch(text); m == nil || !strings.Contains(text, "Error 127") {
			m = nil
		}
	}
	if m == nil {
		return MissingProgram{}, false
	}
	prog := path.Base(m[1])
	return MissingProgram{Program: prog, Output: strings.TrimSpace(m[0]), Install: installHint(p, prog)}, true
}

// installHint says how to install a missing program (or Python module).
func installHint(p Invocation, prog string) string {
	switch prog {
	case "pytest":
		return "pip install pytest (or apt-get install python3-pytest), or run_tests with command: [\"python3\", \"-m\", \"unittest\", \"discover\"]"
	case "python", "python3":
		return "install Python 3 (apt-get install python3)"
	case "go":
		return "install Go (https://go.dev/dl, or apt-get install golang-go)"
	case "node", "npm", "npx":
		return "install Node.js (apt-get install nodejs npm)"
	case "cargo", "rustc":
		return "install Rust (https://rustup.rs, or apt-get install cargo)"
	case "emacs":
		return "install Emacs (apt-get install emacs-nox)"
	case "make":
		return "install make (apt-get install make), or run_tests with runner or command to run the tests without it"
	}
	if p.Runner == NPM || p.Runner == Node || slices.Contains([]string{"jest", "vitest", "mocha", "tsc", "ts-node", "tsx", "ava", "tap"}, prog) {
		return "install the project's dependencies (npm install, or npm ci): " + prog + " comes from node_modules/.bin"
	}
	return "install " + prog + ", or pass runner or command to run the tests with a program that is installed"
}

// Fallback is the invocation to try when a run found its program missing, and
// whether there is one: when pytest is not installed as a command, the pytest
// module of python3 (python3 -m pytest, with the same arguments); when that
// module is missing too, Python's own unittest (python3 -m unittest discover,
// on the same path; the selector when it is a plain name pattern, which is
// then a -k pattern of unittest). Only a pytest invocation falls back.
func Fallback(p Invocation, m MissingProgram) (Invocation, bool) {
	if p.Runner != Pytest || len(p.Argv) == 0 {
		return Invocation{}, false
	}
	switch {
	case p.Argv[0] == "pytest" && m.Module == "" && m.Program == "pytest":
		next := p
		next.Argv = append([]string{"python3", "-m", "pytest"}, p.Argv[1:]...)
		next.Env = cloneEnv(p.Env)
		return next, true
	case len(p.Argv) >= 3 && strings.HasPrefix(p.Argv[0], "python") && p.Argv[1] == "-m" && p.Argv[2] == "pytest" && m.Module == "pytest":
		target, selector := pytestTarget(p.Argv[3:])
		argv := []string{p.Argv[0], "-m", "unittest"}
		switch {
		case strings.HasSuffix(target, ".py"):
			argv = append(argv, target)
		case target != "" && target != ".":
			argv = append(argv, "discover", "-s", target)
		default:
			argv = append(argv, "discover")
		}
		if unittestPattern().MatchString(selector) {
			argv = append(argv, "-k", selector)
		}
		return Invocation{Runner: Unittest, Argv: argv, Dir: p.Dir, Env: cloneEnv(p.Env)}, true
	}
	return Invocation{}, false
}

// unittestPattern is a selector unittest's -k understands the way pytest's -k
// would (a name or a substring of one, maybe with * wildcards).
var unittestPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.*]+$`) })

// pytestTarget reads back the path and the -k selector of the arguments
// pytestArgv wrote (after the program).
func pytestTarget(args []string) (target, selector string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-k" && i+1 < len(args):
			selector = args[i+1]
			i++
		case strings.HasPrefix(a, "-"):
		default:
			target = a
		}
	}
	return target, selector
}

func cloneEnv(env map[string]string) map[string]string {
	out := make(map[string]string, len(env))
	for k, v := range env {
		out[k] = v
	}
	return out
}
