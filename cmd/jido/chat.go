package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/agent/offline"
	"github.com/jido-run/jido/agent/textproto"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/instructions"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
	"github.com/peterh/liner"
	"golang.org/x/term"
)

// chatOptions are the parsed arguments of `jido chat` and `jido ask`.
type chatOptions struct {
	sessionFlags
	providerFlags
	transcript string // chat: the NDJSON transcript to write ("" = a new one in the state dir)
	resume     string // chat: a transcript to continue, or "last"
	json       bool   // ask: print one JSON object
	question   string // ask
	// offer is what the provider is told of the session's tools (set by newAgent: the
	// profile's with schemas, or jido's own names only for offline mode).
	offer func(*manager.Session) []agent.ToolSpec
}

func parseChat(cmd string, args []string, stderr io.Writer) (*chatOptions, error) {
	o := &chatOptions{}
	fs := newFlagSet(cmd, stderr)
	o.sessionFlags.register(fs)
	o.providerFlags.register(fs)
	if cmd == "chat" {
		fs.StringVar(&o.transcript, "transcript", "", "write the conversation to this NDJSON file (default: a new file in jido's state directory)")
		fs.StringVar(&o.resume, "resume", "", "continue a saved conversation: a transcript file, or 'last' for this project's latest")
	} else {
		fs.BoolVar(&o.json, "json", false, "print the answer, the calls and their results as one JSON object")
	}
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	switch {
	case cmd == "ask" && strings.TrimSpace(strings.Join(fs.Args(), " ")) != "":
		o.question = strings.Join(fs.Args(), " ") // jido ask list the go files: the words, joined
	case cmd == "ask":
		return nil, fmt.Errorf("ask needs a QUESTION")
	case fs.NArg() != 0:
		return nil, fmt.Errorf("chat takes no arguments, got %d", fs.NArg())
	}
	return o, nil
}

