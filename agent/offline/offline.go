// Package offline is an agent.Provider that answers without a language model, so that jido
// chat and jido ask work with no API key. The query interpreter plans the tool calls of a
// question ("what's in src?", "find all go files"); when their results come back, the
// provider renders them for a person and ends the turn.
//
// The provider keeps no state: what "this file" or "these files" mean is read from the
// tool calls and results of the conversation it is sent, so a resumed conversation works
// the same.
package offline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
	"github.com/jido-run/jido/tools/definitions"
)

// ErrNothingToAnswer is the error of a request whose last message is not the user's: a
// mistake of the caller, which sending again would not fix.
var ErrNothingToAnswer = errors.New("offline: nothing to answer")

// Provider answers with the query interpreter.
type Provider struct {
	in *interpret.Interpreter
}

// New returns a provider that plans with in (nil: the rules alone, over every tool). Only
// the tools a request offers are ever called, whatever in.Tools holds.
func New(in *interpret.Interpreter) *Provider {
	if in == nil {
		in = &interpret.Interpreter{}
	}
	return &Provider{in: in}
}

// Name implements agent.Provider.
func (p *Provider) Name() string { return "offline (rule-based interpreter)" }

// Complete implements agent.Provider. A user's text is interpreted into tool calls (or,
// when no tool fits, answered with the reason and phrasings that work); the results of
// those calls are rendered as the final answer.
func (p *Provider) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	if len(req.Messages) == 0 {
		return agent.Message{}, fmt.Errorf("%w: the conversation is empty", ErrNothingToAnswer)
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != agent.User {
		return agent.Message{}, fmt.Errorf("%w: the last message is the assistant's", ErrNothingToAnswer)
	}
	h := readHistory(req.Messages)
	offered := func(name string) bool {
		return slices.ContainsFunc(req.Tools, func(s agent.ToolSpec) bool { return s.Name == name })
	}
	if next, ok := recovery(last.Results, h, offered); ok {
		return say(next.Text, onText, next.Calls...), nil
	}
	if len(last.Results) > 0 {
		var parts []string
		for _, r := range last.Results {
			parts = append(parts, render(r, h.calls[r.CallID]))
		}
		return say(strings.Join(parts, "\n\n"), onText), nil
	}
	plan := p.interpreter(req.Tools).Interpret(ctx, last.Text, h.context)
	if !plan.NeedsTools {
		return say(noTools(plan), onText), nil
	}
	msg := say(joinLines(plan.Rationale, note(plan.Notes)), onText)
	for i, t := range plan.Tools {
		msg.Calls = append(msg.Calls, agent.ToolCall{ID: fmt.Sprintf("call-%d", len(h.calls)+i+1), Name: t.Name, Args: t.Args})
	}
	return msg, nil
}

// interpreter is the provider's interpreter limited to the tools the request offers.
func (p *Provider) interpreter(specs []agent.ToolSpec) *interpret.Interpreter {
	pool := p.in.Tools
	if pool == nil {
		pool = definitions.All()
	}
	offered := []*definitions.Tool{} // not nil: nil would mean every tool
	for _, t := range pool {
		if slices.ContainsFunc(specs, func(s agent.ToolSpec) bool { return s.Name == t.Name }) {
			offered = append(offered, t)
		}
	}
	return &interpret.Interpreter{Model: p.in.Model, Tools: offered, Clean: p.in.Clean}
}

// say is an assistant message of text (passed to onText as well) and calls.
func say(text string, onText func(string), calls ...agent.ToolCall) agent.Message {
	if onText != nil && text != "" {
		onText(text)
	}
	return agent.Message{Role: agent.Assistant, Text: text, Calls: calls}
}

// noTools is the answer to a query no tool fits: why, and phrasings that work.
func noTools(p interpret.Plan) string {
	var b strings.Builder
	b.WriteString(p.Rationale)
	for _, s := range p.Suggestions {
		b.WriteString("\n- " + s)
	}
	if n := note(p.Notes); n != "" {
		b.WriteString("\n" + n)
	}
	return b.String()
}

// note renders a plan's notes, "" when there are none.
func note(notes string) string {
	if notes == "" {
		return ""
	}
	return "(" + notes + ")"
}

// joinLines joins the non-empty lines.
func joinLines(lines ...string) string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
