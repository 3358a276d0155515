package testrun

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// tapPoint is one "ok"/"not ok" line with its YAML diagnostics.
type tapPoint struct {
	indent    int
	ok        bool
	desc      string
	directive string // "skip", "todo" or ""
	reason    string
	yaml      []string
	name      string // desc prefixed by the enclosing subtests' descs
}

var (
	tapPointLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(not )?ok\b(?:\s+\d+)?(?:\s+-)?\s*(.*)$`) })
	tapDirective = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(skip|todo)\S*\s*(.*)$`) })
	tapPlanLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*1\.\.\d+`) })
	tapBailOut   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*Bail out!\s*(.*)$`) })
)

// parseTAP reads TAP (node's TAP reporter, tape, prove-like harnesses) from
// the output. It needs a "TAP version" or plan line to claim the output.
// Node nests subtests by indentation, printed before their parent: only
// leaves count, and a parent counts only when it failed on its own.
func parseTAP(in *input) (*tally, bool) {
	lines := strings.Split(in.text(), "\n")
	var points []*tapPoint
	var bail []string
	sawHeader := false
	var durationMS int64
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "TAP version"), tapPlanLine().MatchString(line):
			sawHeader = true
			continue
		case strings.HasPrefix(line, "# duration_ms "):
			if v, err := strconv.ParseFloat(strings.TrimSpace(line[len("# duration_ms "):]), 64); err == nil && v >= 0 && v < 1e12 {
				durationMS = int64(v)
			}
			continue
		}
		if m := tapBailOut().FindStringSubmatch(line); m != nil {
			bail = append(bail, m[1])
			continue
		}
		m := tapPointLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p := &tapPoint{indent: len(m[1]), ok: m[2] == "", desc: m[3]}
		if j := strings.LastIndex(p.desc, " # "); j >= 0 {
			if d := tapDirective().FindStringSubmatch(p.desc[j+3:]); d != nil {
				p.directive, p.reason = strings.ToLower(d[1]), d[2]
				p.desc = p.desc[:j]
			}
		} else if d := tapDirective().FindStringSubmatch(strings.TrimPrefix(p.desc, "# ")); d != nil && strings.HasPrefix(p.desc, "# ") {
			p.directive, p.reason, p.desc = strings.ToLower(d[1]), d[2], ""
		}
		p.desc = strings.TrimSpace(strings.ReplaceAll(p.desc, `\#`, "#"))
		// A YAML block follows when the next line is "---" indented deeper.
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "---" && indentOf(lines[i+1]) > p.indent {
			for i += 2; i < len(lines) && strings.TrimSpace(lines[i]) != "..."; i++ {
				if len(p.yaml) < 400 {
					p.yaml = append(p.yaml, lines[i])
				}
			}
		}
		points = append(points, p)
	}
	if !sawHeader || (len(points) == 0 && len(bail) == 0) {
		return nil, false
	}
	tapNames(points)

	t := &tally{durationMS: durationMS}
	for i, p := range points {
		// Subtests come right before their parent, indented deeper.
		isParent, failedBelow := false, false
		for j := i - 1; j >= 0 && points[j].indent > p.indent; j-- {
			isParent = true
			if !points[j].ok && points[j].directive == "" {
				failedBelow = true
			}
		}
		failed := !p.ok && p.directive == ""
		if isParent && (!failed || failedBelow) {
			continue
		}
		switch {
		case p.directive != "":
			if p.reason == nodePatternSkip {
				continue
			}
			t.skipped++
		case p.ok:
			t.passed++
		default:
			t.addFailure(tapFailure(p))
		}
	}
	for _, reason := range bail {
		t.addError(Failure{Name: "Bail out!", Message: reason})
	}
	return t, true
}

// tapNames gives each point the descs of its enclosing subtests. Parents
// follow their subtests, so the walk goes backwards keeping a stack.
func tapNames(points []*tapPoint) {
	var stack []*tapPoint
	for i := len(points) - 1; i >= 0; i-- {
		p := points[i]
		for len(stack) > 0 && stack[len(stack)-1].indent >= p.indent {
			stack = stack[:len(stack)-1]
		}
		parts := make([]string, 0, len(stack)+1)
		for _, s := range stack {
			parts = append(parts, s.desc)
		}
		p.name = strings.Join(append(parts, p.desc), " > ")
		stack = append(stack, p)
	}
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// tapFailure reads a failed point's YAML block: error or message, expected
// and actual, and the location from the stack (where it failed) or the
// location key (where the test is declared).
func tapFailure(p *tapPoint) Failure {
	f := Failure{Name: p.name}
	fields := tapYAML(p.yaml)
	msg := fields["error"]
	if msg == "" {
		msg = fields["message"]
	}
	for _, k := range []string{"expected", "actual", "operator"} {
		if v := fields[k]; v != "" {
			msg += "\n" + k + ": " + v
		}
	}
	f.Message = strings.TrimSpace(msg)
	if f.File, f.Line = jsStackLocation(fields["stack"] + "\n" + fields["at"]); f.File == "" {
		f.File, f.Line = jsStackLocation(fields["location"])
	}
	if f.Message == "" {
		f.Message = strings.Join(p.yaml, "\n")
	}
	return f
}

// tapYAML reads the top-level keys of a diagnostics block, enough YAML for
// what TAP producers write: scalars, quoted scalars and |- blocks.
func tapYAML(lines []string) map[string]string {
	out := map[string]string{}
	base := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			if ind := indentOf(l); base < 0 || ind < base {
				base = ind
			}
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if indentOf(l) != base {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok || strings.ContainsAny(key, " \t") {
			continue
		}
		value = strings.TrimSpace(value)
		if value == "|" || value == "|-" || value == ">" || value == ">-" || value == "" {
			var block []string
			for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || indentOf(lines[i+1]) > base) {
				i++
				block = append(block, strings.TrimSpace(lines[i]))
			}
			value = strings.TrimSpace(strings.Join(block, "\n"))
		} else if len(value) >= 2 && (value[0] == '\'' && value[len(value)-1] == '\'') {
			value = strings.ReplaceAll(value[1:len(value)-1], "''", "'")
		} else if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			if u, err := strconv.Unquote(value); err == nil {
				value = u
			} else {
				value = value[1 : len(value)-1]
			}
		}
		out[key] = value
	}
	return out
}