// runAsk implements `jido ask QUESTION`: one question answered through tools. Asks of the
// policy are refused (headless) unless --yes; the model is told and can do otherwise.
func runAsk(argv []string, stdout, stderr io.Writer) int {
	o, err := parseChat("ask", argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido ask: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	m, perms, done, err := o.openManager(nil, false, true)
	if err != nil {
		fmt.Fprintf(stderr, "jido ask: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer done()
	if !o.json {
		warnUntrusted(perms, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	s, err := m.Open(ctx, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido ask: %s\n", termsafe.String(err.Error()))
		return exitToolError
	}
	defer s.Close()
	exec := chat.NewExecutor(s)
	a, notice, err := o.newAgent(ctx, exec, s)
	if err != nil {
		fmt.Fprintf(stderr, "jido ask: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	if notice != "" && !o.json {
		fmt.Fprintln(stderr, notice)
	}
	if !o.json {
		reportToolErrors(s, stderr)
	}
	if err := chat.Ask(ctx, a, o.question, stdout, o.json, colorOn(stdout)); err != nil {
		if !o.json {
			fmt.Fprintf(stderr, "jido ask: %s\n", termsafe.String(err.Error()))
		}
		return exitToolError
	}
	return exitOK
}

// runChat implements `jido chat`: the interactive agent.
func runChat(argv []string, stdout, stderr io.Writer) int {
	o, err := parseChat("chat", argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	lines := newLineReader(stdout)
	defer lines.Close()
	color := colorOn(stdout)
	approver := chat.NewApprover(lines, stdout, color)
	m, perms, done, err := o.openManager(approver, true, true)
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer done()
	warnUntrusted(perms, stderr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr, saved, dir, closeTranscript, err := o.openTranscript()
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer closeTranscript()
	// The conversation is the transcript's: /undo reaches what it changed, resumed too.
	s, err := m.Open(ctx, "", manager.WithConversation(filepath.Base(tr.Path())))
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitToolError
	}
	exec := chat.NewExecutor(s)
	defer func() { exec.Session().Close() }()
	a, notice, err := o.newAgent(ctx, exec, s)
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	a.SetHistory(saved.History)
	s.Board().Restore(saved.Board)
	reportToolErrors(s, stderr)
	host := &chat.SessionHost{Manager: m, Policy: perms, Exec: exec, Started: time.Now()}
	repl := &chat.REPL{Agent: a, Host: host, In: lines, Out: stdout, Color: color, Transcript: tr,
		Banner: banner(a, notice, m.Root()), TranscriptDir: dir, SwitchModel: o.switchModel(exec),
		Draft: func() string { return draftInstructions(m.Root()) }}
	if o.instructions != nil {
		repl.Context = o.instructions.Describe
	}
	a.ToolSource = func() []agent.ToolSpec { return o.offer(exec.Session()) }
	approver.OnInterrupt = func() { repl.Interrupt() } // Ctrl-C at an approval stops the turn

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for sig := range sigs {
			if sig == syscall.SIGTERM || repl.Interrupt() {
				// A prompt blocked on input cannot be woken: end here, closing the session
				// (which kills its commands) and restoring the terminal.
				cancel()
				exec.Session().Close()
				lines.Close()
				done()
				os.Exit(exitOK)
			}
		}
	}()
	if err := repl.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitToolError
	}
	return exitOK
}

// switchModel makes the provider of another model for /model: the same backend and
// flags with --model NAME. The offline interpreter has no model to switch.
func (o *chatOptions) switchModel(exec *chat.Executor) func(context.Context, string) (agent.Provider, error) {
	return func(ctx context.Context, name string) (agent.Provider, error) {
		f := o.providerFlags
		f.model = name
		p, _, err := f.open(ctx, exec.Session())
		if err != nil {
			return nil, err
		}
		if _, off := p.(*offline.Provider); off && f.provider != "interpreter" {
			return nil, errors.New("the offline interpreter has no model to switch; set GEMINI_API_KEY or use --provider")
		}
		if o.textProtocol {
			p = textproto.Wrap(p)
		}
		return p, nil
	}
}

// banner is the chat's first line: the model, and the offline notice.
func banner(a *agent.Agent, notice, root string) string {
	b := fmt.Sprintf("jido chat · %s · %s · /help for commands", a.Provider.Name(), root)
	if notice != "" {
		b = notice + "\n" + b
	}
	return b
}

// openTranscript opens the chat's transcript (resuming one if asked, in this project's
// transcript directory, beside its journal, outside the root) with what a resumed one
// holds: the conversation and its todos and tasks.
func (o *chatOptions) openTranscript() (*chat.Transcript, chat.Saved, string, func() error, error) {
	dir, err := projectState(o.root.dir, "transcripts")
	if err != nil {
		return nil, chat.Saved{}, "", nil, err
	}
	tr, saved, closeFile, err := chat.OpenTranscript(dir, o.transcript, o.resume)
	if err != nil {
		return nil, chat.Saved{}, "", nil, err
	}
	return tr, saved, dir, closeFile, nil
}

// colorOn reports whether w is a terminal that wants colour (NO_COLOR unset, TERM not dumb).
func colorOn(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// lineReader is the chat's chat.LineReader: liner's line editor with history. On a
// terminal, the input reaches liner through chat.Pastes (bracketed paste turned on), so
// that a paste of many lines is one message.
type lineReader struct {
	mu     sync.Mutex
	state  *liner.State
	pastes *chat.Pastes // nil when stdin is not a terminal
	out    io.Writer
	closed bool

	raw, expanded string // the last line as liner returned it, and with its pastes
}

func newLineReader(out io.Writer) *lineReader {
	l := &lineReader{out: out}
	if term.IsTerminal(int(os.Stdin.Fd())) {
		// liner reads os.Stdin (and sets the mode of file descriptor 0, the terminal):
		// it gets the terminal's input through the paste filter.
		if r, w, err := os.Pipe(); err == nil {
			l.pastes = &chat.Pastes{}
			tty := os.Stdin
			go func() {
				l.pastes.Filter(tty, w)
				w.Close()
			}()
			os.Stdin = r
			fmt.Fprint(out, chat.PasteOn)
		}
	}
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	l.state = st
	return l
}

func (l *lineReader) Prompt(p string) (string, error) {
	line, err := l.state.Prompt(p)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", chat.ErrInterrupted
	}
	l.raw, l.expanded = line, l.pastes.Expand(line)
	return l.expanded, err
}

// AppendHistory keeps a line for recall; a message of many lines is kept as it was typed
// (its pastes as placeholders), or not at all when it was not one line of liner's.
func (l *lineReader) AppendHistory(line string) {
	switch {
	case line == l.expanded:
		l.state.AppendHistory(l.raw)
	case !strings.Contains(line, "\n"):
		l.state.AppendHistory(line)
	}
}

// Close restores the terminal; safe to call twice.
func (l *lineReader) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		l.state.Close()
		if l.pastes != nil {
			fmt.Fprint(l.out, chat.PasteOff)
		}
	}
}

// draftInstructions drafts an AGENTS.md for the project at root (/init), reading it through
// an os.Root so that nothing outside it is read.
func draftInstructions(root string) string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return instructions.Draft(os.DirFS(os.DevNull), filepath.Base(root)) // a bare draft
	}
	defer r.Close()
	return instructions.Draft(r.FS(), filepath.Base(root))
}
