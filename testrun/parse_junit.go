package testrun

import (
	"bytes"
	"encoding/xml"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// junitNode is any element of a JUnit XML report, kept as a generic tree:
// reports differ in nesting (testsuites > testsuite > testcase, node's
// testcases straight under testsuites, describe blocks as nested suites).
type junitNode struct {
	XMLName   xml.Name
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	File      string      `xml:"file,attr"`
	Line      string      `xml:"line,attr"`
	Time      string      `xml:"time,attr"`
	Message   string      `xml:"message,attr"`
	Type      string      `xml:"type,attr"`
	Text      string      `xml:",chardata"`
	Comments  string      `xml:",comment"` // all comments, run together
	Children  []junitNode `xml:",any"`
}

// junitFlavor is who wrote the report; it decides names and error rules.
type junitFlavor int

const (
	junitGeneric junitFlavor = iota
	junitPytest
	junitNodeFlavor
)

func parseJUnitPytest(in *input) (*tally, bool) { return parseJUnit(in.report, junitPytest) }

func parseJUnitNode(in *input) (*tally, bool) { return parseJUnit(in.report, junitNodeFlavor) }

func parseJUnitGeneric(in *input) (*tally, bool) { return parseJUnit(in.report, junitGeneric) }

// nodePatternSkip is the reason node 20 gives for tests left out by
// --test-name-pattern; such tests were not selected, so they are not counted.
const nodePatternSkip = "test name does not match pattern"

// parseJUnit reads a JUnit XML report. A testcase with a failure child
// failed; with an error child it failed too, except for pytest, whose errors
// are collection and fixture errors outside the test; with a skipped child
// it was skipped.
func parseJUnit(report []byte, flavor junitFlavor) (*tally, bool) {
	if len(bytes.TrimSpace(report)) == 0 {
		return nil, false
	}
	var root junitNode
	dec := xml.NewDecoder(bytes.NewReader(report))
	dec.Strict = false
	if err := dec.Decode(&root); err != nil {
		return nil, false
	}
	switch root.XMLName.Local {
	case "testsuites", "testsuite", "testcase":
	default:
		return nil, false
	}
	t := &tally{durationMS: junitDuration(&root)}
	var walk func(n *junitNode, suites []string, depth int)
	walk = func(n *junitNode, suites []string, depth int) {
		if depth > 64 {
			return
		}
		switch n.XMLName.Local {
		case "testcase":
			junitCase(t, n, suites, flavor)
			return
		case "testsuite":
			if n.Name != "" && depth > 0 {
				suites = append(suites[:len(suites):len(suites)], n.Name)
			}
		case "testsuites":
		default:
			return
		}
		for i := range n.Children {
			walk(&n.Children[i], suites, depth+1)
		}
	}
	walk(&root, nil, 0)
	return t, true
}

func junitCase(t *tally, tc *junitNode, suites []string, flavor junitFlavor) {
	var failure, errored, skipped *junitNode
	for i := range tc.Children {
		c := &tc.Children[i]
		switch c.XMLName.Local {
		case "failure":
			if failure == nil {
				failure = c
			}
		case "error":
			if errored == nil {
				errored = c
			}
		case "skipped":
			if skipped == nil {
				skipped = c
			}
		}
	}
	switch {
	case failure == nil && errored == nil && skipped != nil:
		if flavor == junitNodeFlavor && skipped.Message == nodePatternSkip {
			return
		}
		t.skipped++
		return
	case failure == nil && errored == nil:
		t.passed++
		return
	}
	bad := failure
	if bad == nil {
		bad = errored
	}
	text := strings.TrimSpace(bad.Text)
	f := Failure{Message: text}
	if f.Message == "" {
		f.Message = bad.Message
	} else if flavor == junitNodeFlavor {
		f.Message = nodeFailureMessage(text)
	}
	f.File, f.Line = tc.File, atoi(tc.Line)
	if f.File == "" {
		switch flavor {
		case junitPytest:
			f.File, f.Line = pytestLocation(text)
		case junitNodeFlavor:
			f.File, f.Line = jsStackLocation(text)
		default:
			if f.File, f.Line = pytestLocation(text); f.File == "" {
				f.File, f.Line = jsStackLocation(text)
			}
		}
	}
	switch flavor {
	case junitPytest:
		if tc.Classname == "" && f.File != "" { // a collection error: the module is what failed
			f.Name = f.File
		} else {
			f.Name = pytestNodeID(tc.Classname, tc.Name, tc.File)
		}
	case junitNodeFlavor:
		f.Name = strings.Join(append(suites[:len(suites):len(suites)], tc.Name), " > ")
	default:
		f.Name = tc.Name
		if tc.Classname != "" {
			f.Name = tc.Classname + "." + tc.Name
		} else if len(suites) > 0 {
			f.Name = strings.Join(append(suites[:len(suites):len(suites)], tc.Name), " > ")
		}
	}
	if failure == nil && flavor == junitPytest {
		t.addError(f)
		return
	}
	t.addFailure(f)
}

// nodeDurationComment is node's closing "<!-- duration_ms 121.4 -->".
var nodeDurationComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`duration_ms ([\d.]+)`) })

