package offline

import (
	"encoding/json"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/interpret"
)

// hint is what the provider keeps in a call's Opaque (which comes back with the call, so
// the provider stays stateless): how to show its result and what to do next, from the
// plan's ToolPlan.
type hint struct {
	Show  string              `json:"show,omitempty"`
	Last  int                 `json:"last,omitempty"`
	About string              `json:"about,omitempty"`
	Then  *interpret.ToolPlan `json:"then,omitempty"`
}

// sealHint is the Opaque of a planned call; nil when the plan has nothing to keep.
func sealHint(t interpret.ToolPlan) json.RawMessage {
	h := hint{Show: t.Show, Last: t.Last, About: t.About, Then: t.Then}
	if h == (hint{}) {
		return nil
	}
	data, err := json.Marshal(h)
	if err != nil { // arguments built by the rules: cannot happen
		return nil
	}
	return data
}

// hintOf is the hint kept in a call; the zero hint when there is none (or it is not one).
func hintOf(c agent.ToolCall) hint {
	var h hint
	if len(c.Opaque) > 0 && json.Unmarshal(c.Opaque, &h) != nil {
		return hint{}
	}
	return h
}
