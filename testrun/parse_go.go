package testrun

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// goEvent is one line of `go test -json` (test2json, plus the build events
// of Go 1.24+).
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	ImportPath  string // build-output / build-fail
	FailedBuild string // on a package's fail: the build that failed
}

type goTest struct {
	name   string
	action string // pass, fail, skip; "" while running
	output []string
}

type goPackage struct {
	path        string
	action      string
	elapsed     float64
	failedBuild string
	output      []string
	tests       map[string]*goTest
	order       []string
}

func (p *goPackage) test(name string) *goTest {
	t := p.tests[name]
	if t == nil {
		t = &goTest{name: name}
		p.tests[name] = t
		p.order = append(p.order, name)
	}
	return t
}

// Bounds of what the Go parser keeps per test and package.
const goMaxOutputLines = 400

// parseGoJSON reads `go test -json` from stdout. Only leaf tests count (a
// parent that fails because a subtest did is not a second failure); a failed
// package with no failed test (build failure, setup failure, a crash in
// TestMain or init) is an error.
func parseGoJSON(in *input) (*tally, bool) {
	pkgs := map[string]*goPackage{}
	var pkgOrder []string
	builds := map[string][]string{}
	var buildOrder []string
	buildFailed := map[string]bool{}
	events := 0
	// textFails are the "FAIL pkg [build failed]" lines printed as text, not
	// JSON (Go before 1.24, or GODEBUG=gotestjsonbuildtext=1): package -> name.
	textFails := map[string]string{}
	var textOrder []string
	noteText := func(line string) {
		if m := goTextBuildFail().FindStringSubmatch(line); m != nil {
			if _, seen := textFails[m[1]]; !seen {
				textOrder = append(textOrder, m[1])
			}
			textFails[m[1]] = m[1] + " [" + m[2] + " failed]"
		}
	}
	for _, line := range bytes.Split(in.stdout, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			noteText(string(line))
			continue
		}
		var ev goEvent
		if json.Unmarshal(line, &ev) != nil || ev.Action == "" || (ev.Package == "" && ev.ImportPath == "") {
			continue
		}
		events++
		if ev.ImportPath != "" && (ev.Action == "build-output" || ev.Action == "build-fail") {
			if _, seen := builds[ev.ImportPath]; !seen {
				buildOrder = append(buildOrder, ev.ImportPath)
				builds[ev.ImportPath] = nil
			}
			if ev.Action == "build-fail" {
				buildFailed[ev.ImportPath] = true
			} else if len(builds[ev.ImportPath]) < goMaxOutputLines {
				builds[ev.ImportPath] = append(builds[ev.ImportPath], strings.TrimRight(ev.Output, "\n"))
			}
			continue
		}
		if ev.Package == "" {
			continue
		}
		pkg := pkgs[ev.Package]
		if pkg == nil {
			pkg = &goPackage{path: ev.Package, tests: map[string]*goTest{}}
			pkgs[ev.Package] = pkg
			pkgOrder = append(pkgOrder, ev.Package)
		}
		if ev.Test == "" {
			switch ev.Action {
			case "pass", "fail", "skip":
				pkg.action, pkg.elapsed, pkg.failedBuild = ev.Action, ev.Elapsed, ev.FailedBuild
			case "output":
				if len(pkg.output) < goMaxOutputLines {
					pkg.output = append(pkg.output, strings.TrimRight(ev.Output, "\n"))
				}
			}
			continue
		}
		t := pkg.test(ev.Test)
		switch ev.Action {
		case "pass", "fail", "skip":
			t.action = ev.Action
		case "output":
			if len(t.output) < goMaxOutputLines {
				t.output = append(t.output, strings.TrimRight(ev.Output, "\n"))
			}
		}
	}
	if events == 0 {
		return nil, false
	}

	// The compiler's output when it is text on stderr (before Go 1.24):
	// "# pkg" blocks, by package.
	stderrBuilds := goStderrBuilds(cleanText(string(in.stderr)))
	for _, l := range strings.Split(cleanText(string(in.stderr)), "\n") {
		noteText(strings.TrimSpace(l))
	}

	t := &tally{}
	referenced := map[string]bool{}
	reported := map[string]bool{} // packages with an error already
	for _, name := range pkgOrder {
		pkg := pkgs[name]
		referenced[pkg.failedBuild] = true
		t.durationMS += int64(pkg.elapsed * 1000)
		failed := goCountTests(t, pkg, in.invocation.goModule)
		if pkg.action == "fail" && failed == 0 {
			f, build := goPackageError(pkg, builds[pkg.failedBuild], stderrBuilds[pkg.path])
			if build {
				t.addBuildError(f)
			} else {
				t.addError(f)
			}
			reported[pkg.path] = true
		}
	}
	// Builds that failed with no package event naming them, and packages
	// whose build failure is only a text line: each is an error.
	for _, ip := range buildOrder {
		if buildFailed[ip] && !referenced[ip] && !reported[goBuildPackage(ip)] {
			reported[goBuildPackage(ip)] = true
			t.addBuildError(goBuildError(goBuildPackage(ip)+" [build failed]", builds[ip]))
		}
	}
	for _, pkg := range textOrder {
		if !reported[pkg] {
			reported[pkg] = true
			t.addBuildError(goBuildError(textFails[pkg], stderrBuilds[pkg]))
		}
	}
	return t, true
}

