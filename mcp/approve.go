package mcp

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/manager"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// canElicit reports whether the client of ss declared the elicitation capability (form
// mode, which an empty capability means too).
func canElicit(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil &&
		(p.Capabilities.Elicitation.Form != nil || p.Capabilities.Elicitation.URL == nil)
}

// The answers of the approval form, in the order it offers them.
var decisions = []struct {
	value, label string
	answer       manager.Answer
}{
	{"allow_once", "Allow once", manager.AllowOnce},
	{"allow_session", "Allow for this session", manager.AllowSession},
	{"allow_always", "Always allow (adds the rule to the project's .jido/config.toml)", manager.AllowAlways},
	{"deny", "Deny", manager.Deny},
}

// decisionSchema is the approval form: one required choice among decisions (without
// "always" when sessionOnly).
func decisionSchema(sessionOnly bool) *jsonschema.Schema {
	choice := &jsonschema.Schema{Type: "string", Title: "Decision", Extra: map[string]any{}}
	var names []any
	for _, d := range decisions {
		if sessionOnly && d.answer == manager.AllowAlways {
			continue
		}
		choice.Enum = append(choice.Enum, d.value)
		names = append(names, d.label)
	}
	choice.Extra["enumNames"] = names
	return &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"decision": choice},
		Required:   []string{"decision"},
	}
}

// maxPreview caps the diff or command shown in an approval request, in bytes.
const maxPreview = 8000

// elicitor is the approver of a session whose client answers elicitations: it asks the
// client's user (elicitation/create) with the tool, the reason and the preview. With
// sessionOnly an answer approves at most for the session (Options.SessionApprovalsOnly).
type elicitor struct {
	ss          *sdk.ServerSession
	sessionOnly bool
}

// Approve asks the client's user; declining or cancelling the form denies the call.
func (e elicitor) Approve(ctx context.Context, req manager.ApprovalRequest) (manager.Answer, error) {
	if e.sessionOnly {
		req.Rule = "" // no rule will be written
	}
	res, err := e.ss.Elicit(ctx, &sdk.ElicitParams{Message: approvalMessage(req), RequestedSchema: decisionSchema(e.sessionOnly)})
	if err != nil {
		return manager.Deny, err
	}
	if res.Action != "accept" {
		return manager.Deny, nil
	}
	for _, d := range decisions {
		if res.Content["decision"] == d.value {
			if e.sessionOnly && d.answer == manager.AllowAlways {
				return manager.AllowSession, nil // never a project rule from this client
			}
			return d.answer, nil
		}
	}
	return manager.Deny, fmt.Errorf("the approval form came back without a decision: %v", res.Content)
}

// approvalMessage is the text of the approval form: what would run, why it needs
// approval, its diff or command, and the rule "always" would add.
func approvalMessage(req manager.ApprovalRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "jido: %s needs your approval", req.Tool)
	if len(req.Paths) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(req.Paths, ", "))
	}
	fmt.Fprintf(&b, ".\nWhy: %s\n", req.Reason)
	if preview := req.Preview; preview != "" {
		if len(preview) > maxPreview {
			cut := maxPreview
			for !utf8.RuneStart(preview[cut]) {
				cut--
			}
			preview = preview[:cut] + fmt.Sprintf("\n[... %d more bytes]", len(preview)-cut)
		}
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(preview, "\n"))
	}
	if req.Rule != "" {
		fmt.Fprintf(&b, "\n\"Always\" adds this rule to .jido/config.toml:\n%s\n", strings.TrimRight(req.Rule, "\n"))
	}
	return b.String()
}
