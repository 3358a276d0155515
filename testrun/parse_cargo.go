package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	cargoTestLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^test (.+?) \.\.\. (ok|FAILED|ignored|bench:)`) })
	cargoResult   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out(?:; finished in ([\d.]+)s)?`)
	})
	cargoSection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^---- (.+?) stdout ----$`) })
	// cargoPanic is "thread 'x' panicked at src/lib.rs:3:5:" (Rust 1.73+)
	// or "thread 'x' panicked at 'msg', src/lib.rs:3:5" (older).
	cargoPanic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`panicked at (?:'.*', )?(\S+?):(\d+):(\d+):?\s*$`) })
	// cargoPanicEnd is the end of an old-format panic whose message spans
	// lines: "...message', src/lib.rs:3:5".
	cargoPanicEnd     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`', (\S+\.rs):(\d+):(\d+)\s*$`) })
	cargoCompileError = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^error(?:\[E\d+\])?: `) })
	cargoArrow        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*--> (\S+?):(\d+):\d+`) })
	cargoCouldNot     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^error: could not compile `([^`]+)`") })
)

// parseCargo reads libtest's text output as printed by `cargo test` on
// stable Rust (the JSON format needs nightly): one "test NAME ... ok" line
// per test (summed over every test binary), the "---- NAME stdout ----"
// sections for panics, and compile errors as errors.
func parseCargo(in *input) (*tally, bool) {
	lines := strings.Split(in.text(), "\n")
	t := &tally{}
	var failedNames []string
	sawTests := false
	var rPassed, rFailed, rIgnored int
	sawResult := false
	sections := map[string][]string{}
	var compileErrs []string
	crateErrors := map[string]int{} // crate -> index in t.failures
	firstFile, firstLine := "", 0
	current := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := cargoTestLine().FindStringSubmatch(l); m != nil {
			sawTests = true
			switch m[2] {
			case "ok", "bench:":
				t.passed++
			case "ignored":
				t.skipped++
			case "FAILED":
				failedNames = append(failedNames, m[1])
			}
			current = ""
			continue
		}
		if m := cargoResult().FindStringSubmatch(l); m != nil {
			sawResult = true
			rPassed += atoi(m[1])
			rFailed += atoi(m[2])
			rIgnored += atoi(m[3])
			if v, err := strconv.ParseFloat(m[4], 64); err == nil {
				t.durationMS += int64(clampCount(v * 1000))
			}
			current = ""
			continue
		}
		if m := cargoSection().FindStringSubmatch(l); m != nil {
			current = m[1]
			continue
		}
		if strings.TrimSpace(l) == "failures:" || strings.HasPrefix(l, "running ") {
			current = ""
			continue
		}
		if current != "" {
			if len(sections[current]) < 200 {
				sections[current] = append(sections[current], l)
			}
			continue
		}
		if m := cargoCouldNot().FindStringSubmatch(l); m != nil {
			// One error per crate: cargo says "could not compile" for each
			// of its targets (lib, lib test) but prints the errors once.
			if i, seen := crateErrors[m[1]]; seen {
				f := &t.failures[i]
				f.Message = strings.TrimSpace(f.Message + "\n" + strings.Join(compileErrs, "\n"))
				if f.File == "" {
					f.File, f.Line = firstFile, firstLine
				}
			} else {
				crateErrors[m[1]] = len(t.failures)
				t.addBuildError(Failure{Name: m[1] + " [build failed]", File: firstFile, Line: firstLine,
					Message: strings.Join(compileErrs, "\n")})
			}
			compileErrs, firstFile, firstLine = nil, "", 0
			continue
		}
		if cargoCompileError().MatchString(l) && !strings.HasPrefix(l, "error: test failed") &&
			!strings.HasPrefix(l, "error: aborting") && !strings.Contains(l, "target failed") &&
			!strings.Contains(l, "targets failed") {
			block := []string{l}
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && len(block) < 40 {
				i++
				block = append(block, lines[i])
				if m := cargoArrow().FindStringSubmatch(lines[i]); m != nil && firstFile == "" {
					firstFile, firstLine = m[1], atoi(m[2])
				}
			}
			compileErrs = append(compileErrs, strings.Join(block, "\n"))
			continue
		}
		if strings.Contains(l, "process didn't exit successfully") && strings.Contains(l, "signal:") {
			t.addError(Failure{Name: "test binary crashed", Message: strings.TrimSpace(l)})
		}
	}
	if !sawTests && !sawResult && t.errors == 0 {
		return nil, false
	}
	if !sawTests { // terse output (-q): counts from the result lines only
		t.passed, t.skipped = rPassed, rIgnored
		for i := 0; i < rFailed; i++ {
			failedNames = append(failedNames, "(unnamed test)")
		}
	}
	for _, name := range failedNames {
		t.addFailure(cargoFailure(name, sections[name]))
	}
	return t, true
}

// cargoFailure reads a failed test's stdout section: the panic location and
// message, without the stack backtrace.
func cargoFailure(name string, section []string) Failure {
	f := Failure{Name: name}
	var msg []string
	inBacktrace := false
	for _, l := range section {
		switch {
		case strings.HasPrefix(l, "stack backtrace:"):
			inBacktrace = true
			continue
		case strings.HasPrefix(l, "note: "):
			inBacktrace = false
			continue
		case inBacktrace:
			continue
		}
		if m := cargoPanic().FindStringSubmatch(l); m != nil && f.File == "" {
			f.File, f.Line = m[1], atoi(m[2])
		}
		msg = append(msg, l)
	}
	if f.File == "" {
		for _, l := range msg {
			if m := cargoPanicEnd().FindStringSubmatch(l); m != nil {
				f.File, f.Line = m[1], atoi(m[2])
				break
			}
		}
	}
	f.Message = strings.TrimSpace(strings.Join(msg, "\n"))
	return f
}
