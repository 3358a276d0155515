// Package chat is jido's terminal face: the REPL of `jido chat` (streamed answers, one
// compact line per tool call, approval prompts with coloured diffs, slash commands, a
// transcript that can be resumed) and the one-shot answer of `jido ask`, both over an
// agent.Agent.
//
// Everything shown that comes from the model, a tool or a file goes through termsafe
// before the chat adds its own colours, so that no escape sequence of it reaches the
// terminal (it could redraw an approval question).
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/tasks"
	"github.com/jido-run/jido/termsafe"
)

// Host is what the slash commands act on: the session behind the chat.
type Host interface {
	Tools() []string                          // the names of the tools on offer
	Mode() string                             // the approval mode
	SetMode(mode string) error                // switch modes (entering or leaving plan mode starts a new session)
	Diff(ctx context.Context) (string, error) // the plan's diff in plan mode, else what this chat changed
	Undo(ctx context.Context) (string, error) // undo the last change set; what was restored
	Board() *tasks.Board                      // the session's todos and tasks (nil: none)
}

// REPL is one interactive chat.
type REPL struct {
	Agent      *agent.Agent
	Host       Host
	In         LineReader
	Out        io.Writer
	Color      bool
	Transcript *Transcript // nil: none
	Banner     string      // printed once at the start (the model, or the offline notice)
	// SwitchModel makes the provider of another model of the same backend (/model NAME);
	// nil: the model cannot be switched.
	SwitchModel func(ctx context.Context, name string) (agent.Provider, error)
	// TranscriptDir holds this project's saved conversations (/resume last); "": none.
	TranscriptDir string
	// Context lists the project instruction files in the system prompt (/context); Draft
	// drafts an AGENTS.md from the project (/init). nil: the chat has none (offline).
	Context func() string
	Draft   func() string

	st      style
	verbose bool
	mu      sync.Mutex
	cancel  context.CancelFunc // of the running turn; nil at the prompt
	atEmpty int                // Ctrl-C presses in a row at an empty prompt
	ui      *view              // the answer as Markdown, the spinner, the live block (render.go)
	notes   []string           // what the user ran (!cmd, /apply) since the last turn, for the model
	warned  string             // the command just warned that it would drop the plan (keepPlan)
}

const help = `Type a request and press Enter. A paste is one message, however many lines;
end a line with \ to go on on the next. In a request, @path attaches a file of the project.
  !COMMAND         run a command in the sandbox; the model sees its output with your next message
Commands:
  /help            this help
  /tools           the tools the model may call
  /mode [MODE]     show or set the approval mode: default, auto-edit, yolo, plan, read-only
  /apply           write the plan to the project (plan mode)
  /diff            what changed in this chat (the whole plan in plan mode)
  /undo            undo the last change set
  /tasks           the session's todos and tasks (todo_write, task)
  /model [NAME]    show the model, or switch to another for the next requests
  /compact         replace the conversation with a summary of it (todos and tasks stay)
  /cost            the tokens used so far
  /resume [FILE]   continue a saved conversation (default: the last one)
  /context         the project instructions (AGENTS.md, CLAUDE.md, GEMINI.md) the model has
  /init            draft an AGENTS.md for the project and write it (with your approval)
  /verbose         show or hide the arguments and results of tool calls
  /clear           start a new conversation
  /exit            leave (also Ctrl-D, or Ctrl-C twice)
Ctrl-C stops the current answer.
`

// Run reads requests until /exit, the end of input, or two Ctrl-C in a row.
func (r *REPL) Run(ctx context.Context) error {
	r.st = style{r.Color}
	r.Agent.OnEvent = r.event
	if r.Banner != "" {
		fmt.Fprintln(r.Out, r.st.paint(dim, termsafe.String(r.Banner)))
	}
	for {
		line, err := r.read()
		switch {
		case errors.Is(err, ErrInterrupted):
			if r.interruptedAtPrompt() {
				return nil
			}
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(r.Out)
			return nil
		case err != nil:
			return err
		}
		r.atEmpty = 0
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r.In.AppendHistory(line)
		if name, _, _ := strings.Cut(line, " "); name != r.warned && !(name == "/quit" && r.warned == "/exit") {
			r.warned = "" // the warning holds for the very next command only
		}
		switch {
		case strings.HasPrefix(line, "/"):
			if r.command(ctx, line) {
				return nil
			}
			continue
		case strings.HasPrefix(line, "!"):
			r.shell(ctx, strings.TrimSpace(line[1:]))
			continue
		}
		r.turn(ctx, line)
		if err := ctx.Err(); err != nil {
			return nil
		}
	}
}

// Interrupt handles a Ctrl-C that reached the process (SIGINT): it stops the running turn
// and reports false, or, at the prompt, counts toward leaving and reports whether to exit.
func (r *REPL) Interrupt() (exit bool) {
	r.mu.Lock()
	cancel := r.cancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
		return false
	}
	return r.interruptedAtPrompt()
}

// interruptedAtPrompt counts a Ctrl-C at the prompt: the second in a row leaves.
func (r *REPL) interruptedAtPrompt() bool {
	r.atEmpty++
	if r.atEmpty >= 2 {
		fmt.Fprintln(r.Out)
		return true
	}
	fmt.Fprintln(r.Out, r.st.paint(dim, "\n(press Ctrl-C again or type /exit to leave)"))
	return false
}

