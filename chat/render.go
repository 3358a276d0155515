package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
	"github.com/jido-run/jido/tools/definitions"
	"golang.org/x/term"
)

// style colours terminal output; the zero style prints plain text (not a terminal, NO_COLOR).
type style struct{ color bool }

// ANSI colours used by the chat.
const (
	red       = "31"
	green     = "32"
	yellow    = "33"
	cyan      = "36"
	dim       = "2"
	bold      = "1"
	italic    = "3"
	underline = "4"
)

// paint wraps s in the ANSI code when colours are on.
func (st style) paint(code, s string) string {
	if !st.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// paintCodes wraps s in the ANSI codes (one sequence each, so that nested styles combine)
// when colours are on.
func (st style) paintCodes(codes []string, s string) string {
	if !st.color || s == "" || len(codes) == 0 {
		return s
	}
	var b strings.Builder
	for _, c := range codes {
		b.WriteString("\x1b[" + c + "m")
	}
	b.WriteString(s)
	b.WriteString("\x1b[0m")
	return b.String()
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

// isTerminal reports whether w is a terminal that can redraw a line: a spinner and a live
// block are drawn only there (never in a pipe or a file, nor with TERM=dumb).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// terminalWidth is w's width in columns, 80 when it cannot be known.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// Timings of the status block.
const (
	tickEvery = 100 * time.Millisecond // a spinner frame
	showAfter = 200 * time.Millisecond // nothing is drawn for what ends sooner
)

// view shows a turn: the answer as Markdown as it streams, one line per finished tool call
// (with the summary of a command's output), and on a terminal a status block under the
// output: a spinner while the model thinks, the running command's latest lines while it
// runs. The block is erased before anything else is printed and redrawn on the next tick.
//
// Nothing is drawn while a call may wait for the user's approval: the spinner stops when a
// call starts, and a call's block appears only once its command runs (its first progress
// report comes after the approval). Calls that report progress (run_shell, run_tests)
// never run alongside others (they are not read-only), so one block is enough.
type view struct {
	out  io.Writer
	st   style
	term bool // out is a terminal: the status block is drawn
	// width, now and ticker are the terminal's width, the clock and the ticks (tests fake
	// them).
	width  func() int
	now    func() time.Time
	ticker func() (<-chan time.Time, func())

	mu      sync.Mutex
	md      Markdown
	block   block
	spin    Spinner
	busy    int              // events being shown: the block is not drawn meanwhile
	running int              // calls started and not finished
	live    map[string]*Live // the running commands' output, by callKey
	cmd     string           // callKey of the command whose block shows, "" none
}

// newView shows a turn on out, in colour or not; the status block only when out is a
// terminal.
func newView(out io.Writer, st style) *view {
	return &view{out: out, st: st, term: isTerminal(out), md: Markdown{st: st},
		width: func() int { return terminalWidth(out) }, now: time.Now,
		ticker: func() (<-chan time.Time, func()) {
			t := time.NewTicker(tickEvery)
			return t.C, t.Stop
		},
		live: map[string]*Live{}}
}

// callKey identifies a call between its events and its progress reports.
func callKey(c agent.ToolCall) string { return c.ID + "\x00" + c.Name }

// write prints s, erasing the block first. The caller holds mu.
func (v *view) write(s string) {
	if s == "" {
		return
	}
	io.WriteString(v.out, v.block.erase()+s)
}

// begin watches a's turn until the returned function is called: a's events hold the block
// off while they are shown and drive the spinner; on a terminal a's calls report their
// commands' progress and a goroutine draws the block every tick.
func (v *view) begin(a *agent.Agent) (end func()) {
	prevEvent, prevExec := a.OnEvent, a.Exec
	a.OnEvent = func(e agent.Event) {
		v.enter(e)
		defer v.leave(e)
		if prevEvent != nil {
			prevEvent(e)
		}
	}
	v.mu.Lock()
	v.spin.Start("thinking", v.now())
	v.mu.Unlock()
	if !v.term {
		return func() { a.OnEvent, a.Exec = prevEvent, prevExec; v.stopAll() }
	}
	a.Exec = liveExec{Executor: prevExec, v: v}
	tick, stopTicker := v.ticker()
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-quit:
				return
			case <-tick:
				v.draw()
			}
		}
	}()
	return func() {
		close(quit)
		<-finished
		stopTicker()
		a.OnEvent, a.Exec = prevEvent, prevExec
		v.stopAll()
	}
}

