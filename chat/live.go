package chat

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
)

// liveLines is how many of a running command's latest lines the live block shows.
const liveLines = 5

// progressEvery is how often a running command reports its output to the live block.
const progressEvery = 250 * time.Millisecond

// Live is the compact view of a running command (run_shell, run_tests): its latest lines,
// shown under the call's spinner line while it runs, and a one-line summary under the
// call's line once it ended. It is fed the command's progress (manager.Progress, whose
// Tail is already redacted by the session); what it shows is made safe (termsafe).
type Live struct {
	Max int // lines shown; 0: liveLines

	tail    string // the latest output, raw
	cut     bool   // tail starts inside the output (its first line is partial)
	output  int64
	elapsed time.Duration
}

// Update takes the command's latest progress.
func (l *Live) Update(p manager.Progress) {
	l.tail, l.output, l.elapsed = p.Tail, p.Output, p.Elapsed
	l.cut = p.Output > int64(len(p.Tail))
}

// csi matches the escape sequences commands colour their output with: the live block drops
// them rather than showing them escaped.
var csi = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]`) })

// Lines are the latest lines of output (blank ones skipped), each cleaned (colour
// sequences dropped, what a carriage return overwrote dropped, tabs expanded), made safe
// and cut to width columns.
func (l *Live) Lines(width int) []string {
	max := l.Max
	if max <= 0 {
		max = liveLines
	}
	raw := strings.Split(l.tail, "\n")
	if l.cut && len(raw) > 1 {
		raw = raw[1:]
	}
	var out []string
	for i := len(raw) - 1; i >= 0 && len(out) < max; i-- {
		s := cleanLine(raw[i])
		if strings.TrimSpace(s) == "" {
			continue
		}
		out = append(out, fit(termsafe.String(s), width))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Summary is the one line left of the block once the command ended: its last line of
// output and how much it wrote; "" when it wrote nothing.
func (l *Live) Summary(width int) string {
	if l.output == 0 {
		return ""
	}
	size := fmt.Sprintf("%s of output", bytesText(l.output))
	lines := l.Lines(width)
	if len(lines) == 0 {
		return size
	}
	return fit(lines[len(lines)-1], width-len(size)-3) + " · " + size
}

// cleanLine is a line of raw output as a terminal would have left it.
func cleanLine(s string) string {
	s = strings.TrimRight(s, "\r")
	s = csi().ReplaceAllString(s, "")
	if i := strings.LastIndexByte(s, '\r'); i >= 0 {
		s = s[i+1:]
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

// fit cuts s (already safe: no controls) to width runes, marking the cut.
func fit(s string, width int) string {
	if width < 2 {
		width = 2
	}
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// bytesText is a size in a few characters: 812 B, 3.4 KB, 12.0 MB.
func bytesText(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
}

// liveExec is the executor of a turn watched on a terminal: each call's commands report
// their progress to the view. Only the chat's own Executor is watched, through its
// session, which redacts the output as the result will be.
type liveExec struct {
	agent.Executor
	v *view
}

// Execute implements agent.Executor.
func (x liveExec) Execute(ctx context.Context, call agent.ToolCall) agent.ToolResult {
	if e, ok := x.Executor.(*Executor); ok {
		ctx = e.Session().WithProgress(ctx, progressEvery, func(p manager.Progress) { x.v.progress(call, p) })
	}
	return x.Executor.Execute(ctx, call)
}
