// Package offline is an agent.Provider that answers without a language model, so that jido
// chat and jido ask work with no API key. The query interpreter plans the tool calls of a
// question ("what's in src?", "find all go files"); when their results come back, the
// provider renders them for a person and ends the turn.
//
// The provider keeps no conversation state: what "this file" or "these files" mean is read from the
// tool calls and results of the conversation it is sent, so a resumed conversation works
// the same.
package offline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

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

	mu       sync.Mutex
	watchers map[int]func(json.RawMessage)
	next     int
}

// New returns a provider that plans with in (nil: the rules alone, over every tool). Only
// the tools a request offers are ever called, whatever in.Tools holds.
func New(in *interpret.Interpreter) *Provider {
	if in == nil {
		in = &interpret.Interpreter{}
	}
	return &Provider{in: in}
}

// Name implements agent.Provider: "offline (rule-based interpreter)" without a model;
// with one, the model that plans (its Name, when it has one) and the rules behind it.
func (p *Provider) Name() string {
	if p.in.Model == nil {
		return "offline (rule-based interpreter)"
	}
	model := "a language model"
	if n, ok := p.in.Model.(interface{ Name() string }); ok {
		model = n.Name()
	}
	return "query interpreter (plans with " + model + ", the rules as fallback)"
}

// WatchPlans has f told, as a JSON object (interpret.Plan), every plan the provider makes
// until stop is called: which calls, their confidence, the rationale and notes, and which
// layer made it. f is called from Complete, for whichever conversation it serves; jido ask
// uses it to show the plan of its one question.
func (p *Provider) WatchPlans(f func(plan json.RawMessage)) (stop func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.watchers == nil {
		p.watchers = map[int]func(json.RawMessage){}
	}
	id := p.next
	p.next++
	p.watchers[id] = f
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.watchers, id)
	}
}

// tell passes plan to the watchers.
func (p *Provider) tell(plan interpret.Plan) {
	p.mu.Lock()
	fs := make([]func(json.RawMessage), 0, len(p.watchers))
	for _, f := range p.watchers {
		fs = append(fs, f)
	}
	p.mu.Unlock()
	if len(fs) == 0 {
		return
	}
	if plan.Tools == nil {
		plan.Tools = []interpret.ToolPlan{} // "tools": [], as the schema has it
	}
	data, err := json.Marshal(plan)
	if err != nil { // args decoded from JSON or built by the rules: cannot happen
		return
	}
	for _, f := range fs {
		f(data)
	}
}

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
	p.tell(plan)
	if !plan.NeedsTools {
		return say(noTools(plan), onText), nil
	}
	msg := say(joinLines(plan.Rationale, note(plan.Notes)), onText)
	for i, t := range plan.Tools {
		msg.Calls = append(msg.Calls, agent.ToolCall{ID: fmt.Sprintf("call-%d", len(h.calls)+i+1), Name: t.Name, Args: t.Args, Opaque: sealHint(t)})
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
	var model interpret.Model
	if p.in.Model != nil {
		model = serviceModel{p.in.Model}
	}
	return &interpret.Interpreter{Model: model, Budget: p.in.Budget, Tools: offered, Clean: p.in.Clean}
}

// serviceModel reports a model's *agent.APIError as an interpret.ServiceError, so that
// the interpreter retries a 429 or 5xx. The error reads the same.
type serviceModel struct{ interpret.Model }

func (m serviceModel) AskJSON(ctx context.Context, prompt string, schema map[string]any) ([]byte, error) {
	data, err := m.Model.AskJSON(ctx, prompt, schema)
	var apiErr *agent.APIError
	if err != nil && errors.As(err, &apiErr) {
		err = &interpret.ServiceError{Status: apiErr.Status, RetryAfter: apiErr.RetryAfter, Err: err}
	}
	return data, err
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
