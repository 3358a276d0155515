package testrun

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Summary is what run_tests returns.
type Summary struct {
	Runner Runner `json:"runner"`
	Total  int    `json:"total"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
	Errors int    `json:"errors"` // build/collection errors, crashes outside a test
	// BuildErrors is how many of Errors are builds that failed (Go packages, crates,
	// test files that did not compile or load): their tests did not run at all.
	BuildErrors int       `json:"build_errors,omitempty"`
	Skipped     int       `json:"skipped"`
	DurationMS  int64     `json:"duration_ms"`
	Failures    []Failure `json:"failures"`
	Report      string    `json:"report"` // a short human-readable report (<= ~4 KB): counts, then each failure's name and first lines of message
	Parsed      bool      `json:"parsed"` // false when the output had no structured form and counts come from the exit code only
}

// Failure is one failed test, or one error outside a test (then its Name
// says what failed: a package, a file, a crate, "exit status N").
type Failure struct {
	Name    string `json:"name"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"` // capped at ~2 KB
}

// Size limits of what a Summary carries back to the model.
const (
	maxMessage     = 2048 // bytes of one Failure.Message
	maxReport      = 4096 // bytes of Summary.Report
	reportMsgLines = 6    // message lines per failure in the report
	reportLineLen  = 200  // bytes per line in the report
	tailLines      = 40   // output lines shown when the output is not understood
)

// tally is what a parser counted. Total is derived, so parsers cannot get it
// inconsistent.
type tally struct {
	passed, failed, skipped, errors int
	buildErrors                     int // of errors
	durationMS                      int64
	failures                        []failure
}

// failure is a Failure plus whether it counts as an error, for the report.
type failure struct {
	Failure
	isError bool
	tail    bool // the report shows the message's last lines (output's end), not its first
}

func (t *tally) addFailure(f Failure) {
	t.failed++
	t.failures = append(t.failures, failure{Failure: f})
}

func (t *tally) addError(f Failure) {
	t.errors++
	t.failures = append(t.failures, failure{Failure: f, isError: true})
}

// addBuildError is addError for a build that failed (a package, a crate, a
// test file that did not compile): none of its tests ran.
func (t *tally) addBuildError(f Failure) {
	t.buildErrors++
	t.addError(f)
}

// summary turns a parser's tally into the Summary: file names made
// root-relative, messages capped, the exit code cross-checked and the report
// written.
func (t *tally) summary(p Invocation, stdout, stderr []byte, exitCode int) Summary {
	if exitCode != 0 && t.failed == 0 && t.errors == 0 && !noTestsExit(p, exitCode) {
		// The runner failed although no test did: a crash after the
		// tests, a coverage threshold, a hook, a build the parser did not
		// see... It is never a pass: say so with the output's end.
		t.addError(Failure{
			Name:    fmt.Sprintf("exit status %d", exitCode),
			Message: tailText(stdout, stderr, 20, maxMessage),
		})
		t.failures[len(t.failures)-1].tail = true
	}
	s := Summary{
		Runner:      p.Runner,
		Total:       t.passed + t.failed + t.skipped,
		Passed:      t.passed,
		Failed:      t.failed,
		Errors:      t.errors,
		BuildErrors: t.buildErrors,
		Skipped:     t.skipped,
		DurationMS:  t.durationMS,
		Failures:    make([]Failure, 0, len(t.failures)),
		Parsed:      true,
	}
	for i := range t.failures {
		f := &t.failures[i].Failure
		f.Name = capText(cleanText(f.Name), 512)
		f.Message = capText(strings.TrimSpace(cleanText(f.Message)), maxMessage)
		f.File = rootRelative(p.Dir, f.File)
		if f.Line < 0 {
			f.Line = 0
		}
		s.Failures = append(s.Failures, *f)
	}
	s.Report = t.report(p, exitCode)
	return s
}

// noTestsExit is pytest's exit status 5, "no tests collected" (and
// unittest's "NO TESTS RAN", Python 3.12+): not an error (a selector that
// matched nothing), the report says that no tests were found.
func noTestsExit(p Invocation, exitCode int) bool {
	if exitCode != 5 {
		return false
	}
	if p.Runner == Pytest || p.Runner == Unittest {
		return true
	}
	for _, a := range p.Argv {
		if strings.Contains(a, "pytest") {
			return true
		}
	}
	return false
}

// rootRelative makes a file name the runner gave relative to its working
// directory relative to the project root. Absolute names stay as they are.
func rootRelative(dir, file string) string {
	if file == "" || path.IsAbs(file) || dir == "" || dir == "." {
		return file
	}
	if strings.HasPrefix(file, dir+"/") { // already root-relative (cargo workspaces)
		return file
	}
	return path.Join(dir, file)
}

