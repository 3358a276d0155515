package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/termsafe"
	"github.com/jido-run/jido/tools/definitions"
)

// Caller is a Host that runs calls the user asks for in the session, as the model's calls
// run (the same sandbox and policy): the reads of @path mentions, !cmd, /apply. A Host
// that is not one has none of these.
type Caller interface {
	// UserCall runs a call of one of jido's own tools. typed says the user typed the call
	// itself (!cmd): it needs no second approval (manager.UserInitiated).
	UserCall(ctx context.Context, call agent.ToolCall, typed bool) agent.ToolResult
}

// maxNote caps the output of a command the model is shown as a note.
const maxNote = 10000

// prompt is the REPL's prompt; it names the mode when it is not the default one.
func (r *REPL) prompt() string {
	switch m := r.Host.Mode(); m {
	case "", "default":
		return "jido › "
	default:
		return "jido [" + termsafe.Line(m) + "] › "
	}
}

// read reads one message: a line, and the lines after it while one ends in a backslash
// (which is dropped).
func (r *REPL) read() (string, error) {
	line, err := r.In.Prompt(r.prompt())
	for err == nil && strings.HasSuffix(line, `\`) {
		var more string
		more, err = r.In.Prompt("… ")
		line = line[:len(line)-1] + "\n" + more
	}
	return line, err
}

// running registers a cancellable context for work the user can stop with Ctrl-C (a
// turn, a command run for the user); done unregisters it.
func (r *REPL) running(ctx context.Context) (context.Context, func()) {
	tctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	return tctx, func() {
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
		cancel()
	}
}

// userCall runs a call for the user and shows its line; ok is false when the host runs
// no calls.
func (r *REPL) userCall(ctx context.Context, call agent.ToolCall, typed bool) (agent.ToolResult, bool) {
	c, ok := r.Host.(Caller)
	if !ok {
		fmt.Fprintln(r.Out, r.st.paint(red, "this chat cannot run "+call.Name+" for you"))
		return agent.ToolResult{}, false
	}
	cctx, done := r.running(ctx)
	defer done()
	res := c.UserCall(cctx, call, typed)
	fmt.Fprintln(r.Out, r.st.toolLine(call, res))
	return res, true
}

// note keeps something the user did for the model: it goes with the next message.
func (r *REPL) note(text string) { r.notes = append(r.notes, text) }

// withNotes is the message the model gets: the notes kept since the last turn, then the
// user's text.
func (r *REPL) withNotes(text string) string {
	if len(r.notes) == 0 {
		return text
	}
	return strings.Join(r.notes, "\n\n") + "\n\n" + text
}

// fence is a Markdown code fence longer than any run of backticks in s.
func fence(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// fenced is s in a fenced block, capped at max bytes.
func fenced(s string, max int) string {
	if len(s) > max {
		s = s[:max] + fmt.Sprintf("\n… (%d bytes cut)", len(s)-max)
	}
	f := fence(s)
	return f + "\n" + strings.TrimSuffix(s, "\n") + "\n" + f
}

// shellOutput is what a note and the user see of a run_shell result, or of the details
// of its error when the command did not finish (killed at its timeout, not started).
type shellOutput struct {
	ExitCode int    `json:"exit_code"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
}

// shell runs a command the user typed (!cmd) in the session's sandbox, shows its output
// and keeps it as a note for the model.
func (r *REPL) shell(ctx context.Context, cmd string) {
	if cmd == "" {
		fmt.Fprintln(r.Out, "type !COMMAND to run a command, e.g. !ls")
		return
	}
	res, ok := r.userCall(ctx, agent.ToolCall{Name: "run_shell", Args: map[string]any{"command": cmd}}, true)
	if !ok {
		return
	}
	var out shellOutput
	status := ""
	if res.OK {
		_ = json.Unmarshal(res.Content, &out)
		status = fmt.Sprintf("exit %d", out.ExitCode)
	} else {
		var e struct {
			Message string      `json:"message"`
			Details shellOutput `json:"details"`
		}
		if json.Unmarshal(res.Content, &e) != nil || e.Details.Stdout+e.Details.Stderr == "" {
			r.note(fmt.Sprintf("I tried to run `%s`; it failed: %s", cmd, outcome(res)))
			return
		}
		out, status = e.Details, e.Message
	}
	text := out.Stdout
	if out.Stderr != "" {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += out.Stderr
	}
	if text != "" {
		fmt.Fprint(r.Out, termsafe.String(text))
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(r.Out)
		}
	}
	note := fmt.Sprintf("I ran `%s` (%s)", cmd, status)
	if text == "" {
		note += "; it printed nothing."
	} else {
		note += ":\n" + fenced(text, maxNote)
	}
	r.note(note)
}

