package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jido-run/jido/jsoncap"
)

// fit keeps the conversation inside ContextChars before a request: it shortens the oldest
// tool results first, never the latest ones (the model has yet to read them), then drops
// whole turns from the front, never the current one. What it did is told in one notice.
func (a *Agent) fit() {
	budget := a.ContextChars
	if budget <= 0 {
		budget = defaultContextChars
	}
	total := 0
	for _, m := range a.history {
		total += messageSize(m)
	}
	if total <= budget {
		return
	}
	latest := len(a.history)
	for i := len(a.history) - 1; i >= 0; i-- {
		if len(a.history[i].Results) > 0 {
			latest = i
			break
		}
	}
	shortened := 0
	for i := 0; i < latest && total > budget; i++ {
		for j := range a.history[i].Results {
			if total <= budget {
				break
			}
			r := &a.history[i].Results[j]
			before := resultSize(*r)
			if shorten(r) {
				total -= before - resultSize(*r)
				shortened++
			}
		}
	}
	dropped, cut, current := 0, 0, a.lastTurn()
	for k := 1; k <= current && total > budget; k++ {
		if m := a.history[k]; m.Role == User && len(m.Results) == 0 {
			for _, m := range a.history[cut:k] {
				total -= messageSize(m)
			}
			cut = k
			dropped++
		}
	}
	a.history = a.history[cut:]
	if shortened+dropped > 0 {
		a.emit(Event{Kind: EventNotice, Text: fitNotice(budget, total, shortened, dropped)})
	}
}

// lastTurn is the index of the user's latest text message, where the current turn starts.
func (a *Agent) lastTurn() int {
	for i := len(a.history) - 1; i >= 0; i-- {
		if m := a.history[i]; m.Role == User && len(m.Results) == 0 {
			return i
		}
	}
	return 0
}

// fitNotice tells the user what fit did.
func fitNotice(budget, total, shortened, dropped int) string {
	var did []string
	switch {
	case shortened == 1:
		did = append(did, "shortened an old tool result")
	case shortened > 1:
		did = append(did, fmt.Sprintf("shortened %d old tool results", shortened))
	}
	switch {
	case dropped == 1:
		did = append(did, "dropped the oldest turn")
	case dropped > 1:
		did = append(did, fmt.Sprintf("dropped the %d oldest turns", dropped))
	}
	msg := fmt.Sprintf("The conversation outgrew its budget of %d chars: %s.", budget, strings.Join(did, " and "))
	if total > budget {
		msg += fmt.Sprintf(" It is still %d chars.", total)
	}
	return msg
}

// shorten replaces a long result by a smaller one of the same shape (see jsoncap) and a
// note of what was cut; it reports false for a result that is short or was shortened
// already.
func shorten(r *ToolResult) bool {
	if r.Note != "" || len(r.Content) <= 2*keepChars {
		return false
	}
	r.Content, r.Note = jsoncap.Cap(r.Content, keepChars)
	r.Note = "shortened to fit the context: " + r.Note
	return true
}

// messageSize is what a message costs in the context: its text and the JSON of its calls
// and results.
func messageSize(m Message) int {
	n := len(m.Text)
	for _, c := range m.Calls {
		args, _ := json.Marshal(c.Args) // decoded JSON always marshals
		n += len(c.ID) + len(c.Name) + len(args) + len(c.Invalid) + len(c.Opaque)
	}
	for _, r := range m.Results {
		n += resultSize(r)
	}
	return n
}

// resultSize is what a result costs in the context.
func resultSize(r ToolResult) int {
	return len(r.CallID) + len(r.Name) + len(r.Content) + len(r.Note)
}