// report renders the short human-readable report: the counts line, then each
// failure with its location and first message lines, within maxReport.
func (t *tally) report(p Invocation, exitCode int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d tests: %d passed, %d failed, %d skipped; %d errors; %s; exit status %d\n",
		runnerLabel(p.Runner), t.passed+t.failed+t.skipped, t.passed, t.failed, t.skipped, t.errors,
		formatDuration(t.durationMS), exitCode)
	if t.passed+t.failed+t.skipped == 0 && t.errors == 0 {
		b.WriteString("no tests found: no tests ran (nothing matched the path or selector?); this is not a pass\n")
	}
	if t.buildErrors > 0 {
		fmt.Fprintf(&b, "%s failed to build: their tests did not run\n", buildCount(p.Runner, t.buildErrors))
	}
	for i, f := range t.failures {
		entry := reportEntry(f)
		if b.Len()+len(entry) > maxReport-80 {
			fmt.Fprintf(&b, "... and %d more (see failures)\n", len(t.failures)-i)
			break
		}
		b.WriteString(entry)
	}
	return b.String()
}

func reportEntry(f failure) string {
	var b strings.Builder
	if f.isError {
		b.WriteString("ERROR ")
	} else {
		b.WriteString("FAIL ")
	}
	b.WriteString(f.Name)
	if f.File != "" {
		b.WriteString(" (" + f.File)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(")")
	}
	b.WriteString("\n")
	lines := strings.Split(f.Message, "\n")
	if f.tail {
		var kept []string
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				kept = append(kept, l)
			}
		}
		if len(kept) > reportMsgLines {
			b.WriteString("    ... (last lines of output)\n")
			kept = kept[len(kept)-reportMsgLines:]
		}
		lines = kept
	}
	shown := 0
	for _, l := range lines {
		if shown == reportMsgLines {
			b.WriteString("    ...\n")
			break
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.WriteString("    " + capText(strings.TrimRight(l, " \t"), reportLineLen) + "\n")
		shown++
	}
	return b.String()
}

// buildCount counts builds that failed in the runner's terms: Go packages,
// cargo crates, test files otherwise.
func buildCount(r Runner, n int) string {
	unit := "test file"
	switch r {
	case Go:
		unit = "package"
	case Cargo:
		unit = "crate"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// BuildCount says how many builds failed in the runner's terms: "8 packages"
// (Go), "1 crate" (cargo), "2 test files" (others).
func (s *Summary) BuildCount() string { return buildCount(s.Runner, s.BuildErrors) }

func runnerLabel(r Runner) string {
	if r == "" {
		return "tests"
	}
	return string(r)
}

func formatDuration(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// fallbackSummary is for output in no known format: counts come from the
// exit code only, and the report shows the end of the output.
func fallbackSummary(p Invocation, stdout, stderr []byte, exitCode int) Summary {
	s := Summary{Runner: p.Runner, Failures: []Failure{}}
	tail := tailText(stdout, stderr, tailLines, maxReport-300)
	verdict := "succeeded"
	if exitCode != 0 {
		verdict = "failed"
		s.Errors = 1
		s.Failures = append(s.Failures, Failure{
			Name:    fmt.Sprintf("exit status %d", exitCode),
			Message: capText(tailText(stdout, stderr, 20, maxMessage), maxMessage),
		})
	}
	s.Report = fmt.Sprintf("%s: the run %s (exit status %d); its output is in no test format run_tests can read, "+
		"so there are no per-test counts. Last lines of output:\n%s", runnerLabel(p.Runner), verdict, exitCode, tail)
	return s
}

// tailText returns the last n lines of stdout then stderr, cleaned, within
// max bytes (the end is kept).
func tailText(stdout, stderr []byte, n, max int) string {
	text := cleanText(string(stdout))
	if e := cleanText(string(stderr)); strings.TrimSpace(e) != "" {
		if strings.TrimSpace(text) != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += e
	}
	lines := strings.Split(strings.TrimRight(text, "\n \t"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = capText(l, 300)
	}
	out := strings.Join(lines, "\n")
	if len(out) > max {
		cut := len(out) - max
		for cut < len(out) && !utf8.RuneStart(out[cut]) {
			cut++
		}
		out = "..." + out[cut:]
	}
	return out
}

// ansiEscape matches terminal escape sequences that slip through NO_COLOR.
var ansiEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]`) })

// cleanText removes escape sequences and carriage returns and makes the
// text valid UTF-8.
func cleanText(s string) string {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansiEscape().ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// capText cuts s to at most n bytes on a rune boundary, marking the cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " [...]"
	cut := n - len(mark)
	if cut < 0 {
		cut = 0
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
