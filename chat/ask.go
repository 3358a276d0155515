package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jido-run/jido/agent"
)

// AskResult is the answer of `jido ask --json`.
type AskResult struct {
	Question string      `json:"question"`
	Answer   string      `json:"answer"`
	Provider string      `json:"provider"`
	Calls    []AskedCall `json:"calls"`
	Error    string      `json:"error,omitempty"`
}

// AskedCall is one tool call made to answer.
type AskedCall struct {
	Name    string          `json:"name"`
	Args    map[string]any  `json:"args,omitempty"`
	OK      bool            `json:"ok"`
	Outcome string          `json:"outcome"`
	Result  json.RawMessage `json:"result"`
}

// Ask answers one question through the agent. For a person it streams the answer and
// prints one line per tool call; with asJSON it prints one AskResult object at the end.
// It returns the error of the turn, if any.
func Ask(ctx context.Context, a *agent.Agent, question string, out io.Writer, asJSON, color bool) error {
	st := style{color}
	res := AskResult{Question: question, Provider: a.Provider.Name(), Calls: []AskedCall{}}
	midLine := false
	a.OnEvent = func(e agent.Event) {
		switch {
		case e.Kind == agent.EventToolResult:
			res.Calls = append(res.Calls, AskedCall{Name: e.Call.Name, Args: e.Call.Args, OK: e.Result.OK,
				Outcome: outcome(*e.Call, *e.Result), Result: e.Result.Content})
			if !asJSON {
				if midLine {
					fmt.Fprintln(out)
					midLine = false
				}
				fmt.Fprintln(out, st.toolLine(*e.Call, *e.Result))
			}
		case asJSON:
		case e.Kind == agent.EventText:
			fmt.Fprint(out, e.Text)
			midLine = len(e.Text) > 0 && e.Text[len(e.Text)-1] != '\n'
		case e.Kind == agent.EventRetry || e.Kind == agent.EventNotice:
			fmt.Fprintln(out, st.paint(yellow, e.Text))
		}
	}
	answer, err := a.Send(ctx, question)
	res.Answer = answer
	if err != nil {
		res.Error = err.Error()
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		if jerr := enc.Encode(res); jerr != nil && err == nil {
			err = jerr
		}
	} else if midLine {
		fmt.Fprintln(out)
	}
	return err
}
