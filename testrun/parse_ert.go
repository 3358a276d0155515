package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	ertRunning = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Running \d+ tests? \(`) })
	ertResult  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(passed|PASSED|failed|FAILED|skipped|SKIPPED|quit|QUIT)\s+\d+/\d+\s+(\S+)`)
	})
	ertCondition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Test (\S+) condition:$`) })
	ertBacktrace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Test (\S+) backtrace:$`) })
	ertLocation  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^jido-ert-location (\S+) (\d+) (.+)$`) })
	ertRan       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Ran \d+ tests?, \d+ results? as expected.*?(?:, ([\d.]+) sec\))?\s*$`)
	})
)

// parseERT reads `emacs -batch ... ert-run-tests-batch-and-exit` output
// (ERT writes to stderr). Lower-case verdicts are expected results, upper
// case unexpected ones: an expected failure counts as passed (ERT's own
// view), an unexpected pass as failed. Messages are the "condition" lines;
// locations come from the plan's jido-ert-location advice.
func parseERT(in *input) (*tally, bool) {
	lines := strings.Split(in.text(), "\n")
	t := &tally{}
	recognized := false
	conditions := map[string][]string{}
	locations := map[string]Failure{}
	var failed []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case ertRunning().MatchString(l):
			recognized = true
		case ertRan().MatchString(l):
			recognized = true
			if m := ertRan().FindStringSubmatch(l); m[1] != "" {
				if v, err := strconv.ParseFloat(m[1], 64); err == nil {
					t.durationMS = int64(clampCount(v * 1000))
				}
			}
			i = len(lines) // the closing list repeats the unexpected results
		}
		if m := ertLocation().FindStringSubmatch(l); m != nil {
			locations[m[1]] = Failure{File: strings.TrimSpace(m[3]), Line: atoi(m[2])}
			continue
		}
		if m := ertCondition().FindStringSubmatch(l); m != nil {
			var cond []string
			// Indented by four spaces, deeper levels by tabs.
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "    ") || strings.HasPrefix(lines[i+1], "\t")) && len(cond) < 200 {
				i++
				cond = append(cond, strings.TrimPrefix(lines[i], "    "))
			}
			conditions[m[1]] = cond
			continue
		}
		if ertBacktrace().MatchString(l) {
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") && !ertResult().MatchString(lines[i+1]) {
				i++
			}
			continue
		}
		m := ertResult().FindStringSubmatch(l)
		if m == nil || !recognized {
			continue
		}
		switch m[1] {
		case "passed", "failed":
			t.passed++
		case "skipped", "SKIPPED":
			t.skipped++
		default:
			failed = append(failed, m[2])
		}
	}
	if !recognized {
		return nil, false
	}
	for _, name := range failed {
		f := locations[name]
		f.Name = name
		// ERT pretty-prints the condition over many short lines; one
		// line reads better: (ert-test-failed ((should (= 8 2)) ...)).
		f.Message = strings.Join(strings.Fields(strings.Join(conditions[name], " ")), " ")
		t.addFailure(f)
	}
	return t, true
}
