package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/termsafe"
)

// AskResult is the answer of `jido ask --json`.
type AskResult struct {
	Question string      `json:"question"`
	Answer   string      `json:"answer"`
	Provider string      `json:"provider"`
	Calls    []AskedCall `json:"calls"`
	// Plan is the plan a Planner made of the question before any call ran:
	// {needs_tools, tools: [{name, args, confidence}], rationale, notes, source: "model" or
	// "rules", fallback: why the rules answered for a model, model_attempts}. Absent for
	// providers that plan as they go (Gemini, OpenAI).
	Plan  json.RawMessage `json:"plan,omitempty"`
	Error string          `json:"error,omitempty"`
}

// Planner is a provider that plans a question's tool calls before running them: the
// offline provider, with the query interpreter (agent/offline). Ask shows its plan.
type Planner interface {
	// WatchPlans has f told every plan made, as a JSON object, until stop is called.
	WatchPlans(f func(plan json.RawMessage)) (stop func())
}

// AskedCall is one tool call made to answer.
type AskedCall struct {
	Name    string          `json:"name"`
	Args    map[string]any  `json:"args,omitempty"`
	OK      bool            `json:"ok"`
	Outcome string          `json:"outcome"`
	Result  json.RawMessage `json:"result"`
}

// Ask answers one question through the agent. For a person it streams the answer as
// Markdown (plain without color) and prints one line per tool call, with a spinner and the
// running command's latest lines when out is a terminal; with asJSON it prints one
// AskResult object at the end. It returns the error of the turn, if any. What comes from the model or the tools is
// shown through termsafe (the JSON with termsafe.JSON, which keeps it the same JSON).
func Ask(ctx context.Context, a *agent.Agent, question string, out io.Writer, asJSON, color bool) error {
	st := style{color}
	res := AskResult{Question: question, Provider: a.Provider.Name(), Calls: []AskedCall{}}
	if p, ok := a.Provider.(Planner); ok && asJSON {
		defer p.WatchPlans(func(plan json.RawMessage) { res.Plan = plan })()
	}
	v := newView(out, st)
	a.OnEvent = func(e agent.Event) {
		switch {
		case e.Kind == agent.EventToolResult:
			res.Calls = append(res.Calls, AskedCall{Name: e.Call.Name, Args: e.Call.Args, OK: e.Result.OK,
				Outcome: outcome(*e.Result), Result: e.Result.Content})
			if !asJSON {
				v.endLine()
				io.WriteString(out, v.toolLine(*e.Call, *e.Result))
			}
		case asJSON:
		case e.Kind == agent.EventText:
			v.text(e.Text)
		case e.Kind == agent.EventRetry || e.Kind == agent.EventNotice:
			v.endLine()
			fmt.Fprintln(out, st.paint(yellow, termsafe.String(e.Text)))
		}
	}
	end := func() {}
	if !asJSON {
		end = v.begin(a) // the spinner and the live block while it runs
	}
	answer, err := a.Send(ctx, question)
	end()
	res.Answer = answer
	if err != nil {
		res.Error = err.Error()
	}
	if asJSON {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		jerr := enc.Encode(res)
		if jerr == nil {
			_, jerr = io.WriteString(out, termsafe.JSON(buf.String()))
		}
		if jerr != nil && err == nil {
			err = jerr
		}
		return err
	}
	v.endLine()
	return err
}
