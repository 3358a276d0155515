package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Text formats of JavaScript runners that npm test may run: node's spec
// reporter (node 22's default), jest, vitest and mocha. Only their closing
// counts are reliable; failures are read where the format lists them.

var (
	nodeSpecCount = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^ℹ (tests|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)\s*$`)
	})
	nodeSpecFailure = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*✖ (.+?)(?: \([\d.]+m?s\))?$`) })
	nodeSpecAt      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*test at (.+):(\d+):\d+\s*$`) })
)

// parseNodeSpec reads the spec reporter's closing "ℹ pass N" lines and its
// "✖ failing tests:" list (with "test at file:line:col" locations).
func parseNodeSpec(in *input) (*tally, bool) {
	lines := strings.Split(in.text(), "\n")
	counts := map[string]float64{}
	failingAt := -1
	for i, l := range lines {
		if m := nodeSpecCount().FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			counts[m[1]] = v
		}
		if strings.TrimSpace(l) == "✖ failing tests:" {
			failingAt = i
		}
	}
	if _, ok := counts["tests"]; !ok {
		return nil, false
	}
	if _, ok := counts["pass"]; !ok {
		return nil, false
	}
	t := &tally{
		passed:     clampCount(counts["pass"]),
		skipped:    clampCount(counts["skipped"] + counts["todo"]),
		durationMS: int64(clampCount(counts["duration_ms"])),
	}
	if failingAt >= 0 {
		file, line := "", 0
		var cur *failure
		for _, l := range lines[failingAt+1:] {
			if nodeSpecCount().MatchString(l) {
				break
			}
			if m := nodeSpecAt().FindStringSubmatch(l); m != nil {
				file, line = m[1], atoi(m[2])
				continue
			}
			if m := nodeSpecFailure().FindStringSubmatch(l); m != nil {
				t.failures = append(t.failures, failure{Failure: Failure{Name: m[1], File: file, Line: line}})
				cur = &t.failures[len(t.failures)-1]
				file, line = "", 0
				continue
			}
			if cur != nil && len(cur.Message) < maxMessage {
				cur.Message += strings.TrimSpace(l) + "\n"
			}
		}
	}
	for i := range t.failures {
		t.failures[i].Message = dropNodeInternalFrames(t.failures[i].Message)
	}
	t.failed = max(clampCount(counts["fail"]+counts["cancelled"]), len(t.failures))
	return t, true
}

var (
	jestTests     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Tests:\s+(.+)$`) })
	jestTime      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Time:\s+([\d.]+)\s*(ms|s)\b`) })
	jestFailure   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*● (.+)$`) })
	vitestTests   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*Tests\s+(.+?)\s*\((\d+)\)\s*$`) })
	vitestFailure = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(?:FAIL|×)\s+(.+?)\s*$`) })
	mochaCount    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(\d+) (passing|failing|pending)\b(?: \((\d+)(ms|s)\))?`)
	})
	mochaEntry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s{1,4}(\d+)\) (.+)$`) })
	countPart  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) (passed|failed|skipped|todo|pending|total)`) })
)

// parseJestLike reads the closing counts of jest ("Tests: 1 failed, 2
// passed, 3 total"), vitest ("Tests  1 failed | 2 passed (3)") or mocha ("2
// passing", "1 failing"), with the failed tests' names where listed.
func parseJestLike(in *input) (*tally, bool) {
	text := in.text()
	if m := lastMatch(jestTests(), text); m != nil && countPart().MatchString(m[1]) {
		t := &tally{}
		failed := countParts(m[1], t)
		if tm := lastMatch(jestTime(), text); tm != nil {
			v, _ := strconv.ParseFloat(tm[1], 64)
			if tm[2] == "s" {
				v *= 1000
			}
			t.durationMS = int64(clampCount(v))
		}
		seen := map[string]bool{}
		for _, fm := range jestFailure().FindAllStringSubmatch(text, -1) {
			name := strings.TrimSpace(fm[1])
			if seen[name] || strings.HasPrefix(name, "Console") {
				continue
			}
			seen[name] = true
			if strings.HasPrefix(name, "Test suite failed to run") {
				t.addError(Failure{Name: name})
				continue
			}
			t.failures = append(t.failures, failure{Failure: Failure{Name: name}})
		}
		t.failed = max(failed, len(t.failures)-t.errors)
		return t, true
	}
	if m := lastMatch(vitestTests(), text); m != nil && countPart().MatchString(m[1]) {
		t := &tally{}
		failed := countParts(m[1], t)
		seen := map[string]bool{}
		for _, fm := range vitestFailure().FindAllStringSubmatch(text, -1) {
			if name := fm[1]; !seen[name] && strings.Contains(name, " > ") {
				seen[name] = true
				t.failures = append(t.failures, failure{Failure: Failure{Name: name}})
			}
		}
		t.failed = max(failed, len(t.failures))
		return t, true
	}
	if ms := mochaCount().FindAllStringSubmatch(text, -1); len(ms) > 0 && strings.Contains(text, " passing") {
		t := &tally{}
		failed := 0
		for _, m := range ms {
			n := atoi(m[1])
			switch m[2] {
			case "passing":
				t.passed = n
				if m[3] != "" {
					t.durationMS = int64(atoi(m[3]))
					if m[4] == "s" {
						t.durationMS *= 1000
					}
				}
			case "failing":
				failed = n
			case "pending":
				t.skipped = n
			}
		}
		mochaFailures(t, text)
		t.failed = max(failed, len(t.failures))
		return t, true
	}
	return nil, false
}

// countParts reads "1 failed, 2 passed, 1 skipped" (or "|"-separated) into
// t and returns the failed count.
func countParts(s string, t *tally) int {
	failed := 0
	for _, p := range countPart().FindAllStringSubmatch(s, -1) {
		n := atoi(p[1])
		switch p[2] {
		case "passed":
			t.passed = n
		case "failed":
			failed = n
		case "skipped", "todo", "pending":
			t.skipped += n
		}
	}
	return failed
}

// mochaFailures reads mocha's numbered failure list after "N failing":
// "  1) suite" and title lines up to one ending in ":", then the error.
func mochaFailures(t *tally, text string) {
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if m := mochaCount().FindStringSubmatch(l); m != nil && m[2] == "failing" {
			start = i + 1
		}
	}
	if start < 0 {
		return
	}
	var cur *failure
	inTitle := false
	for _, l := range lines[start:] {
		if m := mochaEntry().FindStringSubmatch(l); m != nil {
			t.failures = append(t.failures, failure{Failure: Failure{Name: strings.TrimSuffix(m[2], ":")}})
			cur = &t.failures[len(t.failures)-1]
			inTitle = !strings.HasSuffix(m[2], ":")
			continue
		}
		if cur == nil {
			continue
		}
		s := strings.TrimSpace(l)
		if inTitle && s != "" {
			cur.Name += " " + strings.TrimSuffix(s, ":")
			inTitle = !strings.HasSuffix(s, ":")
			continue
		}
		inTitle = false
		if len(cur.Message) < maxMessage {
			cur.Message += s + "\n"
		}
		if cur.File == "" {
			cur.File, cur.Line = jsStackLocation(s)
		}
	}
}

func lastMatch(re *regexp.Regexp, text string) []string {
	all := re.FindAllStringSubmatch(text, -1)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}

// clampCount turns a parsed number into a sane non-negative int.
func clampCount(v float64) int {
	if v < 0 || v != v {
		return 0
	}
	if v > 1e9 {
		return 1e9
	}
	return int(v)
}