// mention is an @path in a message: after a space or at the start, up to the next space.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)@([^\s@]+)`) })

// mentions reads the files the message names as @path (read_file in the session, so that
// they count as read) and gives them to the model after the text, each in a fenced block
// under its path. A mention that names no file is left as text.
func (r *REPL) mentions(ctx context.Context, text string) string {
	c, ok := r.Host.(Caller)
	if !ok {
		return text
	}
	var attached strings.Builder
	seen := map[string]bool{}
	for _, m := range mention().FindAllStringSubmatch(text, -1) {
		path := strings.TrimRight(m[1], `.,;:!?)]}'"`)
		if path == "" || seen[path] {
			continue
		}
		seen[path] = true
		call := agent.ToolCall{Name: "read_file", Args: map[string]any{"path": path}}
		cctx, done := r.running(ctx)
		res := c.UserCall(cctx, call, true)
		done()
		if !res.OK {
			var e definitions.ToolError
			if json.Unmarshal(res.Content, &e) == nil && e.Type == definitions.PermissionError {
				fmt.Fprintln(r.Out, r.st.toolLine(call, res)) // a file, but not one to read
			}
			continue
		}
		fmt.Fprintln(r.Out, r.st.toolLine(call, res))
		var f definitions.ReadFileResult
		_ = json.Unmarshal(res.Content, &f)
		head := "@" + path
		if f.Truncated || f.StartLine > 1 || f.EndLine < f.TotalLines {
			head += fmt.Sprintf(" (lines %d-%d of %d; read_file with an offset for the rest)", f.StartLine, f.EndLine, f.TotalLines)
		}
		fmt.Fprintf(&attached, "\n\n%s:\n%s", head, fenced(f.Content, MaxResultChars))
	}
	return text + attached.String()
}

// planFiles is the number of files the unapplied plan changes (0 outside plan mode).
func (r *REPL) planFiles(ctx context.Context) int {
	c, ok := r.Host.(Caller)
	if !ok || r.Host.Mode() != "plan" {
		return 0
	}
	res := c.UserCall(ctx, agent.ToolCall{Name: "plan_diff", Args: map[string]any{}}, false)
	var p definitions.PlanResult
	if !res.OK || json.Unmarshal(res.Content, &p) != nil {
		return 0
	}
	return p.Files
}

// keepPlan reports whether a command that leaves plan mode (cmd: /mode or /exit) must not
// go on: the plan changes files and the user was not warned by the same command just
// before. It warns.
func (r *REPL) keepPlan(ctx context.Context, cmd string) bool {
	if r.warned == cmd {
		return false
	}
	n := r.planFiles(ctx)
	if n == 0 {
		return false
	}
	r.warned = cmd
	fmt.Fprintln(r.Out, r.st.paint(yellow, fmt.Sprintf("the plan changes %s; /apply it, or type %s again to drop it", files(n), cmd)))
	return true
}

// files is "1 file", "2 files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// apply writes the plan to the project (plan_apply, with its approval).
func (r *REPL) apply(ctx context.Context) {
	if r.Host.Mode() != "plan" {
		fmt.Fprintln(r.Out, "no plan to apply: /mode plan plans changes without writing them")
		return
	}
	n := r.planFiles(ctx)
	if n == 0 {
		fmt.Fprintln(r.Out, "the plan changes no files yet")
		return
	}
	res, ok := r.userCall(ctx, agent.ToolCall{Name: "plan_apply", Args: map[string]any{}}, false)
	if !ok || !res.OK {
		return
	}
	fmt.Fprintln(r.Out, "plan applied; /mode default leaves plan mode")
	r.note(fmt.Sprintf("I applied the plan: %s written to the project.", files(n)))
}

// switchModel is /model: it shows the model, or switches to another for the next turns.
func (r *REPL) switchModel(ctx context.Context, name string) {
	if name == "" {
		fmt.Fprintln(r.Out, "model:", termsafe.Line(r.Agent.Provider.Name()))
		return
	}
	if r.SwitchModel == nil {
		fmt.Fprintln(r.Out, r.st.paint(red, "this chat cannot switch models"))
		return
	}
	p, err := r.SwitchModel(ctx, name)
	if err != nil {
		fmt.Fprintln(r.Out, r.st.paint(red, termsafe.String(err.Error())))
		return
	}
	r.Agent.Provider = p
	fmt.Fprintln(r.Out, "model:", termsafe.Line(p.Name()))
}

