package chat

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/termsafe"
	"github.com/jido-run/jido/tools/definitions"
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

// outcome is a tool result in a few words: "212 lines", "+3 -1", "exit 0", as its result
// type says it (Executor); an error is its type and message.
func outcome(res agent.ToolResult) string {
	if !res.OK {
		var e definitions.ToolError
		if json.Unmarshal(res.Content, &e) != nil {
			return "failed"
		}
		return fmt.Sprintf("%s: %s", e.Type, oneLine(e.Message, 100))
	}
	return cmp.Or(res.Outcome, "done")
}

// toolLine is the one line shown for a finished call; what comes from the model or the
// tool is made safe before it is coloured.
func (st style) toolLine(call agent.ToolCall, res agent.ToolResult) string {
	out := termsafe.Line(outcome(res))
	if !res.OK {
		return st.paint(red, "✗ ") + callLabel(call) + st.paint(dim, " → ") + st.paint(red, out)
	}
	return st.paint(green, "● ") + callLabel(call) + st.paint(dim, " → "+out)
}
