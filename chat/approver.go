package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
	"golang.org/x/term"
)

// LineReader reads the user's lines: a line editor with history on a terminal
// (github.com/peterh/liner), plain lines otherwise, a script in tests.
type LineReader interface {
	// Prompt shows prompt and returns the line typed, io.EOF at the end of input (Ctrl-D),
	// or ErrInterrupted when the user pressed Ctrl-C while typing.
	Prompt(prompt string) (string, error)
	AppendHistory(line string)
}

// ErrInterrupted is returned by a LineReader when the user pressed Ctrl-C at the prompt.
var ErrInterrupted = fmt.Errorf("interrupted")

// KeyReader reads an answer as one key press: a terminal in raw mode (TerminalKeys).
type KeyReader interface {
	// ReadKey shows prompt and returns the key pressed: io.EOF at the end of input (or
	// Ctrl-D), ErrInterrupted for Ctrl-C, another error when the key cannot be read this
	// way (the approver then reads a line).
	ReadKey(prompt string) (rune, error)
}

// TerminalKeys reads single keys from a terminal, in raw mode for the one key only.
type TerminalKeys struct {
	Fd int // the terminal put in raw mode while a key is read
	// In is where the terminal's input is read; nil: os.Stdin as it is when the key is
	// read (a chat may have put a filter, a pipe, between the terminal and its readers).
	In  io.Reader
	Out io.Writer // where the prompt is shown
}

// ReadKey implements KeyReader. An escape sequence (an arrow key) is read whole and
// reported as its first byte, Esc.
func (k *TerminalKeys) ReadKey(prompt string) (rune, error) {
	old, err := term.MakeRaw(k.Fd)
	if err != nil {
		return 0, err
	}
	in := k.In
	if in == nil {
		in = os.Stdin
	}
	fmt.Fprint(k.Out, prompt)
	var buf [16]byte
	n, err := in.Read(buf[:])
	term.Restore(k.Fd, old)
	switch {
	case err != nil:
		return 0, err
	case n == 0:
		return 0, io.EOF
	}
	r, _ := utf8.DecodeRune(buf[:n])
	switch r {
	case 3: // Ctrl-C: raw mode delivers it as a byte, not as SIGINT
		return 0, ErrInterrupted
	case 4: // Ctrl-D
		return 0, io.EOF
	}
	return r, nil
}

// Approver asks the user in the terminal about the calls the policy asks about; it is the
// chat's manager.Approver. The answers are single keys: y (once), s (this session),
// a (always), n (no; also Enter and Esc). With Keys a key press answers; without, a line.
type Approver struct {
	In   LineReader
	Keys KeyReader // nil: answers are lines read from In
	Out  io.Writer
	// OnInterrupt, if set, runs when the user presses Ctrl-C at the question (the chat
	// stops the turn); the call is denied either way.
	OnInterrupt func()
	st          style
}

// NewApprover returns an approver reading answers from in, printing to out, in colour when
// color is set. When standard input (file descriptor 0) is a terminal, an answer is one
// key press, the terminal in raw mode (TerminalKeys), read from os.Stdin as it is then;
// otherwise a line from in.
func NewApprover(in LineReader, out io.Writer, color bool) *Approver {
	a := &Approver{In: in, Out: out, st: style{color}}
	if term.IsTerminal(0) {
		a.Keys = &TerminalKeys{Fd: 0, Out: out}
	}
	return a
}

// answers are the keys (and words, for line answers) of an approval.
var answers = []struct {
	keys   []string
	answer manager.Answer
	label  string
}{
	{[]string{"y", "yes"}, manager.AllowOnce, "once"},
	{[]string{"s", "session"}, manager.AllowSession, "this session"},
	{[]string{"a", "always"}, manager.AllowAlways, "always"},
	{[]string{"n", "no", "", "\x1b"}, manager.Deny, "no"},
}

// answerFor maps a key or a line to an answer.
func answerFor(s string) (manager.Answer, string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, a := range answers {
		if slices.Contains(a.keys, s) {
			return a.answer, a.label, true
		}
	}
	return manager.Deny, "", false
}

// Approve shows the request (the tool, its reason, the diff or command) and reads an
// answer; the end of input or Ctrl-C denies. Everything in the request may come from the
// model (a command, a path, a diff of its content), so it is shown through termsafe: no
// escape sequence of it can redraw the question.
func (a *Approver) Approve(ctx context.Context, req manager.ApprovalRequest) (manager.Answer, error) {
	fmt.Fprintf(a.Out, "\n%s %s\n", a.st.paint(yellow, "?"), a.st.paint(bold, approvalTitle(req)))
	fmt.Fprintf(a.Out, "  %s\n", a.st.paint(dim, termsafe.Line(req.Reason)))
	if req.Preview != "" {
		preview := req.Preview
		if !strings.HasSuffix(preview, "\n") {
			preview += "\n"
		}
		fmt.Fprint(a.Out, indent(a.st.diff(preview), "  "))
	}
	if req.Rule != "" {
		// The rule that [s] and [a] record, before the answer: it may cover more than this
		// call; and the file [a] writes it to.
		fmt.Fprintf(a.Out, "  %s\n%s", a.st.paint(dim, "[s] and [a] allow from now on:"), indent(termsafe.String(strings.TrimRight(req.Rule, "\n")+"\n"), "    "))
		if req.RuleFile != "" {
			where := "[a] writes it to " + fromHere(req.RuleFile)
			if req.RuleNote != "" {
				where += " (" + req.RuleNote + ")"
			}
			fmt.Fprintf(a.Out, "  %s\n", a.st.paint(dim, termsafe.Line(where)))
		}
	}
	const prompt = "  allow? [y] once  [s] this session  [a] always  [n] no: "
	keys := a.Keys
	for {
		if err := ctx.Err(); err != nil {
			return manager.Deny, err
		}
		var line string
		var err error
		if keys != nil {
			var r rune
			if r, err = keys.ReadKey(prompt); err == nil {
				line = string(r)
				if r == '\r' || r == '\n' {
					line = ""
				}
			} else if !errors.Is(err, io.EOF) && !errors.Is(err, ErrInterrupted) {
				keys = nil // not a terminal after all: read a line
				continue
			}
		} else {
			line, err = a.In.Prompt(prompt)
		}
		if errors.Is(err, ErrInterrupted) && a.OnInterrupt != nil {
			a.OnInterrupt()
		}
		if err != nil {
			if keys != nil {
				fmt.Fprintln(a.Out)
			}
			return manager.Deny, nil
		}
		answer, label, ok := answerFor(line)
		if keys != nil {
			if !ok {
				label = termsafe.Line(line)
			}
			fmt.Fprintln(a.Out, label) // the key pressed, as a word, ends the prompt's line
		}
		if ok {
			return answer, nil
		}
		fmt.Fprintln(a.Out, "  answer y, s, a or n")
	}
}

// approvalTitle names what is to be approved: the commands of a shell call, else the tool
// and its paths. It is one line, made safe to print (termsafe.Line).
func approvalTitle(req manager.ApprovalRequest) string {
	if len(req.Commands) > 0 {
		return termsafe.Line(fmt.Sprintf("%s wants to run: %s (%s)", req.Tool, strings.Join(req.Commands, "; "), req.Class))
	}
	if len(req.Paths) > 0 {
		return termsafe.Line(fmt.Sprintf("%s %s", req.Tool, strings.Join(req.Paths, " ")))
	}
	return termsafe.Line(req.Tool)
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// fromHere is path as a person at the terminal names it: relative to the working directory
// when it is below it, else as it is.
func fromHere(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
