package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	// unittestRan is unittest's "Ran 5 tests in 0.003s".
	unittestRan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Ran (\d+) tests? in ([\d.]+)s\s*$`) })
	// unittestStatus is the line after it: "OK", "OK (skipped=1)",
	// "FAILED (failures=1, errors=2)", "NO TESTS RAN".
	unittestStatus = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(OK|FAILED|NO TESTS RAN)(?: \(([^)]*)\))?\s*$`)
	})
	// unittestHeader opens a failure's section: "FAIL: test_sub (tests.test_calc.TestCalc.test_sub)".
	unittestHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+)(?: \(([^)]*)\))?`)
	})
	// unittestFrame is a traceback frame: `  File "/x/test_calc.py", line 13, in test_sub`.
	unittestFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*File "([^"]+)", line (\d+), in (\S+)`) })
)

// parseUnittest reads Python unittest's text output (on stderr): the counts
// from "Ran N tests" and the status line after it, the failures and errors
// from their "FAIL: name (id)" sections, located at their test's frame.
func parseUnittest(in *input) (*tally, bool) {
	text := in.text()
	ran := lastMatchIndex(unittestRan(), text)
	if ran == nil {
		return nil, false
	}
	status := unittestStatus().FindStringSubmatch(text[ran[1]:])
	if status == nil {
		return nil, false
	}
	total := atoi(text[ran[2]:ran[3]])
	t := &tally{}
	if v, err := strconv.ParseFloat(text[ran[4]:ran[5]], 64); err == nil {
		t.durationMS = int64(clampCount(v * 1000))
	}
	counts := map[string]int{}
	for _, kv := range strings.Split(status[2], ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if ok {
			counts[k] = atoi(v)
		}
	}
	for _, f := range unittestFailures(text[:ran[0]]) {
		if f.isError {
			t.addError(f.Failure)
		} else {
			t.addFailure(f.Failure)
		}
	}
	// The counts of the status line are the truth; the sections only name them.
	t.failed = max(t.failed, counts["failures"]+counts["unexpected successes"])
	t.errors = max(t.errors, counts["errors"])
	t.skipped = counts["skipped"] + counts["expected failures"]
	t.passed = max(0, total-counts["failures"]-counts["errors"]-counts["unexpected successes"]-t.skipped)
	return t, true
}

// unittestFailures reads the "=====" separated failure sections.
func unittestFailures(text string) []failure {
	var out []failure
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := unittestHeader().FindStringSubmatch(lines[i])
		if m == nil || i == 0 || !strings.HasPrefix(lines[i-1], "=====") {
			continue
		}
		method, id := m[2], m[3]
		name := id
		switch {
		case id == "":
			name = method
		case !strings.HasSuffix(id, "."+method) && !strings.HasPrefix(id, "unittest.loader."):
			name = id + "." + method // Python < 3.12: "(module.Class)"
		case strings.HasPrefix(id, "unittest.loader."):
			name = method // a module that failed to import: "ERROR: test_x (unittest.loader._FailedTest.test_x)"
		}
		f := failure{Failure: Failure{Name: name}, isError: m[1] == "ERROR"}
		var body []string
		lastFile, lastLine := "", 0
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "=====") && !isUnittestEnd(lines, i); i++ {
			l := lines[i]
			if strings.HasPrefix(l, "-----") && len(body) == 0 {
				continue
			}
			if fm := unittestFrame().FindStringSubmatch(l); fm != nil {
				lastFile, lastLine = fm[1], atoi(fm[2])
				if fm[3] == method && f.File == "" {
					f.File, f.Line = fm[1], atoi(fm[2])
				}
			}
			if len(body) < 200 {
				body = append(body, l)
			}
		}
		i--
		if f.File == "" {
			f.File, f.Line = lastFile, lastLine
		}
		f.Message = strings.TrimSpace(strings.Join(body, "\n"))
		out = append(out, f)
	}
	return out
}

// isUnittestEnd reports whether line i is the "-----" rule before "Ran N tests".
func isUnittestEnd(lines []string, i int) bool {
	return strings.HasPrefix(lines[i], "-----") && i+1 < len(lines) && unittestRan().MatchString(lines[i+1])
}

// lastMatchIndex is the submatch indexes of re's last match in s, nil if none.
func lastMatchIndex(re *regexp.Regexp, s string) []int {
	all := re.FindAllStringSubmatchIndex(s, -1)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}
