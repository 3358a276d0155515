package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/chat"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tasks"
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
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case cmd == "ask" && fs.NArg() == 1:
		o.question = fs.Arg(0)
	case cmd == "ask":
		return nil, fmt.Errorf(`ask takes one QUESTION (quote it), got %d arguments`, fs.NArg())
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
	m, perms, done, err := o.openManager(nil, false)
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
	lines := newLineReader()
	defer lines.Close()
	color := colorOn(stdout)
	approver := chat.NewApprover(lines, stdout, color)
	m, perms, done, err := o.openManager(approver, true)
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer done()
	warnUntrusted(perms, stderr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := m.Open(ctx, "")
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
	reportToolErrors(s, stderr)
	tr, closeTranscript, err := o.openTranscript(a, s.Board())
	if err != nil {
		fmt.Fprintf(stderr, "jido chat: %s\n", termsafe.String(err.Error()))
		return exitUsage
	}
	defer closeTranscript()
	host := &chat.SessionHost{Manager: m, Policy: perms, Exec: exec, Started: time.Now()}
	repl := &chat.REPL{Agent: a, Host: host, In: lines, Out: stdout, Color: color, Transcript: tr,
		Banner: banner(a, notice, m.Root())}
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

// banner is the chat's first line: the model, and the offline notice.
func banner(a *agent.Agent, notice, root string) string {
	b := fmt.Sprintf("jido chat · %s · %s · /help for commands", a.Provider.Name(), root)
	if notice != "" {
		b = notice + "\n" + b
	}
	return b
}

// openTranscript opens the chat's transcript (resuming one if asked, in this project's
// transcript directory, beside its journal, outside the root) and loads a resumed
// conversation into a and its todos and tasks into board.
func (o *chatOptions) openTranscript(a *agent.Agent, board *tasks.Board) (*chat.Transcript, func() error, error) {
	dir, err := projectState(o.root, "transcripts")
	if err != nil {
		return nil, nil, err
	}
	tr, saved, closeFile, err := chat.OpenTranscript(dir, o.transcript, o.resume)
	if err != nil {
		return nil, nil, err
	}
	a.SetHistory(saved.History)
	board.Restore(saved.Board)
	return tr, closeFile, nil
}

// colorOn reports whether w is a terminal that wants colour (NO_COLOR unset, TERM not dumb).
func colorOn(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// lineReader is the chat's chat.LineReader: liner's line editor with history.
type lineReader struct {
	mu     sync.Mutex
	state  *liner.State
	closed bool
}

func newLineReader() *lineReader {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	return &lineReader{state: st}
}

func (l *lineReader) Prompt(p string) (string, error) {
	line, err := l.state.Prompt(p)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", chat.ErrInterrupted
	}
	return line, err
}

func (l *lineReader) AppendHistory(line string) { l.state.AppendHistory(line) }

// Close restores the terminal; safe to call twice.
func (l *lineReader) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		l.state.Close()
	}
}