// stopAll erases the block and forgets the turn's state.
func (v *view) stopAll() {
	v.mu.Lock()
	defer v.mu.Unlock()
	io.WriteString(v.out, v.block.erase())
	v.spin.Stop()
	v.running, v.busy, v.cmd = 0, 0, ""
	clear(v.live)
}

// enter is told an event before it is shown: the block is erased and held off; a call
// starting stops the spinner (it may ask for approval) and ends the line of the answer
// begun.
func (v *view) enter(e agent.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.busy++
	io.WriteString(v.out, v.block.erase())
	if e.Kind == agent.EventToolCall {
		v.running++
		v.spin.Stop()
		if t := v.md.Flush(); t != "" { // what the model said before the call, shown before any question
			io.WriteString(v.out, t+"\n")
		}
	}
}

// leave is told an event once shown: after the last running call, the model thinks again.
func (v *view) leave(e agent.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.busy--
	if e.Kind == agent.EventToolResult {
		v.running = max(v.running-1, 0)
		delete(v.live, callKey(*e.Call))
		if v.cmd == callKey(*e.Call) {
			v.cmd = ""
		}
		if v.running == 0 {
			v.spin.Start("thinking", v.now())
		}
	}
}

// progress is told of a running command of call: its block replaces the spinner.
func (v *view) progress(call agent.ToolCall, p manager.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	k := callKey(call)
	l := v.live[k]
	if l == nil {
		l = &Live{}
		v.live[k] = l
		v.spin.Start(callLabel(call), v.now().Add(-p.Elapsed))
	}
	l.Update(p)
	v.cmd = k
}

// draw redraws the block: the spinner line and the running command's latest lines.
func (v *view) draw() {
	v.mu.Lock()
	defer v.mu.Unlock()
	on, since := v.spin.Active()
	now := v.now()
	if !v.term || v.busy > 0 || !on || now.Sub(since) < showAfter {
		return
	}
	width := v.width()
	lines := []string{v.spin.Line(v.st, now, width-1)}
	if l := v.live[v.cmd]; l != nil {
		for _, s := range l.Lines(width - 5) {
			lines = append(lines, v.st.paint(dim, "  │ "+s))
		}
	}
	io.WriteString(v.out, v.block.draw(lines))
}

// text shows a piece of the answer: the lines it completes, rendered.
func (v *view) text(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.write(v.md.Write(s))
}

// endLine shows the line of the answer begun, ending it: before a tool's line, a notice,
// or the end of the turn.
func (v *view) endLine() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s := v.md.Flush(); s != "" {
		v.write(s + "\n")
	}
}

// toolLine is what is shown for a finished call: its line and, for a command whose output
// was watched, the summary of that output.
func (v *view) toolLine(call agent.ToolCall, res agent.ToolResult) string {
	line := v.st.toolLine(call, res) + "\n"
	v.mu.Lock()
	l := v.live[callKey(call)]
	v.mu.Unlock()
	if l == nil {
		return line
	}
	if sum := l.Summary(v.width() - 4); sum != "" {
		line += v.st.paint(dim, "  ⎿ "+sum) + "\n"
	}
	return line
}

// view is the REPL's view of its turns, made on first use.
func (r *REPL) view() *view {
	if r.ui == nil {
		r.ui = newView(r.Out, r.st)
	}
	return r.ui
}

// send runs one turn of the agent under the view: the spinner and the live block run
// while it does, and are gone when it returns.
func (r *REPL) send(ctx context.Context, text string) (string, error) {
	defer r.view().begin(r.Agent)()
	return r.Agent.Send(ctx, text)
}
