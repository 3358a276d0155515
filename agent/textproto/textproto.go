// Package textproto lets a model without native function calling use tools (seed 000,
// section 3): the system prompt describes the tools, the model calls one by writing a
// fenced ```tool-call JSON block in its reply, and the results go back as ```tool-result
// blocks in the next user message. The wrapped provider only ever sees text.
package textproto

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jido-run/jido/agent"
)

// Wrap returns a provider that speaks the text protocol through p.
func Wrap(p agent.Provider) agent.Provider { return &provider{inner: p} }

type provider struct{ inner agent.Provider }

func (p *provider) Name() string { return p.inner.Name() + ", text tool protocol" }

// Complete sends the conversation as text, streams the reply without its tool-call blocks
// and returns it with the calls it holds; the reply's text stays as the model wrote it.
func (p *provider) Complete(ctx context.Context, req agent.Request, onText func(string)) (agent.Message, error) {
	inner := agent.Request{System: systemPrompt(req.System, req.Tools), Messages: render(req.Messages)}
	var stream func(string)
	filter := &blockFilter{out: onText}
	if onText != nil {
		stream = filter.write
	}
	reply, err := p.inner.Complete(ctx, inner, stream)
	if err != nil {
		return agent.Message{}, err
	}
	if onText != nil {
		filter.flush()
	}
	calls, _ := Parse(reply.Text)
	return agent.Message{Role: agent.Assistant, Text: reply.Text, Calls: calls}, nil
}

// protocol is the part of the system prompt that teaches the protocol.
const protocol = "# Tools\n\n" +
	"You can call tools. To call one, write a fenced block tagged tool-call that holds one JSON object " +
	"with the tool's name and its arguments, like this:\n\n" +
	callFence + "\n" + `{"id": "call-1", "name": "tool_name", "args": {"argument": "value"}}` + "\n" + closeFence + "\n\n" +
	"- One call per block. To make several calls, write several blocks; they run in order once your message ends.\n" +
	`- "args" is a JSON object matching the tool's parameters. "id" is optional; the result carries it.` + "\n" +
	`- "meta" is optional: {"cwd": "src"} resolves the call's relative paths in that directory of the project, {"timeout": 30} bounds the call in seconds.` + "\n" +
	"- After your calls, stop and wait: the results come in the next message, one " + resultFence + " block each, " +
	`{"id", "name", "ok": true, "result"} or {"id", "name", "ok": false, "error": {"type", "message", "recovery"}}.` + "\n" +
	"- Never write a tool-result block yourself. When you are done, answer in plain text without tool-call blocks.\n\n" +
	"## Available tools\n"

// systemPrompt appends the protocol and the tools, each with its parameters as compact
// JSON Schema, to the system prompt. Without tools the prompt is unchanged.
func systemPrompt(system string, tools []agent.ToolSpec) string {
	if len(tools) == 0 {
		return system
	}
	var b strings.Builder
	if system != "" {
		b.WriteString(system + "\n\n")
	}
	b.WriteString(protocol)
	for _, t := range tools {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\nParameters: %s\n", t.Name, t.Description, compactJSON(t.Parameters))
	}
	return b.String()
}

// render turns the conversation into plain text messages: an assistant message is its text
// (which holds its blocks), results become tool-result blocks. Messages of the same role in
// a row are joined, since many chat templates require the roles to alternate.
func render(msgs []agent.Message) []agent.Message {
	var out []agent.Message
	for _, m := range msgs {
		parts := []string{m.Text}
		if m.Role == agent.Assistant {
			if calls, _ := Parse(m.Text); len(calls) == 0 {
				// Calls made through another provider (a resumed session): write them out.
				for _, c := range m.Calls {
					parts = append(parts, block(callFence, callJSON(c)))
				}
			}
		} else if len(m.Results) > 0 {
			parts = parts[:0]
			for _, r := range m.Results {
				parts = append(parts, block(resultFence, agent.RenderResult(r)))
			}
			parts = append(parts, m.Text)
		}
		text := strings.TrimSpace(strings.Join(parts, "\n\n"))
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Text += "\n\n" + text
			continue
		}
		out = append(out, agent.Message{Role: m.Role, Text: text})
	}
	return out
}

func block(fence string, body []byte) string { return fence + "\n" + string(body) + "\n" + closeFence }

// callJSON writes a call as the model would have.
func callJSON(c agent.ToolCall) []byte {
	args := c.Args
	if args == nil {
		args = map[string]any{}
	}
	return compactJSON(struct {
		ID   string         `json:"id,omitempty"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
		Meta agent.CallMeta `json:"meta,omitzero"`
	}{c.ID, c.Name, args, c.Meta})
}

// compactJSON encodes decoded JSON on one line, leaving <, > and & as they are.
func compactJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // decoded JSON always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
