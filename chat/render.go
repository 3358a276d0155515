package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/termsafe"
)

// style colours terminal output; the zero style prints plain text (not a terminal, NO_COLOR).
type style struct{ color bool }

// ANSI colours used by the chat.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
	dim    = "2"
	bold   = "1"
)

// paint wraps s in the ANSI code when colours are on.
func (st style) paint(code, s string) string {
	if !st.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// diff shows a unified diff: its content made safe (termsafe), then additions green,
// removals red, hunk headers cyan.
func (st style) diff(d string) string {
	d = termsafe.String(d)
	if !st.color {
		return d
	}
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			lines[i] = st.paint(bold, strings.TrimSuffix(l, "\n")) + suffixNL(l)
		case strings.HasPrefix(l, "+"):
			lines[i] = st.paint(green, strings.TrimSuffix(l, "\n")) + suffixNL(l)
		case strings.HasPrefix(l, "-"):
			lines[i] = st.paint(red, strings.TrimSuffix(l, "\n")) + suffixNL(l)
		case strings.HasPrefix(l, "@@"):
			lines[i] = st.paint(cyan, strings.TrimSuffix(l, "\n")) + suffixNL(l)
		}
	}
	return strings.Join(lines, "")
}

func suffixNL(l string) string {
	if strings.HasSuffix(l, "\n") {
		return "\n"
	}
	return ""
}

// mainArgs are the arguments that best name what a call is about, in order of preference.
var mainArgs = []string{"path", "command", "pattern", "query", "source", "directory", "selector", "job_id", "change_id"}

// callLabel is "tool main-argument", shortened to one line and made safe to print (the
// name and the arguments come from the model).
func callLabel(c agent.ToolCall) string {
	name := termsafe.Line(c.Name)
	for _, k := range mainArgs {
		switch v := c.Args[k].(type) {
		case string:
			if v != "" {
				return name + " " + termsafe.Line(oneLine(v, 60))
			}
		}
	}
	if cmd, ok := c.Args["cmd"].([]any); ok && len(cmd) > 0 {
		parts := make([]string, len(cmd))
		for i, a := range cmd {
			parts[i] = fmt.Sprint(a)
		}
		return name + " " + termsafe.Line(oneLine(strings.Join(parts, " "), 60))
	}
	return name
}

// oneLine cuts s at its first newline and at max runes.
func oneLine(s string, max int) string {
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if r := []rune(s); len(r) > max {
		s, cut = string(r[:max]), true
	}
	if cut {
		s += "…"
	}
	return s
}

// outcome is a tool result in a few words: "212 lines", "+3 -1", "exit 0".
func outcome(call agent.ToolCall, res agent.ToolResult) string {
	var m map[string]any
	if json.Unmarshal(res.Content, &m) != nil {
		return "done"
	}
	if !res.OK {
		return fmt.Sprintf("%v: %v", m["type"], oneLine(fmt.Sprint(m["message"]), 100))
	}
	num := func(k string) (int, bool) {
		f, ok := m[k].(float64)
		return int(f), ok
	}
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		if strings.HasSuffix(one, "y") {
			return fmt.Sprintf("%d %sies", n, one[:len(one)-1])
		}
		if strings.HasSuffix(one, "ch") {
			return fmt.Sprintf("%d %ses", n, one)
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch call.Name {
	case "read_file":
		total, _ := num("total_lines")
		start, _ := num("start_line")
		end, _ := num("end_line")
		if start > 1 || end < total {
			return fmt.Sprintf("lines %d-%d of %d", start, end, total)
		}
		return plural(total, "line")
	case "edit_file", "edit_region", "multi_edit":
		added, _ := num("lines_added")
		removed, _ := num("lines_removed")
		return fmt.Sprintf("+%d -%d", added, removed)
	case "write_file":
		n, _ := num("bytes_written")
		if m["created"] == true {
			return "created, " + plural(n, "byte")
		}
		return plural(n, "byte")
	case "list_dir":
		if entries, ok := m["entries"].([]any); ok {
			return plural(len(entries), "entry")
		}
	case "list_files", "glob":
		if n, ok := num("count"); ok {
			return plural(n, "file")
		}
	case "search":
		if n, ok := num("count"); ok {
			return plural(n, "match")
		}
	case "file_exists":
		if m["exists"] == true {
			return "exists"
		}
		return "does not exist"
	case "run_shell":
		if id, ok := m["job_id"].(string); ok && id != "" {
			return "started " + id
		}
		code, _ := num("exit_code")
		if m["timed_out"] == true {
			return "timed out"
		}
		return fmt.Sprintf("exit %d", code)
	case "run_tests":
		if _, ok := m["passed"]; ok {
			passed, _ := num("passed")
			failed, _ := num("failed")
			return fmt.Sprintf("%d passed, %d failed", passed, failed)
		}
	case "delete_file":
		return "deleted"
	case "move_file":
		return "moved to " + fmt.Sprint(m["destination"])
	case "plan_diff", "plan_apply", "plan_discard":
		n, _ := num("files")
		return plural(n, "file")
	}
	return "done"
}

// toolLine is the one line shown for a finished call; what comes from the model or the
// tool is made safe before it is coloured.
func (st style) toolLine(call agent.ToolCall, res agent.ToolResult) string {
	out := termsafe.Line(outcome(call, res))
	if !res.OK {
		return st.paint(red, "✗ ") + callLabel(call) + st.paint(dim, " → ") + st.paint(red, out)
	}
	return st.paint(green, "● ") + callLabel(call) + st.paint(dim, " → "+out)
}
