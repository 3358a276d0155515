package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
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

// Approver asks the user in the terminal about the calls the policy asks about; it is the
// chat's manager.Approver.
type Approver struct {
	In  LineReader
	Out io.Writer
	// OnInterrupt, if set, runs when the user presses Ctrl-C at the question (the chat
	// stops the turn); the call is denied either way.
	OnInterrupt func()
	st          style
}

// NewApprover returns an approver reading answers from in, printing to out, in colour when
// color is set.
func NewApprover(in LineReader, out io.Writer, color bool) *Approver {
	return &Approver{In: in, Out: out, st: style{color}}
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
		// The rule that [s] and [a] record, before the answer: it may cover more than this call.
		fmt.Fprintf(a.Out, "  %s\n%s", a.st.paint(dim, "[s] and [a] allow from now on:"), indent(termsafe.String(strings.TrimRight(req.Rule, "\n")+"\n"), "    "))
	}
	for {
		if err := ctx.Err(); err != nil {
			return manager.Deny, err
		}
		line, err := a.In.Prompt("  allow? [y] once  [s] this session  [a] always  [n] no: ")
		if errors.Is(err, ErrInterrupted) && a.OnInterrupt != nil {
			a.OnInterrupt()
		}
		if err != nil {
			return manager.Deny, nil
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return manager.AllowOnce, nil
		case "s", "session":
			return manager.AllowSession, nil
		case "a", "always":
			return manager.AllowAlways, nil
		case "n", "no", "":
			return manager.Deny, nil
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