// turn sends one request to the agent and shows the answer as it streams. The files the
// request mentions (@path) and the notes of what the user ran go with it.
func (r *REPL) turn(ctx context.Context, text string) {
	text = r.withNotes(r.mentions(ctx, text))
	tctx, done := r.running(ctx)
	defer done()
	before := len(r.Agent.History())
	_, err := r.send(tctx, text)
	if len(r.Agent.History()) > before {
		r.notes = nil // the model has them (a request that failed at once is taken back)
	}
	r.endLine()
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(r.Out, r.st.paint(yellow, "(stopped)"))
	default:
		fmt.Fprintln(r.Out, r.st.paint(red, "error: "+termsafe.String(err.Error())))
	}
	err = r.Transcript.Sync(r.Agent.History())
	if err == nil {
		err = r.Transcript.SyncBoard(r.Host.Board())
	}
	if err != nil {
		fmt.Fprintln(r.Out, r.st.paint(red, "transcript: "+termsafe.String(err.Error())))
	}
}

// boardText is what /tasks shows: the todos and the tasks as their exports render them.
func boardText(b *tasks.Board) string {
	if b == nil {
		return "this session keeps no todos or tasks\n"
	}
	var out strings.Builder
	if md, n := b.ExportTodos(); n > 0 {
		out.WriteString(md)
	}
	if md, n := b.ExportTasks(); n > 0 {
		out.WriteString(md)
	}
	if out.Len() == 0 {
		return "no todos or tasks yet\n"
	}
	return out.String()
}

// endLine ends a line of streamed text.
func (r *REPL) endLine() { r.view().endLine() }

// event shows what the agent reports during a turn.
func (r *REPL) event(e agent.Event) {
	switch e.Kind {
	case agent.EventText:
		r.view().text(e.Text)
	case agent.EventToolCall:
		if r.verbose {
			r.endLine()
			args, _ := json.Marshal(e.Call.Args)
			fmt.Fprintln(r.Out, r.st.paint(dim, "→ "+termsafe.Line(e.Call.Name+" "+string(args))))
		}
	case agent.EventToolResult:
		r.endLine()
		fmt.Fprint(r.Out, r.view().toolLine(*e.Call, *e.Result))
		if r.verbose {
			fmt.Fprintln(r.Out, r.st.paint(dim, termsafe.Line(oneLineJSON(e.Result.Content, 2000))))
		}
	case agent.EventRetry, agent.EventNotice:
		r.endLine()
		fmt.Fprintln(r.Out, r.st.paint(yellow, termsafe.String(e.Text)))
	}
}

// oneLineJSON shows raw JSON cut at max bytes (at the start of a character).
func oneLineJSON(raw json.RawMessage, max int) string {
	s := string(raw)
	if len(s) > max {
		for max > 0 && !utf8.RuneStart(s[max]) {
			max--
		}
		s = s[:max] + fmt.Sprintf("… (%d bytes)", len(raw))
	}
	return s
}

// command runs a slash command; it reports whether to leave.
func (r *REPL) command(ctx context.Context, line string) bool {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "/exit", "/quit":
		return !r.keepPlan(ctx, "/exit")
	case "/help":
		fmt.Fprint(r.Out, help)
	case "/tools":
		tools := r.Host.Tools()
		slices.Sort(tools)
		fmt.Fprintln(r.Out, termsafe.String(strings.Join(tools, " ")))
	case "/mode":
		if arg == "" {
			fmt.Fprintln(r.Out, "mode:", termsafe.String(r.Host.Mode()))
			break
		}
		if _, err := policy.ParseMode(arg); err == nil && arg != "plan" && r.Host.Mode() == "plan" && r.keepPlan(ctx, "/mode") {
			break
		}
		if err := r.Host.SetMode(arg); err != nil {
			fmt.Fprintln(r.Out, r.st.paint(red, termsafe.String(err.Error())))
			break
		}
		fmt.Fprintln(r.Out, "mode:", termsafe.String(r.Host.Mode()))
	case "/diff":
		d, err := r.Host.Diff(ctx)
		switch {
		case err != nil:
			fmt.Fprintln(r.Out, r.st.paint(red, termsafe.String(err.Error())))
		case d == "":
			fmt.Fprintln(r.Out, "no changes")
		default:
			fmt.Fprint(r.Out, r.st.diff(d))
		}
	case "/undo":
		out, err := r.Host.Undo(ctx)
		if err != nil {
			fmt.Fprintln(r.Out, r.st.paint(red, termsafe.String(err.Error())))
		} else {
			fmt.Fprintln(r.Out, termsafe.String(out))
		}
	case "/tasks":
		fmt.Fprint(r.Out, termsafe.String(boardText(r.Host.Board())))
	case "/verbose":
		r.verbose = !r.verbose
		fmt.Fprintln(r.Out, "verbose:", map[bool]string{true: "on", false: "off"}[r.verbose])
	case "/apply":
		r.apply(ctx)
	case "/model":
		r.switchModel(ctx, arg)
	case "/compact":
		r.compact(ctx)
	case "/cost":
		r.cost()
	case "/resume":
		r.resume(arg)
	case "/context":
		r.context()
	case "/init":
		r.initInstructions(ctx)
	case "/clear":
		r.Agent.Reset()
		if err := r.Transcript.Clear(); err != nil {
			fmt.Fprintln(r.Out, r.st.paint(red, "transcript: "+termsafe.String(err.Error())))
		}
		fmt.Fprintln(r.Out, "new conversation")
	default:
		fmt.Fprintf(r.Out, "unknown command %s; /help lists them\n", termsafe.Line(name))
	}
	return false
}