// compact is /compact: the model summarises the conversation, which the summary replaces
// (the todos and tasks live in the session and stay).
func (r *REPL) compact(ctx context.Context) {
	before := len(r.Agent.History())
	cctx, done := r.running(ctx)
	_, err := r.Agent.Compact(cctx)
	done()
	r.endLine()
	switch {
	case errors.Is(err, agent.ErrNothingToCompact):
		fmt.Fprintln(r.Out, "nothing to compact")
		return
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(r.Out, r.st.paint(yellow, "(stopped)"))
		return
	case err != nil:
		fmt.Fprintln(r.Out, r.st.paint(red, "error: "+termsafe.String(err.Error())))
		return
	}
	fmt.Fprintf(r.Out, "conversation compacted: %d messages became the summary above\n", before)
	r.rewriteTranscript()
}

// rewriteTranscript writes the conversation anew after it was replaced (/compact, /resume).
func (r *REPL) rewriteTranscript() {
	err := r.Transcript.Clear()
	if err == nil {
		err = r.Transcript.Sync(r.Agent.History())
	}
	if err == nil {
		err = r.Transcript.SyncBoard(r.Host.Board())
	}
	if err != nil {
		fmt.Fprintln(r.Out, r.st.paint(red, "transcript: "+termsafe.String(err.Error())))
	}
}

// cost is /cost: the tokens used so far, as the provider reported them.
func (r *REPL) cost() {
	u, requests, reported := r.Agent.Usage()
	switch {
	case requests == 0:
		fmt.Fprintln(r.Out, "no requests yet")
	case reported == 0:
		fmt.Fprintf(r.Out, "tokens: not reported by this provider (%d requests)\n", requests)
	default:
		fmt.Fprintf(r.Out, "tokens: %d prompt + %d completion = %d, in %d requests\n",
			u.PromptTokens, u.CompletionTokens, u.PromptTokens+u.CompletionTokens, requests)
		if reported < requests {
			fmt.Fprintf(r.Out, "(%d of them not reported by the provider)\n", requests-reported)
		}
	}
}

// resume is /resume [FILE|last]: it loads a saved conversation in place of this one, with
// its todos and tasks; "last" is the newest other than this chat's own.
func (r *REPL) resume(arg string) {
	if arg == "" {
		arg = "last"
	}
	from, err := FindTranscript(r.TranscriptDir, arg, r.Transcript.Path())
	var saved Saved
	if err == nil {
		saved, err = ReadTranscript(from)
	}
	if err != nil {
		fmt.Fprintln(r.Out, r.st.paint(red, termsafe.String(err.Error())))
		return
	}
	r.Agent.SetHistory(saved.History)
	r.Host.Board().Restore(saved.Board)
	r.rewriteTranscript()
	fmt.Fprintf(r.Out, "resumed %s: %d messages\n", termsafe.Line(from), len(saved.History))
	for i := len(saved.History) - 1; i >= 0; i-- {
		if m := saved.History[i]; m.Role == agent.User && m.Text != "" {
			fmt.Fprintln(r.Out, r.st.paint(dim, "last request: "+termsafe.Line(oneLine(m.Text, 100))))
			break
		}
	}
}

// context is /context: the instruction files the model's system prompt holds.
func (r *REPL) context() {
	if r.Context == nil {
		fmt.Fprintln(r.Out, "no project instructions: they are for a model, and this chat has none")
		return
	}
	fmt.Fprint(r.Out, termsafe.String(r.Context()))
}

// initInstructions is /init: it drafts an AGENTS.md and writes it, as the user asked, unless
// the project has one.
func (r *REPL) initInstructions(ctx context.Context) {
	if r.Draft == nil {
		fmt.Fprintln(r.Out, "this chat cannot draft project instructions")
		return
	}
	if res, ok := r.userCall(ctx, agent.ToolCall{Name: "file_exists", Args: map[string]any{"path": "AGENTS.md"}}, true); !ok || !res.OK || strings.Contains(string(res.Content), `"exists":true`) {
		if ok && res.OK {
			fmt.Fprintln(r.Out, "AGENTS.md exists: edit it, or ask the model to; /context shows what the model has")
		}
		return
	}
	draft := r.Draft()
	fmt.Fprint(r.Out, termsafe.String(draft))
	res, ok := r.userCall(ctx, agent.ToolCall{Name: "write_file", Args: map[string]any{"path": "AGENTS.md", "content": draft}}, true)
	if ok && res.OK {
		fmt.Fprintln(r.Out, "wrote AGENTS.md: review it, and keep it short and true; the model reads it from the next request")
		r.note("I wrote AGENTS.md, the project's instructions for agents (drafted by /init).")
	}
}