// goTextBuildFail is the go command's line for a package whose test binary
// could not be built: "FAIL\tpkg [build failed]" or "[setup failed]".
var goTextBuildFail = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^FAIL\s+(\S+)\s+\[(build|setup) failed\]$`)
})

// goBuildPackage is the package of a build's import path:
// "example.com/p [example.com/p.test]" and "example.com/p.test" are
// example.com/p's test builds.
func goBuildPackage(importPath string) string {
	p, _, _ := strings.Cut(importPath, " ")
	return strings.TrimSuffix(p, ".test")
}

// goStderrBuilds splits the compiler's text output into its "# pkg" blocks,
// by package ("# [pkg]" vet headers continue their block).
func goStderrBuilds(text string) map[string][]string {
	out := map[string][]string{}
	current := ""
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, "# "); ok && !strings.HasPrefix(rest, "[") {
			current = goBuildPackage(rest)
			continue
		}
		if current == "" || strings.HasPrefix(l, "# ") {
			continue
		}
		if strings.TrimSpace(l) == "" || goTextBuildFail().MatchString(strings.TrimSpace(l)) ||
			strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "ok ") {
			current = ""
			continue
		}
		if len(out[current]) < goMaxOutputLines {
			out[current] = append(out[current], l)
		}
	}
	return out
}

// goCountTests adds a package's tests to t and returns how many failed.
func goCountTests(t *tally, pkg *goPackage, module string) int {
	// parents have subtests; failedBelow have a failed subtest.
	parents, failedBelow := map[string]bool{}, map[string]bool{}
	for _, name := range pkg.order {
		failedLeaf := pkg.tests[name].action == "fail"
		for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
			parents[name[:i]] = true
			if failedLeaf {
				failedBelow[name[:i]] = true
			}
		}
	}
	failed := 0
	for _, name := range pkg.order {
		test := pkg.tests[name]
		action := test.action
		if action == "" { // started but never finished: the binary died
			if pkg.action == "pass" {
				action = "pass"
			} else {
				action = "fail"
				test.output = append(test.output, "(the test did not finish: the test binary exited or was killed)")
			}
		}
		if parents[name] && (action != "fail" || failedBelow[name]) {
			continue
		}
		switch action {
		case "pass":
			t.passed++
		case "skip":
			t.skipped++
		case "fail":
			failed++
			t.addFailure(goTestFailure(pkg, test, module))
		}
	}
	return failed
}

// goFileLine matches t.Error's prefix "    foo_test.go:12: message".
var goFileLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([^\s:]+\.go):(\d+): `) })