// junitDuration is node's "duration_ms" comment, else the root's time, else
// the sum of the top-level suites' times (seconds).
func junitDuration(root *junitNode) int64 {
	if m := nodeDurationComment().FindStringSubmatch(root.Comments); m != nil {
		if ms, err := strconv.ParseFloat(m[1], 64); err == nil && ms < 1e12 {
			return int64(ms)
		}
	}
	seconds := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 || v > 1e9 {
			return 0
		}
		return v
	}
	total := seconds(root.Time)
	if total == 0 {
		for i := range root.Children {
			if root.Children[i].XMLName.Local == "testsuite" {
				total += seconds(root.Children[i].Time)
			}
		}
	}
	return int64(total * 1000)
}

// pytestNodeID rebuilds pytest's node id (tests/test_x.py::TestClass::test_y)
// from a JUnit classname: the trailing capitalised parts are classes, the
// rest is the module's dotted path.
func pytestNodeID(classname, name, file string) string {
	if classname == "" {
		return name
	}
	parts := strings.Split(classname, ".")
	k := len(parts)
	for k > 1 && startsUpper(parts[k-1]) {
		k--
	}
	module := file
	if module == "" {
		module = strings.Join(parts[:k], "/") + ".py"
	}
	id := append([]string{module}, parts[k:]...)
	return strings.Join(append(id, name), "::")
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// pyLocation matches a traceback entry "path/to/file.py:12: ...".
var pyLocation = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\S+\.py):(\d+): `) })

// pytestLocation is where pytest says the test failed: the last traceback
// entry in a relative (project) file, else the last one at all.
func pytestLocation(text string) (string, int) {
	matches := pyLocation().FindAllStringSubmatch(text, -1)
	for i := len(matches) - 1; i >= 0; i-- {
		if !path.IsAbs(matches[i][1]) {
			return matches[i][1], atoi(matches[i][2])
		}
	}
	if n := len(matches); n > 0 {
		return matches[n-1][1], atoi(matches[n-1][2])
	}
	return "", 0
}

// jsFrame matches a JavaScript stack frame's location, "(/abs/x.test.js:4:30)"
// or "at /abs/x.js:4:30" or a file:// URL.
var jsFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\(|at |^\s*)(?:file://)?((?:/|\.{0,2}/|[A-Za-z]:\\)?[^\s()'"]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?`)
})

// jsStackLocation is the first stack frame outside node's internals and
// node_modules: where the failing assertion or throw was.
func jsStackLocation(text string) (string, int) {
	for _, line := range strings.Split(text, "\n") {
		for _, m := range jsFrame().FindAllStringSubmatch(line, -1) {
			file := m[1]
			if strings.HasPrefix(file, "node:") || strings.Contains(file, "/node_modules/") || strings.Contains(file, "node:internal") {
				continue
			}
			return file, atoi(m[2])
		}
	}
	return "", 0
}

// dropNodeInternalFrames removes stack frames inside node itself, which say
// nothing about the test and would crowd out the message.
func dropNodeInternalFrames(text string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "at ") && (strings.Contains(t, "(node:") || strings.HasPrefix(t, "at node:") ||
			strings.HasPrefix(t, "at async Promise.all") || strings.HasPrefix(t, "at async node:")) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// nodeWrapperField matches the fields node's test runner adds around the
// real error in a JUnit failure ("code: 'ERR_TEST_FAILURE'", ...).
var nodeWrapperField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(code|failureType|generatedMessage): .*,?$|^\s*[}\]]\s*$`)
})

// nodeFailureMessage reduces node's JUnit failure text, an ERR_TEST_FAILURE
// wrapper printed with util.inspect, to the error that caused it, without
// node's own stack frames.
func nodeFailureMessage(text string) string {
	if _, cause, ok := strings.Cut(text, "cause: "); ok {
		var keep []string
		for _, l := range strings.Split(cause, "\n") {
			if nodeWrapperField().MatchString(l) {
				continue
			}
			keep = append(keep, trimIndent(l, 2))
		}
		text = strings.Join(keep, "\n")
	}
	return strings.TrimSpace(dropNodeInternalFrames(text))
}
