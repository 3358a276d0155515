package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	// pytestFinal is pytest's closing line, "2 failed, 3 passed in 0.12s",
	// maybe framed in "=" and followed by the wall time in parentheses.
	pytestFinal = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^=*\s*((?:\d+ [a-z]+|no tests ran)(?:, \d+ [a-z]+)*) in ([\d.]+)s(?: \([^)]*\))?\s*=*\s*$`)
	})
	pytestCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) ([a-z]+)`) })
	// pytestShort is a line of the short test summary ("-r" report).
	pytestShort   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(FAILED|ERROR) (\S+)(?: - (.*))?$`) })
	pytestSection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^_{3,} (.+?) _{3,}$`) })
)

// parsePytestText reads pytest's terminal output when there is no JUnit
// report: counts from the closing line, failures from the short summary,
// locations and messages from the matching traceback sections.
func parsePytestText(in *input) (*tally, bool) {
	text := in.text()
	m := lastMatch(pytestFinal(), text)
	if m == nil {
		return nil, false
	}
	t := &tally{}
	if v, err := strconv.ParseFloat(m[2], 64); err == nil {
		t.durationMS = int64(clampCount(v * 1000))
	}
	failed, errors := 0, 0
	known := false
	for _, c := range pytestCount().FindAllStringSubmatch(m[1], -1) {
		n := atoi(c[1])
		switch c[2] {
		case "passed", "xpassed":
			t.passed += n
		case "failed":
			failed += n
		case "skipped", "xfailed":
			t.skipped += n
		case "error", "errors":
			errors += n
		case "deselected", "warning", "warnings", "rerun":
		default:
			continue
		}
		known = true
	}
	if !known && !strings.Contains(m[1], "no tests ran") {
		return nil, false
	}
	sections := pytestSections(text)
	for _, s := range pytestShort().FindAllStringSubmatch(text, -1) {
		nodeid := s[2]
		f := Failure{Name: nodeid, Message: s[3]}
		file, _, _ := strings.Cut(nodeid, "::")
		if strings.HasSuffix(file, ".py") {
			f.File = file
		}
		key := strings.ReplaceAll(strings.TrimPrefix(nodeid[len(file):], "::"), "::", ".")
		for _, sec := range sections {
			title, body := sec.title, sec.body
			if (key != "" && (title == key || strings.HasSuffix(title, " "+key))) || (key == "" && strings.HasSuffix(title, " "+file)) {
				f.Message = body
				if file, line := pytestLocation(body); file != "" {
					f.File, f.Line = file, line
				}
				break
			}
		}
		if s[1] == "ERROR" {
			t.addError(f)
		} else {
			t.addFailure(f)
		}
	}
	t.failed = max(failed, t.failed)
	t.errors = max(errors, t.errors)
	return t, true
}

type pytestSectionBody struct{ title, body string }

// pytestSections returns the "____ title ____" traceback sections in order.
func pytestSections(text string) []pytestSectionBody {
	var out []pytestSectionBody
	title := ""
	var body []string
	flush := func() {
		if title != "" {
			out = append(out, pytestSectionBody{title, strings.TrimSpace(strings.Join(body, "\n"))})
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if m := pytestSection().FindStringSubmatch(l); m != nil {
			flush()
			title, body = m[1], nil
			continue
		}
		if strings.HasPrefix(l, "=====") || strings.HasPrefix(l, "-----") {
			flush()
			title, body = "", nil
			continue
		}
		if title != "" && len(body) < 200 {
			body = append(body, l)
		}
	}
	flush()
	return out
}