// goFrame matches a stack frame's location line "\t/abs/foo_test.go:12 +0x1d".
var goFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`) })

func goTestFailure(pkg *goPackage, test *goTest, module string) Failure {
	var msg []string
	for _, l := range test.output {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "=== ") || strings.HasPrefix(trimmed, "--- FAIL:") ||
			strings.HasPrefix(trimmed, "--- PASS:") || strings.HasPrefix(trimmed, "--- SKIP:") {
			continue
		}
		msg = append(msg, trimIndent(l, 4))
	}
	f := Failure{Name: test.name, Message: strings.Join(goTrimStack(msg), "\n")}
	file, line := "", 0
	for _, l := range test.output {
		if m := goFileLine().FindStringSubmatch(l); m != nil {
			file, line = m[1], atoi(m[2])
			break
		}
	}
	if file == "" {
		file, line = goPanicLocation(pkg.path, test.name, test.output)
	}
	if file != "" {
		f.File, f.Line = goPackageFile(pkg.path, module, path.Base(file)), line
	}
	return f
}

// goPanicLocation finds where a panicking test was: the frame of the test
// function itself, else the first frame in a _test.go file.
func goPanicLocation(pkgPath, testName string, output []string) (string, int) {
	top := testName
	if i := strings.IndexByte(top, '/'); i >= 0 {
		top = top[:i]
	}
	fn := pkgPath + "." + top + "("
	for i, l := range output {
		if strings.HasPrefix(l, fn) && i+1 < len(output) {
			if m := goFrame().FindStringSubmatch(output[i+1]); m != nil {
				return m[1], atoi(m[2])
			}
		}
	}
	for _, l := range output {
		if m := goFrame().FindStringSubmatch(l); m != nil && strings.HasSuffix(m[1], "_test.go") {
			return m[1], atoi(m[2])
		}
	}
	return "", 0
}

// goPackageFile names a file of a package relative to the module root (the
// plan's Dir) when the module path is known, else by its base name.
func goPackageFile(pkgPath, module, base string) string {
	if module != "" {
		if pkgPath == module {
			return base
		}
		if rest, ok := strings.CutPrefix(pkgPath, module+"/"); ok {
			return path.Join(rest, base)
		}
	}
	return base
}

// goPackageError describes a failed package with no failed test, and
// whether it is a build that failed (its tests did not run). build is the
// build's JSON output, stderrBuild the compiler's text output for the package.
func goPackageError(pkg *goPackage, build, stderrBuild []string) (Failure, bool) {
	textName := ""
	for _, l := range pkg.output {
		if m := goTextBuildFail().FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			textName = pkg.path + " [" + m[2] + " failed]"
		}
	}
	if pkg.failedBuild != "" || textName != "" {
		name := cmp.Or(textName, pkg.path+" [build failed]")
		if len(build) == 0 {
			build = stderrBuild
		}
		return goBuildError(name, build), true
	}
	var msg []string
	for _, l := range pkg.output {
		trimmed := strings.TrimSpace(l)
		if trimmed == "FAIL" || trimmed == "PASS" || strings.HasPrefix(trimmed, "FAIL\t") ||
			strings.HasPrefix(trimmed, "ok ") || strings.HasPrefix(trimmed, "=== ") {
			continue
		}
		msg = append(msg, l)
	}
	f := Failure{Name: pkg.path + " [package failed]", Message: strings.Join(msg, "\n")}
	if f.Message == "" {
		f.Message = "the test binary failed outside any test (TestMain, init, or a crash)"
	}
	f.File, f.Line = goPanicLocation(pkg.path, "", msg)
	return f, false
}

// goCompileError matches a compiler or vet message "dir/file.go:5:28: ...",
// relative to the go command's directory.
var goCompileError = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S+\.go):(\d+)(?::\d+)?: `) })

func goBuildError(name string, build []string) Failure {
	var msg []string
	f := Failure{Name: name}
	for _, l := range build {
		if strings.HasPrefix(l, "# ") {
			continue
		}
		msg = append(msg, l)
		if m := goCompileError().FindStringSubmatch(l); m != nil && f.File == "" {
			f.File, f.Line = path.Clean(m[1]), atoi(m[2])
		}
	}
	f.Message = strings.Join(msg, "\n")
	if strings.TrimSpace(f.Message) == "" {
		f.Message = "the package's test binary could not be built (the compiler's output was not captured; run go vet or go build on it)"
	}
	return f
}

// trimIndent removes up to n leading spaces.
func trimIndent(s string, n int) string {
	i := 0
	for i < n && i < len(s) && s[i] == ' ' {
		i++
	}
	return s[i:]
}

// atoi is strconv.Atoi that yields 0 on garbage or overflow.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// goTrimStack drops the stack frames of the testing package and the runtime
// from a panic's goroutine dump: they are the same in every panic and would
// crowd the test's own frames out of the capped message.
func goTrimStack(lines []string) []string {
	out := lines[:0:0]
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") && !strings.HasPrefix(l, "\t") &&
			(strings.HasPrefix(l, "testing.") || strings.HasPrefix(l, "runtime.") ||
				strings.HasPrefix(l, "panic(") || strings.HasPrefix(l, "created by testing.")) {
			i++
			continue
		}
		out = append(out, l)
	}
	return out
}
